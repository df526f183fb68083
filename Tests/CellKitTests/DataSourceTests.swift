import CellKit
import CellKitTesting
import Testing

@MainActor
@Suite("Data sources: states and placeholders")
struct DataSourceStateTests {
    @Test func simpleSourceShowsItsArrayAndDiffsChanges() async throws {
        // The SimpleDataSource doc example.
        let screen = PostScreen()
        let source = SimpleDataSource(posts(0..<3))
        screen.controller.bind(to: source)
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 1, 2])
        #expect(screen.listView.visibleTexts == ["post 0", "post 1", "post 2"])
        source.set([Post(5)] + posts(0..<3))
        await screen.controller.settle()
        #expect(screen.shownIDs == [5, 0, 1, 2])
        #expect(screen.listView.visibleTexts.first == "post 5")
        source.set([Post]())
        await screen.controller.settle()
        #expect(screen.placeholder is NoResultsPlaceholder)
        #expect(screen.controller.state.description == "empty")
        try screen.expectConsistent()
    }

    @Test func firstLoadShowsTheLoadingRowThenTheContent() async throws {
        let gate = FetchGate<[Post]>()
        let source = RemoteDataSource { try await gate.fetch() }
        let screen = PostScreen()
        screen.controller.bind(to: source)
        let load = source.load()
        await screen.controller.settle()
        #expect(source.isFetching)
        #expect(screen.placeholder is LoadingPlaceholder)
        #expect(screen.listView.visibleTexts.count == 1)
        await gate.waitForCalls(1)
        await gate.resume(0, returning: posts(0..<20))
        await load.value
        await screen.controller.settle()
        #expect(!source.isFetching)
        #expect(screen.shownIDs == Array(0..<20))
        #expect(screen.controller.state.description == "loaded")
        #expect(screen.listView.visibleItemPaths.count == 10)
        try screen.expectConsistent()
    }

    @Test func anEmptyResultShowsTheNoResultsRow() async throws {
        let screen = PostScreen()
        let source = RemoteDataSource<Post> { [] }
        screen.controller.bind(to: source)
        await source.load().value
        await screen.controller.settle()
        #expect(screen.placeholder is NoResultsPlaceholder)
        try screen.expectConsistent()
    }

    @Test func aFailedFirstLoadShowsTheErrorRowAndItsRetryLoadsAgain() async throws {
        let gate = FetchGate<[Post]>()
        let (source, screen, first) = await loadingRemoteScreen(gate: gate)
        await gate.resume(0, throwing: FetchFailed())
        await first.value
        await screen.controller.settle()
        let error = try #require(screen.placeholder as? ErrorPlaceholder)
        #expect(error.error is FetchFailed && error.canRetry)
        #expect(screen.errors.value.isEmpty, "a failed first load is shown as a row, not reported as a lost refresh")

        screen.listView.selectItem(at: ItemPath(row: 0, section: 0))  // retry
        #expect(source.isFetching)
        await screen.controller.settle()
        #expect(screen.placeholder is LoadingPlaceholder)
        await gate.waitForCalls(2)
        await gate.resume(1, returning: posts(0..<3))
        while source.isFetching { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 1, 2])
        try screen.expectConsistent()
    }

    @Test func aFailedRefreshKeepsTheContentAndReportsTheError() async throws {
        let gate = FetchGate<[Post]>()
        let (source, screen) = await loadedRemoteScreen(gate: gate, initial: posts(0..<5))

        let refresh = source.refresh()
        await screen.controller.settle()
        #expect(screen.controller.activity == .refreshing)
        #expect(screen.shownIDs == Array(0..<5), "a refresh keeps the content visible")
        await gate.waitForCalls(2)
        await gate.resume(1, throwing: FetchFailed(reason: "timeout"))
        await refresh.value
        await screen.controller.settle()
        #expect(screen.shownIDs == Array(0..<5))
        #expect(screen.controller.activity == .idle)
        #expect(screen.errors.value == ["fetch failed: timeout"])
        #expect(screen.controller.state.error != nil)
        try screen.expectConsistent()
    }
}

@MainActor
@Suite("Data sources: races, cancellation, coalescing")
struct DataSourceRaceTests {
    @Test func aResultThatArrivesAfterANewerLoadStartedIsDropped() async throws {
        let gate = FetchGate<[Post]>()
        let (source, screen, older) = await loadingRemoteScreen(gate: gate)
        let newer = source.load()
        await gate.waitForCalls(2)
        // The newer load finishes first; the older one arrives late and loses.
        await gate.resume(1, returning: posts(10..<12))
        await newer.value
        await gate.resume(0, returning: posts(0..<5))
        await older.value
        await screen.controller.settle()
        #expect(source.items.map(\.id) == [10, 11])
        #expect(screen.shownIDs == [10, 11])
        try screen.expectConsistent()
    }

    @Test func twoQuickRefreshesShowOneResultTheNewest() async throws {
        let gate = FetchGate<[Post]>()
        let (source, screen) = await loadedRemoteScreen(gate: gate, initial: posts(0..<3))
        await screen.controller.settle()
        let applied = screen.controller.appliedSnapshotCount

        let first = source.refresh()
        let second = source.refresh()
        await gate.waitForCalls(3)
        await gate.resume(1, returning: posts(100..<103))   // the first refresh, in order
        await gate.resume(2, returning: posts(200..<203))
        await first.value
        await second.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [200, 201, 202])
        // The first refresh's result never reached the controller.
        let shownContents = source.items.map(\.id)
        #expect(shownContents == [200, 201, 202])
        #expect(screen.controller.appliedSnapshotCount - applied <= 2, "refreshing + the newest result, coalesced")
        try screen.expectConsistent()
    }

    @Test func cancellingTheFirstLoadLeavesTheErrorRowWithARetry() async throws {
        let gate = FetchGate<[Post]>()
        let (source, screen, load) = await loadingRemoteScreen(gate: gate)
        source.cancel()
        #expect(!source.isFetching)
        await screen.controller.settle()
        let error = try #require(screen.placeholder as? ErrorPlaceholder)
        #expect(error.error is CancellationError)
        // The fetch finishes anyway: its result is dropped.
        await gate.resume(0, returning: posts(0..<3))
        await load.value
        await screen.controller.settle()
        #expect(screen.placeholder is ErrorPlaceholder)
        #expect(source.items.isEmpty)
        try screen.expectConsistent()
    }

    @Test func cancellingARefreshKeepsTheContent() async throws {
        let gate = FetchGate<[Post]>()
        let (source, screen) = await loadedRemoteScreen(gate: gate, initial: posts(0..<3))
        let refresh = source.refresh()
        source.cancel()
        await gate.waitForCalls(2)
        await gate.resume(1, returning: posts(7..<9))
        await refresh.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 1, 2])
        #expect(screen.controller.state.description == "loaded" && screen.controller.activity == .idle)
        #expect(screen.errors.value.isEmpty)
        try screen.expectConsistent()
    }

    @Test func cancellingTheReturnedTaskCancelsTheFetch() async throws {
        let source = RemoteDataSource<Post> {
            try await Task.sleep(for: .seconds(3600))  // honours cancellation; never waited on
            return []
        }
        let screen = PostScreen()
        screen.controller.bind(to: source)
        let load = source.load()
        load.cancel()
        await load.value
        await screen.controller.settle()
        #expect(!source.isFetching)
        #expect((screen.placeholder as? ErrorPlaceholder)?.error is CancellationError)
        try screen.expectConsistent()
    }

    @Test func snapshotsThatArriveTogetherAreCoalescedToTheNewest() async throws {
        let screen = PostScreen()
        screen.controller.submit(ListSnapshot(TableModel(posts(0..<3)), state: .loaded))
        await screen.controller.settle()
        #expect(screen.controller.appliedSnapshotCount == 1)
        for n in 4...9 { screen.controller.submit(ListSnapshot(TableModel(posts(0..<n)), state: .loaded)) }
        #expect(screen.controller.isApplying)
        await screen.controller.settle()
        #expect(screen.controller.appliedSnapshotCount == 2)
        #expect(screen.shownIDs == Array(0..<9))
        try screen.expectConsistent()
    }

    @Test("sections with headers but no rows are an empty model: the no-results row alone")
    func headedSectionsWithoutRowsShowNoResults() throws {
        let screen = PostScreen()
        screen.controller.apply(TableModel(sections: [TableSection(id: SectionID("a"), header: "A", items: []), TableSection(id: SectionID("b"), header: "B", items: [])]))
        #expect(screen.placeholder is NoResultsPlaceholder)
        #expect(screen.controller.displayed.sections.count == 1)
        #expect(screen.controller.displayed.sections[0].header == nil)
        try screen.expectConsistent()
    }

    @Test("a stream of models submitted from a task (the data-sources article's recipe) ends with its last one")
    func aStreamOfModelsSubmittedFromATask() async throws {
        let screen = PostScreen()
        let (stream, feed) = AsyncStream.makeStream(of: [Post].self)
        let task = Task { @MainActor [weak controller = screen.controller] in
            for await latest in stream {
                controller?.submit(ListSnapshot(TableModel(latest), state: latest.isEmpty ? .empty : .loaded))
            }
        }
        for n in [3, 5, 4] { feed.yield(posts(0..<n)) }
        feed.yield(posts([7, 2, 1]))
        feed.finish()
        await task.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [7, 2, 1])
        try screen.expectConsistent()
        screen.controller.submit(ListSnapshot(TableModel([Post]()), state: .empty))
        await screen.controller.settle()
        #expect(screen.placeholder is NoResultsPlaceholder)
    }

    /// The recipe for a stream that throws (DataSourcesPagingAndRefresh; outside check 13c: the
    /// article showed no way for the error to reach the screen): the last content with `.failed`.
    @Test func aThrowingStreamsErrorReachesTheScreen() async throws {
        @MainActor func follow(_ stream: AsyncThrowingStream<[Post], any Error>, in controller: ListController) -> Task<Void, Never> {
            Task { @MainActor [weak controller] in
                var latest = TableModel()
                do {
                    for try await postsNow in stream {
                        latest = TableModel(postsNow)
                        controller?.submit(ListSnapshot(latest, state: postsNow.isEmpty ? .empty : .loaded))
                    }
                } catch is CancellationError {
                } catch {
                    controller?.submit(ListSnapshot(latest, state: .failed(error)))
                }
            }
        }
        // With content: it stays (the newest, also when it had not shown yet), onError hears the error.
        let screen = PostScreen()
        let (stream, feed) = AsyncThrowingStream.makeStream(of: [Post].self)
        let task = follow(stream, in: screen.controller)
        feed.yield(posts(0..<2))
        feed.yield(posts(0..<3))
        feed.finish(throwing: FetchFailed(reason: "socket closed"))
        await task.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 1, 2])
        #expect(screen.errors.value == ["fetch failed: socket closed"])
        try screen.expectConsistent()

        // With none: the error row.
        let empty = PostScreen()
        let (failing, end) = AsyncThrowingStream.makeStream(of: [Post].self)
        let failed = follow(failing, in: empty.controller)
        end.finish(throwing: FetchFailed())
        await failed.value
        await empty.controller.settle()
        #expect(empty.placeholder is ErrorPlaceholder)
        #expect(empty.errors.value.isEmpty)
    }

    @Test func manySnapshotsFromManyTasksEndWithTheLastOneAndNoInvalidBatch() async throws {
        // Seeded: snapshots of random sizes and orders, submitted from the main actor while
        // earlier ones are still being diffed; every batch is checked by the headless view.
        let seed = UInt64.random(in: 0...UInt64.max)
        print("seed", seed)
        var rng = SplitMix64(seed: seed)
        let screen = PostScreen()
        var last: [Int] = []
        for round in 0..<40 {
            let count = Int(rng.next() % 30)
            last = Array(Set((0..<count).map { _ in Int(rng.next() % 50) })).sorted { a, b in (a * 7919 + round) % 53 < (b * 7919 + round) % 53 }
            screen.controller.submit(ListSnapshot(TableModel(posts(last)), state: .loaded))
            if rng.next() % 3 == 0 { await Task.yield() }
            if rng.next() % 5 == 0 { await screen.controller.settle() }
        }
        await screen.controller.settle()
        #expect(screen.shownIDs == last, "seed \(seed)")
        try screen.expectConsistent()
    }
}

