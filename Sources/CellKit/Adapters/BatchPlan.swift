/// What a list view adapter does with one batch handed to
/// ``ListView/performBatchUpdates(_:updateData:)``: animate it, or reload.
///
/// The core decides; adapters (UIKit's table and collection views) only replay
/// the decision. A batch is animated in two steps: the structural changes
/// (sections and rows deleted, inserted, moved, sections reloaded) in one batch
/// update, then the rows whose content changed are reconfigured in place, by
/// their paths *after* the batch, so no coordinate space is ever ambiguous.
/// A section that moves while rows are deleted from it, inserted into it or moved
/// out of, into or within it is deleted and inserted instead (`UICollectionView`
/// raises or corrupts its memory for that batch; see `separatingMovedSections`):
/// its rows get new cells.
///
/// ```swift
/// let batch = Changeset(itemInserts: [ItemPath(item: 0, section: 0)], itemUpdates: [ItemPath(item: 1, section: 0)])
/// let plan = BatchPlan.decide(batch, oldCounts: [3], newCounts: [4], hasWindow: true)
/// assert(plan == .animate(BatchPlan.Steps(
///     structural: Changeset(itemInserts: [ItemPath(item: 0, section: 0)]),
///     reconfigure: [ItemPath(item: 2, section: 0)]
/// )))
/// ```
public enum BatchPlan: Hashable, Sendable {
    /// Animate the batch in ``Steps``.
    case animate(Steps)
    /// Switch to the new data and reload everything, for `reason`.
    case reload(ReloadReason)

    /// The two steps of an animated batch.
    public struct Steps: Hashable, Sendable {
        /// Everything but the item updates, with UIKit's batch semantics; may be empty.
        public var structural: Changeset
        /// The rows whose content changed, in coordinates after the batch, ascending.
        public var reconfigure: [ItemPath]

        /// Creates steps.
        public init(structural: Changeset, reconfigure: [ItemPath]) {
            self.structural = structural
            self.reconfigure = reconfigure
        }
    }

    /// Why a batch is replaced by a reload.
    public enum ReloadReason: Hashable, Sendable, CustomStringConvertible {
        /// The batch breaks a batch-update rule; animating it would crash UIKit.
        case invalid(BatchUpdateError)
        /// The view is not in a window: nothing to animate, and UIKit may not have
        /// asked for its counts yet.
        case notInWindow
        /// The view was reloaded and has not laid out since: its counts are stale,
        /// and a batch now is the classic `UICollectionView` "invalid number of
        /// items" crash.
        case layoutPendingAfterReload
        /// More changes than the adapter's threshold.
        case overThreshold(changes: Int, threshold: Int)
        /// The data source already reported other counts than the list view's
        /// cached ones when the batch started: the data changed outside the
        /// batch's update closure (on `UICollectionView`, the "invalid number of
        /// items" crash).
        case dataChangedOutsideBatch(cached: [Int], reported: [Int])

        public var description: String {
            switch self {
            case .invalid(let error): "invalid batch: \(error)"
            case .notInWindow: "the list view is not in a window"
            case .layoutPendingAfterReload: "the list view has not laid out since its last reload"
            case .overThreshold(let changes, let threshold): "\(changes) changes exceed the threshold of \(threshold)"
            case .dataChangedOutsideBatch(let cached, let reported):
                "before the batch, \(BatchPlan.describeCounts(listView: cached, dataSource: reported)): the data changed outside the update closure"
            }
        }
    }

    /// Where the counts a list view has and those its data source reports differ, naming
    /// the section: "the list view has 5 rows in section 1 where its data source reports 4
    /// (2 more sections differ)", or the numbers of sections when those differ; both arrays
    /// of counts follow only for up to 10 sections. - Complexity: O(*s*), the sections.
    static func describeCounts(listView cached: [Int], dataSource reported: [Int]) -> String {
        let common = min(cached.count, reported.count)
        var differing: [Int] = []
        for section in 0..<common where cached[section] != reported[section] { differing.append(section) }
        var parts: [String] = []
        if cached.count != reported.count {
            parts.append("the list view has \(cached.count) sections where its data source reports \(reported.count)")
        }
        if let first = differing.first {
            let more = differing.count > 1 ? " (\(differing.count - 1) more section\(differing.count == 2 ? "" : "s") differ\(differing.count == 2 ? "s" : ""))" : ""
            parts.append("the list view has \(cached[first]) rows in section \(first) where its data source reports \(reported[first])\(more)")
        }
        guard !parts.isEmpty else { return "the list view and its data source report the same counts" }
        // A few sections read best whole; many would bury the section that differs.
        let whole = max(cached.count, reported.count) <= 10 ? " (rows per section: \(cached) in the list view, \(reported) in its data source)" : ""
        return parts.joined(separator: ", and ") + whole
    }

    /// Decides how to apply `changeset`, which takes a list with `oldCounts` rows
    /// per section to one with `newCounts`.
    ///
    /// In order: an invalid batch reloads (and the adapter reports the error);
    /// a view outside a window reloads; a view with layout pending after a reload
    /// reloads; more than `threshold` changes reload; anything else animates.
    ///
    /// - Complexity: O(*c* log *c* + *s*), *c* the number of changes, *s* the number of sections.
    public static func decide(
        _ changeset: Changeset, oldCounts: [Int], newCounts: [Int],
        hasWindow: Bool, threshold: Int? = nil, layoutPendingAfterReload: Bool = false
    ) -> BatchPlan {
        decideMapping(changeset, oldCounts: oldCounts, newCounts: newCounts, hasWindow: hasWindow,
                      threshold: threshold, layoutPendingAfterReload: layoutPendingAfterReload).plan
    }

    /// ``decide(_:oldCounts:newCounts:hasWindow:threshold:layoutPendingAfterReload:)``,
    /// with the ``PathMapping`` it built for an animated batch (the list view core
    /// follows its visible cells with it).
    static func decideMapping(
        _ changeset: Changeset, oldCounts: [Int], newCounts: [Int],
        hasWindow: Bool, threshold: Int? = nil, layoutPendingAfterReload: Bool = false
    ) -> (plan: BatchPlan, mapping: PathMapping?) {
        if let error = changeset.validationError(oldCounts: oldCounts, newCounts: newCounts) {
            return (.reload(.invalid(error)), nil)
        }
        if !hasWindow { return (.reload(.notInWindow), nil) }
        if layoutPendingAfterReload { return (.reload(.layoutPendingAfterReload), nil) }
        if let threshold, changeset.changeCount > threshold {
            return (.reload(.overThreshold(changes: changeset.changeCount, threshold: threshold)), nil)
        }
        var structural = separatingMovedSections(changeset)
        // Item updates do not move rows: the mapping of the whole batch is the structural step's.
        // The rows of a section made a delete + insert get new cells: none is reconfigured.
        let mapping = PathMapping(structural, oldCounts: oldCounts, newCounts: newCounts)
        var reconfigure = mapping.survivingNewPaths(of: structural.itemUpdates)
        if !Self.isAscending(reconfigure) { reconfigure.sort() }
        structural.itemUpdates = []
        return (.animate(Steps(structural: structural, reconfigure: reconfigure)), mapping)
    }

    /// `changeset` with each section move that also changes rows of that section (a row
    /// deleted from it, inserted into it, moved out of, into or within it) made a delete
    /// of the section and an insert at its destination, as IGListKit does:
    /// `UICollectionView` raises or corrupts its memory for such a batch ("attempt to
    /// perform an insert and a move to the same section", a heap corruption in
    /// `-[UICollectionViewUpdate _computeItemUpdates]`, "request for index path for global
    /// index … when there are only … items"). The row changes of that section go with it:
    /// a row moved out of it becomes an insert where it lands, a row moved into it a delete
    /// where it was. Section moves without row changes, and every other change, stay. The
    /// result is valid when `changeset` is.
    ///
    /// ```swift
    /// // Section 3 moves to 1 and a row is inserted at its top, a section is inserted at 0.
    /// let batch = Changeset(sectionInserts: [0], sectionMoves: [Move(from: 3, to: 1)], itemInserts: [ItemPath(item: 0, section: 1)])
    /// let plan = BatchPlan.decide(batch, oldCounts: [3, 3, 3, 3], newCounts: [0, 4, 3, 3, 3], hasWindow: true)
    /// assert(plan == .animate(BatchPlan.Steps(structural: Changeset(sectionDeletes: [3], sectionInserts: [0, 1]), reconfigure: [])))
    /// ```
    /// - Complexity: O(*c* log *c*), *c* the number of changes; O(1) without section moves.
    static func separatingMovedSections(_ changeset: Changeset) -> Changeset {
        guard !changeset.sectionMoves.isEmpty,
              !(changeset.itemDeletes.isEmpty && changeset.itemInserts.isEmpty && changeset.itemMoves.isEmpty) else { return changeset }
        var destinationOf: [Int: Int] = [:], sourceOf: [Int: Int] = [:]
        for move in changeset.sectionMoves {
            destinationOf[move.from] = move.to
            sourceOf[move.to] = move.from
        }
        // The old index of each moved section whose rows change.
        var touched = Set<Int>()
        for path in changeset.itemDeletes where destinationOf[path.section] != nil { touched.insert(path.section) }
        for path in changeset.itemInserts { if let from = sourceOf[path.section] { touched.insert(from) } }
        for move in changeset.itemMoves {
            if destinationOf[move.from.section] != nil { touched.insert(move.from.section) }
            if let from = sourceOf[move.to.section] { touched.insert(from) }
        }
        guard !touched.isEmpty else { return changeset }
        let inserted = Set(touched.map { destinationOf[$0]! })
        var result = changeset
        result.sectionMoves.removeAll { touched.contains($0.from) }
        result.sectionDeletes = (changeset.sectionDeletes + touched).sorted()
        result.sectionInserts = (changeset.sectionInserts + inserted).sorted()
        result.itemDeletes.removeAll { touched.contains($0.section) }
        result.itemInserts.removeAll { inserted.contains($0.section) }
        result.itemMoves = []
        for move in changeset.itemMoves {
            switch (touched.contains(move.from.section), inserted.contains(move.to.section)) {
            case (false, false): result.itemMoves.append(move)
            case (true, false): result.itemInserts.append(move.to)      // out of a section that is now deleted
            case (false, true): result.itemDeletes.append(move.from)    // into a section that is now inserted
            case (true, true): break
            }
        }
        if result.itemDeletes.count != changeset.itemDeletes.count { result.itemDeletes.sort() }
        if result.itemInserts.count != changeset.itemInserts.count { result.itemInserts.sort() }
        return result
    }

    private static func isAscending(_ paths: [ItemPath]) -> Bool {
        var index = 1
        while index < paths.count {
            if !(paths[index - 1] < paths[index]) { return false }
            index += 1
        }
        return true
    }
}
