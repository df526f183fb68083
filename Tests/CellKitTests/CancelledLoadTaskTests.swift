import CellKit
import CellKitTesting
import Testing

/// Cancelling the task that `load()`, `refresh()` or `loadNextPage()` returned does what the
/// source's `cancel()` does, on the main actor's next turn, also when the fetch ignores
/// cancellation (outside report 13a, D1: it waited for the fetch to return). `FetchGate` is
/// such a fetch: a continuation with no cancellation handler, as a callback API wrapped in
/// `withCheckedContinuation` is.
@MainActor
@Suite("Data sources: a cancelled load task is cancel(), without waiting for the fetch")
struct CancelledLoadTaskTests {
    @Test func aCancelledRefreshTaskStopsRefreshingBeforeTheFetchReturns() async throws {
        let gate = FetchGate<[Post]>()
        let (source, screen) = await loadedRemoteScreen(gate: gate, initial: posts(0..<2))
        let refresh = source.refresh()
        await gate.waitForCalls(2)
        await screen.controller.settle()
        #expect(screen.controller.listState.isRefreshing)
        refresh.cancel()
        #expect(await poll { !source.isFetching }, "cancelling the task is cancel(): the fetch no longer counts")
        #expect(source.snapshot.activity == .idle)
        await screen.controller.settle()
        #expect(!screen.controller.listState.isRefreshing, "the refresh control stops")
        #expect(screen.shownIDs == [0, 1])
        #expect(screen.errors.value.isEmpty)
        // The fetch returns late: its result is dropped.
        await gate.resume(1, returning: posts(5..<6))
        await refresh.value
        await screen.controller.settle()
        #expect(source.items.map(\.id) == [0, 1])
        #expect(screen.shownIDs == [0, 1])
        try screen.expectConsistent()
    }

    @Test func aCancelledFirstLoadTaskShowsTheCancelledRowBeforeTheFetchReturns() async throws {
        let gate = FetchGate<[Post]>()
        let (source, screen, load) = await loadingRemoteScreen(gate: gate)
        try await cancelFirstLoad(load, of: source) { !source.isFetching }
        await screen.controller.settle()
        #expect(screen.listView.visibleTexts.first == screen.controller.placeholders.cancelledMessage)
        await gate.resume(0, returning: posts(0..<1))
        await load.value
        await screen.controller.settle()
        #expect(source.items.isEmpty, "the late result is dropped")
        #expect(screen.listView.visibleTexts.first == screen.controller.placeholders.cancelledMessage)
    }

    @Test func aCancelledNextPageTaskEndsTheListWithTheRetryRowBeforeTheFetchReturns() async throws {
        let (gate, source, screen) = await loadedPagedScreen(prefetchDistance: 0, firstPage: posts(0..<3), hasMore: true)
        await screen.controller.settle()
        let page = try #require(source.loadNextPage())
        await gate.waitForCalls(2)
        await screen.controller.settle()
        #expect(screen.controller.activity == .loadingMore)
        page.cancel()
        #expect(await poll { source.pageInFlight == nil })
        #expect(source.nextPageError is CancellationError)
        await screen.controller.settle()
        #expect(screen.controller.activity == .idle)
        #expect((screen.controller.displayed.sections.last?.items.first?.model as? LoadMorePlaceholder)?.isFailed == true,
                "the failed load-more row, as after cancel()")
        #expect(screen.errors.value.isEmpty)
        await gate.resume(1, returning: Page(posts(3..<4), hasMore: false))
        await page.value
        #expect(source.items.map(\.id) == [0, 1, 2], "the late page is dropped")
        #expect(source.hasMore)
    }

    @Test func aCancelledPagedRefreshOrFirstLoadTaskStopsBeforeTheFetchReturns() async throws {
        let (gate, source, screen) = await loadedPagedScreen(prefetchDistance: 0, firstPage: posts(0..<3), hasMore: false)
        let refresh = source.refresh()
        await gate.waitForCalls(2)
        refresh.cancel()
        #expect(await poll { !source.isFetching })
        #expect(source.snapshot.activity == .idle)
        await gate.resume(1, returning: Page(posts(7..<8), hasMore: false))
        await refresh.value
        #expect(source.items.map(\.id) == [0, 1, 2])

        let fresh = PaginatedDataSource<Post>(prefetchDistance: 0) { try await gate.fetch($0) }
        screen.controller.bind(to: fresh)
        let load = fresh.load()
        await gate.waitForCalls(3)
        try await cancelFirstLoad(load, of: fresh) { !fresh.isFetchingFirstPage }
        await gate.resume(2, returning: Page(posts(0..<3), hasMore: false))
        await load.value
        #expect(fresh.items.isEmpty)
    }

    @Test func aCancelledMultiSourceTaskCancelsItsChildrenBeforeTheirFetchesReturn() async throws {
        let gate = FetchGate<[Post]>()
        let remote = RemoteDataSource { try await gate.fetch() }
        let source = MultiDataSource([SimpleDataSource([Post(100)]), remote])
        let screen = PostScreen()
        screen.controller.bind(to: source)
        let load = source.load()
        await gate.waitForCalls(1)
        load.cancel()
        #expect(await poll { !remote.isFetching }, "the child's fetch still counts")
        await gate.resume(0, returning: posts(0..<2))
        await load.value
        #expect(remote.items.isEmpty)
    }

    @Test func aTaskCancelledFromAnotherThreadStopsOnTheMainActorsNextTurn() async throws {
        let gate = FetchGate<[Post]>()
        let (source, screen) = await loadedRemoteScreen(gate: gate, initial: posts(0..<2))
        let refresh = source.refresh()
        await gate.waitForCalls(2)
        await Task.detached { refresh.cancel() }.value
        #expect(await poll { !source.isFetching }, "a cancel from off the main actor reaches the source")
        await screen.controller.settle()
        #expect(!screen.controller.listState.isRefreshing)
        await gate.resume(1, returning: posts(5..<6))
        await refresh.value
        #expect(source.items.map(\.id) == [0, 1])
    }

    @Test func aTaskCancelledBeforeItRanIsCancelOnceItRuns() async throws {
        let gate = FetchGate<[Post]>()
        let source = RemoteDataSource { try await gate.fetch() }
        let load = source.load()
        try await cancelFirstLoad(load, of: source) { !source.isFetching }
        await gate.waitForCalls(1)
        await gate.resume(0, returning: posts(0..<1))
        await load.value
        #expect(source.items.isEmpty)
    }

    @Test func cancelAndNewLoadsCancellingTheTaskDoNotComeBackIn() async throws {
        // cancel() and a newer load cancel the running task themselves: its handler finds
        // its load stale and changes nothing.
        let gate = FetchGate<[Post]>()
        let (source, screen) = await loadedRemoteScreen(gate: gate, initial: posts(0..<2))
        let first = source.refresh()
        await gate.waitForCalls(2)
        let second = source.refresh()     // cancels `first`
        #expect(source.isFetching)
        await gate.waitForCalls(3)
        source.cancel()
        #expect(!source.isFetching)
        first.cancel()
        second.cancel()
        await gate.resume(1, returning: posts(8..<9))
        await gate.resume(2, returning: posts(9..<10))
        await first.value
        await second.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 1])

        let (pagedGate, paged, _) = await loadedPagedScreen(prefetchDistance: 0, firstPage: posts(0..<3), hasMore: true)
        let page = try #require(paged.loadNextPage())
        await pagedGate.waitForCalls(2)
        let refresh = paged.refresh()     // cancels `page`
        #expect(paged.isFetchingFirstPage && paged.pageInFlight == nil)
        await pagedGate.waitForCalls(3)
        await pagedGate.resume(1, returning: Page(posts(3..<6), hasMore: true))
        await pagedGate.resume(2, returning: Page(posts(0..<3), hasMore: true))
        await page.value
        await refresh.value
        #expect(paged.items.map(\.id) == [0, 1, 2])
        #expect(paged.nextPageError == nil)
    }
}

/// Cancels `load`, the task of `source`'s first load, waits until `stopped` (its fetch no longer
/// counts, though the fetch has not returned) and expects the load failed with `CancellationError`;
/// throws, ending the test, when the source's state is not `.failed`.
@MainActor
private func cancelFirstLoad(
    _ load: Task<Void, Never>, of source: some ListDataSource, until stopped: @MainActor () -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    load.cancel()
    #expect(await poll(stopped), "cancelling the task is cancel(): the fetch no longer counts", sourceLocation: sourceLocation)
    let error = try #require(source.snapshot.state.error, "state \(source.snapshot.state)", sourceLocation: sourceLocation)
    #expect(error is CancellationError, sourceLocation: sourceLocation)
}

/// Whether `condition` holds, asked again on each main-actor turn for up to a minute.
@MainActor
private func poll(_ condition: @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        await Task.yield()
    }
    return true
}
