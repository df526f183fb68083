/// A controller, held weakly (the controller a bound data source shows in).
struct WeakController {
    weak var controller: ListController?
}

extension ListController {
    // MARK: Binding a data source

    /// The controller each bound data source shows in, by the source's identity. An entry
    /// left by a controller that is gone, or by a source freed since, is told apart by
    /// checking the controller's ``dataSource`` is that very source.
    static var controllerOfSource: [ObjectIdentifier: WeakController] = [:]

    /// Shows `dataSource`'s snapshots from now on: its current one (queued like any
    /// other, so it shows once diffed; `await` ``settle()`` to wait for it), then
    /// every one it publishes. Replaces a data source bound before (its snapshots
    /// still waiting are dropped).
    ///
    /// Each snapshot is diffed against what is shown off the main actor, then
    /// applied on it, one at a time; snapshots that arrive while one is being
    /// diffed or applied are coalesced: only the newest is shown next. Rows about
    /// to show are reported to the data source (a paginated source loads its next
    /// page from there), the error row's retry calls its ``ListDataSource/load()``
    /// unless ``onRetry`` is set, and the controller keeps the data source alive.
    /// While a next page loads, and after one failed, the list ends with the
    /// ``LoadMorePlaceholder`` row; its retry calls ``ListDataSource/loadNextPage()``.
    /// What the source notices itself (a ``PaginatedDataSource`` whose server repeats
    /// its pages, also as a child of a ``MultiDataSource``) goes to ``diagnostics``.
    ///
    /// A data source has one observer, its ``ListDataSource/onSnapshot``: binding
    /// sets it, replacing a handler set before (your own, a ``MultiDataSource``'s),
    /// and the controller clears it when it lets the source go. To follow what shows,
    /// observe ``listState`` instead. A source shows in one controller at a time:
    /// bound to another one, it is unbound from this one, as by an ``apply(_:state:)``
    /// of what shows (``dataSource`` becomes `nil`, the rows shown and the state stay, the
    /// ``activity`` becomes idle, the load-more row goes, its rows no longer reach the
    /// source and the error row offers no retry; taken during its first load, the
    /// controller keeps its loading row until it is given something else to show). A later
    /// ``apply(_:state:)`` unbinds the source (the app's last call wins); bind it
    /// again to show it again.
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
        if let previous = self.dataSource { release(previous) }
        // Shown by another controller until now: it shows here from now on.
        let key = ObjectIdentifier(dataSource)
        if let other = Self.controllerOfSource[key]?.controller, other !== self, other.dataSource === dataSource {
            other.sourceTaken()
        }
        Self.controllerOfSource = Self.controllerOfSource.filter { $0.value.controller != nil }  // the gone ones: a few live ones stay
        Self.controllerOfSource[key] = WeakController(controller: self)
        self.dataSource = dataSource
        dataSource.onSnapshot = { [weak self] snapshot in self?.submit(snapshot) }
        (dataSource as? any DiagnosticReporting)?.diagnostics = diagnostics
        if onRetry == nil {
            redisplaysPlaceholders = false
            onRetry = { [weak self] in self?.dataSource?.load() }
            redisplaysPlaceholders = true
            retryIsBindings = true
        }
        snapshots.discardPending()
        submit(dataSource.snapshot)
    }

    /// Lets the bound data source go before ``apply(_:state:)`` shows a model of the
    /// app's own: its snapshots waiting or being diffed are dropped, it no longer hears
    /// which rows show, and what it was doing (``activity``, ``hasMore``, a failed page) no
    /// longer shows.
    func unbindForApply() {
        snapshots.discardPending()
        activity = .idle
        hasMore = false
        nextPageError = nil
        guard let source = dataSource else { return }
        release(source)
        dataSource = nil
        // Its retry goes with it: the error row offers no retry that does nothing.
        if retryIsBindings {
            redisplaysPlaceholders = false
            onRetry = nil
            redisplaysPlaceholders = true
        }
    }

    /// Another controller bound this one's source: it is let go as by an ``apply(_:state:)``
    /// of what shows. The rows and the state stay; the source's activity (a refresh, a page
    /// loading) and its load-more row go, and the error row offers no retry.
    private func sourceTaken() {
        unbindForApply()
        show(Self.displayedModel(model, state: state, placeholders: shownPlaceholders))
    }

    /// Stops hearing `source`: its snapshots, and what it reports (back to standard error).
    private func release(_ source: any ListDataSource) {
        let key = ObjectIdentifier(source)
        if Self.controllerOfSource[key]?.controller === self { Self.controllerOfSource[key] = nil }
        source.onSnapshot = nil
        (source as? any DiagnosticReporting)?.diagnostics = .standardError
    }

    /// How many snapshots were diffed and applied (coalesced ones are not counted).
    public var appliedSnapshotCount: Int { snapshots.appliedCount }

    /// The time the main actor spent showing bound snapshots so far (every
    /// main-actor job of ``bind(to:)`` and ``submit(_:)``, not the diff that runs
    /// off it). For the benchmarks, which time main-actor work on its own.
    @_spi(Benchmarks)
    @available(iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    public var mainActorApplyTime: Duration { .nanoseconds(Int64(clamping: snapshots.mainActorNanoseconds)) }

    /// Whether a snapshot is waiting or being diffed and applied.
    public var isApplying: Bool { snapshots.isApplying }

    /// Queues `snapshot` to be shown: diffed off the main actor, then applied.
    /// Replaces a snapshot queued before that has not started yet; a later
    /// ``apply(_:state:)`` or ``bind(to:)`` drops it unless it already shows.
    ///
    /// It does not unbind a bound data source (unlike ``apply(_:state:)``): the snapshot
    /// shows as one of the source's would, and the source's next snapshot replaces it. To
    /// show something else in a bound source's place, use ``apply(_:state:)``.
    public func submit(_ snapshot: ListSnapshot) {
        snapshots.submit(snapshot, to: self)
    }

    /// Returns once every submitted snapshot is shown.
    ///
    /// Cancelling the task that awaits it does not end it early: it still returns once
    /// everything submitted so far is shown (a diff under way is not cancelled either).
    public func settle() async {
        await snapshots.settle()
    }

    // MARK: Display hooks (ListViewDelegate)

    /// Calls `handler` whenever a content row is about to show, with its path and item.
    public func onWillDisplay(_ handler: @escaping @MainActor (ItemPath, ListItem) -> Void) {
        displayHooks.append(DisplayHook(willDisplay: handler))
    }

    /// Calls `handler` with the content rows near the visible window that will
    /// probably show soon (the list view's prefetch: a working range).
    public func onPrefetch(_ handler: @escaping @MainActor ([ListItem]) -> Void) {
        displayHooks.append(DisplayHook(prefetch: handler))
    }

    public func listView(_ listView: any ListView, willDisplay cell: AnyObject, at path: ItemPath) {
        if let more = displayed.item(at: path)?.model as? LoadMorePlaceholder {
            // The end of the list is reached again after a failed page: retry it. Not when
            // the row shows because the content changed (a list view that reloads updated
            // rows would otherwise retry a failing page forever).
            if more.isFailed, !isShowing { dataSource?.loadNextPage() }
            return
        }
        guard let item = contentItem(at: path) else { return }
        if let dataSource { dataSource.willDisplayItem(at: path, in: displayedContent) }
        for hook in displayHooks { hook.willDisplay?(path, item) }
        resources.presentProvided(item, cell: cell)
        resources.willDisplay(item, cell: cell)
    }

    public func listView(_ listView: any ListView, didEndDisplaying cell: AnyObject, at path: ItemPath) {
        // The row may be gone from `displayed` already (a delete): loaders go by id.
        resources.didEndDisplaying(cell: cell)
    }

    public func listView(_ listView: any ListView, prefetchItemsAt paths: [ItemPath]) {
        let items = paths.compactMap { contentItem(at: $0) }
        guard !items.isEmpty else { return }
        for hook in displayHooks { hook.prefetch?(items) }
        resources.prefetch(items)
    }

    public func listView(_ listView: any ListView, cancelPrefetchingItemsAt paths: [ItemPath]) {
        let items = paths.compactMap { contentItem(at: $0) }
        resources.cancelPrefetch(items)
    }

    /// The shown model without the ``LoadMorePlaceholder`` row: what the data source's paths point into.
    private var displayedContent: TableModel {
        var content = displayed
        if content.sections.last?.id == Self.loadMoreSection { content.sections.removeLast() }
        return content
    }

    /// Reports the content rows on screen (``ListDataSource/visibleEndIsOnScreen(at:in:)``),
    /// from the last up, to a bound source that waits for the end of its rows to show (a
    /// ``PaginatedDataSource`` that may load its next page), until it no longer waits: with that end already on screen, no row comes on
    /// screen to say so. From the last up, not only the last: a paged child of a
    /// ``MultiDataSource`` may end above another child's rows.
    func reportVisibleEndIfAwaited() {
        guard let dataSource, dataSource.awaitsVisibleEnd, let listView else { return }
        let content = displayedContent
        for path in listView.visibleItemPaths.reversed() where contentItem(at: path) != nil {
            dataSource.visibleEndIsOnScreen(at: path, in: content)
            guard dataSource.awaitsVisibleEnd else { return }
        }
    }

    /// The content row shown at `path` (not a placeholder row).
    func contentItem(at path: ItemPath) -> ListItem? {
        guard let item = displayed.item(at: path), displayed.sections[path.section].id != .placeholder,
              displayed.sections[path.section].id != Self.loadMoreSection else { return nil }
        return item
    }
}

extension ListController: SnapshotQueueOwner {
    func target(for snapshot: ListSnapshot) -> TableModel {
        Self.displayedModel(
            snapshot.model, state: snapshot.state, placeholders: shownPlaceholders,
            activity: snapshot.activity, nextPageError: snapshot.nextPageError)
    }

    func show(_ snapshot: ListSnapshot, target: TableModel, staged: TableChangeset) -> Garbage? {
        let origin = dataSource.map { String(describing: type(of: $0)) } ?? "submit(_:)"
        record(snapshot.model, state: snapshot.state, origin: origin, shownInRow: snapshot.nextPageError != nil && placeholders.showsRows, failureID: snapshot.failureID, failedPage: snapshot.failedPage)
        activity = snapshot.activity
        hasMore = snapshot.hasMore
        nextPageError = snapshot.nextPageError
        let garbage = show(target, staged: staged)
        // Not while a newer snapshot waits: the source is past what shows (a page came), and
        // the rows on screen would name its end wrongly; the newer one's show reports.
        if !snapshots.hasPending { reportVisibleEndIfAwaited() }
        return garbage
    }
}

/// A display observer registered with ``ListController/onWillDisplay(_:)``.
struct DisplayHook {
    var willDisplay: (@MainActor (ItemPath, ListItem) -> Void)?
    var prefetch: (@MainActor ([ListItem]) -> Void)?
}
