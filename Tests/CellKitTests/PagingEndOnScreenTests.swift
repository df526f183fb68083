import CellKit
import CellKitTesting
import Testing

/// A refresh that lands while the end of the list is on screen loads the pages fetched
/// again, with no row coming on screen to ask for them (an outside user's report, D1 and
/// D2: both tests of the end on screen and the one of `isFetching` failed before the fix).
@MainActor
@Suite("Paging: a refresh with the end of the list on screen")
struct PagingEndOnScreenTests {
    /// Yields (and lets the controller show what is queued) until `done` holds, at most a bounded number of times.
    func until(_ screen: PostScreen, _ done: () -> Bool) async {
        for _ in 0..<2_000 where !done() {
            for _ in 0..<20 { await Task.yield() }
            await screen.controller.settle()
        }
    }

    @Test func aShortListFetchesItsPagesAgainAfterARefresh() async throws {
        let server = ChangingServer(Array(0..<8), pageSize: 5)
        let source = PaginatedDataSource<Post>(prefetchDistance: 2) { await server.page($0) }
        let screen = PostScreen(viewportHeight: 600)                  // 13 rows fit
        screen.controller.bind(to: source)
        await source.load().value
        await until(screen) { !source.hasMore && !source.isFetching } // rows showing load page 1
        #expect(source.items.map(\.id) == Array(0..<8))

        await server.delete(6)
        await server.publish([100])
        await source.refresh().value
        await until(screen) { !source.hasMore && !source.isFetching }
        #expect(source.items == (await server.posts))
        #expect(!source.hasMore)
        #expect(screen.shownIDs == [100, 0, 1, 2, 3, 4, 5, 7])
        try screen.expectConsistent()
    }

    @Test func aUserAtTheEndSeesTheServersListAfterARefresh() async throws {
        let server = ChangingServer(Array(0..<30), pageSize: 10)
        let source = PaginatedDataSource<Post>(prefetchDistance: 2) { await server.page($0) }
        let screen = PostScreen(viewportHeight: 220)                  // five rows fit
        screen.controller.bind(to: source)
        await source.load().value
        await source.loadAll().value
        await screen.controller.settle()
        screen.listView.scrollToItem(at: ItemPath(item: 29, section: 0))
        await until(screen) { !source.isFetching }

        await server.delete(3)
        await server.insert(99, at: 30)
        await source.refresh().value
        await until(screen) { !source.hasMore && !source.isFetching }
        #expect(source.items == (await server.posts))
        try screen.expectConsistent()
    }

    @Test func aPagedChildOfAMultiDataSourceFetchesItsPagesAgain() async throws {
        let server = ChangingServer(Array(0..<8), pageSize: 5)
        let paged = PaginatedDataSource<Post>(prefetchDistance: 2) { await server.page($0) }
        let screen = PostScreen(viewportHeight: 600)
        screen.controller.bind(to: MultiDataSource([SimpleDataSource(posts(100..<102)), paged]))
        await paged.load().value
        await until(screen) { !paged.hasMore && !paged.isFetching }
        await server.delete(6)
        await paged.refresh().value
        await until(screen) { !paged.hasMore && !paged.isFetching }
        #expect(paged.items == (await server.posts))
        #expect(screen.shownIDs == [100, 101, 0, 1, 2, 3, 4, 5, 7])
        try screen.expectConsistent()
    }

    // The demo's report 9 (a shallow clone deepened): a list that had ended, whose refreshed
    // first page brought the same rows but said more now follow, stayed at its old end with
    // the end on screen: no row came on screen to ask for the next page.
    @Test func aListThatEndedLoadsOnWhenARefreshSaysMoreFollow() async throws {
        let server = ChangingServer(Array(0..<5), pageSize: 5)
        let source = PaginatedDataSource<Post>(prefetchDistance: 2) { await server.page($0) }
        let screen = PostScreen(viewportHeight: 600)                  // 13 rows fit
        screen.controller.bind(to: source)
        await source.load().value
        await screen.controller.settle()
        #expect(!source.hasMore)
        await server.insert(5, at: 5)
        await server.insert(6, at: 6)
        await source.refresh().value
        await until(screen) { !source.hasMore && !source.isFetching }
        #expect(source.items.map(\.id) == Array(0..<7))
        #expect(screen.shownIDs == Array(0..<7))
        try screen.expectConsistent()
    }

    @Test func aSourceThatWrapsAPagedOneForwardsTheWait() async throws {
        let server = ChangingServer(Array(0..<8), pageSize: 5)
        let paged = PaginatedDataSource<Post>(prefetchDistance: 2) { await server.page($0) }
        let wrapper = Wrapper(paged)
        let screen = PostScreen(viewportHeight: 600)
        screen.controller.bind(to: wrapper)
        await paged.load().value
        await until(screen) { !paged.hasMore && !paged.isFetching }
        await server.delete(6)
        await wrapper.refresh().value
        #expect(wrapper.awaitsVisibleEnd)
        await until(screen) { !paged.hasMore && !paged.isFetching }
        #expect(!wrapper.awaitsVisibleEnd)
        #expect(screen.shownIDs == [0, 1, 2, 3, 4, 5, 7])
        try screen.expectConsistent()
    }

    /// A data source of an app's own that shows what a paged source loads (as a filter would).
    @MainActor final class Wrapper: ListDataSource {
        let inner: PaginatedDataSource<Post>
        var onSnapshot: (@MainActor (ListSnapshot) -> Void)?
        var snapshot: ListSnapshot { inner.snapshot }
        init(_ inner: PaginatedDataSource<Post>) {
            self.inner = inner
            inner.onSnapshot = { [weak self] in self?.onSnapshot?($0) }
        }
        func load() -> Task<Void, Never> { inner.load() }
        func refresh() -> Task<Void, Never> { inner.refresh() }
        func cancel() { inner.cancel() }
        func willDisplayItem(at path: ItemPath, in model: TableModel) { inner.willDisplayItem(at: path, in: model) }
        func loadNextPage() -> Task<Void, Never>? { inner.loadNextPage() }
        var awaitsVisibleEnd: Bool { inner.awaitsVisibleEnd }
    }

    /// A server the test changes between fetches, on the main actor: pages of `size` ids.
    @MainActor final class Server {
        var ids: [Int]
        let size: Int
        var failing: Set<Int> = []
        /// Every page it is asked for, in order.
        var calls: [Int] = []
        /// Asked for page 1, while set: waits for `open()`.
        var gate: CheckedContinuation<Void, Never>?
        var holdsPageOne = false
        init(_ count: Int, size: Int) { ids = Array(0..<count); self.size = size }
        func page(_ n: Int) async throws -> Page<Post> {
            calls.append(n)
            if n == 1, holdsPageOne { await withCheckedContinuation { gate = $0 } }
            if failing.contains(n) { throw FetchFailed() }
            let start = min(n * size, ids.count), end = min(start + size, ids.count)
            return Page(ids[start..<end].map { Post($0) }, hasMore: end < ids.count)
        }
    }

    /// A 5-row page on a screen where 13 rows fit: the end of the list is always on screen.
    func shortScreen(_ server: Server) -> (PostScreen, PaginatedDataSource<Post>) {
        let source = PaginatedDataSource<Post>(prefetchDistance: 2) { try await server.page($0) }
        let screen = PostScreen(viewportHeight: 600)
        screen.controller.bind(to: source)
        return (screen, source)
    }

    // Outside check 10c, D1 (4 cases and an edit): paging stopped for good when the end was on
    // screen and no row came on screen to ask for the next page.
    @Test func aRefreshAfterAStallStartsPagingOver() async throws {
        let server = Server(30, size: 5)
        @MainActor final class Flag { var on = true }
        let stalling = Flag()
        let source = PaginatedDataSource<Post>(prefetchDistance: 2) { @MainActor page in
            if stalling.on { return Page((0..<5).map { Post($0) }, hasMore: true) }
            return try await server.page(page)
        }
        let screen = PostScreen(viewportHeight: 2_000)                // 45 rows fit
        screen.controller.bind(to: source)
        screen.controller.diagnostics = .ignore
        await source.load().value
        await until(screen) { false }
        #expect(source.items.count == 5)
        stalling.on = false
        await source.refresh().value
        await until(screen) { !source.hasMore && !source.isFetching }
        #expect(source.items.count == 30, "pages \(server.calls), hasMore \(source.hasMore), shown \(screen.shownIDs.count)")
        try screen.expectConsistent()
    }

    @Test func aPageOfRowsShownAlreadyDoesNotStopPagingWithTheEndOnScreen() async throws {
        let server = Server(20, size: 5)
        server.holdsPageOne = true
        let (screen, source) = shortScreen(server)
        await source.load().value
        await until(screen) { server.gate != nil }
        server.ids.insert(contentsOf: 100..<105, at: 0)           // a page's worth arrives on top meanwhile
        server.gate?.resume()
        server.holdsPageOne = false
        await until(screen) { !source.hasMore && !source.isFetching }
        #expect(source.items.count == 20, "\(source.items.map(\.id)), pages \(server.calls)")
        try screen.expectConsistent()
    }

    @Test func aRefreshAfterAFailedPageLoadsThePagesAfterIt() async throws {
        let server = Server(15, size: 5)
        server.failing = [1]
        let (screen, source) = shortScreen(server)
        screen.controller.diagnostics = .ignore
        await source.load().value
        await until(screen) { source.nextPageError != nil }
        server.failing = []
        await source.refresh().value
        await until(screen) { !source.hasMore && !source.isFetching }
        #expect(source.items.count == 15, "pages \(server.calls)")
        try screen.expectConsistent()
    }

    @Test func anEditThatLeavesTheEndOnScreenLoadsTheNextPage() async throws {
        let server = Server(30, size: 10)
        let source = PaginatedDataSource<Post>(prefetchDistance: 2) { try await server.page($0) }
        let screen = PostScreen(viewportHeight: 220)                  // five rows fit
        screen.controller.bind(to: source)
        await source.load().value
        await until(screen) { !source.isFetching }
        #expect(source.items.count == 10)
        source.edit { $0.removeLast(7) }                              // 3 rows left: the end shows
        await until(screen) { source.items.count > 3 && !source.isFetching }
        #expect(source.items.count == 13, "pages \(server.calls)")
        try screen.expectConsistent()
    }

    // Recheck 10, d1: a paged child followed by another child never paged again after a
    // refresh with the end on screen: the last row on screen was the other child's.
    @Test func aPagedChildBeforeAnotherLoadsOnWithItsEndOnScreen() async throws {
        let server = Server(5, size: 5)
        let paged = PaginatedDataSource<Post>(prefetchDistance: 2) { try await server.page($0) }
        let screen = PostScreen(viewportHeight: 600)
        screen.controller.bind(to: MultiDataSource([paged, SimpleDataSource(posts(100..<101))]))
        await paged.load().value
        await until(screen) { !paged.isFetching }
        #expect(!paged.hasMore)
        server.ids += 5..<12
        await paged.refresh().value
        await until(screen) { !paged.hasMore && !paged.isFetching }
        #expect(paged.items.count == 12, "pages \(server.calls)")
        #expect(screen.shownIDs == Array(0..<12) + [100])
        try screen.expectConsistent()
    }

    @Test func aUserAtTheTopLoadsNoPageAfterARefresh() async {
        let server = ChangingServer(Array(0..<30), pageSize: 10)
        let source = PaginatedDataSource<Post>(prefetchDistance: 2) { await server.page($0) }
        let screen = PostScreen(viewportHeight: 220)
        screen.controller.bind(to: source)
        await source.load().value
        await source.loadAll().value
        await screen.controller.settle()
        await source.refresh().value
        await until(screen) { false }                                 // every turn it has
        #expect(source.nextPage == 1 && source.hasMore && !source.isFetching)
        #expect(source.items.count == 30)
    }

    @Test func theEndShowingAfterARefreshCountsAsFetchingAtOnce() async {
        let server = ChangingServer(Array(0..<30), pageSize: 5)
        let source = PaginatedDataSource<Post>(prefetchDistance: 2) { await server.page($0) }
        await source.load().value
        await source.loadAll().value
        await source.refresh().value
        source.willDisplayItem(at: ItemPath(item: source.items.count - 1, section: 0), in: TableModel(source.items))
        #expect(source.isFetching)
        #expect(source.pageInFlight == 1)
        await source.loadAll().value
        #expect(source.items == (await server.posts))
    }

    // An outside user's report (outside9a, D6): after a refresh with the whole list on
    // screen, the page fetched again failed and was fetched a second time at once, with no
    // user action (the pages that the end on screen loads asked for the failed page again
    // when they started after it had failed). A page that fails is now asked for once; the
    // failed load-more row's retry asks again.
    @Test func aPageFetchedAgainThatFailsIsAskedForOnce() async throws {
        @MainActor final class Server {
            var failing = false
            var pageOneFetches = 0
            func page(_ n: Int) throws -> Page<Post> {
                if n == 1 && failing {
                    pageOneFetches += 1
                    throw FetchFailed()
                }
                return Page(posts(n * 3..<n * 3 + 3), hasMore: n < 2)
            }
        }
        let server = Server()
        // A fetch that ends before the main actor runs anything else.
        let source = PaginatedDataSource<Post>(prefetchDistance: 2) { @MainActor page in try server.page(page) }
        let screen = PostScreen(viewportHeight: 600)                  // the whole list fits
        screen.controller.bind(to: source)
        await source.load().value
        await source.loadAll().value
        await screen.controller.settle()
        server.failing = true
        await source.refresh().value
        await until(screen) { false }                                 // every turn it has
        #expect(server.pageOneFetches == 1)
        #expect(screen.errors.value == ["fetch failed: offline"])
        #expect(source.nextPageError is FetchFailed && !source.isFetching)
        let last = screen.controller.displayed.sections.last?.items.last?.model as? LoadMorePlaceholder
        #expect(last?.isFailed == true)

        // The retry row asks again, once.
        server.failing = false
        screen.listView.selectItem(at: ItemPath(item: 0, section: screen.controller.displayed.sections.count - 1))
        await until(screen) { !source.hasMore && !source.isFetching }
        #expect(screen.shownIDs == Array(0..<9))
        try screen.expectConsistent()
    }
}
