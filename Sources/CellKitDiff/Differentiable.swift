/// A value that a diff can match across two snapshots: an identity, plus content.
///
/// Identity decides whether an element of the old snapshot and one of the new
/// snapshot are "the same item"; content decides whether that item must be
/// updated (reconfigured) in place. Keeping the two apart is what turns an edit
/// into one update rather than a delete and an insert.
///
/// ```swift
/// struct Item: Differentiable, Equatable {
///     let id: Int
///     var content: Int
///     var differenceIdentifier: Int { id }
/// }
/// ```
///
/// Types that are `Equatable` get ``isContentEqual(to:)`` from `==`; types that
/// are `Hashable` and have no better identity may use themselves as identifier.
public protocol Differentiable {
    /// The type of the identity.
    associatedtype DifferenceIdentifier: Hashable
    /// The identity: equal identifiers mean "the same item".
    var differenceIdentifier: DifferenceIdentifier { get }
    /// Whether `self` shows the same content as `other`; unequal content of the
    /// same item is reported as an update.
    func isContentEqual(to other: Self) -> Bool
}

extension Differentiable where Self: Equatable {
    /// Content equality from `==`.
    @inlinable
    public func isContentEqual(to other: Self) -> Bool { self == other }
}

extension Differentiable where Self: Hashable {
    /// The value is its own identity.
    @inlinable
    public var differenceIdentifier: Self { self }
}
