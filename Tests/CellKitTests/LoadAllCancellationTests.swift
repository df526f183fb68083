import CellKit
import CellKitTesting
import Synchronization
import Testing

/// Cancelling the task that `loadAll()` / `loadUntil(_:)` returns. Before the fix the
/// page fetch in flight never saw the cancellation (the task ended only when the fetch
/// did) and its page was appended after the cancel: the first two tests failed before
/// the fix; the third guards a refresh started elsewhere, which goes on.
@MainActor
@Suite("Paginated source: cancelling loadAll's task")
struct LoadAllCancellationTests {
    @Test func cancellingTheTaskCancelsThePageFetchAndDropsItsPage() async throws {
        let gate = FetchGate<Page<Post>>()
        let cancelledPages = Locked<[Int]>([])
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { page in
            if page == 0 { return Page(posts(0..<2), hasMore: true) }
            // Only page 1 waits for the test: a loadAll that goes on ends rather than hangs.
            if page > 1 { return Page(posts([page * 10]), hasMore: false) }
            return try await withTaskCancellationHandler {
                try await gate.fetch(page)                      // a fetch that returns its page even when cancelled
            } onCancel: {
                cancelledPages.update { $0.append(page) }
            }
        }
        await source.load().value
        let all = source.loadAll()
        await gate.waitForCalls(1)
        #expect(source.pageInFlight == 1)
        all.cancel()
        #expect(cancelledPages.value == [1], "the fetch's task saw the cancellation")
        await gate.resume(argument: 1, returning: Page(posts(2..<4), hasMore: true))
        await all.value
        #expect(source.items.map(\.id) == [0, 1], "the page fetched after the cancel is not appended")
        // The list ends with the retry row (outside8a: a cancelled page left none).
        #expect(!source.isFetching && source.nextPageError is CancellationError && source.hasMore)
        #expect(source.snapshot.activity == .idle)

        // Paging goes on when asked again, from page 1.
        try #require(source.nextPage == 1)
        let next = source.loadNextPage()
        await gate.waitForCalls(2)
        await gate.resume(argument: 1, returning: Page(posts(2..<4), hasMore: false))
        await next?.value
        #expect(source.items.map(\.id) == [0, 1, 2, 3])
    }

    @Test func cancellingTheTaskWhileItWaitsForTheFirstLoadItStartedCancelsThatLoad() async {
        let gate = FetchGate<Page<Post>>()
        let laterPages = Locked<[Int]>([])
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { page in
            if page == 0 { return try await gate.fetch(page) }
            laterPages.update { $0.append(page) }
            return Page(posts([page * 10]), hasMore: false)
        }
        let all = source.loadAll()                               // loads the first page first
        await gate.waitForCalls(1)
        all.cancel()
        await gate.resume(argument: 0, returning: Page(posts(0..<2), hasMore: true))
        await all.value
        #expect(source.items.isEmpty)
        #expect(laterPages.value.isEmpty, "no page after the cancel")
    }

    @Test func cancellingTheTaskLeavesARefreshStartedElsewhereRunning() async {
        let gate = FetchGate<Page<Post>>()
        let firstPageCalls = Locked(0)
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { page in
            let call = firstPageCalls.update { calls -> Int in calls += page == 0 ? 1 : 0; return calls }
            return page == 0 && call > 1 ? try await gate.fetch(page) : Page(posts([page]), hasMore: true)
        }
        await source.load().value
        let refresh = source.refresh()
        await gate.waitForCalls(1)
        let all = source.loadAll()                               // waits for the refresh
        all.cancel()
        await gate.resume(argument: 0, returning: Page(posts([0, 9]), hasMore: true))
        await refresh.value
        await all.value
        #expect(source.items.map(\.id) == [0, 9], "the refresh went on; loadAll asked for no page")
    }

    /// Outside check 12b D2: cancelled at once (before its task first ran), `loadAll()` ended
    /// without cancelling the first load it had started: page 0 kept fetching and the list
    /// stayed "Loading…" with a server that does not answer.
    @Test func cancelledAtOnceItCancelsTheFirstLoadItStarted() async {
        let gate = FetchGate<Page<Post>>()
        let cancelledPages = Locked<[Int]>([])
        let laterPages = Locked<[Int]>([])
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { page in
            guard page == 0 else {
                laterPages.update { $0.append(page) }
                return Page(posts([page * 10]), hasMore: false)
            }
            return try await withTaskCancellationHandler {
                try await gate.fetch(page)                      // a server that answers only when told
            } onCancel: {
                cancelledPages.update { $0.append(page) }
            }
        }
        let all = source.loadAll()
        all.cancel()                                             // the screen went at once
        await gate.waitForCalls(1)
        for _ in 0..<1_000 where cancelledPages.value.isEmpty { await Task.yield() }
        #expect(cancelledPages.value == [0], "the first page's fetch saw the cancellation")
        await gate.resume(argument: 0, returning: Page(posts(0..<2), hasMore: true))
        await all.value
        #expect(!source.isFetching && source.items.isEmpty && laterPages.value.isEmpty)
        #expect(source.snapshot.state.error is CancellationError, "the first load shows as cancelled: \(source.snapshot.state)")
    }

    /// Outside check 12b D2b: cancelled at once while a first load started elsewhere runs, the
    /// task ended at once instead of once that load is in. And (a doc gap): cancelled at once
    /// on a loaded source, it asks for nothing and leaves no failed load-more row.
    @Test func cancelledAtOnceItEndsOnceTheFirstLoadStartedElsewhereIsIn() async {
        let gate = FetchGate<Page<Post>>()
        let laterPages = Locked<[Int]>([])
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { page in
            if page == 0 { return try await gate.fetch(page) }
            laterPages.update { $0.append(page) }
            return Page(posts([page * 10]), hasMore: false)
        }
        let load = source.load()
        await gate.waitForCalls(1)
        let all = source.loadAll()
        all.cancel()
        let itemsWhenEnded = Task { @MainActor in
            await all.value
            return source.items.count
        }
        for _ in 0..<50 { await Task.yield() }
        await gate.resume(argument: 0, returning: Page(posts(0..<2), hasMore: true))
        await load.value
        #expect(await itemsWhenEnded.value == 2, "the task ended before the first load elsewhere was in")
        #expect(laterPages.value.isEmpty && source.nextPageError == nil)

        let again = source.loadAll()
        again.cancel()
        await again.value
        #expect(laterPages.value.isEmpty, "nothing was asked")
        #expect(source.nextPageError == nil && !source.isFetching && source.hasMore, "no failed load-more row")
    }
}

/// `cancel()` between two pages of `loadAll()` / `loadUntil(_:)` (an outside user's report,
/// outside9a, D3): the loop went on and loaded every page left, as no fetch ran at that
/// moment for `cancel()` to stop. It now stops there, as cancelling the returned task does:
/// the list ends with the retry row, its `nextPageError` the `CancellationError`.
@MainActor
@Suite("Paginated source: cancel() between the pages of loadAll")
struct CancelBetweenPagesTests {
    @Test(arguments: ["onSnapshot", "onWillDisplay", "predicate"])
    func cancelBetweenTwoPagesStopsLoadAll(from caller: String) async throws {
        let pages = Locked<[Int]>([])
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { page in
            pages.update { $0.append(page) }
            return Page(posts(page * 10..<page * 10 + 10), hasMore: page < 5)
        }
        let screen = PostScreen(viewportHeight: 4_400)                // every row shows
        await source.load().value
        var cancelled = false
        let cancelOnceTwoPagesShow = { (count: Int) in
            if !cancelled && count >= 20 { cancelled = true; source.cancel() }   // the user leaves
        }
        let all: Task<Void, Never>
        switch caller {
        case "onSnapshot":
            source.onSnapshot = { cancelOnceTwoPagesShow($0.model.itemCount) }
            all = source.loadAll()
        case "onWillDisplay":
            screen.controller.bind(to: source)
            await screen.controller.settle()
            screen.controller.onWillDisplay { path, _ in cancelOnceTwoPagesShow(path.item + 1) }
            all = source.loadAll()
        default:
            all = source.loadUntil { items in cancelOnceTwoPagesShow(items.count); return false }
        }
        for _ in 0..<200 where !cancelled {
            await Task.yield()
            await screen.controller.settle()
        }
        await all.value
        #expect(cancelled)
        if caller == "onWillDisplay" {
            // The rows may show while page 2 loads already: that page is cancelled then.
            #expect(pages.value == [0, 1] || pages.value == [0, 1, 2], "no page after the cancel: \(pages.value)")
        } else {
            #expect(pages.value == [0, 1], "no page after the cancel")
        }
        #expect(source.items.count == 20 && source.hasMore && !source.isFetching)
        #expect(source.nextPageError is CancellationError, "the list ends with the retry row")

        // Paging goes on when asked again.
        await source.loadAll().value
        #expect(source.items.count == 60 && !source.hasMore)
    }

    // Outside re-check 9, d1: the predicate's first call (before any fetch) came before the
    // loop counted as paging, so a cancel() there did nothing and every page loaded.
    @Test("cancel() from loadUntil's first predicate call, before any fetch, stops it: no page is fetched")
    func cancelFromTheFirstPredicateCall() async {
        let pages = Locked<[Int]>([])
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { page in
            pages.update { $0.append(page) }
            return Page(posts(page * 10..<page * 10 + 10), hasMore: page < 4)
        }
        var calls = 0
        let task = source.loadUntil { _ in
            calls += 1
            if calls == 1 { source.cancel() }   // the user left before anything came
            return false
        }
        await task.value
        for _ in 0..<20 { await Task.yield() }
        #expect(pages.value.isEmpty, "pages fetched after the cancel: \(pages.value)")
        #expect(source.items.isEmpty && !source.isFetching)
        // Asked again, it loads.
        await source.loadAll().value
        #expect(source.items.count == 50)
    }

    // cancel() with nothing running changes nothing: no retry row on an idle list.
    @Test func cancelWithNothingRunningLeavesTheListAsItIs() async {
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { page in
            Page(posts(page * 10..<page * 10 + 10), hasMore: page < 5)
        }
        await source.load().value
        source.cancel()
        #expect(source.nextPageError == nil && source.hasMore)
        await source.loadAll().value
        #expect(source.items.count == 60)
    }
}

/// A value shared with a fetch, behind a lock.
private final class Locked<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value { storage.withLock { $0 } }
    @discardableResult
    func update<R: Sendable>(_ change: (inout Value) -> R) -> R { storage.withLock { change(&$0) } }
}
