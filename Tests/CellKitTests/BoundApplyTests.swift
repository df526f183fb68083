import CellKit
import CellKitTesting
import Dispatch
import Synchronization
import Testing

struct Track: Identifiable, Equatable, Sendable { let id: Int; var title: String }
struct Memo: Identifiable, Equatable, Sendable { let id: Int?; var title: String }
private struct Opaque: Error {}

@MainActor
private func trackScreen(log: DiagnosticLog) -> (ListController, HeadlessListView) {
    let controller = ListController(diagnostics: log.handler)
    controller.register(TextCell.self, for: Track.self) { cell, song in cell.text = song.title }
    controller.register(TextCell.self, for: Memo.self) { cell, draft in cell.text = draft.title }
    let listView = HeadlessListView(viewportHeight: 220, rowHeight: 44)
    controller.attach(to: listView)
    return (controller, listView)
}

/// The second outside user's report (edges of data sources and diagnostics): each test
/// failed before its fix.
@MainActor
@Suite("Bound sources, duplicates in pages, failed loads")
struct BoundApplyTests {
    // Item 1: the app's last call wins; a manual apply unbinds the source.
    @Test func anApplyAfterASnapshotWasPublishedIsNotOverwrittenByIt() async {
        let log = DiagnosticLog()
        let (controller, listView) = trackScreen(log: log)
        let source = SimpleDataSource([Track(id: 1, title: "from source")])
        controller.bind(to: source)
        await controller.settle()
        source.set([Track(id: 1, title: "source v2")])     // queued
        controller.apply(TableModel([Track(id: 9, title: "manual")]))
        await controller.settle()
        #expect(listView.visibleTexts == ["manual"])
        #expect(controller.dataSource == nil)
        // A documented way to show something else (a detail, a filter): not reported.
        #expect(log.all.isEmpty, "\(log.all)")
        // Later snapshots of the source no longer show; binding again shows it.
        source.set([Track(id: 2, title: "source v3")])
        await controller.settle()
        #expect(listView.visibleTexts == ["manual"])
        controller.bind(to: source)
        await controller.settle()
        #expect(listView.visibleTexts == ["source v3"])
    }

    // Outside check 8a (doc gap): bound to a second controller, the source stayed the first
    // one's dataSource, heard its rows and was loaded by its retry.
    @Test("a source bound to a second controller is unbound from the first, which keeps its rows")
    func aSourceShowsInOneControllerAtATime() async throws {
        let (first, firstView) = trackScreen(log: DiagnosticLog())
        let (second, secondView) = trackScreen(log: DiagnosticLog())
        let source = SimpleDataSource([Track(id: 1, title: "one")])
        first.bind(to: source)
        await first.settle()
        second.bind(to: source)
        await second.settle()
        #expect(first.dataSource == nil)
        #expect(second.dataSource === source)
        source.set([Track(id: 2, title: "two")])
        await first.settle()
        await second.settle()
        #expect(firstView.visibleTexts == ["one"])
        #expect(secondView.visibleTexts == ["two"])
        try firstView.checkConsistency()
        // Back to the first: the second lets it go.
        first.bind(to: source)
        await first.settle()
        #expect(second.dataSource == nil && first.dataSource === source)
        #expect(firstView.visibleTexts == ["two"])
        // Unbound by an apply of the second's own: nothing changes for the first.
        second.bind(to: source)
        second.apply(TableModel([Track(id: 3, title: "own")]))
        #expect(first.dataSource == nil && second.dataSource == nil)
        first.bind(to: source)
        await first.settle()
        #expect(first.dataSource === source)
    }

    // Outside check 9a, d4: the first controller's error row kept "Select to retry" and took
    // the tap, though its retry had gone with the source.
    @Test("taken by another controller while its error row shows, a controller's row offers no retry")
    func aTakenSourcesErrorRowOffersNoRetry() async throws {
        let (first, firstView) = trackScreen(log: DiagnosticLog())
        let (second, _) = trackScreen(log: DiagnosticLog())
        let source = RemoteDataSource<Track> { throw FetchFailed() }
        first.bind(to: source)
        await source.load().value
        await first.settle()
        let row = ItemPath(item: 0, section: 0)
        #expect((firstView.visibleCells.first as? ErrorCell)?.canRetry == true)
        second.bind(to: source)
        await second.settle()
        await first.settle()
        let cell = try #require(firstView.visibleCells.first as? ErrorCell)
        #expect(cell.canRetry == false)
        #expect(cell.detailText == nil)
        #expect(first.listView(firstView, canSelectItemAt: row) == false)
        if case .failed = first.state {} else { Issue.record("state \(first.state)") }
        try firstView.checkConsistency()
    }

    // Outside check 9a, d5: taken mid-refresh, the first controller stayed `.refreshing` for good,
    // with a failed load-more row whose retry reached nothing.
    @Test("taken by another controller mid-refresh, a controller goes idle and drops its load-more row")
    func aTakenSourceLeavesNoActivityBehind() async throws {
        let (first, firstView) = trackScreen(log: DiagnosticLog())
        let (second, _) = trackScreen(log: DiagnosticLog())
        let gate = FetchGate<Page<Track>>()
        let source = PaginatedDataSource<Track> { page in try await gate.fetch(page) }
        first.bind(to: source)
        let load = source.load()
        await gate.waitForCalls(1)
        await gate.resume(0, returning: Page((0..<3).map { Track(id: $0, title: "t\($0)") }, hasMore: true))
        await load.value
        let next = try #require(source.loadNextPage())
        await gate.waitForCalls(2)
        await gate.resume(1, throwing: FetchFailed())
        await next.value
        await first.settle()
        #expect(first.displayed.sections.last?.items.first?.model is LoadMorePlaceholder)
        let refresh = source.refresh()
        await gate.waitForCalls(3)
        await first.settle()
        #expect(first.activity == .refreshing)
        second.bind(to: source)
        await second.settle()
        await first.settle()
        #expect(first.activity == .idle && first.listState.activity == .idle)
        #expect(!first.hasMore && first.nextPageError == nil)
        #expect(!(first.displayed.sections.last?.items.first?.model is LoadMorePlaceholder))
        #expect(firstView.visibleTexts == ["t0", "t1", "t2"])
        try firstView.checkConsistency()
        await gate.resume(2, returning: Page([Track(id: 0, title: "t0")], hasMore: false))
        await refresh.value
        await second.settle()
        #expect(firstView.visibleTexts == ["t0", "t1", "t2"])
    }

    @Test func aSnapshotBeingDiffedWhenTheAppAppliesIsDropped() async throws {
        let (controller, listView) = trackScreen(log: DiagnosticLog())
        let gate = DiffGate()
        controller.register(TextCell.self, for: Gated.self) { cell, row in cell.text = row.title }
        let source = SimpleDataSource([Gated(id: 1, title: "v1", gate: gate)])
        controller.bind(to: source)
        await controller.settle()
        gate.arm()
        source.set([Gated(id: 1, title: "v2", gate: gate)])   // its diff compares row 1, and waits in `==`
        var started = false
        for _ in 0..<100_000 where !started {
            started = gate.started.wait(timeout: .now()) == .success
            if !started { await Task.yield() }
        }
        #expect(started, "the diff never started")
        controller.apply(TableModel([Track(id: -1, title: "manual")]))
        gate.release.signal()
        await controller.settle()
        #expect(listView.visibleTexts == ["manual"])
        try listView.checkConsistency()
    }

    @Test func aManualApplyWhileBoundToAPagerFetchesNoPage() async {
        let (controller, listView) = trackScreen(log: DiagnosticLog())
        let source = PaginatedDataSource<Track>(prefetchDistance: 3) { page in
            Page((page * 20..<page * 20 + 20).map { Track(id: $0, title: "post \($0)") }, hasMore: true)
        }
        controller.bind(to: source)
        await source.load().value
        await controller.settle()
        controller.apply(TableModel([Track(id: -1, title: "detail")]))   // its one row is one of "the last rows"
        await controller.settle()
        for _ in 0..<50 { await Task.yield() }
        await controller.settle()
        #expect(source.items.count == 20)
        #expect(source.pageInFlight == nil)
        #expect(listView.visibleTexts == ["detail"])
    }

    // Item 2: repeats within a page are distinct rows, reported once.
    @Test func aPaginatedSourceKeepsRepeatsWithinAPageAndTheControllerNamesThem() async {
        let log = DiagnosticLog()
        let (controller, listView) = trackScreen(log: log)
        let rows = [Memo(id: nil, title: "n1"), Memo(id: nil, title: "n2"), Memo(id: 3, title: "a"), Memo(id: 3, title: "b")]
        let source = PaginatedDataSource<Memo>(prefetchDistance: 0) { page in
            page == 0 ? Page(rows, hasMore: true) : Page([Memo(id: 3, title: "again"), Memo(id: 5, title: "c"), Memo(id: 5, title: "d")], hasMore: false)
        }
        controller.bind(to: source)
        await source.load().value
        await controller.settle()
        #expect(source.items.map(\.title) == ["n1", "n2", "a", "b"])
        #expect(listView.visibleTexts == ["n1", "n2", "a", "b"])
        let duplicates = log.all.filter { $0.kind == .duplicateIdentifier }
        #expect(duplicates.contains { $0.message.contains("Memo(nil)") && $0.message.contains("rows 0, 1 of section 0") })
        #expect(duplicates.contains { $0.message.contains("Memo(3)") && $0.message.contains("rows 2, 3 of section 0") })
        // A later page skips the id already shown, keeps its own repeat.
        await source.loadNextPage()?.value
        await controller.settle()
        #expect(source.items.map(\.title) == ["n1", "n2", "a", "b", "c", "d"])
        // A refresh keeps the repeats of its first page too.
        await source.refresh().value
        await controller.settle()
        #expect(source.items.map(\.title).prefix(4) == ["n1", "n2", "a", "b"])
    }

    @Test func eachSnapshotsDuplicatesAreReportedOnce() {
        let log = DiagnosticLog()
        let (controller, _) = trackScreen(log: log)
        controller.apply(TableModel([Track(id: 1, title: "a"), Track(id: 1, title: "b")]))
        // Later snapshots that keep it (a paging list's next pages) do not report it again.
        controller.apply(TableModel([Track(id: 1, title: "a"), Track(id: 1, title: "b"), Track(id: 3, title: "d")]))
        controller.apply(TableModel([Track(id: 2, title: "c")]))
        var reports = log.all.filter { $0.kind == .duplicateIdentifier }
        #expect(reports.count == 1)
        #expect(reports.first?.message.contains("in new snapshot at rows 0, 1 of section 0") == true)
        // Gone and back: reported again.
        controller.apply(TableModel([Track(id: 2, title: "c"), Track(id: 2, title: "e")]))
        reports = log.all.filter { $0.kind == .duplicateIdentifier }
        #expect(reports.count == 2)
    }

    // Item 3: a failed load with nothing to show reaches the diagnostics.
    @Test func aFailedFirstLoadIsADiagnosticNamingTheSourceAndTheError() async {
        let log = DiagnosticLog()
        let (controller, listView) = trackScreen(log: log)
        var heard = 0
        controller.onError = { _ in heard += 1 }
        let remote = RemoteDataSource<Track> { throw Opaque() }
        controller.bind(to: remote)
        await remote.load().value
        await controller.settle()
        #expect(listView.visibleTexts.count == 1)                 // the error row
        #expect(log.all.contains { $0.kind == .loadFailed && $0.message.contains("RemoteDataSource<Track>") && $0.message.contains("Opaque()") })

        let paged = PaginatedDataSource<Track> { _ in throw Opaque() }
        controller.bind(to: paged)
        await paged.load().value
        await controller.settle()
        #expect(log.all.contains { $0.kind == .loadFailed && $0.message.contains("PaginatedDataSource<Track>") && $0.message.contains("Opaque()") })

        controller.apply(TableModel(), state: .failed(Opaque()))
        #expect(log.all.contains { $0.kind == .loadFailed && $0.message.contains("apply(_:state:)") && $0.message.contains("Opaque()") })
        #expect(heard == 0)                                       // the error row shows it
    }

    @Test func aCancelledFirstLoadIsNotReportedAsAFailure() async {
        let log = DiagnosticLog()
        let (controller, _) = trackScreen(log: log)
        let gate = FetchGate<[Track]>()
        let remote = RemoteDataSource<Track> { try await gate.fetch() }
        controller.bind(to: remote)
        remote.load()
        remote.cancel()
        await controller.settle()
        if case .failed = controller.state {} else { Issue.record("not failed: \(controller.state)") }
        #expect(!log.all.contains { $0.kind == .loadFailed })
        await gate.waitForCalls(1)
        await gate.resume(0, returning: [])
    }

    // Confusing: loadAll() on a server that answers empty pages with `hasMore: true`.
    @Test func loadAllStopsAfterAnEmptyPageThatSaysMoreFollow() async {
        let log = DiagnosticLog()
        let (controller, _) = trackScreen(log: log)
        let calls = FetchCounter()
        let source = PaginatedDataSource<Track> { page in
            // Bounded for the test: past 10 calls the server fails, which stops loadAll too.
            guard await calls.increment() <= 10 else { throw Opaque() }
            return page == 0 ? Page([Track(id: 0, title: "first")], hasMore: true) : Page([], hasMore: true)
        }
        controller.bind(to: source)
        await source.load().value
        await source.loadAll().value
        #expect(await calls.count == 2)
        #expect(source.nextPageError == nil)
        #expect(source.hasMore)
        #expect(log.all.contains { $0.kind == .pagingStalled && $0.message.contains("PaginatedDataSource<Track>: page 1") }, "\(log.all)")
        await source.loadAll().value                                // asked again: goes on by one page
        #expect(await calls.count == 3)
        await controller.settle()
    }

    // The third outside user's report: loadAll/loadUntil while the first page loads, or before load().
    @Test func loadAllWhileTheFirstPageLoadsGoesOnOnceItIsIn() async {
        // Only the first page waits for the test; the later ones answer at once, so a
        // loadAll that gives up early ends (and the test fails) rather than hangs.
        let gate = FetchGate<Page<Track>>()
        let calls = FetchCounter()
        let source = PaginatedDataSource<Track>(prefetchDistance: 0) { page in
            _ = await calls.increment()
            if page == 0 { return try await gate.fetch(0) }
            return Page([Track(id: page, title: "\(page)")], hasMore: page < 2)
        }
        let first = source.load()
        await gate.waitForCalls(1)
        let all = source.loadAll()                                  // End pressed during the first load
        await gate.resume(argument: 0, returning: Page([Track(id: 0, title: "0")], hasMore: true))
        await first.value
        await all.value
        #expect(source.items.map(\.id) == [0, 1, 2])
        #expect(await calls.count == 3)
    }

    @Test func loadAllBeforeLoadLoadsTheFirstPageFirst() async {
        let source = PaginatedDataSource<Track>(prefetchDistance: 0) { page in
            Page([Track(id: page, title: "\(page)")], hasMore: page < 2)
        }
        await source.loadAll().value
        #expect(source.items.map(\.id) == [0, 1, 2])
        #expect(!source.hasMore)
        // loadUntil that is already satisfied by no rows asks for nothing.
        let idle = PaginatedDataSource<Track> { _ in Issue.record("fetched"); return Page([], hasMore: false) }
        await idle.loadUntil { _ in true }.value
        #expect(!idle.isFetching && idle.items.isEmpty)
    }

    @Test func loadAllStopsWhenTheFirstPageFails() async {
        let calls = FetchCounter()
        let source = PaginatedDataSource<Track>(prefetchDistance: 0) { _ in
            _ = await calls.increment()
            throw Opaque()
        }
        await source.loadAll().value
        #expect(await calls.count == 1)
        guard case .failed = source.snapshot.state else { Issue.record("\(source.snapshot.state)"); return }
        await source.loadAll().value                                // asked again: tries the first page again
        #expect(await calls.count == 2)
    }
}

private actor FetchCounter {
    private(set) var count = 0
    func increment() -> Int {
        count += 1
        return count
    }
}

/// Holds the first content comparison (`==`, made by the diff off the main actor) until released.
final class DiffGate: Sendable {
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    private let armed = Mutex(false)
    func arm() { armed.withLock { $0 = true } }
    func take() -> Bool { armed.withLock { was in defer { was = false }; return was } }
}

struct Gated: Identifiable, Sendable, Equatable {
    let id: Int
    var title: String
    let gate: DiffGate

    static func == (a: Gated, b: Gated) -> Bool {
        if a.gate.take() {
            a.gate.started.signal()
            _ = a.gate.release.wait(timeout: .now() + 30)
        }
        return a.id == b.id && a.title == b.title
    }
}
