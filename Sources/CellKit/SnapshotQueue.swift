/// The staged changes between two ``TableModel``s, as the sectioned diff gives them.
/// The staged changes from one model to another; each stage's data is the model after it.
@usableFromInline
typealias TableChangeset = StagedChangeset<TableModel>

/// Where a ``SnapshotQueue`` shows its snapshots: the ``ListController``.
@MainActor
protocol SnapshotQueueOwner: AnyObject, Sendable {
    /// What the list shows now; the diff starts from it.
    var displayed: TableModel { get }
    /// Above this many changes the diff asks for a reload; `nil`: never.
    var reloadThreshold: Int? { get }
    /// What the list should show for `snapshot` (its rows, or placeholder rows).
    func target(for snapshot: ListSnapshot) -> TableModel
    /// Makes `snapshot` current and shows `target` through `staged`, computed from ``displayed``.
    /// Returns the replaced snapshots, for the caller to release once it let go of `staged`.
    func show(_ snapshot: ListSnapshot, target: TableModel, staged: TableChangeset) -> ListController.Garbage?
}

/// The queue between a data source and the list: snapshots are submitted,
/// diffed off the main actor one at a time, then shown on it; a snapshot that
/// arrives while another is diffed or shown replaces any still waiting
/// (coalescing: only the newest is shown next), and ``settle()`` waits until
/// the queue is empty.
///
/// A diff that started from a model the list no longer shows (something was
/// applied meanwhile; see ``displayDidChange()``) is computed again on the main
/// actor from what is shown, so a stale changeset never reaches the list view.
@MainActor
final class SnapshotQueue {
    private var pending: ListSnapshot?
    private var draining = false
    private var settleWaiters: [CheckedContinuation<Void, Never>] = []
    /// Bumped whenever what the list shows changes.
    private var displayGeneration = 0
    /// Bumped by ``discardPending()``: a snapshot being diffed from an older epoch is dropped.
    private var epoch = 0
    /// How many snapshots were diffed and shown (coalesced ones are not counted).
    private(set) var appliedCount = 0
    /// The time spent in the queue's main-actor jobs (everything but the diff off
    /// the main actor), summed over every snapshot shown; read by the benchmarks.
    private(set) var mainActorNanoseconds: UInt64 = 0

    init() {}

    /// Whether a snapshot is waiting or being diffed and shown.
    var isApplying: Bool { draining || pending != nil }

    /// Whether a newer snapshot waits behind the one being shown.
    var hasPending: Bool { pending != nil }

    /// Tells the queue that what the list shows changed, so a diff running now is stale.
    func displayDidChange() { displayGeneration &+= 1 }

    /// Queues `snapshot` to be shown by `owner`, replacing one that has not started yet.
    func submit(_ snapshot: ListSnapshot, to owner: some SnapshotQueueOwner) {
        pending = snapshot
        guard !draining else { return }
        draining = true
        Task { await self.drain(into: owner) }
    }

    /// Drops the snapshot waiting and the one being diffed, if any: neither is shown
    /// (the app applied a model of its own, or bound another data source).
    func discardPending() {
        pending = nil
        epoch &+= 1
    }

    /// Returns once every submitted snapshot is shown.
    func settle() async {
        guard isApplying else { return }
        await withCheckedContinuation { settleWaiters.append($0) }
    }

    private func drain(into owner: some SnapshotQueueOwner) async {
        while let snapshot = pending {
            var start = Platform.monotonicNanoseconds()
            pending = nil
            let target = owner.target(for: snapshot)
            let generation = displayGeneration
            let submittedEpoch = epoch
            let reloadThreshold = owner.reloadThreshold
            mainActorNanoseconds &+= Platform.monotonicNanoseconds() &- start
            var staged = await Self.stagedChangesOffMain(from: owner.displayed, to: target, reloadThreshold: reloadThreshold)
            start = Platform.monotonicNanoseconds()
            // Discarded while it was diffed: a newer apply or bind wins.
            guard epoch == submittedEpoch else { continue }
            if displayGeneration != generation {
                // Something was shown while diffing: start again from what is shown now.
                staged = ListController.stagedChanges(from: owner.displayed, to: target, reloadThreshold: owner.reloadThreshold)
            }
            let garbage = owner.show(snapshot, target: target, staged: staged)
            // Let go of the stages before the background task frees them: it must not
            // find this job holding the last reference (freeing them is O(rows), and
            // would then happen here on the main actor).
            staged = TableChangeset(stages: [], finalData: TableModel())
            garbage?.releaseInBackground()
            appliedCount += 1
            mainActorNanoseconds &+= Platform.monotonicNanoseconds() &- start
        }
        draining = false
        let waiters = settleWaiters
        settleWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// The staged changes from `old` to `new`, computed off the main actor.
    @concurrent
    nonisolated static func stagedChangesOffMain(from old: TableModel, to new: TableModel, reloadThreshold: Int?) async -> TableChangeset {
        ListController.stagedChanges(from: old, to: new, reloadThreshold: reloadThreshold)
    }
}
