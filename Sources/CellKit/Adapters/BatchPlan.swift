/// What a list view adapter does with one batch handed to
/// ``ListView/performBatchUpdates(_:updateData:)``: animate it, or reload.
///
/// The core decides; adapters (UIKit's table and collection views) only replay
/// the decision. A batch is animated in two steps: the structural changes
/// (sections and rows deleted, inserted, moved, sections reloaded) in one batch
/// update, then the rows whose content changed are reconfigured in place, by
/// their paths *after* the batch, so no coordinate space is ever ambiguous.
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
                "the data source reported \(reported) rows per section before the batch, the list view has \(cached): the data changed outside the update closure"
            }
        }
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
        var structural = changeset
        structural.itemUpdates = []
        // Item updates do not move rows: the mapping of the whole batch is the structural step's.
        let mapping = PathMapping(changeset, oldCounts: oldCounts, newCounts: newCounts)
        var reconfigure = mapping.survivingNewPaths(of: changeset.itemUpdates)
        if !Self.isAscending(reconfigure) { reconfigure.sort() }
        return (.animate(Steps(structural: structural, reconfigure: reconfigure)), mapping)
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
