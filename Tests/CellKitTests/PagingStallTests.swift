import CellKit
import CellKitTesting
import Testing

/// A server that answers every page with the same rows and `hasMore: true`; bounded for the
/// tests: from its `limit`-th call on it says no page follows, so a paging loop ends (and
/// the test fails on the count) rather than hangs.
private actor RepeatingServer {
    private(set) var calls = 0
    let limit: Int
    let pages: [[Int]]

    /// Page `n` is `pages[n % pages.count]`.
    init(_ pages: [[Int]], limit: Int = 20) {
        self.pages = pages
        self.limit = limit
    }

    func page(_ n: Int) -> Page<Post> {
        calls += 1
        return Page(posts(pages[n % pages.count]), hasMore: calls < limit)
    }
}

/// A screen of five rows showing a paged source of posts fetched with `fetch` (bound as
/// `bound` wraps it), its diagnostics kept in `log`.
@MainActor
private struct StallScreen {
    let log = DiagnosticLog()
    let controller: ListController
    let listView = HeadlessListView(viewportHeight: 220, rowHeight: 44)   // five rows fit
    let source: PaginatedDataSource<Post>

    init(prefetchDistance: Int = 0, bound: (PaginatedDataSource<Post>) -> any ListDataSource = { $0 },
         fetch: @escaping PaginatedDataSource<Post>.FetchPage) {
        controller = ListController(diagnostics: log.handler)
        controller.register(TextCell.self, for: Post.self) { cell, post in cell.text = post.text }
        controller.attach(to: listView)
        source = PaginatedDataSource<Post>(prefetchDistance: prefetchDistance, fetch: fetch)
        controller.bind(to: bound(source))
    }

    /// Checks that paging went to the end, showing `ids`, without a stall; then settles.
    func expectAllLoaded(_ ids: [Int], sourceLocation: SourceLocation = #_sourceLocation) async {
        #expect(source.items.map(\.id) == ids, sourceLocation: sourceLocation)
        #expect(!source.hasMore, sourceLocation: sourceLocation)
        #expect(!log.all.contains { $0.kind == .pagingStalled }, "\(log.all)", sourceLocation: sourceLocation)
        await controller.settle()
    }
}

/// Servers that keep saying more pages follow without bringing new rows: paging stops
/// instead of asking forever. The tests of a repeating server failed before the fix (the
/// server's bound ended them); those of pages that re-send shown rows as the server's list
/// moves check that such pages do not stop paging.
@MainActor
@Suite("Paging: a server that repeats its pages")
struct PagingStallTests {
    @Test func loadAllStopsAtAPageThatRepeatsThePageBefore() async {
        let server = RepeatingServer([Array(0..<10)])
        let screen = StallScreen { await server.page($0) }
        await screen.source.load().value
        await screen.source.loadAll().value
        // Page 1 repeats page 0: it may be the server's list shifted by a page; page 2
        // repeats it again: the server repeats itself.
        #expect(await server.calls == 3)
        #expect(screen.source.items.map(\.id) == Array(0..<10))
        #expect(screen.source.hasMore && screen.source.nextPageError == nil)
        let stalls = screen.log.all.filter { $0.kind == .pagingStalled }
        #expect(stalls.count == 1, "\(screen.log.all)")
        #expect(stalls.first.map { $0.message.contains("PaginatedDataSource<Post>") && $0.message.contains("page 2") } == true, "\(stalls)")
        await screen.source.loadAll().value                         // asked again: goes on by one page
        #expect(await server.calls == 4)
        await screen.controller.settle()
    }

    @Test func loadAllStopsWhenPagesCycleThroughRowsAlreadyShown() async {
        let server = RepeatingServer([Array(0..<10), Array(10..<20)])
        let screen = StallScreen { await server.page($0) }
        await screen.source.loadAll().value
        // Pages 0 and 1 bring rows; pages 2 and 3 repeat them (rows shown, but not by
        // the pages since the last new row: it may be the server's list shifting); page
        // 4 repeats page 2: the server goes round.
        #expect(await server.calls == 5)
        #expect(screen.source.items.map(\.id) == Array(0..<20))
        #expect(screen.source.hasMore)
        #expect(screen.log.all.contains { $0.kind == .pagingStalled && $0.message.contains("page 4") }, "\(screen.log.all)")
        await screen.controller.settle()
    }

    @Test func loadUntilStopsAtARepeatedPageToo() async {
        let server = RepeatingServer([Array(0..<10)])
        let screen = StallScreen { await server.page($0) }
        await screen.source.loadUntil { $0.count >= 50 }.value
        #expect(await server.calls == 3)
        await screen.controller.settle()
    }

    @Test func aChildOfAMultiDataSourceReportsToTheBindingController() async {
        let server = RepeatingServer([Array(0..<10)])
        let screen = StallScreen(bound: { MultiDataSource([SimpleDataSource([Post(100)]), $0]) }) { await server.page($0) }
        await screen.source.loadAll().value
        #expect(await server.calls == 3)
        #expect(screen.log.all.contains { $0.kind == .pagingStalled && $0.message.contains("page 2") }, "\(screen.log.all)")
        await screen.controller.settle()
    }

    @Test func aPageOfRowsAlreadyShownAfterTheServerShiftedDoesNotStopLoadAll() async {
        // 15 items arrive on top after two pages loaded: the next page re-sends rows the
        // first two pages brought (old 5..<15), the one after it brings new ones.
        let server = PostServer(Array(0..<40), pageSize: 10)
        let screen = StallScreen { await server.page($0) }
        await screen.source.load().value
        await screen.source.loadNextPage()?.value
        await server.publish(Array(100..<115))
        await screen.source.loadAll().value
        await screen.expectAllLoaded(Array(0..<40))
    }

    @Test func aPageThatRepeatsThePageBeforeOnceDoesNotStopLoadAll() async {
        // Exactly a page of items arrives on top after the first page: the next page
        // brings the first page's rows again, the one after it new ones.
        let server = PostServer(Array(0..<40), pageSize: 10)
        let screen = StallScreen { await server.page($0) }
        await screen.source.load().value
        await server.publish(Array(100..<110))
        await screen.source.loadAll().value
        await screen.expectAllLoaded(Array(0..<40))
    }

    @Test func aRefreshThatRefetchesLoadedPagesDoesNotStall() async {
        // More new items than a page: the pages after the first are fetched again and
        // several bring only rows loaded before; loadAll goes through them to the end.
        let server = PostServer(Array(0..<50), pageSize: 10)
        let screen = StallScreen { await server.page($0) }
        await screen.source.loadAll().value
        await server.publish(Array(100..<125))
        await screen.source.refresh().value
        await screen.source.loadAll().value
        await screen.expectAllLoaded(Array(100..<125) + Array(0..<50))
    }

    @Test func rowsShowingAtTheEndDoNotFetchARepeatedPageForever() async {
        let server = RepeatingServer([Array(0..<10)])
        let screen = StallScreen(prefetchDistance: 2) { await server.page($0) }
        await screen.source.load().value
        await screen.controller.settle()
        // The user stays at the end, nudging the list: the last rows come on screen again
        // and again. Each time, every fetch and snapshot that starts runs to its end (bounded).
        for _ in 0..<30 {
            screen.listView.scroll(to: 44 * 5)                      // the last rows show
            for _ in 0..<1_000 where screen.source.isFetching { await Task.yield() }
            await screen.controller.settle()
            screen.listView.scroll(to: 0)
        }
        #expect(await server.calls == 3)
        #expect(screen.log.all.filter { $0.kind == .pagingStalled }.count == 1, "\(screen.log.all)")
        // Asking for the next page goes on; a page that brings rows lets the rows showing load again.
        await screen.source.loadNextPage()?.value
        #expect(await server.calls == 4)
    }
}
