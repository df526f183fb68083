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
    /// - Complexity: O(*c* + *s*): the batch's changes and the sections, not the rows.
    public func newPath(ofOld path: ItemPath, oldCounts: [Int], newCounts: [Int]) -> ItemPath? {
        guard let section = newSection(ofOld: path.section, oldCount: oldCounts.count, newCount: newCounts.count) else { return nil }
        if itemDeletes.contains(path) { return nil }
        if let move = itemMoves.first(where: { $0.from == path }) { return move.to }
        // Rank among the rows of the old section that stay in it.
        var rank = path.item
        for deleted in itemDeletes where deleted.section == path.section && deleted.item < path.item { rank -= 1 }
        for move in itemMoves where move.from.section == path.section && move.from.item < path.item { rank -= 1 }
        // Rows that arrive in the new section take their slots; the others fill the gaps in order.
        var arrivals = itemInserts.filter { $0.section == section }.map(\.item)
        arrivals += itemMoves.filter { $0.to.section == section }.map(\.to.item)
        var item = rank
        for slot in arrivals.sorted() where slot <= item { item += 1 }
        return ItemPath(item: item, section: section)
    }

    /// Where old section `section` is after this batch, or `nil` when it is deleted.
    func newSection(ofOld section: Int, oldCount: Int, newCount: Int) -> Int? {
        if sectionDeletes.contains(section) { return nil }
        if let move = sectionMoves.first(where: { $0.from == section }) { return move.to }
        var rank = section
        for deleted in sectionDeletes where deleted < section { rank -= 1 }
        for move in sectionMoves where move.from < section { rank -= 1 }
        let taken = (sectionInserts + sectionMoves.map(\.to)).sorted()
        var new = rank
        for slot in taken where slot <= new { new += 1 }
        return new
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
public enum ScrollAnchor {
    /// The content offset after `changeset` that keeps the first surviving row of
    /// `visibleRows` (old paths, top first) where it was on screen; the old offset
    /// when none survives. `oldTop` and `newTop` give a row's top before and after.
    ///
    /// - Complexity: O(*v* (*c* + *s*)) plus the calls to `oldTop` and `newTop`
    ///   (O(log n) each with a ``RowOffsetIndex``).
    public static func contentOffset(
        after changeset: Changeset, oldCounts: [Int], newCounts: [Int],
        visibleRows: [ItemPath], oldContentOffset: Double,
        oldTop: (ItemPath) -> Double, newTop: (ItemPath) -> Double
    ) -> Double {
        for old in visibleRows {
            guard let new = changeset.newPath(ofOld: old, oldCounts: oldCounts, newCounts: newCounts) else { continue }
            let onScreen = oldTop(old) - oldContentOffset
            return newTop(new) - onScreen
        }
        return oldContentOffset
    }
}
