/// The controller's state that lives outside `ListController.swift`: the bound
/// data source and its apply queue, display hooks, resources and heights.
@MainActor
final class ListControllerCompanions {
    /// Bumped by every apply, so an off-main diff can tell that what it started from is gone.
    var displayGeneration = 0
    var dataSource: (any ListDataSource)?
    var pending: ListSnapshot?
    var draining = false
    var settleWaiters: [CheckedContinuation<Void, Never>] = []
    var appliedSnapshots = 0
    var activity: ListActivity = .idle
    var hasMore = false
    var displayHooks: [DisplayHook] = []
    let rowHeights = RowHeights()
    var resourceLoaders: [AnyResourceLoader] = []
    let listState = ListState()

    init() {}
}

extension ListController {
    // MARK: Binding a data source

    /// Shows `dataSource`'s snapshots from now on: the current one at once, then
    /// every one it publishes. Replaces a data source bound before.
    ///
    /// Each snapshot is diffed against what is shown off the main actor, then
    /// applied on it, one at a time; snapshots that arrive while one is being
    /// diffed or applied are coalesced: only the newest is shown next. Rows about
    /// to show are reported to the data source (a paginated source loads its next
    /// page from there), the error row's retry calls its ``ListDataSource/load()``
    /// unless ``onRetry`` is set, and the controller keeps the data source alive.
    ///
    /// ```swift
    /// struct Follower: Identifiable, Equatable, Sendable { let id: Int; var name: String }
    ///
    /// @MainActor func bindFollowers(to listView: any ListView) async -> ListController {
    ///     let controller = ListController()
    ///     controller.attach(to: listView)
    ///     controller.bind(to: SimpleDataSource([Follower(id: 1, name: "Ada")]))
    ///     await controller.settle()
    ///     assert(controller.state.isLoading == false && controller.model.itemCount == 1)
    ///     return controller
    /// }
    /// ```
    public func bind(to dataSource: any ListDataSource) {
        companions.dataSource?.onSnapshot = nil
        companions.dataSource = dataSource
        dataSource.onSnapshot = { [weak self] snapshot in self?.submit(snapshot) }
        if onRetry == nil {
            onRetry = { [weak self] in self?.companions.dataSource?.load() }
        }
        submit(dataSource.snapshot)
    }

    /// The bound data source, if any.
    public var dataSource: (any ListDataSource)? { companions.dataSource }

    /// What the bound data source was doing in the snapshot shown last.
    public var activity: ListActivity { companions.activity }

    /// Whether more pages exist, as of the snapshot shown last.
    public var hasMore: Bool { companions.hasMore }

    /// How many snapshots were diffed and applied (coalesced ones are not counted).
    public var appliedSnapshotCount: Int { companions.appliedSnapshots }

    /// Whether a snapshot is waiting or being diffed and applied.
    public var isApplying: Bool { companions.draining || companions.pending != nil }

    /// Queues `snapshot` to be shown: diffed off the main actor, then applied.
    /// Replaces a snapshot queued before that has not started yet.
    public func submit(_ snapshot: ListSnapshot) {
        companions.pending = snapshot
        guard !companions.draining else { return }
        companions.draining = true
        Task { await self.drain() }
    }

    /// Returns once every submitted snapshot is shown.
    public func settle() async {
        guard isApplying else { return }
        await withCheckedContinuation { companions.settleWaiters.append($0) }
    }

    private func drain() async {
        while let snapshot = companions.pending {
            companions.pending = nil
            let target = Self.displayedModel(snapshot.model, state: snapshot.state, placeholders: placeholders)
            let generation = companions.displayGeneration
            var staged = await Self.stagedChangesOffMain(from: displayed, to: target, reloadThreshold: reloadThreshold)
            if companions.displayGeneration != generation {
                // Something was applied while diffing: start again from what is shown now.
                staged = stagedChanges(from: displayed, to: target)
            }
            record(snapshot.model, state: snapshot.state)
            companions.activity = snapshot.activity
            companions.hasMore = snapshot.hasMore
            show(target, staged: staged)
            companions.appliedSnapshots += 1
        }
        companions.draining = false
        let waiters = companions.settleWaiters
        companions.settleWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// The staged changes from `old` to `new`, computed off the main actor.
    @concurrent
    nonisolated static func stagedChangesOffMain(
        from old: TableModel, to new: TableModel, reloadThreshold: Int?
    ) async -> StagedChangeset<[DiffSection<SectionID, SectionHeader, ListItem>]> {
        stagedChanges(from: old, to: new, reloadThreshold: reloadThreshold)
    }

    /// Row heights per model type (fixed, estimated, measured), asked before
    /// presenters and the dispatch table's height handlers.
    public var rowHeights: RowHeights { companions.rowHeights }

    // MARK: Display hooks (ListViewDelegate)

    /// Calls `handler` whenever a content row is about to show, with its path and item.
    public func onWillDisplay(_ handler: @escaping @MainActor (ItemPath, ListItem) -> Void) {
        companions.displayHooks.append(DisplayHook(willDisplay: handler))
    }

    /// Calls `handler` with the content rows near the visible window that will
    /// probably show soon (the list view's prefetch: a working range).
    public func onPrefetch(_ handler: @escaping @MainActor ([ListItem]) -> Void) {
        companions.displayHooks.append(DisplayHook(prefetch: handler))
    }

    public func listView(_ listView: any ListView, willDisplay cell: AnyObject, at path: ItemPath) {
        guard let item = contentItem(at: path) else { return }
        companions.dataSource?.willDisplayItem(at: path, in: displayed)
        for hook in companions.displayHooks { hook.willDisplay?(path, item) }
        for loader in companions.resourceLoaders { loader.willDisplay(item, cell) }
    }

    public func listView(_ listView: any ListView, didEndDisplaying cell: AnyObject, at path: ItemPath) {
        // The row may be gone from `displayed` already (a delete): loaders go by id.
        for loader in companions.resourceLoaders { loader.didEndDisplaying(cell) }
    }

    public func listView(_ listView: any ListView, prefetchItemsAt paths: [ItemPath]) {
        let items = paths.compactMap { contentItem(at: $0) }
        guard !items.isEmpty else { return }
        for hook in companions.displayHooks { hook.prefetch?(items) }
        for loader in companions.resourceLoaders { loader.prefetch(items) }
    }

    public func listView(_ listView: any ListView, cancelPrefetchingItemsAt paths: [ItemPath]) {
        let items = paths.compactMap { contentItem(at: $0) }
        for loader in companions.resourceLoaders { loader.cancelPrefetch(items) }
    }

    /// The content row shown at `path` (not a placeholder row).
    func contentItem(at path: ItemPath) -> ListItem? {
        guard let item = displayed.item(at: path), !(displayed.sections[path.section].id == "cellkit.placeholder") else { return nil }
        return item
    }
}

/// A display observer registered with ``ListController/onWillDisplay(_:)``.
struct DisplayHook {
    var willDisplay: (@MainActor (ItemPath, ListItem) -> Void)?
    var prefetch: (@MainActor ([ListItem]) -> Void)?
}
