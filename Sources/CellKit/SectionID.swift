/// The identity of a section: any hashable, sendable value, such as a string or a day.
///
/// ```swift
/// let a: SectionID = "today"
/// let b = SectionID(7)
/// assert(a != b)
/// ```
public struct SectionID: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, CustomStringConvertible {
    let raw: any Hashable & Sendable

    /// Creates a section identity from any hashable value.
    ///
    /// An `Optional` id counts as its value, as ``ItemID``'s does: `SectionID(Int?.some(1))`
    /// is `SectionID(1)`, equal and with the same hash (a `Set` or `Dictionary` of
    /// sections finds either).
    public init<Raw: Hashable & Sendable>(_ raw: Raw) {
        if Raw.self == Int.self || Raw.self == String.self {
            self.raw = raw
        } else if let optional = raw as? any OptionalIdentifier {
            self.raw = optional.rawID.value
        } else {
            self.raw = raw
        }
    }
    /// Creates a section identity from a string literal.
    public init(stringLiteral value: String) { self.raw = value }
    /// Creates a section identity from an integer literal.
    public init(integerLiteral value: Int) { self.raw = value }

    /// The section of the single placeholder row a ``ListController`` shows while
    /// there is no content (loading, no results, failed).
    ///
    /// Its own type, so no section of yours can be mistaken for it, whatever its id:
    /// a section whose id is `"placeholder"` is an ordinary section.
    ///
    /// ```swift
    /// @MainActor func isShowingPlaceholder(_ controller: ListController) -> Bool {
    ///     controller.displayed.sections.first?.id == .placeholder
    /// }
    /// ```
    public static let placeholder = SectionID(PlaceholderSection())

    /// The raw value (an `Optional` id that holds a value gives the value).
    public var rawValue: any Hashable & Sendable { raw }

    public static func == (lhs: SectionID, rhs: SectionID) -> Bool { _isEqual(lhs.raw, rhs.raw) }
    public func hash(into hasher: inout Hasher) { raw.hash(into: &hasher) }
    public var description: String { "\(raw)" }
}

/// The identity of ``SectionID/placeholder``: a type of its own, equal only to itself.
private struct PlaceholderSection: Hashable, Sendable, CustomStringConvertible {
    var description: String { "placeholder" }
}
