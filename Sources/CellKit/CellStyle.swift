/// A named presentation style (Coffee's presentation style), such as `.byline`.
///
/// The style is part of a cell's reuse identifier, so cells presented in
/// different styles are never mixed up in a reuse pool.
///
/// ```swift
/// let byline: CellStyle = "byline"   // or a `static let` in an extension of CellStyle
/// assert(byline != .default)
/// ```
public struct CellStyle: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The style's name.
    public let name: String

    /// Creates a style named `name`.
    public init(_ name: String) { self.name = name }

    /// Creates a style from a string literal.
    public init(stringLiteral value: String) { self.name = value }

    /// The style used when none is named.
    public static let `default`: CellStyle = "default"

    public var description: String { name }
}
