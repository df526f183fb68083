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
/// ``refresh()`` fetches the first page again and puts it in place of the rows
/// it covers: rows up to the last one it still holds are replaced (so rows it
/// lacks there were deleted), rows after that stay, without repeats. New items
/// at the top are inserted and the rest stays where it was. Items whose id is already shown
/// are skipped when a page is appended.
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
    /// How many rows before the end trigger the next page.
    public var prefetchDistance: Int

    private let fetch: FetchPage
    private var loads = LoadGenerations()
    private var moreTask: Task<Void, Never>?
    private var ids: Set<Item.ID> = []
    private var lastLoadMoreFailed = false

    /// Creates a source fetching pages with `fetch`.
    public init(prefetchDistance: Int = 5, fetch: @escaping FetchPage) {
        self.prefetchDistance = prefetchDistance
        self.fetch = fetch
    }

    /// Whether any fetch runs.
    public var isFetching: Bool { isFetchingFirstPage || pageInFlight != nil }

    /// Loads the first page; shows the loading row when nothing is shown yet.
    @discardableResult
    public func load() -> Task<Void, Never> { startFirstPage(refreshing: !items.isEmpty) }

    /// Loads the first page again, keeping the content, and puts it in front of the rest.
    @discardableResult
    public func refresh() -> Task<Void, Never> { startFirstPage(refreshing: true) }

    /// Loads the next page unless one is loading, none is left, or the first page is loading.
    /// Returns the task, or `nil` when nothing was started.
    @discardableResult
    public func loadNextPage() -> Task<Void, Never>? {
        guard hasMore, pageInFlight == nil, !isFetchingFirstPage else { return nil }
        let page = nextPage
        let generation = loads.current
        pageInFlight = page
        lastLoadMoreFailed = false
        publish(ListSnapshot(snapshot.model, state: snapshot.quietState, activity: .loadingMore, hasMore: hasMore))
        let fetch = fetch
        let task = Task { [weak self] in
            let result: Result<Page<Item>, any Error>
            do { result = .success(try await fetch(page)) } catch { result = .failure(error) }
            self?.finishMore(page, generation, result)
        }
        moreTask = task
        return task
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
        publish(ListSnapshot(snapshot.model, state: state, hasMore: hasMore))
    }

    /// Loads the next page when `path` is one of the last ``prefetchDistance`` rows.
    public func willDisplayItem(at path: ItemPath, in model: TableModel) {
        guard !lastLoadMoreFailed, path.section == model.sections.count - 1,
              path.item >= model.sections[path.section].items.count - prefetchDistance else { return }
        loadNextPage()
    }

    private func startFirstPage(refreshing: Bool) -> Task<Void, Never> {
        let generation = loads.next()
        moreTask?.cancel()
        moreTask = nil
        pageInFlight = nil
        isFetchingFirstPage = true
        if refreshing {
            publish(ListSnapshot(snapshot.model, state: snapshot.quietState, activity: .refreshing, hasMore: hasMore))
        } else {
            publish(ListSnapshot(snapshot.model, state: .loading))
        }
        let fetch = fetch
        let task = Task { [weak self] in
            let result: Result<Page<Item>, any Error>
            do { result = .success(try await fetch(0)) } catch { result = .failure(error) }
            self?.finishFirstPage(generation, refreshing: refreshing, result)
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
            lastLoadMoreFailed = false
            var fresh = [Item]()
            var freshIDs = Set<Item.ID>()
            for item in page.items where freshIDs.insert(item.id).inserted { fresh.append(item) }
            if refreshing && nextPage > 1 {
                // The new first page replaces the loaded rows up to the last one it
                // still holds (rows before that which it lacks were deleted); the rows
                // after it stay, without the ones the new page repeats.
                let overlap = items.lastIndex { freshIDs.contains($0.id) }
                let rest = items[(overlap.map { $0 + 1 } ?? 0)...].filter { !freshIDs.contains($0.id) }
                items = fresh + rest
            } else {
                items = fresh
                hasMore = page.hasMore
                nextPage = 1
            }
            ids = Set(items.map(\.id))
            publishContent()
        case .failure(let error) where error is CancellationError:
            publish(ListSnapshot(snapshot.model, state: snapshot.state.isLoading ? .failed(error) : snapshot.state, hasMore: hasMore))
        case .failure(let error):
            publish(ListSnapshot(snapshot.model, state: .failed(error), hasMore: hasMore))
        }
    }

    private func finishMore(_ page: Int, _ generation: Int, _ result: Result<Page<Item>, any Error>) {
        guard loads.isCurrent(generation), pageInFlight == page else { return }
        pageInFlight = nil
        moreTask = nil
        switch result {
        case .success(let loaded):
            for item in loaded.items where ids.insert(item.id).inserted { items.append(item) }
            hasMore = loaded.hasMore
            nextPage = page + 1
            publishContent()
        case .failure(let error) where error is CancellationError:
            publish(ListSnapshot(snapshot.model, state: snapshot.state, hasMore: hasMore))
        case .failure(let error):
            lastLoadMoreFailed = true
            publish(ListSnapshot(snapshot.model, state: .failed(error), hasMore: hasMore))
        }
    }

    private func publishContent() {
        let model = TableModel(items)
        publish(ListSnapshot(model, state: .settled(model), hasMore: hasMore))
    }

    private func publish(_ snapshot: ListSnapshot) {
        self.snapshot = snapshot
        onSnapshot?(snapshot)
    }
}
