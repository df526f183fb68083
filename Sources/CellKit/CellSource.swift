/// Where cells of one kind come from: a cell type, a template closure, or a nib.
///
/// A cell source carries a reuse identifier derived from the cell type and the
/// style (Carbon Five's factory, without the hand-typed identifier), so one
/// source can be shared by several screens and never collides with another.
///
/// Sources built from a type or a nib are equal when their derivation is: build
/// them anywhere. A template is a closure, and two closures cannot be compared, so
/// each call to ``template(_:style:make:)`` makes a source of its own, with its own
/// reuse identifier and pool: two templates of one cell type and style (a "bold"
/// and a "light" factory) never get each other's cells. Copies of one template
/// value (the factory a screen keeps in a property and hands to another) are equal
/// and share their pool. A template's identifier is unique among the template
/// sources alive at the same time; a registry keeps the sources registered with it.
///
/// ```swift
/// final class TweetCell: ListCell { init() {} }
/// let plain = CellSource.type(TweetCell.self)
/// let byline = CellSource.type(TweetCell.self, style: "byline")
/// assert(plain.reuseIdentifier != byline.reuseIdentifier)
///
/// let bold = CellSource.template(TweetCell.self) { TweetCell() }
/// let light = CellSource.template(TweetCell.self) { TweetCell() }
/// assert(bold != light)        // two templates: two pools
/// let shared = bold
/// assert(shared == bold)       // one template, shared by two screens: one pool
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
    /// The derived reuse identifier: cell type, then style, then nib or template
    /// identity if any; two sources that differ in any of these get different ones
    /// (`MyApp.TweetCell#style(byline)`, `MyApp.TweetCell#nib(Tweet)`).
    public let reuseIdentifier: String
    /// Builds a new cell, for list views that build cells themselves; `nil` for nibs.
    public let make: (@MainActor @Sendable () -> AnyObject)?
    /// What makes a template source distinct from every other (nil for types and nibs);
    /// kept alive by the source so that its identity cannot be reused.
    private let templateIdentity: TemplateIdentity?

    /// Creates a source; prefer ``type(_:style:)``, ``template(_:style:make:)`` or ``nib(_:name:bundleIdentifier:style:)``.
    ///
    /// Each call with kind ``Kind/template`` creates a distinct source (see ``CellSource``).
    public init(
        cellType: any AnyObject.Type, style: CellStyle, kind: Kind,
        make: (@MainActor @Sendable () -> AnyObject)?
    ) {
        self.cellType = cellType
        self.style = style
        self.kind = kind
        self.make = make
        // Each part is escaped (`%`, `#` and `/` as `%25`, `%23`, `%2F`), so the parts are
        // told apart however they are spelled: a style "Compact" is not a nested type
        // `Compact`, a style holding "#nib(" is not a nib, a bundle holding "/" is not a name.
        var id = Self.escaped(String(reflecting: cellType))
        if style != .default { id += "#style(" + Self.escaped(style.name) + ")" }
        switch kind {
        case .type:
            templateIdentity = nil
        case .template:
            let identity = TemplateIdentity()
            templateIdentity = identity
            id += "#template(\(identity.name))"
        case .nib(let name, let bundle):
            templateIdentity = nil
            id += "#nib(" + (bundle.map { Self.escaped($0) + "/" } ?? "") + Self.escaped(name) + ")"
        }
        self.reuseIdentifier = id
    }

    /// `part` with `%`, `#` and `/` percent-escaped (the characters that separate the parts of an identifier).
    private static func escaped(_ part: String) -> String {
        guard part.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "/") }) else { return part }
        var result = ""
        for character in part.unicodeScalars {
            switch character {
            case "%": result += "%25"
            case "#": result += "%23"
            case "/": result += "%2F"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
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
    ///
    /// The list views that cannot load a nib (the headless and terminal list views) build a
    /// ``TextCell`` in its place, which shows the model's description as a cell that nothing
    /// sets up does: a configure closure or dispatch configure handler that takes `Cell` is
    /// skipped and reported once (``Diagnostic/Kind/cellTypeMismatch``); with none, the row
    /// is reported once as one that nothing sets up (``Diagnostic/Kind/missingRegistration``).
    public static func nib<Cell: AnyObject>(
        _ cellType: Cell.Type, name: String, bundleIdentifier: String? = nil, style: CellStyle = .default
    ) -> CellSource {
        CellSource(cellType: cellType, style: style, kind: .nib(name: name, bundleIdentifier: bundleIdentifier), make: nil)
    }

    /// Whether two sources are one: the same cell type, style and kind (for templates, copies of one template).
    public static func == (lhs: CellSource, rhs: CellSource) -> Bool {
        lhs.cellType == rhs.cellType && lhs.reuseIdentifier == rhs.reuseIdentifier
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(reuseIdentifier) }

    public var description: String { reuseIdentifier }
}

/// The identity of one template source: an object, so that no two live templates
/// share it; its address, in hexadecimal, goes into the reuse identifier.
private final class TemplateIdentity: Sendable {
    var name: String { String(UInt(bitPattern: ObjectIdentifier(self)), radix: 16) }
}
