/// An element paired with a copy of its content, taken when the snapshot was made.
///
/// A diff compares the old and the new snapshot. When both hold the *same
/// object* (a class instance) that was mutated in place, comparing the object
/// with itself cannot see the change. Capture the content that the cell shows
/// when you build each snapshot, and the mutation becomes an update:
///
/// ```swift
/// final class Tweet: Differentiable {
///     let id: Int
///     var text: String
///     init(id: Int, text: String) { self.id = id; self.text = text }
///     var differenceIdentifier: Int { id }
///     func isContentEqual(to other: Tweet) -> Bool { text == other.text }
/// }
/// let tweet = Tweet(id: 1, text: "hello")
/// let old = [ContentSnapshot(tweet, content: tweet.text)]
/// tweet.text = "hello, world"
/// let new = [ContentSnapshot(tweet, content: tweet.text)]
/// let changes = StagedChangeset(from: old, to: new)
/// assert(changes.stages.first?.changeset.itemUpdates == [ItemPath(item: 0, section: 0)])
/// ```
///
/// Value types do not need this: a snapshot of values already is a copy.
public struct ContentSnapshot<Base: Differentiable, Content: Equatable>: Differentiable {
    /// The element.
    public var base: Base
    /// The element's content as it was when the snapshot was made.
    public var content: Content

    /// Pairs `base` with `content`, a copy of what its cell shows now.
    @inlinable
    public init(_ base: Base, content: Content) {
        self.base = base
        self.content = content
    }

    /// The identity of the element.
    @inlinable
    public var differenceIdentifier: Base.DifferenceIdentifier { base.differenceIdentifier }

    /// Compares the captured contents, not the (possibly shared) elements.
    @inlinable
    public func isContentEqual(to other: ContentSnapshot<Base, Content>) -> Bool { content == other.content }
}

extension ContentSnapshot: Sendable where Base: Sendable, Content: Sendable {}
