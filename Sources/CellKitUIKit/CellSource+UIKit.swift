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

    /// The nib of a `.nib` source, from its bundle (the main bundle when none is named).
    @MainActor var uiNib: UINib? {
        guard case .nib(let name, let bundleIdentifier) = kind else { return nil }
        let bundle = bundleIdentifier.flatMap { Bundle(identifier: $0) } ?? Bundle.main
        return UINib(nibName: name, bundle: bundle)
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
