extension Changeset {
    /// Where the row at old path `path` is after this batch, or `nil` when the
    /// batch deletes it (or its section), with UIKit's batch semantics.
    ///
    /// ```swift
    /// let batch = Changeset(itemDeletes: [ItemPath(item: 0, section: 0)],
    ///                       itemInserts: [ItemPath(item: 0, section: 0), ItemPath(item: 1, section: 0)])
    /// assert(batch.newPath(ofOld: ItemPath(item: 2, section: 0), oldCounts: [5], newCounts: [6]) == ItemPath(item: 3, section: 0))
    /// assert(batch.newPath(ofOld: ItemPath(item: 0, section: 0), oldCounts: [5], newCounts: [6]) == nil)
    /// ```
    ///
    /// A one-off use of ``PathMapping``; build the mapping once to map many rows.
    ///
    /// - Complexity: O(*c* log *c* + *s*): the batch's changes and the sections, not the rows.
    public func newPath(ofOld path: ItemPath, oldCounts: [Int], newCounts: [Int]) -> ItemPath? {
        PathMapping(self, oldCounts: oldCounts, newCounts: newCounts).newPath(of: path)
    }
}

/// The rule that keeps the first visible row where it was on screen when rows
/// are inserted or removed above it (new messages, a refreshed feed).
///
/// List views call it after a batch: it finds the first visible row that
/// survives the batch and returns the content offset that puts that row at the
/// same distance from the top of the viewport as before.
///
/// ```swift
/// // Rows of 44; row 10 was at the top of the viewport. Three rows arrive on top.
/// let batch = Changeset(itemInserts: (0..<3).map { ItemPath(item: $0, section: 0) })
/// let offset = ScrollAnchor.contentOffset(
///     after: batch, oldCounts: [100], newCounts: [103],
///     visibleRows: (10..<20).map { ItemPath(item: $0, section: 0) }, oldContentOffset: 440,
///     oldTop: { Double($0.item) * 44 }, newTop: { Double($0.item) * 44 })
/// assert(offset == 572)
/// ```
extension ScrollAnchor {
    /// The content offset after `changeset` that keeps the first surviving row of
    /// `visibleRows` (old paths, top first) where it was on screen; the old offset
    /// when none survives. `oldTop` and `newTop` give a row's top before and after.
    ///
    /// - Complexity: O(*v* + *c* log *c* + *s*) plus the calls to `oldTop` and `newTop`
    ///   (O(log n) each with a ``RowOffsetIndex``).
    public static func contentOffset(
        after changeset: Changeset, oldCounts: [Int], newCounts: [Int],
        visibleRows: [ItemPath], oldContentOffset: Double,
        oldTop: (ItemPath) -> Double, newTop: (ItemPath) -> Double
    ) -> Double {
        let mapping = PathMapping(changeset, oldCounts: oldCounts, newCounts: newCounts)
        guard let anchor = find(visible: visibleRows, changeset: changeset, mapping: mapping) else { return oldContentOffset }
        let onScreen = oldTop(anchor.old) - oldContentOffset
        return newTop(anchor.new) - onScreen
    }
}
