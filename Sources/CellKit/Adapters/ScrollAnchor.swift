/// The row that keeps its place on screen across a batch: the first visible row
/// that survives it, so that rows inserted (or removed) above do not push the
/// content the user is reading.
///
/// The adapter measures the anchor's distance from the top of the viewport
/// before the batch, and restores that distance for ``new`` after it.
///
/// ```swift
/// let prepend = Changeset(itemInserts: [ItemPath(item: 0, section: 0)])
/// let mapping = PathMapping(prepend, oldCounts: [10], newCounts: [11])
/// let anchor = ScrollAnchor.find(visible: [ItemPath(item: 4, section: 0)], mapping: mapping)
/// assert(anchor?.new == ItemPath(item: 5, section: 0))
/// assert(anchor?.moved == true)
/// ```
public struct ScrollAnchor: Hashable, Sendable {
    /// The anchor row before the batch.
    public var old: ItemPath
    /// The anchor row after the batch.
    public var new: ItemPath

    /// Creates an anchor.
    public init(old: ItemPath, new: ItemPath) {
        self.old = old
        self.new = new
    }

    /// Whether the anchor row's position changed, so the scroll offset needs adjusting.
    public var moved: Bool { old != new }

    /// The first of `visible` (top to bottom) that survives the batch, with its new path;
    /// `nil` when no visible row survives.
    public static func find(visible: [ItemPath], mapping: PathMapping) -> ScrollAnchor? {
        for path in visible {
            if let new = mapping.newPath(of: path) { return ScrollAnchor(old: path, new: new) }
        }
        return nil
    }
}
