/// Where cells of one kind come from: a cell type, a template closure, or a nib.
///
/// A cell source carries a reuse identifier derived from the cell type and the
/// style (Carbon Five's factory, without the hand-typed identifier), so one
/// source can be shared by several screens and never collides with another.
///
/// ```swift
/// final class TweetCell: ListCell { init() {} }
/// let plain = CellSource.type(TweetCell.self)
/// let byline = CellSource.type(TweetCell.self, style: "byline")
/// assert(plain.reuseIdentifier != byline.reuseIdentifier)
/// ```
public struct CellSource: Hashable, Sendable, CustomStringConvertible {
    /// How cells of this source are built.
    public enum Kind: Hashable, Sendable {
        /// The list view builds the cell from its type.
        case type
        /// A closure builds the cell.
        case template
        /// The cell is loaded from a nib (UIKit); `bundleIdentifier` nil means the main bundle.
        case nib(name: String, bundleIdentifier: String?)
    }

    /// The cell's class.
    public let cellType: any AnyObject.Type
    /// The presentation style this source serves.
    public let style: CellStyle
    /// How the cell is built.
    public let kind: Kind
    /// The derived reuse identifier: cell type, then style and nib if any.
    public let reuseIdentifier: String
    /// Builds a new cell, for list views that build cells themselves; `nil` for nibs.
    public let make: (@MainActor @Sendable () -> AnyObject)?

    /// Creates a source; prefer ``type(_:style:)``, ``template(_:style:make:)`` or ``nib(_:name:bundleIdentifier:style:)``.
    public init(
        cellType: any AnyObject.Type, style: CellStyle, kind: Kind,
        make: (@MainActor @Sendable () -> AnyObject)?
    ) {
        self.cellType = cellType
        self.style = style
        self.kind = kind
        self.make = make
        var id = String(reflecting: cellType)
        if style != .default { id += "." + style.name }
        switch kind {
        case .type: break
        case .template: id += "#template"
        case .nib(let name, let bundle): id += "#nib(\(bundle.map { $0 + "/" } ?? "")\(name))"
        }
        self.reuseIdentifier = id
    }

    /// A source that builds `Cell` with `init()`.
    public static func type<Cell: ListCell>(_ cellType: Cell.Type, style: CellStyle = .default) -> CellSource {
        CellSource(cellType: cellType, style: style, kind: .type, make: { Cell() })
    }

    /// A source that builds cells with `make`, for cells that need set-up beyond `init()`.
    public static func template<Cell: AnyObject>(
        _ cellType: Cell.Type, style: CellStyle = .default,
        make: @escaping @MainActor @Sendable () -> Cell
    ) -> CellSource {
        CellSource(cellType: cellType, style: style, kind: .template, make: make)
    }

    /// A source that loads `Cell` from the nib `name` (built by UIKit list views only).
    public static func nib<Cell: AnyObject>(
        _ cellType: Cell.Type, name: String, bundleIdentifier: String? = nil, style: CellStyle = .default
    ) -> CellSource {
        CellSource(cellType: cellType, style: style, kind: .nib(name: name, bundleIdentifier: bundleIdentifier), make: nil)
    }

    public static func == (lhs: CellSource, rhs: CellSource) -> Bool {
        lhs.reuseIdentifier == rhs.reuseIdentifier
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(reuseIdentifier) }

    public var description: String { reuseIdentifier }
}
