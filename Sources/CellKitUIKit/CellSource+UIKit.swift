#if canImport(UIKit)
import UIKit
import CellKit

/// The reuse identifier of a table-cell template, written once before the source is
/// returned and only read afterwards (by the template, on the main actor).
private final class ReuseIdentifierBox: @unchecked Sendable {
    var value = ""
}

extension CellSource {
    /// A source of `UITableViewCell` subclass `Cell`, built by the table view.
    ///
    /// With `cellStyle` `.default` the table view builds the cell from its class
    /// (registered on first use); with another style, CellKit builds it with
    /// `init(style:reuseIdentifier:)` and the derived reuse identifier, so it is
    /// reused like any other (dequeued by that identifier; a reconfigure gets the cell
    /// showing the row back). `style` is CellKit's presentation style.
    ///
    /// ```swift
    /// final class TweetCell: UITableViewCell {}
    /// let source = CellSource.tableCell(TweetCell.self, cellStyle: .subtitle)
    /// ```
    public static func tableCell<Cell: UITableViewCell>(
        _ cellType: Cell.Type, cellStyle: UITableViewCell.CellStyle = .default, style: CellStyle = .default
    ) -> CellSource {
        guard cellStyle != .default else {
            return CellSource(cellType: cellType, style: style, kind: .type, make: nil)
        }
        let named = CellStyle(style == .default ? cellStyle.cellKitName : style.name + "." + cellStyle.cellKitName)
        return tableCellTemplate(cellType, style: named) { identifier in
            Cell(style: cellStyle, reuseIdentifier: identifier)
        }
    }

    /// A source that builds table cells with `make`, handing it the derived reuse
    /// identifier to pass to `UITableViewCell.init(style:reuseIdentifier:)`.
    public static func tableCellTemplate<Cell: UITableViewCell>(
        _ cellType: Cell.Type, style: CellStyle = .default,
        make: @escaping @MainActor @Sendable (_ reuseIdentifier: String) -> Cell
    ) -> CellSource {
        // Each template has its own identifier (see `CellSource`), known only once the
        // source exists: the closure reads it from a box filled right after.
        let identifier = ReuseIdentifierBox()
        let source = CellSource(cellType: cellType, style: style, kind: .template, make: { make(identifier.value) })
        identifier.value = source.reuseIdentifier
        return source
    }

    /// A source of `UICollectionViewCell` subclass `Cell`, built by the collection view from its class.
    public static func collectionCell<Cell: UICollectionViewCell>(_ cellType: Cell.Type, style: CellStyle = .default) -> CellSource {
        CellSource(cellType: cellType, style: style, kind: .type, make: nil)
    }

    /// A source that loads `Cell` from a nib named after the class unless `name` says
    /// otherwise (Carbon Five's factory: class + nib name; the identifier is derived).
    ///
    /// The adapter registers the nib under the derived ``/CellKit/CellSource/reuseIdentifier``
    /// (such as `MyApp.ProfileCell#nib(ProfileCell)`): leave the cell's Identifier empty in the
    /// nib, as UIKit raises when the nib's differs from the one it was registered under ("cell
    /// reuse indentifier in nib (…) does not match the identifier used to register the nib").
    ///
    /// ```swift
    /// final class ProfileCell: UITableViewCell {}
    /// let source = CellSource.nibCell(ProfileCell.self)   // ProfileCell.nib in the main bundle
    /// ```
    public static func nibCell<Cell: UIView>(
        _ cellType: Cell.Type, name: String? = nil, bundle: Bundle? = nil, style: CellStyle = .default
    ) -> CellSource {
        let nibName = name ?? String(describing: cellType)
        return .nib(cellType, name: nibName, bundleIdentifier: bundle?.bundleIdentifier, style: style)
    }

    /// A table cell loaded from the nib `name` with File's Owner `owner`, picked among
    /// the nib's top-level objects (Carbon Five's `createCellWithOwner:`): the first
    /// `Cell` whose reuse identifier is `identifier` (any `Cell` when `identifier` is nil),
    /// so one nib can hold several cells.
    ///
    /// UIKit's nib registration cannot do either (it passes no owner, and takes a nib
    /// holding exactly one cell), so this source is a table-cell template (see
    /// ``tableCellTemplate(_:style:make:)``): CellKit instantiates the nib with
    /// `UINib.instantiate(withOwner:options:)` (the nib is read once) and returns the
    /// matching cell; the owner's outlets and actions are connected each time. `owner`
    /// is held weakly (a controller that keeps the source does not keep itself alive).
    /// Cells are reused under the reuse identifier set in the nib: leave it empty and
    /// every row loads the nib again. A nib holding no matching cell stops the app with
    /// a message naming the nib, the class and the identifier.
    ///
    /// For table views (a collection view only shows cells it built from a registered
    /// class or nib: use ``nibCell(_:name:bundle:style:)`` there).
    ///
    /// ```swift
    /// // no-compile: UIKit; type-checked as Tests/CellKitUIKitTests/NibOwnerTests.swift
    /// CellSource.nibCell(ProductCell.self, name: "Cells", bundle: .main, owner: self, identifier: "ProductCell")
    /// ```
    public static func nibCell<Cell: UITableViewCell>(
        _ cellType: Cell.Type, name: String? = nil, bundle: Bundle? = nil,
        owner: AnyObject?, identifier: String? = nil, style: CellStyle = .default
    ) -> CellSource {
        let loader = NibLoader(name: name ?? String(describing: cellType), bundleIdentifier: bundle?.bundleIdentifier, owner: owner)
        let pick = NibCellPick(nibName: loader.name, identifier: identifier)
        return tableCellTemplate(cellType, style: style) { _ in
            let objects = loader.nib.instantiate(withOwner: loader.owner, options: nil)
            guard let cell = pick.cell(Cell.self, in: objects, reuseIdentifier: { $0.reuseIdentifier }) else {
                preconditionFailure(pick.missingMessage(Cell.self, found: objects))
            }
            return cell
        }
    }

    /// The nib of a `.nib` source, from its bundle (the main bundle when none is named).
    @MainActor var uiNib: UINib? {
        guard case .nib(let name, let bundleIdentifier) = kind else { return nil }
        return UINib(nibName: name, bundle: Self.bundle(identifier: bundleIdentifier))
    }

    /// The bundle with `identifier`; the main bundle when it is nil or unknown.
    static func bundle(identifier: String?) -> Bundle {
        identifier.flatMap { Bundle(identifier: $0) } ?? Bundle.main
    }
}

/// The nib a ``CellSource/nibCell(_:name:bundle:owner:identifier:style:)`` loads, read
/// once, and its File's Owner, held weakly; used only by its template, on the main actor.
private final class NibLoader: @unchecked Sendable {
    let name: String
    private let bundleIdentifier: String?
    private(set) weak var owner: AnyObject?
    private var loaded: UINib?

    init(name: String, bundleIdentifier: String?, owner: AnyObject?) {
        self.name = name
        self.bundleIdentifier = bundleIdentifier
        self.owner = owner
    }

    @MainActor var nib: UINib {
        if let loaded { return loaded }
        let nib = UINib(nibName: name, bundle: CellSource.bundle(identifier: bundleIdentifier))
        loaded = nib
        return nib
    }
}

extension Presenter where Cell: UITableViewCell {
    /// Table cells of `Cell`, built by the table view from its class, one reuse pool per style.
    public func cellSource(for style: CellStyle) -> CellSource { .tableCell(Cell.self, style: style) }
}

extension Presenter where Cell: UICollectionViewCell {
    /// Collection view cells of `Cell`, built from its class, one reuse pool per style.
    public func cellSource(for style: CellStyle) -> CellSource { .collectionCell(Cell.self, style: style) }
}

extension UITableViewCell.CellStyle {
    /// The style's name in reuse identifiers.
    var cellKitName: String {
        switch self {
        case .default: "default"
        case .value1: "value1"
        case .value2: "value2"
        case .subtitle: "subtitle"
        @unknown default: "style\(rawValue)"
        }
    }
}

extension ListController {
    /// Maps `Model` to table cells of `Cell` (a `UITableViewCell` subclass), configured by `configure`.
    ///
    /// ```swift
    /// final class UserCell: UITableViewCell {}
    /// struct User: Identifiable, Sendable { let id: Int; var name: String }
    ///
    /// @MainActor func wire(_ controller: ListController) {
    ///     controller.register(UserCell.self, for: User.self, cellStyle: .subtitle) { cell, user in
    ///         var content = cell.defaultContentConfiguration()
    ///         content.text = user.name
    ///         cell.contentConfiguration = content
    ///     }
    /// }
    /// ```
    public func register<Model, Cell: UITableViewCell>(
        _ cell: Cell.Type, for model: Model.Type, cellStyle: UITableViewCell.CellStyle = .default,
        style: CellStyle = .default, configure: (@MainActor (Cell, Model) -> Void)? = nil
    ) {
        registry.register(CellSource.tableCell(cell, cellStyle: cellStyle, style: style), for: model, configure: configure)
    }

    /// Maps `Model` to collection view cells of `Cell`, configured by `configure`.
    public func register<Model, Cell: UICollectionViewCell>(
        _ cell: Cell.Type, for model: Model.Type, style: CellStyle = .default,
        configure: (@MainActor (Cell, Model) -> Void)? = nil
    ) {
        registry.register(CellSource.collectionCell(cell, style: style), for: model, configure: configure)
    }
}
#endif
