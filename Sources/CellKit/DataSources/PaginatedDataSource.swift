/// One page of results: its items and whether more pages follow.
public struct Page<Item: Sendable>: Sendable {
    /// The items of the page, in order.
    public var items: [Item]
    /// Whether another page exists after this one.
    public var hasMore: Bool

    /// Creates a page.
    public init(_ items: [Item], hasMore: Bool) {
        self.items = items
        self.hasMore = hasMore
    }
}

/// A data source that loads page by page (Instant Cocoa's paginated data source):
/// it asks for the next page when one of the last ``prefetchDistance`` rows is
/// about to show, knows whether more pages exist, and never asks for the same
/// page twice at once.
///
/// Rows are told apart by their identity, ``ItemID`` (the model's runtime type and
/// id), as everywhere in CellKit: in a `PaginatedDataSource<Animal>`, a `Dog` and a
/// `Cat` with equal ids are two rows, for skipping repeats, for local edits and for
/// refreshes alike.
///
/// ``refresh()`` fetches the first page again and shows the server's list from the
/// top: the new first page takes the place of the loaded rows up to the furthest one it
/// still holds in their old order. Rows up to there that it lacks are gone from there
/// (deleted on the server, or moved further down, where a later page brings them back);
/// an item that moved up from further down (a thread bumped to the top) does not count.
/// The rows after that stay, in their order: also when only the first page was loaded
/// (the rows new items push off the first page stay) and when the first page holds only
/// new items. A first page that says no page follows (``Page/hasMore`` is `false`) is
/// the whole list: it replaces every row. ``lastRefreshNewItemCount`` says how many rows
/// a refresh added.
///
/// The rows a refresh keeps below its first page are unconfirmed until a page returns
/// them: the pages after the first are fetched again (``nextPage`` is 1 after a refresh),
/// and each puts what it returns where the server has it, in the server's version: new
/// items, unconfirmed rows and items inserted locally go after the rows placed so far, in
/// front of the unconfirmed rest. Unconfirmed rows a page passes (it returns unconfirmed
/// rows that came after them) and those left when the last page is in are no longer on
/// the server there: they go. So after a refresh, paged to the end, the list is the
/// server's: every item it holds exactly once, in its order and version, less the items
/// removed locally, with the items inserted locally that it does not hold yet where
/// they were put (see ``edit(_:)``).
///
/// Pages are numbered, so a server's list that changes between two page loads shifts
/// the later pages. A page leaves the rows already shown and fetched since the last
/// refresh as they are (same ``ItemID``: type and id), and adds the items it brings
/// after them: an item that arrived on top of the server's list between two page loads
/// shows where the page that brings it puts it, until the next refresh puts it in its
/// place. An item that moved up past a page boundary between two page loads (items above
/// it deleted on the server) is missed likewise until the next refresh. Repeats within
/// one page (the first page, a refreshed one, or a later one) are not skipped: as
/// everywhere in CellKit, they are distinct rows, the first keeps the identity, and the
/// controller's diagnostic names the id.
///
/// A server that repeats itself is not asked forever. A next page that says more
/// follow (``Page/hasMore``) but comes back empty, or holds only rows that the pages
/// after the last one that added rows already brought (the same page a third time in
/// a row, pages that go round), stops the paging there: ``loadAll()`` and ``loadUntil(_:)`` end
/// after it, rows coming on screen load no page, and the controller's
/// ``ListController/diagnostics`` get a ``Diagnostic/Kind/pagingStalled`` diagnostic
/// naming the source's type and the page (standard error while no controller binds
/// the source). ``hasMore`` stays `true`: ``loadNextPage()``, ``loadAll()`` or
/// ``loadUntil(_:)`` ask for the next page, and a load or refresh starts over. Pages
/// of rows already shown that move on through the list do not stop it: the pages
/// fetched again after a refresh, or a page that re-sends rows because items arrived
/// on the server's top (once even a whole page of them: the page before again; the
/// same rows a third time in a row stop it).
///
/// A list left with no row while ``hasMore`` holds (local edits removed every row the
/// pages brought, or a page held only such rows) asks for its next page itself: no row
/// can come on screen to ask. Its snapshot is `.loading` meanwhile (the loading row),
/// and `.empty` only once no page is left or the paging stalled. When that page fails
/// (or a page failed before the list was left with no row), the snapshot is `.failed`
/// with its ``nextPageError``: the controller shows the failed ``LoadMorePlaceholder``
/// row alone, whose retry asks for the page again, and reports the failure as a
/// ``Diagnostic/Kind/loadFailed`` diagnostic naming the source and the page (nothing else
/// shows: a page that fails then is no ``ListController/onError`` call). A failure is
/// reported once: one that failed while rows showed went to `onError`, and is not reported
/// again when an edit then empties the list, nor by the edits after it.
///
/// A cancelled next page (``cancel()``, its task cancelled, or the fetch throwing
/// `CancellationError`) keeps the content and ``hasMore`` and ends the list with the
/// same retry row, its ``nextPageError`` the `CancellationError`; ``ListController/onError``
/// is not called (nothing failed).
///
/// A failed next page keeps the content and ends the list with the
/// ``LoadMorePlaceholder`` row in its failed form (``nextPageError``); selecting
/// it, the row coming on screen again, ``loadNextPage()`` or ``loadAll()`` ask
/// for the page again, and paging goes on after a success. While a next page
/// loads, the same row shows "Loading more…".
///
/// ```swift
/// struct Post: Identifiable, Equatable, Sendable { let id: Int }
///
/// let source = PaginatedDataSource<Post> { page in
///     Page((page * 20..<page * 20 + 20).map { Post(id: $0) }, hasMore: page < 4)
/// }
/// Task { @MainActor in
///     await source.load().value
///     await source.loadNextPage()?.value
///     assert(source.items.count == 40 && source.hasMore)
///     await source.loadAll().value
///     assert(source.items.count == 100 && !source.hasMore)
/// }
/// ```
@MainActor
public final class PaginatedDataSource<Item: Identifiable & Sendable>: ListDataSource where Item.ID: Sendable {
    /// Fetches page `page` (0 is the first).
    public typealias FetchPage = @Sendable (_ page: Int) async throws -> Page<Item>

    public private(set) var snapshot = ListSnapshot()
    public var onSnapshot: (@MainActor (ListSnapshot) -> Void)?
    /// The items loaded so far, in order.
    public private(set) var items: [Item] = []
    /// Whether another page exists.
    public private(set) var hasMore = false
    /// The page a next-page load asks for.
    public private(set) var nextPage = 0
    /// The page being loaded by ``loadNextPage()``, if any.
    public private(set) var pageInFlight: Int?
    /// Whether the first page is being (re)loaded.
    public private(set) var isFetchingFirstPage = false
    /// Why the last next-page load failed; `nil` once the page is asked for again.
    public private(set) var nextPageError: (any Error)? {
        didSet { nextPageFailure = nextPageError.map { _ in FailureIDs.next() } }
    }
    /// Names the failure of ``nextPageError`` in the snapshots that publish it, so that the
    /// controller reports it once: when the page fails, or when an edit leaves the list with no
    /// row after it had failed, not both (``ListSnapshot/failureID``).
    private var nextPageFailure: Int?
    /// How many rows the last finished ``refresh()`` added: the items its first page brought
    /// that were not showing before it and show now (an item a local edit removed does not
    /// count; the pages fetched after it do not count, also when they bring new items);
    /// `nil` before one finished.
    public private(set) var lastRefreshNewItemCount: Int?
    /// How many rows before the end trigger the next page; 0 (or less): rows showing never
    /// load a page, only ``loadNextPage()``, ``loadUntil(_:)`` and ``loadAll()`` do.
    /// Rows showing load no page either after a next page that failed or that
    /// brought nothing new while saying more follow.
    public var prefetchDistance: Int

    private let fetch: FetchPage
    /// The rows of the loaded items: typed rows, built by code specialised for `Item`
    /// where the source was created (see ``TableSection``).
    private let makeRows: @Sendable ([Item]) -> _SectionRows
    private var loads = LoadGenerations()
    /// How many ``loadUntil(_:)`` loops run (``loadAll()`` and the pages the end on screen
    /// loads after a refresh too): ``cancel()`` between two of their pages stops them.
    private var pagingLoops = 0
    private var moreTask: Task<Void, Never>?
    /// The identities the next pages held after the last page that added a row (or the
    /// first page): a page that adds no row and holds none but these repeats what the
    /// server said before.
    private var recentPageIDs: Set<ItemID> = []
    /// The last next page that said more follow but held only rows of ``recentPageIDs``
    /// (or none); `nil` again once a page is asked for. While it is set, rows showing
    /// load no page, and ``loadUntil(_:)`` stops after it.
    private var stalledPage: Int?
    /// Where a stalled page is reported: the diagnostics of the controller that binds
    /// the source (``ListController/diagnostics``), standard error while none does.
    var diagnostics: DiagnosticHandler = .standardError
    /// The identities of ``items`` (rows are told apart by ``ItemID``: type and id).
    private var ids: Set<ItemID> = []
    /// The rows a refresh kept below its first page (loaded before it) that no page
    /// fetched since returned: the pages after the first are fetched again, and each
    /// puts the rows it returns in the server's place and version (see `place(_:endsList:)`).
    /// Next pages go in front of the first of them; a row the user moved with `edit`
    /// leaves the set (it stays where it was put until a fetch returns it).
    private var unconfirmed: Set<ItemID> = []
    /// The pages the end coming on screen loads while rows are unconfirmed (see
    /// ``willDisplayItem(at:in:)``); `nil` when none run.
    private var catchUp: Task<Void, Never>?
    /// No unconfirmed row lies before this index (0 after a refresh or an edit): where
    /// the search for the first one starts, so that a page fetched again does not go
    /// through the rows placed before it.
    private var unconfirmedHint = 0
    /// Set by a ``cancel()`` (also one with nothing running): the end of the list on screen loads no
    /// page by itself (``awaitsVisibleEnd`` is `false`) until a page or a load is asked for
    /// (a row coming on screen, ``loadNextPage()``, ``loadUntil(_:)``, a load or refresh).
    private var heldByCancel = false
    private var edits = LocalEdits<Item>()
    /// Whether the closure of an ``edit(_:)`` runs, and the edits made inside it, applied after it.
    private let nested = NestedEdits<[Item]>()

    /// Creates a source fetching pages with `fetch`.
    @inlinable
    public convenience init(prefetchDistance: Int = 5, fetch: @escaping FetchPage) {
        self.init(prefetchDistance: prefetchDistance, fetch: fetch, makeRows: { _identifiableRows($0) })
    }

    @usableFromInline
    init(prefetchDistance: Int, fetch: @escaping FetchPage, makeRows: @escaping @Sendable ([Item]) -> _SectionRows) {
        self.prefetchDistance = prefetchDistance
        self.fetch = fetch
        self.makeRows = makeRows
    }

    /// Whether any fetch runs.
    public var isFetching: Bool { isFetchingFirstPage || pageInFlight != nil }

    /// Loads the first page; shows the loading row when nothing is shown yet.
    ///
    /// The task ends once the source holds the page (``items``) and has published it. A
    /// bound ``ListController`` diffs that snapshot off the main actor and shows it on a
    /// later main-actor turn: after `await source.load().value`, the list view may still
    /// show "Loading…"; `await controller.settle()` returns once the page is on it.
    @discardableResult
    public func load() -> Task<Void, Never> { startFirstPage(refreshing: !items.isEmpty) }

    /// Loads the first page again, keeping the content: it takes the place of the rows it
    /// covers, the rows after it stay until the pages fetched again after it return them
    /// (see ``PaginatedDataSource``).
    @discardableResult
    public func refresh() -> Task<Void, Never> { startFirstPage(refreshing: true) }

    /// Loads the next page unless one is loading, none is left, or the first page is loading;
    /// after a failed page, asks for that page again.
    /// Returns the task, or `nil` when nothing was started.
    @discardableResult
    public func loadNextPage() -> Task<Void, Never>? {
        guard let task = startNextPage() else { return nil }
        // A list with no row (local edits emptied it) shows the loading row meanwhile.
        publish(state: items.isEmpty ? .loading : snapshot.quietState)
        return task
    }

    /// Starts the next page (see ``loadNextPage()``) without publishing.
    @discardableResult
    private func startNextPage() -> Task<Void, Never>? {
        guard hasMore, pageInFlight == nil, !isFetchingFirstPage else { return nil }
        heldByCancel = false
        let page = nextPage
        let generation = loads.current
        pageInFlight = page
        nextPageError = nil
        stalledPage = nil
        let fetch = fetch
        // Cancelling the task is cancel() for this page, without waiting for the fetch (see `runFetch`).
        let cancelled: @MainActor @Sendable () -> Void = { [weak self] in self?.pageTaskCancelled(page, generation) }
        let task = Task { [weak self] in
            let result = await runFetch({ try await fetch(page) }, cancelled: cancelled)
            // A cancelled page is not appended, even when the fetch returned it anyway.
            if Task.isCancelled { cancelled() } else { self?.finishMore(page, generation, result) }
        }
        moreTask = task
        return task
    }

    /// The task of next page `page` (of load `generation`) was cancelled: ``cancel()``, while that page loads.
    private func pageTaskCancelled(_ page: Int, _ generation: Int) {
        guard loads.isCurrent(generation), pageInFlight == page else { return }
        cancel()
    }

    /// Loads page after page until `isEnough(items)` holds or no page is left
    /// (what End does in a list that should reach its real end). Each page is
    /// published as it arrives, with the ``ListActivity/loadingMore`` activity,
    /// so the list shows the progress.
    ///
    /// A failed page stops it (the list ends with the retry row; call it again to
    /// go on); so do a refresh, ``cancel()`` and cancelling the returned task, also
    /// between two pages (from ``onSnapshot``, a display hook or `isEnough` itself).
    /// Cancelling the returned task cancels the page it is waiting for (the fetch's
    /// task is cancelled, and the page is not appended even if the fetch returns it),
    /// and the first load it started itself; a first load or refresh started
    /// elsewhere goes on, and the task ends once that one is in. That holds whenever the
    /// cancel comes, before the task first runs too (the task of a screen that went at once).
    /// Cancelled before it asked for a page (at once, on a source with content), it asks for
    /// none and the list stays as it is, with no failed load-more row: nothing was asked.
    /// Otherwise the list stays as it was, with no error (no
    /// ``ListController/onError``), and ends with the load-more row in its failed form
    /// (``nextPageError`` is the `CancellationError`, as for any cancelled next page):
    /// paging goes on when asked again, from that row or a call. So
    /// does a page that says more follow but moves the list on no further (empty,
    /// or the same rows again: a server that repeats itself, see
    /// ``PaginatedDataSource``): call it again to go on from the next page. A page already
    /// loading is waited for, not asked for twice: called while the first page loads
    /// (or a refresh runs), it goes on once that page is in. Called before anything
    /// was loaded (or after the first load failed or was cancelled), it loads the
    /// first page first, as ``load()`` does; a failed first page stops it.
    ///
    /// `isEnough` is called at once, with the items there are (none before the first
    /// load), then after each page; a ``cancel()`` or a refresh from any of those calls,
    /// the first included, stops it before the next fetch.
    @discardableResult
    public func loadUntil(_ isEnough: @escaping @MainActor (_ items: [Item]) -> Bool) -> Task<Void, Never> {
        // Paging from here on: a cancel() from the predicate's first call (before any fetch)
        // stops it as one between two pages does.
        pagingLoops += 1
        let asked = loads.current
        let wantsFirstPage = nextPage == 0 && !isFetchingFirstPage && !isEnough(items)
        guard loads.isCurrent(asked) else {
            pagingLoops -= 1
            return Task {}
        }
        let firstLoad = wantsFirstPage ? load() : nil
        let generation = loads.current
        return Task { [weak self] in
            defer { self?.pagingLoops -= 1 }
            // Cancelled whenever (before this task first runs too), it cancels the first load it started.
            await withTaskCancellationHandler {
                // The source is held for one step at a time: a source the app lets go stops it.
                while let self, await self.pagingStep(isEnough, generation: generation) {}
            } onCancel: {
                firstLoad?.cancel()
            }
        }
    }

    /// One step of ``loadUntil(_:)``'s loop (waiting for the first load, or one page); returns
    /// whether the loop goes on.
    private func pagingStep(_ isEnough: @MainActor ([Item]) -> Bool, generation: Int) async -> Bool {
        let cancelled = Task.isCancelled
        // cancel() or a refresh between two pages (the predicate may call them) stops it.
        guard loads.isCurrent(generation), cancelled || !isEnough(items), loads.isCurrent(generation) else { return false }
        if isFetchingFirstPage, let first = loads.task {
            // Cancelled, it still waits for the first load (its own one is cancelled by then; one
            // started elsewhere goes on): the task ends once that one is in, also when it was
            // cancelled before it first ran.
            await first.value
            if Task.isCancelled { return false }
            if case .failed = snapshot.state { return false }
            return true
        }
        if cancelled { return false }
        if let running = moreTask {
            // A page loading is this task's page from now on: cancelling the task cancels it.
            await Self.wait(for: running, cancelling: true)
        } else if let started = loadNextPage() {
            await Self.wait(for: started, cancelling: true)
        } else {
            return false  // no page left
        }
        return nextPageError == nil && stalledPage == nil && !Task.isCancelled
    }

    /// Waits for `task`; when the waiting task is cancelled, cancels `task` too if `cancelling`.
    private static func wait(for task: Task<Void, Never>, cancelling: Bool) async {
        guard cancelling else { return await task.value }
        await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
    }

    /// Loads every page that is left (see ``loadUntil(_:)``).
    @discardableResult
    public func loadAll() -> Task<Void, Never> { loadUntil { _ in false } }

    /// Edits the items at once (an optimistic local edit: a swipe to delete, a
    /// like, a reorder) and publishes them; returns what `change` returns.
    ///
    /// Insert, remove, update and move items with `Array`'s methods on the items
    /// handed in. Later loads respect the edit:
    /// - a removed item never comes back, neither from a later page nor from a
    ///   refresh (its row identity, ``ItemID``, is skipped from then on, unless it
    ///   is inserted again; removing a `Dog` 1 does not hide a `Cat` 1; of rows that share
    ///   an id, only the server's copy of the one removed is skipped: see <doc:PagingAndEdits>);
    /// - an inserted item stays where it was put until a fetch returns it; then the
    ///   server's copy takes its place: where the refreshed first page or the next page
    ///   puts it (as an item the server just sent), in the server's version;
    /// - updated and moved items stay as edited while pages load (a page leaves the rows
    ///   already fetched as they are); a refresh shows the server's version and order of
    ///   the items it returns: the server is the truth for what it sends. That holds for
    ///   the pages fetched again after a refresh too: an item updated below the refreshed
    ///   first page shows the server's version once the page that returns it is in. An
    ///   item moved after a refresh stays where it was put until the next refresh.
    ///
    /// A closure that throws keeps the changes it made before throwing: they are
    /// published, later loads respect them, and the error is rethrown. To change all or
    /// nothing, change a copy and assign it at the end of the closure.
    ///
    /// The closure works on a copy: while it runs, ``items`` and ``snapshot`` still
    /// show the content from before the edit, which is published when the closure
    /// returns (also when it throws: the changes made before the throw are kept). An
    /// `edit(_:)` called from inside the closure runs at once on a copy of the items
    /// from before the outer edit and is applied after it (what it changed replayed on
    /// the outer edit's items, by identity), as in every source (see
    /// ``SimpleDataSource/edit(_:)``); later loads respect both.
    ///
    /// ```swift
    /// struct Post: Identifiable, Equatable, Sendable { let id: Int; var likes = 0 }
    ///
    /// let source = PaginatedDataSource<Post> { page in
    ///     Page((page * 10..<page * 10 + 10).map { Post(id: $0) }, hasMore: page < 2)
    /// }
    /// Task { @MainActor in
    ///     await source.load().value
    ///     source.edit { posts in
    ///         posts.remove(at: 3)                          // swipe to delete post 3
    ///         posts[0].likes += 1                          // a like
    ///         posts.insert(Post(id: 100), at: 0)           // a post being sent
    ///         posts.swapAt(1, 2)                           // a reorder
    ///     }
    ///     await source.loadAll().value
    ///     assert(source.items.map(\.id).prefix(4) == [100, 1, 0, 2])
    ///     assert(!source.items.contains { $0.id == 3 })
    /// }
    /// ```
    @discardableResult
    public func edit<Result>(_ change: (inout [Item]) throws -> Result) rethrows -> Result {
        try nested.edit(items, change, replay: EditReplay.replay) { edited in
            let previous = items
            let before = items.map { ItemID($0) }
            items = edited
            let after = items.map { ItemID($0) }
            ids = edits.record(before: previous, beforeIDs: before, after: items, afterIDs: after)
            unconfirmedHint = 0
            if !unconfirmed.isEmpty {
                // Removed rows leave the set; so do moved ones: they stay where they were put.
                unconfirmed.formIntersection(ids)
                unconfirmed.subtract(Self.movedRows(from: before, to: after))
            }
            publishContent()
        }
    }

    /// Stops every fetch; the content stays. A cancelled first load shows the error row with a retry.
    ///
    /// It stops ``loadAll()`` and ``loadUntil(_:)`` too, also when called between two of
    /// their pages (from ``onSnapshot``, a controller's display hook or the predicate):
    /// the list then ends with the retry row, as for a next page cancelled while it loads.
    /// Called with nothing running, it changes no row and no state, but it holds the paging
    /// all the same (a user's "stop loading" holds whenever it is pressed).
    ///
    /// Nothing is fetched after it until a page or a load is asked for: the end of the list
    /// on screen loads no page by itself (``awaitsVisibleEnd`` is `false`, also after a
    /// cancelled refresh that had stopped a next page, and after an edit that leaves the end
    /// on screen), until a row at the end comes on screen again (the user scrolls it there,
    /// or an ``edit(_:)`` adds one that shows), or ``loadNextPage()``, ``loadUntil(_:)``,
    /// ``loadAll()``, ``load()`` or ``refresh()`` is called. (An ``edit(_:)`` that leaves no
    /// row while more pages exist is such an ask: the list asks for its next page itself, as
    /// always.)
    public func cancel() {
        // Nothing loads by itself from here on, not even for the end of the list on screen,
        // also when nothing runs now.
        heldByCancel = true
        guard isFetching || pagingLoops > 0 else { return }
        // A loop between two pages is paging: it ends with the retry row as a page loading does.
        let betweenPages = pagingLoops > 0 && !isFetchingFirstPage && hasMore && nextPageError == nil && stalledPage == nil
        _ = loads.next()
        moreTask?.cancel()
        moreTask = nil
        // A cancelled next page ends the list with the retry row, as a failed one does.
        if pageInFlight != nil || betweenPages, !items.isEmpty { nextPageError = CancellationError() }
        pageInFlight = nil
        isFetchingFirstPage = false
        let state: ContentState = snapshot.state.isLoading ? .failed(CancellationError()) : snapshot.state
        publish(state: state)
    }

    /// Loads the next page when `path` is one of the last ``prefetchDistance`` rows
    /// (not after a failed page: the retry row asks again; nor after a page that moved
    /// the list on no further: a server that repeats itself, see ``PaginatedDataSource``).
    ///
    /// After a refresh, while rows it kept below its first page wait for the pages fetched
    /// again, those pages put rows above the end rather than at it: the end coming on
    /// screen then loads them one after another, and one page past them, so that the end
    /// moves on without the user scrolling again. The first of them counts in ``isFetching``
    /// and ``pageInFlight`` as soon as it is asked for. When the end is on screen already (as
    /// a refresh lands, or after any other snapshot while a next page may load and none is
    /// under way: ``awaitsVisibleEnd``), the controller binding the source reports the rows on
    /// screen once it shows that snapshot, so the next page loads although no row comes on
    /// screen.
    public func willDisplayItem(at path: ItemPath, in model: TableModel) {
        guard nextPageError == nil, stalledPage == nil, path.section == model.sections.count - 1,
              path.item >= model.sections[path.section].items.count - prefetchDistance else { return }
        guard !unconfirmed.isEmpty else {
            loadNextPage()
            return
        }
        guard catchUp == nil else { return }
        // The first of the pages starts now, so that `isFetching` and `pageInFlight` say so at once.
        loadNextPage()
        var caughtUp = false
        let pages = loadUntil { [weak self] _ in
            // A failed page stops them: its retry row asks again, not this loop (the page may
            // have failed before the loop started, which would otherwise ask for it again).
            guard let self, !caughtUp, self.nextPageError == nil else { return true }
            caughtUp = self.unconfirmed.isEmpty   // then one page more: the first past them
            return false
        }
        catchUp = Task { [weak self] in
            await pages.value
            self?.catchUp = nil
        }
    }

    private func startFirstPage(refreshing: Bool) -> Task<Void, Never> {
        let generation = loads.next()
        moreTask?.cancel()
        moreTask = nil
        pageInFlight = nil
        stalledPage = nil
        heldByCancel = false
        isFetchingFirstPage = true
        if refreshing {
            publish(state: snapshot.quietState, activity: .refreshing)
        } else {
            publish(ListSnapshot(snapshot.model, state: .loading))
        }
        let fetch = fetch
        // Cancelling the task is cancel() for this load, without waiting for the fetch (see `runFetch`).
        let cancelled: @MainActor @Sendable () -> Void = { [weak self] in self?.firstPageTaskCancelled(generation) }
        let task = Task { [weak self] in
            let result = await runFetch({ try await fetch(0) }, cancelled: cancelled)
            // A cancelled load shows nothing it fetched, even when the fetch returned anyway.
            if Task.isCancelled { cancelled() } else { self?.finishFirstPage(generation, refreshing: refreshing, result) }
        }
        loads.task = task
        return task
    }

    /// The task of first-page load `generation` was cancelled: ``cancel()``, while that load runs.
    private func firstPageTaskCancelled(_ generation: Int) {
        guard loads.isCurrent(generation), isFetchingFirstPage else { return }
        cancel()
    }

    private func finishFirstPage(_ generation: Int, refreshing: Bool, _ result: Result<Page<Item>, any Error>) {
        guard loads.isCurrent(generation) else { return }
        loads.task = nil
        isFetchingFirstPage = false
        switch result {
        case .success(let page):
            nextPageError = nil
            let previous = items
            // Repeats within the page stay: distinct rows, reported by the controller's diff.
            let fresh = edits.admitted(page.items, shown: items)
            var merged = fresh
            unconfirmed = []
            unconfirmedHint = 0
            if refreshing && nextPage > 0 && page.hasMore {
                // The new first page replaces the loaded rows up to the furthest one it
                // still holds in their old order (rows before that which it lacks are
                // gone from there: deleted on the server, or moved down, where a later
                // page brings them back; a row that moved up from further down does not
                // count). The rows after it stay, unconfirmed: the pages after the first
                // are fetched again and put them in the server's place.
                let freshIDs = Set(page.items.lazy.map { ItemID($0) })
                let oldIDs = items.map { ItemID($0) }
                var oldIndex: [ItemID: Int] = [:]
                for (index, id) in oldIDs.enumerated() where freshIDs.contains(id) && oldIndex[id] == nil {
                    oldIndex[id] = index
                }
                let reach = Self.orderedReach(fresh.compactMap { oldIndex[ItemID($0)] })
                unconfirmed.reserveCapacity(items.count - reach)
                for index in (reach + 1)..<items.count where !freshIDs.contains(oldIDs[index]) {
                    merged.append(items[index])
                    if !edits.isInserted(oldIDs[index]) { unconfirmed.insert(oldIDs[index]) }
                }
                hasMore = true
            } else {
                // A first load, or a first page with nothing after it: it is the whole list.
                hasMore = page.hasMore
            }
            nextPage = 1
            items = edits.restoringInserts(merged, previous: previous)
            recentPageIDs = []
            let shown = ids
            ids = Set(items.map { ItemID($0) })
            // The rows that newly show: not the ones a local edit hides.
            if refreshing { lastRefreshNewItemCount = ids.reduce(0) { $0 + (shown.contains($1) ? 0 : 1) } }
            publishContent()
        case .failure(let error) where error is CancellationError:
            publish(state: snapshot.state.isLoading ? .failed(error) : snapshot.state)
        case .failure(let error):
            publish(state: .failed(error))
        }
    }

    private func finishMore(_ page: Int, _ generation: Int, _ result: Result<Page<Item>, any Error>) {
        guard loads.isCurrent(generation), pageInFlight == page else { return }
        pageInFlight = nil
        moreTask = nil
        switch result {
        case .success(let loaded):
            let added = place(loaded.items, endsList: !loaded.hasMore)
            hasMore = loaded.hasMore
            noteProgress(of: page, loaded.items, added: added)
            nextPage = page + 1
            publishContent()
        case .failure(let error) where error is CancellationError:
            // The list ends with the retry row (no onError: nothing failed); the state stays.
            // A list with no row shows the error row with a retry, as after cancel().
            if !items.isEmpty { nextPageError = error }
            publish(state: snapshot.state.isLoading ? .failed(error) : snapshot.state)
        case .failure(let error):
            nextPageError = error
            var failed = ListSnapshot(snapshot.model, state: .failed(error), activity: activity, hasMore: hasMore, nextPageError: error)
            failed.failureID = nextPageFailure
            failed.failedPage = page
            publish(failed)
        }
    }

    /// Notes whether next page `page` (its items `held`) moved the list on: it added a
    /// row, or it ends the list, or it re-sent rows shown before but not held by the
    /// pages since the last new row (the server's list shifted down: items arrived on
    /// top, or a refresh has the pages after the first fetched again; the first page
    /// after a new row may repeat that row's page: items as many as a page arrived).
    /// Otherwise the server repeats itself: paging stops there (`stalledPage`), reported.
    private func noteProgress(of page: Int, _ held: [Item], added: Bool) {
        let heldIDs = Set(held.lazy.map { ItemID($0) })
        if added || !hasMore {
            recentPageIDs = []
        } else if heldIDs.isSubset(of: recentPageIDs) {
            stalledPage = page
            let what = held.isEmpty ? "no items" :
                "only rows that the pages after the last one that added rows brought (\(held.count) items: \(held.prefix(3).map { ItemID($0).description }.joined(separator: ", "))\(held.count > 3 ? ", …" : ""))"
            diagnostics(Diagnostic(.pagingStalled, "\(Self.self): page \(page) says more follow (hasMore) but holds \(what); loadAll() and loadUntil(_:) stop, and rows coming on screen load no page until loadNextPage(), loadAll() or loadUntil(_:) asks for page \(page + 1) or a load or refresh starts over"))
        } else {
            recentPageIDs.formUnion(heldIDs)
        }
    }

    /// Puts the items of a next page in place; returns whether it added or moved a row.
    ///
    /// A row shown and fetched since the last refresh (or first load) stays as it is
    /// (a page that repeats it: the server's list shifted). New rows, rows a refresh kept
    /// below its first page (`unconfirmed`) and rows inserted locally that the page
    /// returns go where the page puts them, in the page's version: after the rows placed
    /// so far, in front of the first unconfirmed row (at the end when there is none).
    /// Unconfirmed rows that the page passes (before, in the list, the furthest of the
    /// unconfirmed rows it returns that kept their order) and, at the end of the list
    /// (`endsList`), every unconfirmed row left go: the server no longer has them there.
    private func place(_ page: [Item], endsList: Bool) -> Bool {
        // The page's rows that take a place, in order; a repeat within the page is a row of its own.
        var placed: [Item] = []
        var placedIDs = Set<ItemID>()
        // Rows shown now that move to the page's place (unconfirmed or inserted locally).
        var moving = Set<ItemID>()
        let insertedBefore = edits.inserted
        for item in edits.admitted(page, shown: items) {
            let id = ItemID(item)
            let wasInserted = insertedBefore.contains(id)
            if placedIDs.contains(id) || !ids.contains(id) || unconfirmed.contains(id) || wasInserted {
                if ids.contains(id) && !placedIDs.contains(id) { moving.insert(id) }
                placed.append(item)
                placedIDs.insert(id)
            }
        }
        if unconfirmed.isEmpty && moving.isEmpty {
            // Nothing to move or drop: new rows go at the end.
            items += placed
            ids.formUnion(placedIDs)
            return !placed.isEmpty
        }
        let start = firstUnconfirmedIndex()
        if !endsList && moving.isSubset(of: unconfirmed) {
            // The usual page fetched again: the rows it moves lie from the first unconfirmed
            // row on, mostly right there. Only the rows up to the last of them change.
            var position: [ItemID: Int] = [:]
            var end = start
            while position.count < moving.count && end < items.count {
                let id = ItemID(items[end])
                if moving.contains(id), position[id] == nil { position[id] = end }
                end += 1
            }
            let reach = Self.orderedReach(placed.compactMap { position[ItemID($0)] })
            var segment = placed
            var dropped = 0
            for index in start..<end {
                let id = ItemID(items[index])
                if moving.contains(id) { continue }
                if unconfirmed.contains(id) && index < reach {
                    unconfirmed.remove(id)
                    ids.remove(id)
                    dropped += 1
                    continue
                }
                segment.append(items[index])
            }
            items.replaceSubrange(start..<end, with: segment)
            unconfirmed.subtract(moving)
            ids.formUnion(placedIDs)
            unconfirmedHint = start + placed.count
            return !placed.isEmpty || dropped > 0
        }
        // The end of the list, or items inserted locally that may be anywhere: every row.
        var position: [ItemID: Int] = [:]
        for (index, item) in items.enumerated() {
            let id = ItemID(item)
            if moving.contains(id), unconfirmed.contains(id), position[id] == nil { position[id] = index }
        }
        let reach = Self.orderedReach(placed.compactMap { position[ItemID($0)] })
        var kept: [Item] = []
        kept.reserveCapacity(items.count + placed.count)
        var dropped = 0
        for (index, item) in items.enumerated() {
            if index == start { kept += placed }
            let id = ItemID(item)
            if moving.contains(id) { continue }
            if unconfirmed.contains(id) && (endsList || index < reach) {
                unconfirmed.remove(id)
                ids.remove(id)
                dropped += 1
                continue
            }
            kept.append(item)
        }
        if start == items.count { kept += placed }
        unconfirmed.subtract(moving)
        ids.formUnion(placedIDs)
        items = kept
        unconfirmedHint = 0
        return !placed.isEmpty || dropped > 0
    }

    /// The index of the first unconfirmed row (``items``'s count when there is none),
    /// searched from `unconfirmedHint`, before which there is none.
    private func firstUnconfirmedIndex() -> Int {
        var index = min(unconfirmedHint, items.count)
        while index < items.count && !unconfirmed.contains(ItemID(items[index])) { index += 1 }
        unconfirmedHint = index
        return index
    }

    /// The furthest of `positions` (old positions of rows, in their new order) that a
    /// longest run of rows keeping their order reaches; `-1` when there are none. Rows
    /// that moved up from further down are not part of that run: `[7, 0, 1, 2, 3]` reaches 3.
    static func orderedReach(_ positions: [Int]) -> Int {
        // Patience sorting: tails[k] is the smallest last position of an increasing run of k + 1.
        var tails: [Int] = []
        for position in positions {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if tails[middle] < position { low = middle + 1 } else { high = middle }
            }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        return tails.last ?? -1
    }

    /// The rows of `after` that are not part of a longest run of rows keeping their order
    /// from `before` (the rows an edit moved).
    static func movedRows(from before: [ItemID], to after: [ItemID]) -> Set<ItemID> {
        var oldIndex: [ItemID: Int] = [:]
        for (index, id) in before.enumerated() where oldIndex[id] == nil { oldIndex[id] = index }
        let common = after.compactMap { id in oldIndex[id].map { (id: id, old: $0) } }
        guard zip(common, common.dropFirst()).contains(where: { $0.old >= $1.old }) else { return [] }
        // Longest increasing run of old positions, with links to rebuild it.
        var tails: [Int] = []            // indices into common
        var previous = [Int](repeating: -1, count: common.count)
        for (index, entry) in common.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if common[tails[middle]].old < entry.old { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var inRun = Set<Int>()
        var link = tails.last ?? -1
        while link >= 0 { inRun.insert(link); link = previous[link] }
        var moved = Set<ItemID>()
        for (index, entry) in common.enumerated() where !inRun.contains(index) { moved.insert(entry.id) }
        return moved
    }

    /// What runs now, for the snapshots published between loads (edits).
    private var activity: ListActivity {
        if pageInFlight != nil { return .loadingMore }
        if isFetchingFirstPage && !items.isEmpty { return .refreshing }
        return .idle
    }

    private func publishContent() {
        // No row left to show while more pages exist (local edits removed every row the
        // pages brought): no row can come on screen to ask for the next page, so it is asked here.
        if items.isEmpty, hasMore, !isFetchingFirstPage, pageInFlight == nil, nextPageError == nil, stalledPage == nil {
            startNextPage()
        }
        let model = TableModel(sections: [TableSection(id: 0, header: nil, footer: nil, rows: makeRows(items))])
        // An edit to an empty list during the first load leaves the loading row; so does a
        // next page loading for a list that shows no row yet.
        // A list with no row after a failed next page is no empty result: it shows the
        // failed load-more row alone (the page failed, more are left).
        let state: ContentState = if model.isEmpty && (isFetchingFirstPage || pageInFlight != nil) {
            .loading
        } else if model.isEmpty, let nextPageError, hasMore {
            .failed(nextPageError)
        } else {
            .settled(model)
        }
        var content = ListSnapshot(model, state: state, activity: activity, hasMore: hasMore, nextPageError: nextPageError)
        if case .failed = state {
            content.failureID = nextPageFailure
            content.failedPage = nextPage
        }
        publish(content)
    }

    /// Publishes the shown content again with `state` and `activity` (default: what runs now).
    private func publish(state: ContentState, activity: ListActivity? = nil) {
        publish(ListSnapshot(snapshot.model, state: state, activity: activity ?? self.activity, hasMore: hasMore, nextPageError: nextPageError))
    }

    private func publish(_ snapshot: ListSnapshot) {
        self.snapshot = snapshot
        onSnapshot?(snapshot)
    }
}

extension PaginatedDataSource {
    /// Whether a next page may load and nothing loads now: more pages follow, no page is
    /// under way or failed, paging did not stall, no ``loadAll()``/``loadUntil(_:)`` runs and
    /// no ``cancel()`` holds the paging (see ``ListDataSource/awaitsVisibleEnd``). With the end of the list on screen, the
    /// controller binding the source then reports it after each snapshot it shows, so the next
    /// page loads although no row comes on screen: after a refresh (that said more follow a
    /// list that had ended, that kept rows below its first page, or that started over after
    /// a failed or stalled page), after a page that brought only rows already shown, and
    /// after an edit that left the end on screen.
    public var awaitsVisibleEnd: Bool {
        hasMore && prefetchDistance > 0 && pageInFlight == nil && !isFetchingFirstPage && nextPageError == nil
            && stalledPage == nil && pagingLoops == 0 && catchUp == nil && !heldByCancel
    }
}
