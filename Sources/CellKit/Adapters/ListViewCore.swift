/// The logic every list view shares, owned by each one (headless, terminal,
/// `UITableView` and `UICollectionView` adapters); its ``ListViewBackend`` only
/// replays what it decides.
///
/// It keeps:
/// - the row counts the view believes it has, cached as UIKit caches them (read
///   on reload, then advanced by each batch), and whether a reload's layout is
///   still pending;
/// - the single validation of each batch, against those cached counts, through
///   ``BatchPlan/decide(_:oldCounts:newCounts:hasWindow:threshold:layoutPendingAfterReload:)``;
/// - the visible cells, followed through each batch with ``PathMapping`` (built
///   once per batch and lent to the backend as ``batchMapping``), and the
///   ``ScrollAnchor`` that keeps the first visible row put; with platform-owned
///   cells, also the cells handed out for rows not displayed (``CellOwnership/platform``);
/// - reuse pools (for backends that have none of their own), prefetch clean-up
///   (``PrefetchRequest``) and a consistency check.
///
/// Rules it enforces, as UIKit does (or would by crashing):
/// - **Data changes inside the batch.** The data source must report the cached
///   counts when a batch starts; otherwise it changed outside the update closure,
///   and the batch becomes a reload (``BatchPlan/ReloadReason/dataChangedOutsideBatch(cached:reported:)``).
/// - **A reconfigure gives back the same cell.** While rows are reconfigured, a
///   dequeue for a row returns the cell the platform has for it: the one showing
///   it, or, with platform-owned cells, the one prepared for it ahead of display
///   (see ``CellOwnership/platform``); a data source that returns another cell is
///   refused (the old cell stays, a ``ListViewEvent/refused(_:)`` is recorded and
///   ``consistencyProblem()`` reports it).
/// - **A dequeue answers the list view's request** (core-owned cells). A data source
///   dequeues one cell, for the row it is asked about, inside
///   ``ListViewDataSource/listView(_:cellForItemAt:)``, and returns that cell. A dequeue
///   outside a request, for another row, a second one in one request, or a dequeued
///   cell that is not returned, is refused (`UITableView` raises for a second cell
///   dequeued for one index path, `UICollectionView` for a dequeued cell it does not
///   get back): a ``ListViewEvent/refused(_:)`` naming the section and row, and
///   ``consistencyProblem()`` reports it. The cell is still handed out, so the test goes on.
/// - **No batch while a reload's layout is pending**: it becomes a reload.
/// - **Re-entrancy.** ``reloadData()`` called while a batch runs (from a configure
///   handler or a display hook) runs after the batch; a batch started inside
///   another, or in a layout pass (``layingOut(_:)``: the layout a backend runs after a
///   batch or a reload, or for a scroll, a resize or a scroll to a row, where it makes
///   the cells that came into view), is refused with ``BatchOutcome/refused(_:)``
///   naming the call, and nothing changes; ``performWhenIdle(_:)`` runs work once the
///   pass is over (a ``ListController`` defers an apply there), and
///   ``performViewportChange(_:_:)`` a backend's scroll, resize or scroll to a row asked
///   meanwhile, the newest position winning. A reload asked for by
///   the layout of a reload runs once more, then is ignored.
///
/// Main-actor work per batch follows the number of changes, sections and
/// visible rows, never the number of rows.
///
/// ```swift
/// @MainActor final class Backend: ListViewBackend {
///     var hasWindow: Bool { true }
///     var replayed: [Changeset] = []
///     func performBatch(animated: Bool, _ body: () -> Changeset) { replayed.append(body()) }
///     func reconfigureItems(at paths: [ItemPath]) {}
///     func reloadAll() {}
///     func viewportOffset(ofItemAt path: ItemPath) -> Double? { nil }
///     func scrollItem(at path: ItemPath, toViewportOffset offset: Double) {}
///     func makeCell(_ source: CellSource, for path: ItemPath) -> AnyObject { TextCell() }
/// }
///
/// @MainActor func coreExample(listView: any ListView) {
///     let source = TableModelDataSource(TableModel(sections: [TableSection(id: 0, items: [ListItem("a")])]))
///     let backend = Backend()
///     let core = ListViewCore(listView: listView, backend: backend)
///     listView.dataSource = source
///     core.readCounts()
///     let outcome = core.performBatchUpdates(Changeset(itemInserts: [ItemPath(item: 0, section: 0)])) {
///         source.model.sections[0].items.insert(ListItem("new"), at: 0)   // inside the batch
///     }
///     assert(outcome == .animated)
///     assert(backend.replayed.count == 1)
/// }
/// ```
@MainActor
public final class ListViewCore {
    /// Who keeps the reuse pools and tells the delegate about rows coming and going.
    public enum CellOwnership: Sendable {
        /// The core: pools per reuse identifier, display and end of display
        /// (headless and terminal list views).
        case core
        /// The platform (UIKit): the backend reports display with
        /// ``willDisplay(_:at:)`` and ``didEndDisplaying(_:at:)``, and dequeues in ``ListViewBackend/makeCell(_:for:)``.
        ///
        /// The platform may hold cells it does not display: cells it prepared ahead
        /// of display (UIKit's cell prefetching) and cells it keeps for a while after
        /// their display ended. The core remembers, per row, the cell it last handed
        /// out for that row through ``cellForItem(at:)`` (weakly: a cell the platform
        /// dropped is not kept alive), follows it through batches like the visible
        /// cells, and hands it back when the platform reconfigures that row, as
        /// `reconfigureRows(at:)` requires, for every kind of cell, including the
        /// ones the platform cannot dequeue by index path (table-cell templates). Never
        /// a cell shown, or handed out since, for another row; a reload forgets them all.
        case platform
    }

    /// The list view this core belongs to; its data source and delegate are asked.
    public private(set) weak var listView: (any ListView)?
    /// The glue that replays the core's decisions.
    public private(set) weak var backend: (any ListViewBackend)?
    /// Who keeps the pools and the display lifecycle.
    public let ownership: CellOwnership

    /// Above this many changes, a batch reloads instead of animating; `nil`: never.
    public var reloadThreshold: Int?
    /// Whether a batch keeps the first visible row in place when rows arrive or leave above it.
    public var keepsFirstVisibleRowInPlace = false
    /// Told every event, in order (the headless list view's log).
    public var onEvent: ((ListViewEvent) -> Void)?
    /// Where refused calls are reported, besides ``ListViewEvent/refused(_:)``.
    public var diagnostics: DiagnosticHandler = .standardError

    /// The rows per section the view believes it has (UIKit's cached counts).
    public private(set) var counts: [Int] = []
    /// Whether the view reloaded and has not read its counts since.
    public private(set) var isReloadPending = false
    /// The last decision taken for a batch.
    public private(set) var lastPlan: BatchPlan?
    /// Where the rows of the batch being replayed go, once the body handed to
    /// ``ListViewBackend/performBatch(animated:_:)`` has returned: the mapping the
    /// core follows its visible cells with, so that a backend moving per-row state
    /// of its own (cached heights) need not build it again. `nil` outside a batch,
    /// and when the body returned a batch the platform already shows (a user's move).
    public private(set) var batchMapping: PathMapping?
    /// Cells built, per reuse identifier (core-owned cells only).
    public private(set) var createdCells: [String: Int] = [:]
    /// How many cells were taken from a reuse pool.
    public private(set) var reusedCellCount = 0
    /// The contract violations seen so far (a different cell on reconfigure, ...).
    public private(set) var violations: [String] = []

    private var visible: [ItemPath: AnyObject] = [:]
    private var pathOfCell: [ObjectIdentifier: ItemPath] = [:]
    private var pools: [String: [AnyObject]] = [:]
    private var sources: [String: CellSource] = [:]
    private var reuseIdentifiers: [ObjectIdentifier: String] = [:]
    private var prefetched: [ItemPath] = []
    /// Platform-owned cells handed out for rows they are not displayed at (see ``CellOwnership/platform``).
    private var prepared = PreparedCells()

    private var userMovePending = false

    private enum Phase { case idle, batch, reconfiguring, layout }
    private var phase = Phase.idle
    /// Rows asked to reconfigure whose cell the platform has not asked for yet (UIKit
    /// may ask during its next layout pass): their dequeue hands back the showing cell.
    private var reconfiguring: Set<ItemPath> = []
    private var reloadQueued = false
    /// The row whose cell ``cellForItem(at:)`` is asking the data source for (core-owned
    /// cells), and the cell dequeued for it so far: a dequeue belongs to that request.
    private var request: (path: ItemPath, dequeued: AnyObject?)?
    /// Set while a reload that was queued during a layout runs: a layout that asks again is ignored.
    private var runningQueuedReload = false
    /// Work waiting for the phase to be idle again (``performWhenIdle(_:)``), with the
    /// kind of viewport change it is, if it is one (``performViewportChange(_:_:)``).
    private var whenIdle: [(change: ViewportChange?, work: @MainActor () -> Void)] = []

    /// Creates the core of `listView`, replayed by `backend` (often the same object).
    public init(listView: any ListView, backend: any ListViewBackend, ownership: CellOwnership = .core) {
        self.listView = listView
        self.backend = backend
        self.ownership = ownership
    }

    // MARK: Counts

    /// Reads the counts from the data source and caches them (UIKit asking
    /// `numberOfSections` and `numberOfRows`); clears the pending reload.
    /// Returns the counts. - Complexity: O(*s*), *s* the number of sections.
    @discardableResult
    public func readCounts() -> [Int] {
        counts = reportedCounts()
        isReloadPending = false
        return counts
    }

    /// The counts the data source reports now (not cached).
    ///
    /// A negative count (a data source's `count - n` bug) is a broken contract: it counts
    /// as 0, and it is refused (``ListViewEvent/refused(_:)``, ``consistencyProblem()``),
    /// naming the section and the count, once until the data source reports other counts.
    /// Apple documents no meaning for a negative count in `UITableViewDataSource` or
    /// `UICollectionViewDataSource`: the UIKit adapters read their counts here, so UIKit
    /// never gets one. - Complexity: O(*s*), *s* the number of sections.
    public func reportedCounts() -> [Int] {
        guard let listView, let dataSource = listView.dataSource else { return [] }
        let reportedSections = dataSource.numberOfSections(in: listView)
        var negative: [String] = []
        if reportedSections < 0 { negative.append("\(reportedSections) sections") }
        let counts = (0..<max(0, reportedSections)).map { section in
            let rows = dataSource.listView(listView, numberOfItemsInSection: section)
            if rows < 0 { negative.append("\(rows) rows in section \(section)") }
            return max(0, rows)
        }
        if negative.isEmpty {
            refusedNegativeCounts = nil
        } else {
            let more = negative.count > 3 ? " and \(negative.count - 3) more negative counts" : ""
            let message = "the data source reports \(negative.prefix(3).joined(separator: ", "))\(more): a count is never negative (a count - n bug?); the list view takes 0"
            if message != refusedNegativeCounts {
                refusedNegativeCounts = message
                refuse(message, isViolation: true)
            }
        }
        return counts
    }

    /// The refusal of the negative counts the data source reported last, if it did.
    private var refusedNegativeCounts: String?

    // MARK: Reloading

    /// Forgets the visible cells and asks the backend to reload. Inside a batch
    /// (a configure handler, a display hook), it runs once the batch is over.
    public func reloadData() {
        guard phase == .idle else {
            if phase == .layout, runningQueuedReload {
                // The layout of a reload asked for one again (layout → configure → reload): stop the cycle.
                refuse("reloadData() called again by the layout of the reload it asked for (a configure handler or display hook reloading on every layout); ignored", isViolation: false)
                return
            }
            if !reloadQueued {
                refuse("reloadData() during a \(phase == .layout ? "layout pass" : "batch update"); it runs after the \(phase == .layout ? "layout" : "batch")", isViolation: false)
            }
            reloadQueued = true
            return
        }
        reloadQueued = false
        userMovePending = false
        reconfiguring.removeAll()
        // One pass: the rows that end display and those the reload shows again are one
        // change of the screen (a resource load of a row on screen before and after goes on).
        layingOut {
            if ownership == .core {
                for (path, cell) in visible.sorted(by: { $0.key < $1.key }) { endDisplay(cell, at: path) }
            }
            visible.removeAll()
            pathOfCell.removeAll()
            prepared.removeAll()
            forgetFollowedRows()
            cancelAllPrefetching()
            isReloadPending = true
            onEvent?(.reloaded)
            backend?.reloadAll()
        }
    }

    /// Runs `body`, a backend's layout pass that makes or configures cells (after a
    /// batch or a reload, and for a scroll, a resize or a scroll to a row), as one
    /// pass: a batch started from a configure handler or display hook meanwhile is
    /// refused, and a reload, or work handed to ``performWhenIdle(_:)`` (a
    /// ``ListController``'s apply) or ``performViewportChange(_:_:)`` (a scroll, a resize),
    /// waits for the end of the pass (a reload runs once: a
    /// reload asked for again by its own layout is ignored). Nested passes are one pass.
    ///
    /// A pass costs one check of the phase, whatever the number of rows it lays out.
    public func layingOut(_ body: () -> Void) {
        guard phase == .idle else {
            body()
            return
        }
        phase = .layout
        body()
        phase = .idle
        if reloadQueued, !runningQueuedReload {
            runningQueuedReload = true
            reloadData()
            runningQueuedReload = false
        } else {
            reloadQueued = false
        }
        runWhenIdleWork()
    }

    /// Whether a batch, a reconfigure or a layout pass (``layingOut(_:)``) is under way:
    /// a batch asked for now would be refused. See ``performWhenIdle(_:)``.
    public var isUpdating: Bool { phase != .idle }

    /// Runs `body` once the batch, reconfigure or layout pass under way is over, in
    /// the order asked (at once when none is): a ``ListController`` applies there what a
    /// configure handler or display hook asked for during a scroll's layout, so the
    /// list view is never asked for a batch while it makes cells.
    ///
    /// The work handed here runs one piece at a time, `body` included when it runs at
    /// once: what a batch or a layout pass inside it leaves waiting (an apply or a scroll
    /// a configure handler or display hook asked for) runs when `body` is over, in the
    /// order asked. A ``ListController`` shows each apply as such a piece, so a hook that
    /// applies a model and then scrolls to one of its rows, from inside that apply's own
    /// batches (a reconfigured row, the rows of its first apply coming on screen), gets its
    /// apply shown before its scroll runs.
    public func performWhenIdle(_ body: @escaping @MainActor () -> Void) {
        guard phase == .idle else {
            whenIdle.append((nil, body))
            return
        }
        guard !isRunningWork else {
            body()   // part of the piece under way
            return
        }
        isRunningWork = true
        body()
        isRunningWork = false
        runWhenIdleWork()
    }

    /// A change of what a list view shows that lays out rows: see ``performViewportChange(_:_:)``.
    public enum ViewportChange: Hashable, Sendable {
        /// A scroll to a position (an offset, a row, a selected row): it replaces the scrolls
        /// still waiting, as only the newest position matters.
        case scroll
        /// A scroll by a distance (a number of rows, a page): it adds to the scrolls still
        /// waiting, after them.
        case scrollBy
        /// A change of the viewport's size: it replaces a resize still waiting.
        case resize
    }

    /// Runs `body`, a backend's scroll, resize or scroll to a row (which lays out the rows
    /// that come into view in a pass of its own, ``layingOut(_:)``): at once when the core is
    /// idle, else once the batch, reconfigure or layout pass under way is over, in order with
    /// the other work waiting (``performWhenIdle(_:)``: a ``ListController``'s deferred apply).
    ///
    /// A scroll asked from a configure handler, display hook or presenter while the list view
    /// makes cells would otherwise move the viewport under the pass, which then goes on with
    /// its old rows: cells outside the viewport. The newest position wins: a ``ViewportChange/scroll``
    /// drops the scrolls (to a position or by a distance) still waiting, and a
    /// ``ViewportChange/resize`` a resize still waiting, as UIKit lays out only the last
    /// content offset and size set before its next layout pass; a ``ViewportChange/scrollBy``
    /// runs after the scrolls waiting, from where they leave the list.
    ///
    /// - Complexity: O(*w*), *w* the work waiting; O(1) when idle.
    public func performViewportChange(_ change: ViewportChange, _ body: @escaping @MainActor () -> Void) {
        _ = stamp(change)
        enqueueViewportChange(change, body)
    }

    /// How many ``ViewportChange/scroll`` and ``ViewportChange/resize`` changes were asked
    /// (``performViewportChange(_:_:)``, ``deferredViewportChange(_:_:)``): a deferred change
    /// runs only if none that replaces it was asked after it.
    private var scrollsAsked = 0
    private var resizesAsked = 0

    /// Counts `change` as asked now; returns its stamp.
    private func stamp(_ change: ViewportChange) -> Int {
        switch change {
        case .scroll: scrollsAsked &+= 1; return scrollsAsked
        case .scrollBy: return scrollsAsked
        case .resize: resizesAsked &+= 1; return resizesAsked
        }
    }

    /// `body`, a backend's scroll, resize or scroll to a row asked now, made into work the
    /// backend runs on a later turn, once its own layout pass is over: UIKit's pass goes on
    /// after the core's (``layingOut(_:)``) ends, so the UIKit adapters run this from a
    /// main-actor task. When it runs, the work goes through ``performViewportChange(_:_:)``,
    /// unless a change that replaces it was asked since (a ``ViewportChange/scroll`` after a
    /// scroll or a scroll by a distance, a ``ViewportChange/resize`` after a resize), whether
    /// that one ran at once or waits too: the newest position wins, as among changes waiting
    /// in the core, and an older scroll never lands after a newer one.
    ///
    /// ```swift
    /// let core = ListViewCore(listView: HeadlessListView(), backend: HeadlessListView())
    /// var scrolledTo: [String] = []
    /// let later = core.deferredViewportChange(.scroll) { scrolledTo.append("older") }
    /// core.performViewportChange(.scroll) { scrolledTo.append("newer") }   // idle: runs at once
    /// later()                                                              // replaced: nothing
    /// assert(scrolledTo == ["newer"])
    /// ```
    public func deferredViewportChange(_ change: ViewportChange, _ body: @escaping @MainActor () -> Void) -> @MainActor () -> Void {
        let asked = stamp(change)
        return { [weak self] in
            guard let self else { return }
            let newest = change == .resize ? self.resizesAsked : self.scrollsAsked
            guard asked == newest else { return }
            self.enqueueViewportChange(change, body)
        }
    }

    /// Runs `body` at once when idle, else queues it, dropping the changes it replaces.
    private func enqueueViewportChange(_ change: ViewportChange, _ body: @escaping @MainActor () -> Void) {
        guard phase != .idle else {
            body()
            return
        }
        switch change {
        case .scroll: whenIdle.removeAll { $0.change == .scroll || $0.change == .scrollBy }
        case .resize: whenIdle.removeAll { $0.change == .resize }
        case .scrollBy: break
        }
        whenIdle.append((change, body))
    }

    /// Whether a piece of work runs: waiting work (``runWhenIdleWork()``), or work
    /// ``performWhenIdle(_:)`` ran at once.
    private var isRunningWork = false

    /// Runs the work that waited for the end of the batch, reconfigure or pass just over.
    /// A batch ending inside one piece of work (an apply shown in stages) leaves the next
    /// piece waiting until that work is over, so the pieces run in the order asked.
    private func runWhenIdleWork() {
        guard !isRunningWork else { return }
        isRunningWork = true
        defer { isRunningWork = false }
        while phase == .idle, !whenIdle.isEmpty {
            let work = whenIdle.removeFirst().work
            work()
        }
    }

    // MARK: Batches

    /// Applies one batch: validates it once against the cached counts, then
    /// animates it through the backend (switching the data inside the platform's
    /// update closure), or switches the data and reloads.
    ///
    /// - Complexity: O(*c* log *c* + *s* + *v*): changes, sections, visible rows.
    @discardableResult
    public func performBatchUpdates(_ changeset: Changeset, updateData: () -> Void) -> BatchOutcome {
        guard phase == .idle, let backend else {
            let message = backend == nil
                ? "performBatchUpdates(_:updateData:) on a list view whose backend is gone; the batch was not applied and the data not switched"
                : "performBatchUpdates(_:updateData:) called inside \(phase == .layout ? "a layout pass (a scroll, a resize, or the layout after a batch or a reload), while the list view makes the cells of the rows coming into view" : "another batch update or reconfigure") (from a configure handler or display hook?); the batch was not applied and the data not switched (UITableView asserts when asked about its cells while it updates them: defer the batch with performWhenIdle(_:))"
            // UIKit asserts on a batch started while it lays out or updates its cells: a
            // violation (a gone backend is not the caller's contract broken).
            refuse(message, isViolation: backend != nil)
            return .refused(message)
        }
        phase = .batch
        reconfiguring.removeAll()
        let outcome = runBatch(changeset, backend: backend, updateData: updateData)
        phase = .idle
        if case .reloaded(.invalid(let error)) = outcome { onEvent?(.rejected(error)) }
        if case .reloaded = outcome {
            reloadData()
        } else {
            if reloadQueued { reloadData() }
        }
        runWhenIdleWork()
        return outcome
    }

    private func runBatch(_ changeset: Changeset, backend: any ListViewBackend, updateData: () -> Void) -> BatchOutcome {
        cancelPrefetching(deletedBy: changeset)
        let oldCounts = counts
        if !isReloadPending {
            let reported = reportedCounts()
            if reported != oldCounts {
                refuse("at the start of a batch, \(BatchPlan.describeCounts(listView: oldCounts, dataSource: reported)): the data changed outside the batch's update closure", isViolation: true)
                updateData()
                return reload(.dataChangedOutsideBatch(cached: oldCounts, reported: reported))
            }
        }
        if isReloadPending {
            updateData()
            return reload(.layoutPendingAfterReload)
        }
        // Reasons that do not depend on the new counts are decided before the platform's batch.
        if !backend.hasWindow || (reloadThreshold.map { changeset.changeCount > $0 } ?? false) {
            updateData()
            let plan = BatchPlan.decide(changeset, oldCounts: oldCounts, newCounts: reportedCounts(), hasWindow: backend.hasWindow,
                                        threshold: reloadThreshold, layoutPendingAfterReload: isReloadPending)
            if case .reload(let reason) = plan { return reload(reason) }
        }
        let anchor = keepsFirstVisibleRowInPlace ? measureAnchor(changeset, backend: backend) : nil
        var plan = BatchPlan.reload(.notInWindow)
        var mapping: PathMapping?
        var newCounts = oldCounts
        var replayed = Changeset()
        backend.performBatch(animated: anchor == nil) {
            updateData()
            newCounts = reportedCounts()
            counts = newCounts
            (plan, mapping) = BatchPlan.decideMapping(changeset, oldCounts: oldCounts, newCounts: newCounts, hasWindow: true)
            switch plan {
            case .animate(let steps):
                if userMovePending, Self.isPureMove(changeset, oldCounts: oldCounts, newCounts: newCounts) {
                    // The platform moved the row itself when the user dragged it: only the data follows.
                    userMovePending = false
                    return Changeset()
                }
                batchMapping = mapping
                replayed = steps.structural
                return steps.structural
            case .reload:
                // An invalid batch inside the platform's closure: replace every section, which is always valid.
                let everything = Changeset(sectionDeletes: Array(oldCounts.indices), sectionInserts: Array(newCounts.indices))
                mapping = PathMapping(everything, oldCounts: oldCounts, newCounts: newCounts)
                batchMapping = mapping
                return everything
            }
        }
        batchMapping = nil
        lastPlan = plan
        switch plan {
        case .reload(let reason):
            let everything = Changeset(sectionDeletes: Array(oldCounts.indices), sectionInserts: Array(newCounts.indices))
            follow(mapping ?? PathMapping(everything, oldCounts: oldCounts, newCounts: newCounts), newCounts: newCounts)
            return .reloaded(reason)
        case .animate(let steps):
            let mapping = mapping ?? PathMapping(steps.structural, oldCounts: oldCounts, newCounts: newCounts)
            return finish(steps, replayed: replayed, mapping: mapping, newCounts: newCounts, anchor: anchor, backend: backend)
        }
    }

    private func finish(
        _ steps: BatchPlan.Steps, replayed: Changeset, mapping: PathMapping, newCounts: [Int],
        anchor: (new: ItemPath, distance: Double?)?, backend: any ListViewBackend
    ) -> BatchOutcome {
        follow(mapping, newCounts: newCounts)
        // The log holds what the backend replayed (BatchPlan's structural step), not the batch asked for.
        onEvent?(.batch(replayed))
        if let anchor, let distance = anchor.distance {
            backend.scrollItem(at: anchor.new, toViewportOffset: distance)
        }
        // A platform keeps cells the core never saw displayed: cells it prepared ahead of
        // display (UIKit's cell prefetching, iOS 15) would come on screen with the old content.
        // It gets every surviving updated row and reconfigures the cells it has (UIKit's
        // `reconfigureRows(at:)`: "existing (including prefetched) cells"). Core-owned cells
        // are all visible.
        let paths = ownership == .platform ? steps.reconfigure : Self.visibleOnes(of: steps.reconfigure, visible: visible)
        reconfigure(paths, backend: backend)
        return .animated
    }

    /// The paths of the ascending `paths` that are visible, ascending; searched
    /// from the smaller side, so a large batch costs O(*v* log *c*), not a hash per row.
    private static func visibleOnes(of paths: [ItemPath], visible: [ItemPath: AnyObject]) -> [ItemPath] {
        guard paths.count > visible.count else { return paths.filter { visible[$0] != nil } }
        return visible.keys.sorted().filter { path in
            var low = 0, high = paths.count
            while low < high {
                let mid = (low + high) / 2
                if paths[mid] < path { low = mid + 1 } else { high = mid }
            }
            return low < paths.count && paths[low] == path
        }
    }

    /// The user dragged a row and the platform already shows it at its new place:
    /// the next batch that only moves rows (the data catching up) is not replayed
    /// to the platform. Batches that arrive first and do more than move leave
    /// this in place; a reload clears it.
    public func userDidMoveItem(from source: ItemPath, to destination: ItemPath) {
        if source != destination { userMovePending = true }
    }

    /// Whether a user's move waits for the data to catch up.
    public var isUserMovePending: Bool { userMovePending }

    static func isPureMove(_ changeset: Changeset, oldCounts: [Int], newCounts: [Int]) -> Bool {
        oldCounts == newCounts && !changeset.itemMoves.isEmpty
            && changeset.changeCount == changeset.itemMoves.count + changeset.itemUpdates.count
    }

    private func reload(_ reason: BatchPlan.ReloadReason) -> BatchOutcome {
        lastPlan = .reload(reason)
        return .reloaded(reason)
    }

    private func measureAnchor(_ changeset: Changeset, backend: any ListViewBackend) -> (new: ItemPath, distance: Double?)? {
        // PathMapping reads only the old counts; the new ones are not known before the data switches.
        let mapping = PathMapping(changeset, oldCounts: counts, newCounts: counts)
        guard let found = ScrollAnchor.find(visible: visibleItemPaths, changeset: changeset, mapping: mapping),
              found.shiftedFromAbove else { return nil }
        return (found.new, backend.viewportOffset(ofItemAt: found.old))
    }

    /// Moves the visible cells to their rows' new paths with the batch's `mapping`; rows that left end display.
    private func follow(_ mapping: PathMapping, newCounts: [Int]) {
        prepared.follow(mapping, newCounts: newCounts)
        followRows(mapping, newCounts: newCounts)
        guard !visible.isEmpty else { return }
        // Most batches change rows off screen: when every visible row keeps its path, the
        // cells stay where they are, and no dictionary is rebuilt.
        let stays = visible.keys.allSatisfy { old in
            mapping.newPath(of: old) == old && old.section < newCounts.count && old.item < newCounts[old.section]
        }
        if stays {
            prefetched = prefetched.compactMap { mapping.newPath(of: $0) }
            return
        }
        var moved: [ItemPath: AnyObject] = [:]
        moved.reserveCapacity(visible.count)
        var ended: [(ItemPath, AnyObject)] = []
        for (old, cell) in visible {
            if let new = mapping.newPath(of: old), new.section < newCounts.count, new.item < newCounts[new.section] {
                moved[new] = cell
            } else {
                ended.append((old, cell))
            }
        }
        visible = moved
        pathOfCell.removeAll(keepingCapacity: true)
        for (path, cell) in moved { pathOfCell[ObjectIdentifier(cell)] = path }
        for (old, cell) in ended.sorted(by: { $0.0 < $1.0 }) where ownership == .core {
            endDisplay(cell, at: old, alreadyRemoved: true)
        }
        prefetched = prefetched.compactMap { mapping.newPath(of: $0) }
    }

    private func reconfigure(_ paths: [ItemPath], backend: any ListViewBackend) {
        guard !paths.isEmpty else { return }
        phase = .reconfiguring
        guard ownership == .platform, !prepared.isEmpty else {
            reconfiguring.formUnion(paths)
            isOwnReconfigure = true
            backend.reconfigureItems(at: paths)
            isOwnReconfigure = false
            phase = .idle
            runWhenIdleWork()
            return
        }
        // A prepared row gets its cell back only while the platform reconfigures (UIKit asks at
        // once for the cells it has): the platform may have dropped that cell into its pool
        // unannounced, and then skips the row; a later request for the row is a fresh one,
        // which must not get the pooled cell. Rows on screen wait until the platform asks.
        let waiting = paths.filter { visible[$0] != nil || prepared.cell(at: $0, visible: pathOfCell) != nil }
        reconfiguring.formUnion(waiting)
        isOwnReconfigure = true
        backend.reconfigureItems(at: paths)
        isOwnReconfigure = false
        for path in waiting where visible[path] == nil { reconfiguring.remove(path) }
        phase = .idle
        runWhenIdleWork()
    }

    // MARK: Cells

    /// Makes `source`'s cells known (reuse identifier → source).
    public func register(_ source: CellSource) {
        if sources[source.reuseIdentifier] == nil { sources[source.reuseIdentifier] = source }
    }

    /// A cell of `source` for `path`. While `path` is reconfigured, the cell
    /// the platform has for it (same reuse identifier): the one showing it, or a
    /// platform-owned cell prepared for it (``CellOwnership/platform``); otherwise
    /// one from the pool (after its ``ListCell/prepareForReuse()``) or a new one
    /// from the backend.
    public func dequeueReusableCell(_ source: CellSource, for path: ItemPath) -> AnyObject {
        let cell = cell(of: source, for: path)
        if ownership == .core { checkDequeue(cell, for: path) }
        return cell
    }

    private func cell(of source: CellSource, for path: ItemPath) -> AnyObject {
        let id = source.reuseIdentifier
        register(source)
        if !reconfiguring.isEmpty, reconfiguring.contains(path), let existing = existingCell(at: path),
           reuseIdentifiers[ObjectIdentifier(existing)] == id {
            return existing
        }
        if ownership == .core, var pool = pools[id], let cell = pool.popLast() {
            pools[id] = pool
            reusedCellCount += 1
            (cell as? any ListCell)?.prepareForReuse()
            onEvent?(.dequeued(reuseIdentifier: id, path: path))
            return cell
        }
        let cell = backend?.makeCell(source, for: path) ?? (source.make?() ?? TextCell())
        if reuseIdentifiers.updateValue(id, forKey: ObjectIdentifier(cell)) == nil, ownership == .core {
            createdCells[id, default: 0] += 1
            onEvent?(.created(reuseIdentifier: id, path: path))
        }
        return cell
    }

    /// Refuses a dequeue that does not answer the request under way (see the type's rules).
    private func checkDequeue(_ cell: AnyObject, for path: ItemPath) {
        var row: String { "section \(path.section), row \(path.item)" }  // only for a refusal: no string per dequeue
        guard let current = request else {
            refuse("dequeueReusableCell(_:for:) for \(row) outside the list view's request for a cell: dequeue only inside listView(_:cellForItemAt:), for the row asked (UICollectionView raises for a cell dequeued without a request)", isViolation: true)
            return
        }
        guard current.path == path else {
            refuse("dequeueReusableCell(_:for:) for \(row) while the list view asks for the cell of section \(current.path.section), row \(current.path.item): dequeue with the index path asked for", isViolation: true)
            return
        }
        guard current.dequeued == nil else {
            refuse("a second cell dequeued for \(row) in one request (UITableView raises: \"Attempted to dequeue multiple cells for the same index path\"): dequeue one cell and return it", isViolation: true)
            return
        }
        request?.dequeued = cell
    }

    /// The configured cell for `path`, from the data source (what a platform's
    /// `cellForRowAt` returns). During a reconfigure, a data source that hands
    /// back another cell than the one the platform has for the row (showing it, or
    /// prepared for it) is refused: that cell is returned, and the violation recorded.
    /// With platform-owned cells, a cell handed out for a row not displayed is
    /// remembered as that row's cell (``CellOwnership/platform``).
    public func cellForItem(at path: ItemPath) -> AnyObject? {
        guard let listView, let dataSource = listView.dataSource else { return nil }
        let cell = ownership == .core ? requestCell(at: path, from: dataSource, of: listView)
            : dataSource.listView(listView, cellForItemAt: path)
        guard reconfiguring.remove(path) != nil, let showing = existingCell(at: path) else {
            onEvent?(.configured(path))
            if ownership == .platform, visible[path] == nil { prepared.remember(cell, at: path) }
            return cell
        }
        guard cell === showing else {
            refuse("the data source returned a different cell (\(type(of: cell))) when reconfiguring section \(path.section), row \(path.item), which \(visible[path] == nil ? "was prepared with" : "shows") a \(type(of: showing)); a reconfigure must configure the same cell (dequeue it with its index path)", isViolation: true)
            if ownership == .core { enqueue(cell) }
            return showing
        }
        onEvent?(.reconfigured(path))
        return cell
    }

    /// Asks the data source for `path`'s cell as one request (core-owned cells): a cell it
    /// dequeued and did not return is refused and goes back to its pool. A reconfigured
    /// row's dequeue hands back the showing cell, which another cell returned replaces
    /// nowhere: ``cellForItem(at:)`` refuses that case itself.
    private func requestCell(at path: ItemPath, from dataSource: any ListViewDataSource, of listView: any ListView) -> AnyObject {
        let outer = request
        request = (path, nil)
        defer { request = outer }
        let cell = dataSource.listView(listView, cellForItemAt: path)
        if let dequeued = request?.dequeued, dequeued !== cell, visible[path] !== dequeued {
            refuse("the data source dequeued a \(type(of: dequeued)) for section \(path.section), row \(path.item) but returned another \(type(of: cell)) (UICollectionView raises: \"Expected dequeued view to be returned to the collection view\"): return the cell you dequeued", isViolation: true)
            enqueue(dequeued)
        }
        return cell
    }

    /// The cell the platform has for `path`: the one showing it, else a platform-owned
    /// cell prepared for it that no other row shows or was handed since.
    private func existingCell(at path: ItemPath) -> AnyObject? {
        if let showing = visible[path] { return showing }
        return ownership == .platform ? prepared.cell(at: path, visible: pathOfCell) : nil
    }


    /// Reconfigures the visible row at `path` in place (backends without a
    /// platform reconfigure call it from ``ListViewBackend/reconfigureItems(at:)``).
    public func reconfigureVisibleItem(at path: ItemPath) {
        guard visible[path] != nil else { return }
        // Also when the backend's own reconfigure is called directly (as an app calls
        // `reconfigureRows(at:)`): the dequeue hands back the showing cell, another is refused.
        reconfiguring.insert(path)
        _ = cellForItem(at: path)
    }

    /// Runs a backend's ``ListViewBackend/reconfigureItems(at:)`` so that the rows are
    /// measured again, as UIKit sizes a reconfigured row again: `configure` configures
    /// the cells of the rows it is given (`paths`, or where batches moved them when it waited) again in place (and forgets the heights the backend keeps for
    /// them); `measureAgain` has the list view ask the heights of the rows it is given
    /// again and lay out (the rows below move). Paths the list view does not have (a negative
    /// index, a missing section, a row past its section's end) are left out and refused,
    /// naming them (``ListViewEvent/refused(_:)``, not a violation), so the platform never
    /// gets them. Every backend decides here when each runs:
    ///
    /// - the core's own reconfigure after a batch (the rows whose content changed): only
    ///   `configure`; the batch's layout measures the rows;
    /// - an app's call while the list view is idle: both, as one layout pass
    ///   (``layingOut(_:)``), so an apply asked by a configure handler waits for its end;
    /// - a call from a configure handler, display hook or presenter while the list view
    ///   lays out rows, runs a batch or reconfigures rows: `configure` now, `measureAgain`
    ///   once that pass is over (the list view's ``ListView/performWhenIdle(_:)``), given the
    ///   rows where batches run meanwhile moved them (rows gone are left out; nothing runs
    ///   when none is left), so the pass under way never lays out under itself. With
    ///   platform-owned cells (``CellOwnership/platform``: UIKit) `configure` waits too, and
    ///   gets the same rows: the platform is then inside its own update of its cells
    ///   (`cellForRowAt`, `willDisplay`, a batch's layout), where `reconfigureRows(at:)`
    ///   would have it ask for cells without a request of its own (`UICollectionView` raises
    ///   "Expected dequeued view to be returned to the collection view");
    /// - while a reload's layout is pending (``isReloadPending``): neither (that layout
    ///   configures and measures every row it shows);
    /// - when the data source reports other counts than the list view has (its data changed
    ///   outside a batch, or it went away): neither; the change is refused as a violation and
    ///   the list view reloads, as a batch does (``BatchPlan/ReloadReason/dataChangedOutsideBatch(cached:reported:)``).
    ///   UIKit raises for the layout update a measure is ("Invalid update: invalid number of
    ///   rows in section"): an empty `performBatchUpdates` checks the counts as any batch does.
    ///
    /// `UITableView.reconfigureRows(at:)` and `UICollectionView.reconfigureItems(at:)` size
    /// a self-sizing cell again after they reconfigure it ("If your cells are self-sizing,
    /// the collection view or table view resizes your cells after reconfiguring them");
    /// a height their delegate gives is asked again only by a layout update, which the
    /// UIKit adapters' `measureAgain` asks for.
    ///
    /// - Complexity: O(*p* + *s*) plus the layout, *p* the paths, *s* the sections.
    public func reconfigure(
        _ paths: [ItemPath], configure: @escaping @MainActor ([ItemPath]) -> Void, measureAgain: @escaping @MainActor ([ItemPath]) -> Void
    ) {
        if phase == .reconfiguring, isOwnReconfigure {
            isOwnReconfigure = false
            configure(paths)
            return
        }
        let paths = isReloadPending ? paths : existingPaths(of: paths, call: "reconfigureItems(at:)")
        guard !paths.isEmpty else { return }
        switch phase {
        case .idle:
            guard countsAllowReconfigure() else { return }
            layingOut {
                configure(paths)
                measureAgain(paths)
            }
        case .batch, .layout, .reconfiguring:
            // Platform-owned cells (UIKit): the platform is inside its own update of its cells
            // (`cellForRowAt`, `willDisplay`, a batch's layout), where a reconfigure would make
            // it ask for cells with no request of its own: the configure waits too.
            let configuresLater = ownership == .platform
            if !configuresLater { configure(paths) }
            // The rows are followed through the batches that may run before the measure.
            let rows = paths.map(FollowedRow.init)
            followedRows.removeAll { $0.row == nil }
            followedRows += rows.map { WeakFollowedRow(row: $0) }
            let later: @MainActor () -> Void = { [weak self] in
                guard let self else { return }
                let current = rows.compactMap(\.path)
                guard !current.isEmpty, self.countsAllowReconfigure() else { return }
                self.layingOut {
                    if configuresLater { configure(current) }
                    measureAgain(current)
                }
            }
            // The list view's own wait: a UIKit adapter's pass goes on after the core's.
            if let listView { listView.performWhenIdle(later) } else { performWhenIdle(later) }
        }
    }

    /// Set while the core's own reconfigure after a batch calls the backend; the first
    /// ``reconfigure(_:configure:measureAgain:)`` it makes takes it.
    private var isOwnReconfigure = false

    /// `paths` without those the list view does not have (a negative index, a missing
    /// section, a row past its section's end), which are refused, naming them (not a
    /// violation: the platform never gets them). - Complexity: O(*p*), the paths.
    private func existingPaths(of paths: [ItemPath], call: String) -> [ItemPath] {
        var missing: [ItemPath] = []
        let existing = paths.filter { path in
            let exists = Self.hasRow(path, in: counts)
            if !exists { missing.append(path) }
            return exists
        }
        guard !missing.isEmpty else { return paths }
        let named = missing.prefix(3).map { "section \($0.section), row \($0.item)" }.joined(separator: "; ")
        let more = missing.count > 3 ? " and \(missing.count - 3) more" : ""
        refuse("\(call): the list view has no row at \(named)\(more) (rows per section: \(counts.count <= 10 ? counts.description : "\(counts.count) sections")); skipped", isViolation: false)
        return existing
    }

    /// Whether a reconfigure or a measure may run now: no reload's layout pending, and the
    /// data source reports the counts the list view has (else refused, and reloaded).
    private func countsAllowReconfigure() -> Bool {
        guard !isReloadPending else { return false }
        let reported = reportedCounts()
        guard reported == counts else {
            refuse("reconfigureItems(at:): \(BatchPlan.describeCounts(listView: counts, dataSource: reported)): the data changed outside a batch (a layout update raises for it on UIKit); reloaded instead", isViolation: true)
            reloadData()
            return false
        }
        return true
    }

    /// Gets the cell for `path` from the data source and shows it (core-owned cells).
    @discardableResult
    public func display(at path: ItemPath) -> AnyObject? {
        if let cell = visible[path] { return cell }
        guard let cell = cellForItem(at: path) else { return nil }
        willDisplay(cell, at: path)
        return cell
    }

    /// The platform is about to show `cell` at `path`: remember it and tell the delegate.
    public func willDisplay(_ cell: AnyObject, at path: ItemPath) {
        if ownership == .platform {
            prepared.forget(cell, at: path)
        }
        // A cell already shown at another row stays there too: the consistency check reports it.
        visible[path] = cell
        pathOfCell[ObjectIdentifier(cell)] = path
        onEvent?(.displayed(path))
        listView.map { $0.delegate?.listView($0, willDisplay: cell, at: path) }
    }

    /// The platform stopped showing `cell` (reported at `path`, which may be stale after a batch).
    public func didEndDisplaying(_ cell: AnyObject, at path: ItemPath) {
        if let current = pathOfCell[ObjectIdentifier(cell)], visible[current] === cell {
            visible[current] = nil
            pathOfCell[ObjectIdentifier(cell)] = nil
            reconfiguring.remove(current)
            // The platform may keep the cell configured for its row and show it again without
            // asking (a collection view does when the scroll turns back): it stays that row's cell.
            if ownership == .platform { prepared.remember(cell, at: current) }
        }
        listView.map { $0.delegate?.listView($0, didEndDisplaying: cell, at: path) }
    }

    /// Takes the row at `path` off screen (core-owned cells): the delegate hears it, the cell goes to its pool.
    public func endDisplay(at path: ItemPath) {
        guard let cell = visible[path] else { return }
        endDisplay(cell, at: path)
    }

    private func endDisplay(_ cell: AnyObject, at path: ItemPath, alreadyRemoved: Bool = false) {
        if !alreadyRemoved, visible[path] === cell {
            visible[path] = nil
            pathOfCell[ObjectIdentifier(cell)] = nil
            reconfiguring.remove(path)
        }
        onEvent?(.endedDisplay(path))
        listView.map { $0.delegate?.listView($0, didEndDisplaying: cell, at: path) }
        enqueue(cell)
    }

    /// The view goes away without reporting the end of display of its rows (a SwiftUI
    /// view's `dismantleUIView`; UIKit tells nothing when its view is released): every
    /// row on screen ends display, in order, and the delegate hears it for each, so the
    /// resource loads of those rows stop; prefetching is cancelled. Core-owned cells go
    /// to their pools; the core forgets platform-owned ones (a later report of the
    /// platform for one of them reaches the delegate again, which takes it as a no-op).
    /// - Complexity: O(*v* log *v*), *v* the rows on screen.
    public func endDisplayOfEveryRow() {
        let shown = visible.sorted { $0.key < $1.key }
        visible.removeAll()
        pathOfCell.removeAll()
        prepared.removeAll()
        reconfiguring.removeAll()
        for (path, cell) in shown {
            if ownership == .core {
                endDisplay(cell, at: path, alreadyRemoved: true)
            } else {
                onEvent?(.endedDisplay(path))
                listView.map { $0.delegate?.listView($0, didEndDisplaying: cell, at: path) }
            }
        }
        cancelAllPrefetching()
    }

    /// Puts a cell that was dequeued but not shown back into its pool (core-owned cells).
    public func enqueueReusableCell(_ cell: AnyObject) { enqueue(cell) }

    private func enqueue(_ cell: AnyObject) {
        guard ownership == .core else { return }
        let id = reuseIdentifiers[ObjectIdentifier(cell)] ?? String(reflecting: type(of: cell))
        pools[id, default: []].append(cell)
    }

    /// Where a scroll to a row goes: see ``scrollTarget(for:sectionTops:)``.
    public enum ScrollTarget: Hashable, Sendable {
        /// The row at this path, which the list view has.
        case row(ItemPath)
        /// The top of this section, which may have no rows.
        case sectionTop(Int)
        /// No row to scroll to: why, naming the section and row (the scroll is refused).
        case missing(String)
    }

    /// Where a scroll to `path` goes, read from the cached counts (``counts``): the row, when
    /// the list view has it; a row the list view does not have is ``ScrollTarget/missing(_:)``,
    /// as UIKit raises for it ("Attempted to scroll the table view to an out-of-bounds row",
    /// "Attempted to scroll the collection view to an out-of-bounds item"). A row of `Int.max`
    /// (`NSNotFound`) names the top of its section: a `UITableView` takes it "for scrolling to
    /// a section with zero rows" (`sectionTops`, the default); a `UICollectionView` has no such
    /// row (`sectionTops: false`), so it goes to the section's first row, and an empty
    /// section is missing. The headless list view and the UIKit adapters decide here.
    ///
    /// While a reload's layout is pending (``isReloadPending``), the counts are those the data
    /// source reports now, not the cached ones: UIKit reads its counts again for a scroll
    /// after `reloadData()` (the usual "reload, then scroll to the newest row"), so a row of
    /// the new data is scrolled to, and a row only the old data had is refused instead of
    /// reaching UIKit, which raises for it.
    ///
    /// ```swift
    /// let listView = HeadlessListView()
    /// let controller = ListController()
    /// controller.attach(to: listView)
    /// controller.apply(TableModel(sections: [[String](), ["a"]]))
    /// assert(listView.core.scrollTarget(for: ItemPath(item: Int.max, section: 0)) == .sectionTop(0))
    /// assert(listView.core.scrollTarget(for: ItemPath(item: Int.max, section: 1), sectionTops: false) == .row(ItemPath(item: 0, section: 1)))
    /// ```
    /// - Complexity: O(1); O(*s*), *s* the number of sections, while a reload's layout is pending.
    public func scrollTarget(for path: ItemPath, sectionTops: Bool = true) -> ScrollTarget {
        let counts = isReloadPending ? reportedCounts() : counts
        if path.item == Int.max, path.section >= 0, path.section < counts.count {
            if sectionTops { return .sectionTop(path.section) }
            if counts[path.section] > 0 { return .row(ItemPath(item: 0, section: path.section)) }
            return .missing("section \(path.section) has no rows, and a row of NSNotFound names the top of a section on a table view only")
        }
        guard Self.hasRow(path, in: counts) else {
            return .missing(Self.describeMissingRow(path, counts: counts))
        }
        return .row(path)
    }

    /// Why `path` is not a row of the list view, naming its section and row and what the
    /// cached counts (``counts``) hold there.
    public func describeMissingRow(_ path: ItemPath) -> String {
        Self.describeMissingRow(path, counts: counts)
    }

    /// Whether `path` names a row under `counts` (rows per section).
    private static func hasRow(_ path: ItemPath, in counts: [Int]) -> Bool {
        path.section >= 0 && path.section < counts.count && path.item >= 0 && path.item < counts[path.section]
    }

    private static func describeMissingRow(_ path: ItemPath, counts: [Int]) -> String {
        let rows = path.section >= 0 && path.section < counts.count
            ? ", which has \(counts[path.section]) rows" : " (the list view has \(counts.count) sections)"
        return "section \(path.section), row \(path.item) does not exist\(rows)"
    }

    /// The row a jump to `section` lands on, for list views that scroll to a row
    /// rather than a section (a `UICollectionView`'s section index): the first row
    /// of `section` or of the next section that has rows, else the last row before
    /// it; `nil` when the list has no row. A row of an empty section does not exist,
    /// and scrolling to it raises in UIKit ("Attempted to scroll the collection view
    /// to an out-of-bounds item (0) when there are only 0 items in section 3").
    /// Read from the cached counts. - Complexity: O(*s*), *s* the number of sections.
    public func firstItem(fromSection section: Int) -> ItemPath? {
        let start = min(max(section, 0), counts.count)
        if let next = counts[start...].firstIndex(where: { $0 > 0 }) { return ItemPath(item: 0, section: next) }
        guard let previous = counts[..<start].lastIndex(where: { $0 > 0 }) else { return nil }
        return ItemPath(item: counts[previous] - 1, section: previous)
    }

    /// The section index titles a list view shows: `nil` when there are none, and, for a
    /// list view whose index jumps to a row (`sectionTops` false: a `UICollectionView`, whose
    /// `indexPathForIndexTitle` must name an item that exists), `nil` while the list has no
    /// row, as there is no row to jump to. A table (`sectionTops` true) scrolls to a section
    /// and shows its titles even then. Read from the cached counts.
    /// - Complexity: O(*s*), *s* the number of sections.
    public func indexTitles(_ titles: [String], sectionTops: Bool) -> [String]? {
        guard !titles.isEmpty else { return nil }
        if !sectionTops, firstItem(fromSection: 0) == nil { return nil }
        return titles
    }

    /// The paths of the rows on screen, in order.
    public var visibleItemPaths: [ItemPath] { visible.keys.sorted() }

    /// The cell showing `path`, if that row is on screen.
    public func cell(at path: ItemPath) -> AnyObject? { visible[path] }

    // MARK: Row actions

    /// A row followed through batches (one that swipe actions were offered for, one whose
    /// measure waits for a pass to end): `nil` once it is gone (deleted, the list reloaded).
    private final class FollowedRow {
        var path: ItemPath?
        init(_ path: ItemPath) { self.path = path }
    }
    private struct WeakFollowedRow { weak var row: FollowedRow? }
    private var followedRows: [WeakFollowedRow] = []

    /// `actions`, offered for the row at `path` (a swipe), made to run on that row wherever
    /// it is when the user picks one: the row is followed through every batch from now on,
    /// and a handler gets the row's path of that moment (the path it is called with is not
    /// used). Once the row is gone (deleted, its section deleted or reloaded, the list
    /// reloaded), or when `path` was no row of the list view to begin with, the handler does
    /// not run: the action returns `false`, and a ``ListViewEvent/refused(_:)`` names the
    /// action, section and row.
    ///
    /// A platform keeps the actions it was given while they show (UIKit's swipe actions
    /// stay open while batches change the rows): a handler that took the path of the swipe
    /// would act on another row after rows above it came or went (Eureka #1807), or on a
    /// row that no longer exists. The UIKit adapters offer their swipe actions through this.
    ///
    /// ```swift
    /// let listView = HeadlessListView()
    /// let controller = ListController()
    /// controller.attach(to: listView)
    /// controller.apply(TableModel(["a", "b"]))
    /// var pinned: [ItemPath] = []
    /// let actions = listView.core.rowActions([RowAction(title: "Pin") { path in pinned.append(path); return true }],
    ///                                        offeredAt: ItemPath(item: 1, section: 0))
    /// controller.apply(TableModel(["new", "a", "b"]))     // a row arrives above "b"
    /// assert(actions[0].handler(ItemPath(item: 1, section: 0)))
    /// assert(pinned == [ItemPath(item: 2, section: 0)])    // "b", where it is now
    /// ```
    /// - Complexity: O(*a*), *a* the actions; each later batch costs O(log *c*) per row
    ///   offered actions whose actions are still held.
    public func rowActions(_ actions: [RowAction], offeredAt path: ItemPath) -> [RowAction] {
        guard !actions.isEmpty else { return [] }
        let row = FollowedRow(path)
        // Offered for a path that is no row of the list view: no row to act on, from the start.
        let wasRow = Self.hasRow(path, in: counts)
        if !wasRow { row.path = nil }
        followedRows.removeAll { $0.row == nil }
        followedRows.append(WeakFollowedRow(row: row))
        return actions.map { action in
            var followed = action
            followed.handler = { [weak self] _ in
                guard let current = row.path else {
                    let why = wasRow ? "was picked after that row went away (deleted, or its section deleted or reloaded, or the list reloaded)"
                        : "names no row of the list view"
                    self?.refuse("the row action \"\(action.title)\" offered for section \(path.section), row \(path.item) \(why); it did not run", isViolation: false)
                    return false
                }
                return action.handler(current)
            }
            return followed
        }
    }

    private func followRows(_ mapping: PathMapping, newCounts: [Int]) {
        guard !followedRows.isEmpty else { return }
        followedRows.removeAll { $0.row == nil }
        for entry in followedRows {
            guard let row = entry.row, let old = row.path else { continue }
            if let new = mapping.newPath(of: old), new.section < newCounts.count, new.item < newCounts[new.section] {
                row.path = new
            } else {
                row.path = nil
            }
        }
    }

    private func forgetFollowedRows() {
        for entry in followedRows { entry.row?.path = nil }
        followedRows.removeAll()
    }

    // MARK: Prefetching

    /// Tells the delegate about rows near the screen: `paths` cleaned
    /// (``PrefetchRequest``), without the ones announced already; those no
    /// longer near are cancelled when `replacing` is set.
    public func prefetch(_ paths: [ItemPath], replacing: Bool = false) {
        guard let listView, let delegate = listView.delegate else { return }
        let valid = PrefetchRequest.valid(paths, counts: counts)
        if replacing {
            let wanted = Set(valid)
            let stale = prefetched.filter { !wanted.contains($0) }
            if !stale.isEmpty { delegate.listView(listView, cancelPrefetchingItemsAt: stale) }
            let known = Set(prefetched)
            prefetched = valid
            let fresh = valid.filter { !known.contains($0) }
            if !fresh.isEmpty { delegate.listView(listView, prefetchItemsAt: fresh) }
        } else if !valid.isEmpty {
            prefetched.append(contentsOf: valid)
            delegate.listView(listView, prefetchItemsAt: valid)
        }
    }

    /// Tells the delegate that `paths` (cleaned) are no longer expected.
    public func cancelPrefetching(_ paths: [ItemPath]) {
        guard let listView, let delegate = listView.delegate else { return }
        let valid = PrefetchRequest.valid(paths, counts: counts)
        let gone = Set(valid)
        prefetched.removeAll { gone.contains($0) }
        if !valid.isEmpty { delegate.listView(listView, cancelPrefetchingItemsAt: valid) }
    }

    /// Prefetched rows that `changeset` deletes are no longer expected: the delegate
    /// hears it before the data switches, while its paths still name those rows (a
    /// resource loader cancels their loads, as for rows scrolled away).
    /// - Complexity: O(*c* log *c* + *p*): changes, prefetched rows; nothing without prefetched rows.
    private func cancelPrefetching(deletedBy changeset: Changeset) {
        guard !prefetched.isEmpty, let listView, let delegate = listView.delegate else { return }
        // PathMapping reads only the old counts here (as in `measureAnchor`).
        let mapping = PathMapping(changeset, oldCounts: counts, newCounts: counts)
        let gone = prefetched.filter { $0.section < counts.count && $0.item < counts[$0.section] && mapping.newPath(of: $0) == nil }
        guard !gone.isEmpty else { return }
        let goneSet = Set(gone)
        prefetched.removeAll { goneSet.contains($0) }
        delegate.listView(listView, cancelPrefetchingItemsAt: gone)
    }

    private func cancelAllPrefetching() {
        let stale = prefetched.filter { $0.section < counts.count && $0.item < counts[$0.section] }
        prefetched = []
        guard !stale.isEmpty, let listView, let delegate = listView.delegate else { return }
        delegate.listView(listView, cancelPrefetchingItemsAt: stale)
    }

    // MARK: Checking

    /// What disagrees, if anything: the cached counts against the data source,
    /// a visible cell past the end, one cell object at two paths, or a contract
    /// violation seen earlier. `nil` when consistent.
    public func consistencyProblem() -> String? {
        if let violation = violations.first { return violation }
        if !isReloadPending {
            let reported = reportedCounts()
            if reported != counts { return "\(BatchPlan.describeCounts(listView: counts, dataSource: reported)): the data changed outside a batch's update closure" }
        }
        var seen: [ObjectIdentifier: ItemPath] = [:]
        for path in visible.keys.sorted() {
            if path.section >= counts.count || path.item >= counts[path.section] {
                return "a cell is visible at section \(path.section), row \(path.item), which does not exist"
            }
            if let cell = visible[path], let other = seen.updateValue(path, forKey: ObjectIdentifier(cell)) {
                return "one \(type(of: cell)) cell is visible at two rows: section \(other.section), row \(other.item) and section \(path.section), row \(path.item)"
            }
        }
        return nil
    }

    private func refuse(_ message: String, isViolation: Bool) {
        if isViolation { violations.append(message) }
        onEvent?(.refused(message))
        diagnostics(Diagnostic(isViolation ? .invalidBatchUpdate : .other, message))
    }
}
