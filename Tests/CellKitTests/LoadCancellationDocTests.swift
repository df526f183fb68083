import CellKit
import CellKitTesting
import Testing

/// What the guides say about cancelling loads and about an `edit` closure that throws
/// (the outside user's doc gaps 1–3): these describe the behaviour, they guard it.
@MainActor
@Suite("Data sources: cancelled loads and throwing edits, as documented")
struct LoadCancellationDocTests {
    @Test func cancellingATaskThatAwaitsALoadDoesNotCancelTheLoad() async throws {
        let gate = FetchGate<Page<Post>>()
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { try await gate.fetch($0) }
        let load = source.load()
        let waiter = Task { await load.value }
        waiter.cancel()
        await gate.waitForCalls(1)
        await gate.resume(0, returning: Page(posts(0..<3), hasMore: false))
        await waiter.value
        #expect(source.items.map(\.id) == [0, 1, 2], "the load went on and shows its result")
    }

    @Test func aTaskTiedToTheAwaitingOneCancelsTheLoad() async throws {
        // A fetch that ends when its task is cancelled (it would take ten minutes otherwise).
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { _ in
            try await Task.sleep(for: .seconds(600))
            return Page(posts(0..<3), hasMore: false)
        }
        let load = source.load()
        let waiter = Task {
            await withTaskCancellationHandler { await load.value } onCancel: { load.cancel() }
        }
        waiter.cancel()
        await waiter.value
        #expect(source.items.isEmpty)
        guard case .failed(let error) = source.snapshot.state else { Issue.record("\(source.snapshot.state)"); return }
        #expect(error is CancellationError)
    }

    @Test func aCancelledRefreshKeepsTheContentShowsNoErrorAndGoesIdle() async throws {
        let (gate, source, screen) = await loadedPagedScreen(prefetchDistance: 0, firstPage: posts(0..<3), hasMore: false)
        await screen.controller.settle()
        let refresh = source.refresh()
        await screen.controller.settle()
        #expect(screen.controller.activity == .refreshing)
        refresh.cancel()
        await gate.waitForCalls(2)
        await gate.resume(1, throwing: CancellationError())
        await refresh.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 1, 2])
        #expect(screen.controller.activity == .idle)
        #expect(screen.errors.value.isEmpty, "no onError")
        #expect(source.snapshot.state.isLoading == false)
        if case .failed = source.snapshot.state { Issue.record("the state failed") }
        try screen.expectConsistent()
    }

    @Test func anEditThatThrowsKeepsAndPublishesWhatItChangedBefore() async throws {
        struct Refused: Error {}
        let (_, source, screen) = await loadedPagedScreen(prefetchDistance: 0, firstPage: posts(0..<3), hasMore: false)
        #expect(throws: Refused.self) {
            try source.edit { items in
                items.removeAll { $0.id == 1 }
                throw Refused()
            }
        }
        await screen.controller.settle()
        #expect(source.items.map(\.id) == [0, 2])
        #expect(screen.shownIDs == [0, 2])
        let remote = RemoteDataSource { posts(0..<3) }
        await remote.load().value
        #expect(throws: Refused.self) { try remote.edit { $0.remove(at: 0); throw Refused() } }
        await remote.refresh().value
        #expect(remote.items.map(\.id) == [1, 2], "later loads respect the change")
    }
}
