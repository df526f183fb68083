import CellKit
import CellKitTesting
import Testing

// Issue 13: the data source's state and activity, observable (the SwiftUI module
// forwards `observe` to `ObservableObject.objectWillChange`).

@MainActor
@Suite("ListState: observable state and activity")
struct ListStateTests {
    @Test func followsARemoteSourceThroughLoadRefreshAndFailure() async {
        let gate = FetchGate<[Post]>()
        let source = RemoteDataSource { try await gate.fetch() }
        let screen = PostScreen()
        let state = screen.controller.listState
        var seen: [String] = []
        let observation = state.observe { seen.append("will change from \(state.state)/\(state.activity)") }
        #expect(state.isLoading && state.isEmpty && !state.isRefreshing)

        screen.controller.bind(to: source)
        let load = source.load()
        await gate.waitForCalls(1)
        await gate.resume(0, returning: posts(0..<5))
        await load.value
        await screen.controller.settle()
        #expect(!state.isLoading && state.itemCount == 5 && state.lastAnnouncement?.kind == .loaded)

        let refresh = source.refresh()
        await gate.waitForCalls(2)
        await screen.controller.settle()
        #expect(state.isRefreshing && state.itemCount == 5)
        await gate.resume(1, throwing: FetchFailed())
        await refresh.value
        await screen.controller.settle()
        #expect(!state.isRefreshing && state.error is FetchFailed && state.itemCount == 5)
        #expect(seen.count == 3, "one notice per change, none for applies that change nothing: \(seen)")
        observation.cancel()
    }

    @Test func reportsLoadingMoreAndHasMoreOfAPaginatedSource() async {
        let gate = FetchGate<Page<Post>>()
        let source = PaginatedDataSource<Post>(prefetchDistance: 2) { page in try await gate.fetch(page) }
        let screen = PostScreen(viewportHeight: 220, rowHeight: 44)
        screen.controller.bind(to: source)
        let state = screen.controller.listState
        let load = source.load()
        await gate.waitForCalls(1)
        await gate.resume(argument: 0, returning: Page(posts(0..<10), hasMore: true))
        await load.value
        await screen.controller.settle()
        #expect(state.hasMore && !state.isLoadingMore)

        screen.listView.scroll(by: 44 * 5)   // the last rows appear: the next page loads
        await gate.waitForCalls(2)
        await screen.controller.settle()
        #expect(state.isLoadingMore)
        await gate.resume(argument: 1, returning: Page(posts(10..<15), hasMore: false))
        while source.isFetching { await Task.yield() }
        await screen.controller.settle()
        #expect(!state.isLoadingMore && !state.hasMore && state.itemCount == 15)
    }

    @Test func aCancelledOrReleasedObservationIsNotCalled() {
        let controller = ListController(diagnostics: .ignore)
        var calls = 0
        let kept = controller.listState.observe { calls += 1 }
        do { _ = controller.listState.observe { calls += 100 } }   // released at once
        controller.apply(TableModel([Post(1)]))
        #expect(calls == 1)
        kept.cancel()
        controller.apply(TableModel(), state: .empty)
        #expect(calls == 1 && controller.listState.isEmpty)
    }

    /// Outside check 12b D1: an observation cancelled or released let its closure stay in the
    /// state until a value next changed, so a closure reading the controller (the doc's
    /// `watch(_:)`) kept the controller and its bound source alive for good.
    @Test(arguments: [true, false]) func anEndedObservationLetsGoOfItsClosureAtOnce(cancelled: Bool) async {
        weak var weakController: ListController?
        weak var weakSource: SimpleDataSource?
        var token: ListState.Observation?
        do {
            let controller = ListController(diagnostics: .ignore)
            let source = SimpleDataSource(posts(0..<3))
            weakController = controller
            weakSource = source
            token = controller.listState.observe { _ = controller.listState.state }
            controller.bind(to: source)
            await controller.settle()
        }
        #expect(weakController != nil, "the live observation keeps what its closure captured")
        if cancelled { token?.cancel() } else { token = nil }
        // Tasks the apply started may hold the controller for a few turns; a bound, not a wait.
        for _ in 0..<200 where weakController != nil { await Task.yield() }
        #expect(weakController == nil, "the controller outlives its ended observation")
        #expect(weakSource == nil)
        _ = token
    }
}
