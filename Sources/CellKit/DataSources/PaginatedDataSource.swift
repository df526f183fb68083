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
/// ``refresh()`` fetches the first page again and puts it in place of the rows
/// it covers: rows up to the last one it still holds are replaced (so rows it
/// lacks there were deleted), rows after that stay, without repeats, also when
/// only the first page was loaded. New items at the top are inserted and the rest
/// stays where it was; the rows they push off the first page stay too, and the
/// next page skips them. A first page that says no page follows
/// (``Page/hasMore`` is `false`) is the whole list: it replaces every row. Items
/// already shown are skipped when a page is appended. Repeats within one page (the
/// first page, a refreshed one, or a later one) are not skipped: as everywhere in
/// CellKit, they are distinct rows, the first keeps the identity, and the
/// controller's diagnostic names the id. When the new first page holds only new
/// items (more arrived than one page), the rows loaded before stay below them and
/// the pages after the first are fetched again, their items going in between,
/// until one reaches the rows loaded before: paged to the end, every item shows
/// exactly once. (Pages are numbered, so items that arrive on the server between
/// two page loads shift the later pages: such an item shows where the page that
/// brings it puts it, until the next refresh.) ``lastRefreshNewItemCount`` says how
/// many rows a refresh added.
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
/// on the server's top (once even a whole page of them: the page before again).
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
    public private(set) var nextPageError: (any Error)?
    /// How many rows the last finished ``refresh()`` added: the items it brought that
    /// were not showing before it and show now (an item a local edit removed does not
    /// count); `nil` before one finished.
    public private(set) var lastRefreshNewItemCount: Int?
    /// How many rows before the end trigger the next page; 0: rows showing never
    /// load a page, only ``loadNextPage()``, ``loadUntil(_:)`` and ``loadAll()`` do.
    /// Rows showing load no page either after a next page that failed or that
    /// brought nothing new while saying more follow.
    public var prefetchDistance: Int

    private let fetch: FetchPage
    /// The rows of the loaded items: typed rows, built by code specialised for `Item`
    /// where the source was created (see ``TableSection``).
    private let makeRows: @Sendable ([Item]) -> _SectionRows
    private var loads = LoadGenerations()
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
    /// After a refresh whose first page held only new items: the first of the rows
    /// loaded before it; the items of the pages fetched again go in front of it.
    /// Newest gap first (a second such refresh before the first gap is filled opens
    /// another above it); empty: pages go at the end.
    private var gapEnds: [ItemID] = []
    private var edits = LocalEdits()
    /// Whether the closure of an ``edit(_:)`` runs.
    private var isEditing = false
    /// The edits made inside it, applied after it.
    private var nested = NestedEdits<[Item]>()

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
    @discardableResult
    public func load() -> Task<Void, Never> { startFirstPage(refreshing: !items.isEmpty) }

    /// Loads the first page again, keeping the content, and puts it in front of the rest.
    @discardableResult
    public func refresh() -> Task<Void, Never> { startFirstPage(refreshing: true) }

    /// Loads the next page unless one is loading, none is left, or the first page is loading;
    /// after a failed page, asks for that page again.
    /// Returns the task, or `nil` when nothing was started.
    @discardableResult
    public func loadNextPage() -> Task<Void, Never>? {
        guard hasMore, pageInFlight == nil, !isFetchingFirstPage else { return nil }
        let page = nextPage
        let generation = loads.current
        pageInFlight = page
        nextPageError = nil
        stalledPage = nil
        publish(state: snapshot.quietState)
        let fetch = fetch
        let task = Task { [weak self] in
            let result: Result<Page<Item>, any Error>
            do { result = .success(try await fetch(page)) } catch { result = .failure(error) }
            // A cancelled page is not appended, even when the fetch returned it anyway.
            self?.finishMore(page, generation, Task.isCancelled ? .failure(CancellationError()) : result)
        }
        moreTask = task
        return task
    }

    /// Loads page after page until `isEnough(items)` holds or no page is left
    /// (what End does in a list that should reach its real end). Each page is
    /// published as it arrives, with the ``ListActivity/loadingMore`` activity,
    /// so the list shows the progress.
    ///
    /// A failed page stops it (the list ends with the retry row; call it again to
    /// go on); so do a refresh, ``cancel()`` and cancelling the returned task.
    /// Cancelling the returned task cancels the page it is waiting for (the fetch's
    /// task is cancelled, and the page is not appended even if the fetch returns it),
    /// and the first load it started itself; a first load or refresh started
    /// elsewhere goes on. The list stays as it was, with no error, and paging goes on
    /// when asked again. So
    /// does a page that says more follow but moves the list on no further (empty,
    /// or the same rows again: a server that repeats itself, see
    /// ``PaginatedDataSource``): call it again to go on from the next page. A page already
    /// loading is waited for, not asked for twice: called while the first page loads
    /// (or a refresh runs), it goes on once that page is in. Called before anything
    /// was loaded (or after the first load failed or was cancelled), it loads the
    /// first page first, as ``load()`` does; a failed first page stops it.
    @discardableResult
    public func loadUntil(_ isEnough: @escaping @MainActor (_ items: [Item]) -> Bool) -> Task<Void, Never> {
        let firstLoad = nextPage == 0 && !isFetchingFirstPage && !isEnough(items) ? load() : nil
        let generation = loads.current
        return Task { [weak self] in
            while !Task.isCancelled {
                guard let self, self.loads.isCurrent(generation), !isEnough(self.items) else { return }
                if self.isFetchingFirstPage, let first = self.loads.task {
                    // The first load it started is cancelled with it; one started elsewhere goes on.
                    await Self.wait(for: first, cancelling: first == firstLoad)
                    if Task.isCancelled { return }
                    if case .failed = self.snapshot.state { return }
                    continue
                }
                if let running = self.moreTask {
                    // A page loading is this task's page from now on: cancelling the task cancels it.
                    await Self.wait(for: running, cancelling: true)
                } else if let started = self.loadNextPage() {
                    await Self.wait(for: started, cancelling: true)
                } else {
                    return  // no page left
                }
                if self.nextPageError != nil || self.stalledPage != nil { return }
            }
        }
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
    ///   is inserted again; removing a `Dog` 1 does not hide a `Cat` 1);
    /// - an inserted item stays where it was put until a fetch returns it;
    /// - updated and moved items stay as edited while pages load (a page never
    ///   replaces a row already loaded); a refresh shows the server's version and
    ///   order of the items its first page holds: the server is the truth for what
    ///   it returns.
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
        var edited = items
        guard !isEditing else {
            defer { nested.edited(edited) }
            return try change(&edited)
        }
        let before = items.map { ItemID($0) }
        let gap = gapIndex
        isEditing = true
        defer {
            isEditing = false
            items = nested.apply(before: items, onto: edited, replay: EditReplay.replay)
            let after = items.map { ItemID($0) }
            edits.record(before: before, after: after)
            ids = Set(after)
            if let gap, gapIndex == nil {
                // The row the gap ended at was removed: the gap ends at the row now in its place.
                gapEnds.removeFirst()
                if gap < items.count { gapEnds.insert(after[gap], at: 0) }
            }
            publishContent()
        }
        return try change(&edited)
    }

    /// Stops every fetch; the content stays. A cancelled first load shows the error row with a retry.
    public func cancel() {
        guard isFetching else { return }
        _ = loads.next()
        moreTask?.cancel()
        moreTask = nil
        pageInFlight = nil
        isFetchingFirstPage = false
        let state: ContentState = snapshot.state.isLoading ? .failed(CancellationError()) : snapshot.state
        publish(state: state)
    }

    /// Loads the next page when `path` is one of the last ``prefetchDistance`` rows
    /// (not after a failed page: the retry row asks again; nor after a page that moved
    /// the list on no further: a server that repeats itself, see ``PaginatedDataSource``).
    public func willDisplayItem(at path: ItemPath, in model: TableModel) {
        guard nextPageError == nil, stalledPage == nil, path.section == model.sections.count - 1,
              path.item >= model.sections[path.section].items.count - prefetchDistance else { return }
        loadNextPage()
    }

    private func startFirstPage(refreshing: Bool) -> Task<Void, Never> {
        let generation = loads.next()
        moreTask?.cancel()
        moreTask = nil
        pageInFlight = nil
        stalledPage = nil
        isFetchingFirstPage = true
        if refreshing {
            publish(state: snapshot.quietState, activity: .refreshing)
        } else {
            publish(ListSnapshot(snapshot.model, state: .loading))
        }
        let fetch = fetch
        let task = Task { [weak self] in
            let result: Result<Page<Item>, any Error>
            do { result = .success(try await fetch(0)) } catch { result = .failure(error) }
            // A cancelled load shows nothing it fetched, even when the fetch returned anyway.
            self?.finishFirstPage(generation, refreshing: refreshing, Task.isCancelled ? .failure(CancellationError()) : result)
        }
        loads.task = task
        return task
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
            let fresh = page.items
            let freshIDs = Set(fresh.lazy.map { ItemID($0) })
            var merged: [Item]
            if refreshing && nextPage > 0 && page.hasMore {
                // The new first page replaces the loaded rows up to the last one it
                // still holds (rows before that which it lacks were deleted); the rows
                // after it stay (the next page skips the ones it repeats). This holds
                // with one page loaded too: the rows a new item pushed off the first
                // page stay until the next page brings them.
                let overlap = items.lastIndex { freshIDs.contains(ItemID($0)) }
                let rest = items[(overlap.map { $0 + 1 } ?? 0)...]
                merged = fresh + rest
                if overlap == nil, let first = rest.first {
                    // Only new items: more may lie between them and the rows loaded
                    // before. Fetch the pages after the first again, into the gap.
                    gapEnds.insert(ItemID(first), at: 0)
                    nextPage = 1
                    hasMore = true
                }
            } else {
                // A first load, or a first page with nothing after it: it is the whole list.
                merged = fresh
                hasMore = page.hasMore
                nextPage = 1
                gapEnds = []
            }
            items = edits.merge(merged, previous: previous)
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
            var gap = gapIndex
            // The identities this page brought: a repeat within the page is a row of its own.
            var pageIDs = Set<ItemID>()
            for item in loaded.items {
                let id = ItemID(item)
                guard edits.admits(id) else { continue }
                guard ids.insert(id).inserted || pageIDs.contains(id) else {
                    // A row loaded before the refresh: the gap is closed, later items
                    // go into the next older gap, or at the end.
                    if let end = gap, let index = items.firstIndex(where: { ItemID($0) == id }), index >= end {
                        gapEnds.removeFirst()
                        gap = gapIndex
                    }
                    continue
                }
                pageIDs.insert(id)
                if let end = gap {
                    items.insert(item, at: end)
                    gap = end + 1
                } else {
                    items.append(item)
                }
            }
            hasMore = loaded.hasMore
            noteProgress(of: page, loaded.items, added: !pageIDs.isEmpty)
            if !hasMore { gapEnds = [] }
            nextPage = page + 1
            publishContent()
        case .failure(let error) where error is CancellationError:
            publish(state: snapshot.state)
        case .failure(let error):
            nextPageError = error
            publish(state: .failed(error))
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

    /// Where the newest gap after a refresh ends (see `gapEnds`); `nil` when there is none.
    private var gapIndex: Int? {
        guard let gapEnd = gapEnds.first else { return nil }
        return items.firstIndex { ItemID($0) == gapEnd }
    }

    /// What runs now, for the snapshots published between loads (edits).
    private var activity: ListActivity {
        if pageInFlight != nil { return .loadingMore }
        if isFetchingFirstPage && !items.isEmpty { return .refreshing }
        return .idle
    }

    private func publishContent() {
        let model = TableModel(sections: [TableSection(id: 0, header: nil, footer: nil, rows: makeRows(items))])
        // An edit to an empty list during the first load leaves the loading row.
        let state: ContentState = isFetchingFirstPage && model.isEmpty ? .loading : .settled(model)
        publish(ListSnapshot(model, state: state, activity: activity, hasMore: hasMore, nextPageError: nextPageError))
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
