import CellKit
import CellKitTesting
import Testing

/// `cancel()` stops the paging too: with the end of the list on screen, the controller's report
/// of the rows on screen starts no page after it (an outside user's report 11b, d2: a refresh
/// cancelled while the end showed was followed at once by a request for page 1).
@MainActor
@Suite("Paging: cancel() with the end of the list on screen")
struct PagingCancelEndOnScreenTests {
    /// Lets the controller show what is queued and the tasks started meanwhile run, a bounded number of times.
    func settle(_ screen: PostScreen) async {
        for _ in 0..<50 {
            for _ in 0..<20 { await Task.yield() }
            await screen.controller.settle()
        }
    }

    /// Page 0 (posts 0..<5, more follow) answered; the end on screen asked for page 1. Returns after that request.
    func pagedToTheEnd(_ gate: FetchGate<Page<Post>>, _ source: PaginatedDataSource<Post>, _ screen: PostScreen) async {
        source.load()
        await gate.waitForCalls(1)
        await gate.resume(0, returning: Page(posts(0..<5), hasMore: true))
        await settle(screen)
        screen.listView.scroll(to: 1_000_000)
        await gate.waitForCalls(2)
    }

    /// Answers every call still waiting (with an empty last page), so that no fetch is left hanging.
    func drain(_ gate: FetchGate<Page<Post>>) async {
        for index in await gate.arguments.indices { await gate.resume(index, returning: Page([], hasMore: false)) }
    }

    @Test func aRefreshCancelledWithTheEndOnScreenFetchesNothingMore() async throws {
        let gate = FetchGate<Page<Post>>()
        let source = PaginatedDataSource<Post>(prefetchDistance: 2) { try await gate.fetch($0) }
        let screen = PostScreen(viewportHeight: 132)                   // three rows fit
        screen.controller.bind(to: source)
        await pagedToTheEnd(gate, source, screen)
        #expect(await gate.arguments == [0, 1])
        source.refresh()                                               // page 1 dropped, page 0 asked again
        await gate.waitForCalls(3)
        source.cancel()                                                // the screen goes
        await settle(screen)
        #expect(await gate.arguments == [0, 1, 0])
        #expect(!source.isFetching && source.pageInFlight == nil)
        #expect(!source.awaitsVisibleEnd)
        #expect(screen.controller.listState.activity == .idle)
        #expect(screen.shownIDs == Array(0..<5))
        try screen.expectConsistent()

        // The user scrolling the end on screen again asks for the page, as rows coming on screen do.
        screen.listView.scroll(to: 0)
        screen.listView.scroll(to: 1_000_000)
        await gate.waitForCalls(4)
        #expect(await gate.arguments == [0, 1, 0, 1])
        #expect(source.pageInFlight == 1)
        await drain(gate)
    }

    @Test func aCancelledRefreshOfAStalledListLoadsNoPageEither() async throws {
        let gate = FetchGate<Page<Post>>()
        let source = PaginatedDataSource<Post>(prefetchDistance: 2) { try await gate.fetch($0) }
        let screen = PostScreen(viewportHeight: 132)
        screen.controller.bind(to: source)
        await pagedToTheEnd(gate, source, screen)
        await gate.resume(1, returning: Page([], hasMore: true))       // more follow, but none came: paging stalls
        await settle(screen)
        #expect(await gate.arguments == [0, 1])
        source.refresh()
        await gate.waitForCalls(3)
        source.cancel()
        await settle(screen)
        #expect(await gate.arguments == [0, 1, 0])
        #expect(!source.isFetching)
        // The app asks: the page loads.
        source.loadNextPage()
        await gate.waitForCalls(4)
        #expect(await gate.arguments == [0, 1, 0, 2])
        await drain(gate)
    }

    @Test func aPagedChildOfACancelledMultiDataSourceFetchesNothingMore() async throws {
        let gate = FetchGate<Page<Post>>()
        let paged = PaginatedDataSource<Post>(prefetchDistance: 2) { try await gate.fetch($0) }
        let screen = PostScreen(viewportHeight: 132)
        let multi = MultiDataSource([paged])
        screen.controller.bind(to: multi)
        await pagedToTheEnd(gate, paged, screen)
        _ = multi.refresh()
        await gate.waitForCalls(3)
        multi.cancel()
        await settle(screen)
        #expect(await gate.arguments == [0, 1, 0])
        #expect(!paged.isFetching && !multi.awaitsVisibleEnd)
        try screen.expectConsistent()
        await drain(gate)
    }

    /// The end on screen is reported for a child that waits for it: a sibling held by a
    /// `cancel()` below it hears nothing (it would take the report for a row coming on screen).
    /// Also through an app's own wrapper of the multi source (`wrapped`): before
    /// `visibleEndIsOnScreen(at:in:)`, the controller told only a bare `MultiDataSource` apart, and
    /// through a wrapper the report reached every child as a row coming on screen.
    @Test(arguments: [false, true])
    func aChildHeldByCancelIsNotToldOfTheEndASiblingWaitsFor(wrapped: Bool) async throws {
        let gateB = FetchGate<Page<Post>>(), gateA = FetchGate<Page<Post>>()
        let childB = PaginatedDataSource<Post>(prefetchDistance: 2) { try await gateB.fetch($0) }
        let childA = PaginatedDataSource<Post>(prefetchDistance: 2) { try await gateA.fetch($0) }
        let screen = PostScreen(viewportHeight: 600)                   // every row fits
        let multi = MultiDataSource([childB, childA])                  // A's rows are the last ones
        if wrapped { screen.controller.bind(to: ForwardingSource(multi)) } else { screen.controller.bind(to: multi) }
        childB.load()
        childA.load()
        await gateB.waitForCalls(1)
        await gateA.waitForCalls(1)
        await gateB.resume(0, returning: Page(posts(0..<2), hasMore: true))
        await gateA.resume(0, returning: Page(posts(10..<12), hasMore: true))
        await gateB.waitForCalls(2)                                    // both ends on screen: page 1 each
        await gateA.waitForCalls(2)
        await gateB.resume(1, returning: Page(posts(2..<4), hasMore: false))
        await settle(screen)
        childA.refresh()
        await gateA.waitForCalls(3)
        childA.cancel()                                                // A is held: nothing more for it
        await settle(screen)
        #expect(await gateA.arguments == [0, 1, 0])

        childB.refresh()                                               // B says more follow again: it waits for its end
        await gateB.waitForCalls(3)
        await gateB.resume(2, returning: Page(posts(0..<2), hasMore: true))
        await gateB.waitForCalls(4)
        #expect(await gateB.arguments == [0, 1, 0, 1])
        await settle(screen)
        #expect(await gateA.arguments == [0, 1, 0])
        #expect(!childA.isFetching)
        try screen.expectConsistent()
        await drain(gateA)
        await drain(gateB)
    }
}

/// An app's own source around a ``MultiDataSource`` (here one that counts what it forwards), written
/// as "Writing your own" says: it forwards every requirement, the end report included.
@MainActor
final class ForwardingSource: ListDataSource {
    let inner: any ListDataSource
    var onSnapshot: (@MainActor (ListSnapshot) -> Void)?
    var snapshot: ListSnapshot { inner.snapshot }

    init(_ inner: any ListDataSource) {
        self.inner = inner
        self.inner.onSnapshot = { [weak self] in self?.onSnapshot?($0) }
    }

    func load() -> Task<Void, Never> { inner.load() }
    func refresh() -> Task<Void, Never> { inner.refresh() }
    func cancel() { inner.cancel() }
    func loadNextPage() -> Task<Void, Never>? { inner.loadNextPage() }
    func willDisplayItem(at path: ItemPath, in model: TableModel) { inner.willDisplayItem(at: path, in: model) }
    var awaitsVisibleEnd: Bool { inner.awaitsVisibleEnd }
    func visibleEndIsOnScreen(at path: ItemPath, in model: TableModel) { inner.visibleEndIsOnScreen(at: path, in: model) }
}

extension PagingCancelEndOnScreenTests {
    /// A source that does not implement the end report gets the default: `willDisplayItem(at:in:)`,
    /// and only while it waits.
    @Test func theDefaultEndReportIsAWillDisplayWhileTheSourceWaits() {
        final class Recorder: ListDataSource {
            var snapshot = ListSnapshot(TableModel(), state: .loaded)
            var onSnapshot: (@MainActor (ListSnapshot) -> Void)?
            var awaitsVisibleEnd = false
            var shown: [ItemPath] = []
            func willDisplayItem(at path: ItemPath, in model: TableModel) { shown.append(path) }
        }
        let recorder = Recorder()
        recorder.visibleEndIsOnScreen(at: ItemPath(item: 3, section: 0), in: TableModel())
        #expect(recorder.shown.isEmpty)
        recorder.awaitsVisibleEnd = true
        recorder.visibleEndIsOnScreen(at: ItemPath(item: 4, section: 0), in: TableModel())
        #expect(recorder.shown == [ItemPath(item: 4, section: 0)])
    }
}

/// A `cancel()` pressed while nothing runs holds the paging as one that stops a fetch does (an outside
/// user's report 12c, d1: after an idle `cancel()`, `awaitsVisibleEnd` stayed `true` and an edit that left
/// the end on screen loaded the next page).
extension PagingCancelEndOnScreenTests {
    /// Page 0 (posts 0..<10, more follow) shown on three rows; nothing runs after it.
    func firstPageShown(_ gate: FetchGate<Page<Post>>, _ source: PaginatedDataSource<Post>, _ screen: PostScreen) async {
        source.load()
        await gate.waitForCalls(1)
        await gate.resume(0, returning: Page(posts(0..<10), hasMore: true))
        await settle(screen)
    }

    @Test func anIdleCancelHoldsThePagingAgainstAnEditThatLeavesTheEndOnScreen() async throws {
        let gate = FetchGate<Page<Post>>()
        let source = PaginatedDataSource<Post>(prefetchDistance: 2) { try await gate.fetch($0) }
        let screen = PostScreen(viewportHeight: 132)                   // three rows of ten fit: the end is off screen
        screen.controller.bind(to: source)
        await firstPageShown(gate, source, screen)
        #expect(source.awaitsVisibleEnd && !source.isFetching)
        source.cancel()                                                // nothing runs: the user's "stop loading"
        #expect(!source.awaitsVisibleEnd)
        #expect(source.nextPageError == nil)                           // no retry row: nothing was stopped
        source.edit { $0.removeLast(8) }                               // two rows stay: the end is on screen
        await settle(screen)
        #expect(await gate.arguments == [0])
        #expect(screen.shownIDs == [0, 1])
        try screen.expectConsistent()

        // Asking for it loads it.
        source.loadNextPage()
        await gate.waitForCalls(2)
        #expect(await gate.arguments == [0, 1])
        await drain(gate)
    }

    @Test func anIdleCancelOfAMultiDataSourceHoldsItsPagedChild() async throws {
        let gate = FetchGate<Page<Post>>()
        let paged = PaginatedDataSource<Post>(prefetchDistance: 2) { try await gate.fetch($0) }
        let multi = MultiDataSource([paged])
        let screen = PostScreen(viewportHeight: 132)
        screen.controller.bind(to: multi)
        await firstPageShown(gate, paged, screen)
        #expect(multi.awaitsVisibleEnd)
        multi.cancel()
        #expect(!multi.awaitsVisibleEnd)
        paged.edit { $0.removeLast(8) }
        await settle(screen)
        #expect(await gate.arguments == [0])
        try screen.expectConsistent()

        // A row coming on screen asks again.
        paged.edit { $0.append(contentsOf: posts(10..<20)) }
        await settle(screen)
        screen.listView.scroll(to: 1_000_000)
        await gate.waitForCalls(2)
        #expect(await gate.arguments == [0, 1])
        await drain(gate)
    }
}
