/// The row that keeps its place on screen across a batch: the first visible row
/// that survives it, so that rows inserted (or removed) above do not push the
/// content the user is reading.
///
/// When ``shiftedFromAbove`` is true (rows or sections arrived or left above
/// the rows on screen), the adapter measures the anchor's distance from the top
/// of the viewport before the batch and restores it for ``new`` after it. Changes
/// among the visible rows themselves animate as usual.
///
/// ```swift
/// let prepend = Changeset(itemInserts: [ItemPath(item: 0, section: 0)])
/// let mapping = PathMapping(prepend, oldCounts: [10], newCounts: [11])
/// let anchor = ScrollAnchor.find(visible: [ItemPath(item: 4, section: 0)], changeset: prepend, mapping: mapping)
/// assert(anchor?.new == ItemPath(item: 5, section: 0))
/// assert(anchor?.shiftedFromAbove == true)
/// ```
public struct ScrollAnchor: Hashable, Sendable {
    /// The anchor row before the batch.
    public var old: ItemPath
    /// The anchor row after the batch.
    public var new: ItemPath

    /// Whether rows or sections were inserted, deleted or moved above the visible
    /// rows, pushing them: the scroll offset needs adjusting to keep the anchor put.
    public var shiftedFromAbove: Bool

    /// Creates an anchor.
    public init(old: ItemPath, new: ItemPath, shiftedFromAbove: Bool) {
        self.old = old
        self.new = new
        self.shiftedFromAbove = shiftedFromAbove
    }

    /// Whether the anchor row's position changed, so the scroll offset needs adjusting.
    public var moved: Bool { old != new }

    /// The first of `visible` (top to bottom) that survives `changeset`, with its new
    /// path (from `mapping`, built for the same changeset); `nil` when none survives.
    ///
    /// - Complexity: O(*v* + *c*), *v* the visible rows, *c* the number of changes.
    public static func find(visible: [ItemPath], changeset: Changeset, mapping: PathMapping) -> ScrollAnchor? {
        guard let top = visible.first else { return nil }
        for path in visible {
            guard let new = mapping.newPath(of: path) else { continue }
            // Old coordinates: what left from above the screen; new coordinates: what arrived above the anchor.
            let shifted = changeset.itemDeletes.contains { $0 < top }
                || changeset.itemMoves.contains { $0.from < top || $0.to < new }
                || changeset.itemInserts.contains { $0 < new }
                || changeset.sectionDeletes.contains { $0 < top.section }
                || changeset.sectionInserts.contains { $0 <= new.section }
                || changeset.sectionMoves.contains { $0.from < top.section || $0.to <= new.section }
            return ScrollAnchor(old: path, new: new, shiftedFromAbove: shifted)
        }
        return nil
    }
}
