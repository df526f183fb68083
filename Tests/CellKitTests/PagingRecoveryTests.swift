import CellKit
import CellKitTesting
import Testing

/// A server whose list changes between fetches: pages of `size` items from the top.
actor PostServer {
    private(set) var ids: [Int]
    let size: Int

    init(_ ids: [Int], pageSize: Int) {
        self.ids = ids
        size = pageSize
    }

    func page(_ n: Int) -> Page<Post> {
        let start = min(n * size, ids.count)
        return Page(posts(ids[start..<min(start + size, ids.count)]), hasMore: start + size < ids.count)
    }

    /// New items arrive at the top.
    func publish(_ new: [Int]) { ids.insert(contentsOf: new, at: 0) }

    /// Items deleted on the server.
    func delete(_ gone: Set<Int>) { ids.removeAll { gone.contains($0) } }
}

@MainActor
@Suite("Data sources: paging that recovers, loading to the end, refresh counts")
struct PagingRecoveryTests {
    @Test func aRefreshWithMoreNewItemsThanAPageLosesNothing() async throws {
        let server = PostServer(Array(0..<35), pageSize: 10)
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { page in await server.page(page) }
        let screen = PostScreen()
        screen.controller.bind(to: source)
        await source.load().value
        await source.loadNextPage()?.value
        #expect(source.items.map(\.id) == Array(0..<20))

        // 25 new items: the refreshed first page holds only new ones.
        await server.publish(Array(100..<125))
        await source.refresh().value
        #expect(source.lastRefreshNewItemCount == 10)
        #expect(source.items.map(\.id) == Array(100..<110) + Array(0..<20), "the rows loaded before stay below the new page")
        await source.loadAll().value
        await screen.controller.settle()
        let all = await server.ids
        #expect(source.items.map(\.id) == all, "every item the server holds, once, in its order")
        #expect(screen.shownIDs == all)
        #expect(!source.hasMore)
        try screen.expectConsistent()
    }

    @Test func refreshesAndPagesInAnyOrderEndWithEveryServerItemExactlyOnce() async throws {
        // Seeded: new items arrive on the server (sometimes more than a page), refreshes and
        // next pages interleave; after a refresh, paged to the end, every server item shows
        // exactly once, in the server's order. (Before that refresh, an item that arrived
        // between two page loads shifts the later pages and shows where the page that brings
        // it puts it; the pages fetched again after the refresh put it in its place.)
        for round in 0..<100 {
            let seed = UInt64.random(in: 0...UInt64.max)
            var rng = SplitMix64(seed: seed)
            let server = PostServer(Array(0..<Int(20 + rng.next() % 40)), pageSize: 10)
            let source = PaginatedDataSource<Post> { page in await server.page(page) }
            await source.load().value
            var nextID = 1000
            for _ in 0..<12 {
                switch rng.next() % 3 {
                case 0:
                    let count = Int(rng.next() % 25)
                    await server.publish(Array(nextID..<nextID + count))
                    nextID += count
                case 1: await source.refresh().value
                default: await source.loadNextPage()?.value
                }
            }
            await source.refresh().value
            await source.loadAll().value
            let expected = await server.ids
            #expect(source.items.map(\.id) == expected, "round \(round), seed \(seed)")
            if source.items.map(\.id) != expected { print("seed", seed); break }
        }
    }

    @Test func refreshesPagesAndLocalDeletesInAnyOrderShowEveryItemLeftOnce() async throws {
        // Seeded: as above, with rows deleted locally (the server keeps them) in between.
        // After every step no row shows twice and a refresh counts exactly the rows it
        // added; after a refresh, paged to the end, every server item not deleted locally
        // shows once, in the server's order.
        for round in 0..<100 {
            let seed = UInt64.random(in: 0...UInt64.max)
            var rng = SplitMix64(seed: seed)
            let server = PostServer(Array(0..<Int(10 + rng.next() % 40)), pageSize: 10)
            let source = PaginatedDataSource<Post> { page in await server.page(page) }
            await source.load().value
            var deleted = Set<Int>()
            var nextID = 1000
            var failed = false
            for step in 0..<14 {
                let before = Set(source.items.map(\.id))
                switch rng.next() % 4 {
                case 0:
                    let count = Int(rng.next() % 25)
                    await server.publish(Array(nextID..<nextID + count))
                    nextID += count
                case 1:
                    await source.refresh().value
                    let added = Set(source.items.map(\.id)).subtracting(before).count
                    if source.lastRefreshNewItemCount != added {
                        Issue.record("round \(round), step \(step), seed \(seed): counted \(source.lastRefreshNewItemCount ?? -1), added \(added)")
                        failed = true
                    }
                case 2:
                    await source.loadNextPage()?.value
                default:
                    guard !source.items.isEmpty else { continue }
                    let id = source.items[Int(rng.next() % UInt64(source.items.count))].id
                    deleted.insert(id)
                    source.edit { $0.removeAll { $0.id == id } }
                }
                if Set(source.items.map(\.id)).count != source.items.count {
                    Issue.record("round \(round), step \(step), seed \(seed): a row shows twice: \(source.items.map(\.id))")
                    failed = true
                }
            }
            await source.refresh().value
            await source.loadAll().value
            let expected = await server.ids.filter { !deleted.contains($0) }
            #expect(source.items.map(\.id) == expected, "round \(round), seed \(seed)")
            if failed || source.items.map(\.id) != expected { print("seed", seed); break }
        }
    }

    @Test func aFailedNextPageShowsTheRetryRowWhichLoadsItAgain() async throws {
        let (gate, source, screen) = await loadedPagedScreen(prefetchDistance: 3, firstPage: posts(0..<12), hasMore: true)  // 10 rows on screen
        await screen.controller.settle()

        // The end comes on screen: page 1 loads, with the "loading more" row after the content.
        screen.listView.scroll(to: 2 * 44)
        await gate.waitForCalls(2)
        await screen.controller.settle()
        screen.listView.scroll(to: 3 * 44)
        var more = try #require(screen.controller.displayed.sections.last?.items.first?.model as? LoadMorePlaceholder)
        #expect(!more.isFailed && screen.shownIDs == Array(0..<12))
        #expect(screen.listView.visibleTexts.last == "Loading more…")

        // It fails: the same row turns into the retry row.
        await gate.resume(1, throwing: FetchFailed())
        while source.pageInFlight != nil { await Task.yield() }
        await screen.controller.settle()
        more = try #require(screen.controller.displayed.sections.last?.items.first?.model as? LoadMorePlaceholder)
        // FetchFailed has no user-facing description: the row says only that it failed.
        #expect(more.isFailed && more.text == "Couldn't load more")
        #expect(source.nextPageError != nil && source.snapshot.nextPageError != nil && screen.controller.nextPageError != nil)
        #expect(screen.listView.visibleTexts.last == "Couldn't load more")
        #expect(screen.errors.value == ["fetch failed: offline"])

        // Selecting it asks for page 1 again; paging goes on after the success.
        let retryRow = try #require(screen.controller.displayed.indexPath(of: more))
        #expect(source.pageInFlight == nil, "the row turning into the retry row does not retry by itself")
        screen.listView.selectItem(at: retryRow)
        await gate.waitForCalls(3)
        #expect(await gate.arguments == [0, 1, 1])
        await gate.resume(2, returning: Page(posts(12..<20), hasMore: true))
        while source.pageInFlight != nil { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.shownIDs == Array(0..<20))
        #expect(!screen.controller.displayed.sections.flatMap(\.items).contains { $0.model is LoadMorePlaceholder })
        screen.listView.scroll(to: 10 * 44)
        await gate.waitForCalls(4)
        #expect(await gate.arguments == [0, 1, 1, 2], "reaching the end loads the next page again")
        await gate.resume(3, returning: Page(posts(20..<22), hasMore: false))
        while source.pageInFlight != nil { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.shownIDs == Array(0..<22))
        try screen.expectConsistent()
    }

    @Test func reachingTheFailedRowAgainRetries() async throws {
        let (gate, source, screen) = await loadedPagedScreen(prefetchDistance: 1, firstPage: posts(0..<15), hasMore: true)
        await screen.controller.settle()
        screen.listView.scroll(to: 6 * 44)
        await gate.waitForCalls(2)
        await gate.resume(1, throwing: FetchFailed())
        while source.pageInFlight != nil { await Task.yield() }
        await screen.controller.settle()
        // Scrolling among the content rows does not retry; the retry row coming on screen again does.
        screen.listView.scroll(to: 0)
        screen.listView.scroll(to: 5 * 44)
        #expect(source.pageInFlight == nil)
        screen.listView.scroll(to: 6 * 44)
        #expect(source.pageInFlight == 1)
        await gate.waitForCalls(3)
        await gate.resume(2, returning: Page(posts(15..<20), hasMore: false))
        while source.pageInFlight != nil { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.shownIDs == Array(0..<20))
        try screen.expectConsistent()
    }

    @Test func theRetryRowCanBeRestyledAndRetitled() async throws {
        let screen = PostScreen()
        screen.controller.placeholders.loadMore.failureMessage = "No connection"
        screen.controller.register(TextCell.self, for: LoadMorePlaceholder.self) { cell, more in
            cell.text = "[\(more.isFailed ? "retry" : "…")] " + more.text
        }
        screen.controller.submit(ListSnapshot(TableModel(posts(0..<3)), state: .loaded, hasMore: true, nextPageError: FetchFailed()))
        await screen.controller.settle()
        #expect(screen.listView.visibleTexts == ["post 0", "post 1", "post 2", "[retry] No connection"])
        try screen.expectConsistent()
    }

    @Test func loadAllLoadsEveryPageStopsAtAFailureAndGoesOnWhenCalledAgain() async throws {
        let (gate, source, screen) = await loadedPagedScreen(prefetchDistance: 5, firstPage: posts(0..<10), hasMore: true)
        let all = source.loadAll()
        await gate.waitForCalls(2)
        #expect(source.snapshot.activity == .loadingMore, "each page shows as it loads")
        await gate.resume(1, returning: Page(posts(10..<20), hasMore: true))
        await gate.waitForCalls(3)
        #expect(source.items.count == 20, "published before the next page is asked for")
        await gate.resume(2, throwing: FetchFailed())
        await all.value
        #expect(source.nextPageError != nil && source.items.count == 20)

        let again = source.loadAll()
        await gate.waitForCalls(4)
        #expect(await gate.arguments == [0, 1, 2, 2])
        await gate.resume(3, returning: Page(posts(20..<30), hasMore: true))
        await gate.waitForCalls(5)
        await gate.resume(4, returning: Page(posts(30..<35), hasMore: false))
        await again.value
        await screen.controller.settle()
        #expect(screen.shownIDs == Array(0..<35) && !source.hasMore)

        // Nothing is left: it ends at once.
        await source.loadAll().value
        #expect(await gate.arguments.count == 5)
        try screen.expectConsistent()
    }

    @Test func aMultiSourceShowsItsChildsRetryRowAndForwardsTheRetry() async throws {
        let gate = FetchGate<Page<Post>>()
        let paged = PaginatedDataSource<Post>(prefetchDistance: 0) { try await gate.fetch($0) }
        let source = MultiDataSource([SimpleDataSource([Post(100)]), paged])
        let screen = PostScreen()
        screen.controller.bind(to: source)
        let load = source.load()
        await gate.waitForCalls(1)
        await gate.resume(0, returning: Page(posts(0..<3), hasMore: true))
        await load.value
        let more = try #require(paged.loadNextPage())
        await gate.waitForCalls(2)
        await gate.resume(1, throwing: FetchFailed())
        await more.value
        await screen.controller.settle()
        let row = try #require(screen.controller.displayed.sections.last?.items.first?.model as? LoadMorePlaceholder)
        #expect(row.isFailed && source.snapshot.nextPageError != nil)
        screen.listView.selectItem(at: try #require(screen.controller.displayed.indexPath(of: row)))
        await gate.waitForCalls(3)
        #expect(await gate.arguments == [0, 1, 1])
        await gate.resume(2, returning: Page(posts(3..<5), hasMore: false))
        while paged.pageInFlight != nil { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.shownIDs == [100, 0, 1, 2, 3, 4])
        try screen.expectConsistent()
    }

    @Test func anEditDuringTheFirstLoadKeepsTheLoadingRowWhileNothingShows() async throws {
        let gate = FetchGate<Page<Post>>()
        let source = PaginatedDataSource<Post> { try await gate.fetch($0) }
        let screen = PostScreen()
        screen.controller.bind(to: source)
        let load = source.load()
        source.edit { _ in }
        await screen.controller.settle()
        #expect(screen.placeholder is LoadingPlaceholder)
        await gate.waitForCalls(1)
        await gate.resume(0, returning: Page(posts(0..<2), hasMore: false))
        await load.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 1])
    }

    @Test func loadUntilStopsOnceTheConditionHolds() async throws {
        let server = PostServer(Array(0..<100), pageSize: 10)
        let source = PaginatedDataSource<Post> { page in await server.page(page) }
        await source.load().value
        await source.loadUntil { $0.count > 25 }.value
        #expect(source.items.count == 30 && source.hasMore)
    }

    @Test func aRefreshCountsTheNewItemsEvenWhenTheRowCountStays() async throws {
        // One page loaded; on the server 3 new items and 3 of the page deleted: still 10 rows.
        let server = PostServer(Array(0..<30), pageSize: 10)
        let source = PaginatedDataSource<Post> { page in await server.page(page) }
        await source.load().value
        #expect(source.lastRefreshNewItemCount == nil)
        await server.publish([100, 101, 102])
        await server.delete([1, 2, 3])
        await source.refresh().value
        #expect(source.items.map(\.id) == [100, 101, 102, 0] + Array(4..<10))
        #expect(source.lastRefreshNewItemCount == 3)
        await source.refresh().value
        #expect(source.lastRefreshNewItemCount == 0)

        let remote = RemoteDataSource { Array(posts(0..<5)) }
        await remote.load().value
        #expect(remote.lastRefreshNewItemCount == 5)
    }

    @Test func aRefreshWithOnePageLoadedKeepsTheRowsNewItemsPushedOffIt() async throws {
        // One page of 0–19 loaded; two new posts on top: the new first page ends at 17.
        let server = PostServer(Array(0..<100), pageSize: 20)
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { page in await server.page(page) }
        let screen = PostScreen()
        screen.controller.bind(to: source)
        await source.load().value
        await screen.controller.settle()
        await server.publish([500, 501])
        screen.listView.clearLog()
        await source.refresh().value
        await screen.controller.settle()
        #expect(source.items.map(\.id) == [500, 501] + Array(0..<20), "rows 18 and 19 stay")
        #expect(source.lastRefreshNewItemCount == 2)
        let deletes = screen.listView.log.flatMap { event -> [ItemPath] in
            if case .batch(let changes) = event { changes.itemDeletes } else { [] }
        }
        #expect(deletes.isEmpty, "\(screen.listView.log)")
        #expect(source.hasMore && source.nextPage == 1)

        // The next page repeats 18 and 19: they show once, where they were.
        await source.loadNextPage()?.value
        #expect(source.items.map(\.id) == [500, 501] + Array(0..<38))
        await source.loadAll().value
        await screen.controller.settle()
        let all = await server.ids
        #expect(source.items.map(\.id) == all && screen.shownIDs == all)
        try screen.expectConsistent()
    }

    @Test func aRefreshedFirstPageWithNothingAfterItIsTheWholeList() async throws {
        // One page holds the whole list; one of its rows is deleted on the server and a new
        // one arrives: the refreshed page replaces every row, the last one included.
        let server = PostServer(Array(0..<15), pageSize: 20)
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { page in await server.page(page) }
        await source.load().value
        await server.delete([14])
        await server.publish([500])
        await source.refresh().value
        #expect(source.items.map(\.id) == [500] + Array(0..<14))
        #expect(!source.hasMore)

        // The same with two pages loaded: a first page that says nothing follows holds it all.
        let shrinking = PostServer(Array(0..<30), pageSize: 10)
        let paged = PaginatedDataSource<Post>(prefetchDistance: 0) { page in await shrinking.page(page) }
        await paged.load().value
        await paged.loadNextPage()?.value
        await shrinking.delete(Set(5..<30))
        await paged.refresh().value
        #expect(paged.items.map(\.id) == Array(0..<5) && !paged.hasMore)
    }

    @Test func aRefreshCountsOnlyTheRowsThatNewlyShow() async throws {
        // Post 2 deleted locally (the server still has it), two new posts on the server:
        // the refresh brings 2 rows, not 3.
        let server = PostServer(Array(0..<100), pageSize: 20)
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { page in await server.page(page) }
        await source.load().value
        source.edit { $0.removeAll { $0.id == 2 } }
        await server.publish([500, 501])
        await source.refresh().value
        #expect(!source.items.contains { $0.id == 2 })
        #expect(source.items.prefix(3).map(\.id) == [500, 501, 0])
        #expect(source.lastRefreshNewItemCount == 2)

        // The same for a remote source.
        let list = PostServer([0, 1, 2, 3], pageSize: 100)
        let remote = RemoteDataSource { await list.page(0).items }
        await remote.load().value
        remote.edit { $0.removeAll { $0.id == 2 } }
        await list.publish([500, 501])
        await remote.refresh().value
        #expect(remote.items.map(\.id) == [500, 501, 0, 1, 3])
        #expect(remote.lastRefreshNewItemCount == 2)
    }

    // An outside user's report (outside8a, doc gap): a paged list that local edits emptied
    // showed "No results" while more pages existed, and no page was ever asked for (no row
    // could come on screen to ask). It now asks for the next page itself, with the loading
    // row meanwhile.
    @Test func aPagedListEmptiedByLocalEditsLoadsTheNextPage() async throws {
        let gate = FetchGate<Page<Post>>()
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { try await gate.fetch($0) }
        let screen = PostScreen(viewportHeight: 88)
        screen.controller.bind(to: source)
        let load = source.load()
        await gate.waitForCalls(1)
        await gate.resume(0, returning: Page(posts(0..<2), hasMore: true))
        await load.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 1])
        // Both rows on screen, the next page not asked for yet (prefetch distance 0, end not reached).
        let before = await gate.arguments.count

        source.edit { $0.removeAll() }
        await screen.controller.settle()
        guard source.pageInFlight != nil else {
            Issue.record("no page asked for: the list shows \(String(describing: screen.placeholder))")
            return
        }
        #expect(screen.placeholder is LoadingPlaceholder, "not \(String(describing: screen.placeholder))")
        await gate.waitForCalls(before + 1)
        await gate.resume(before, returning: Page(posts(2..<4), hasMore: true))
        while source.isFetching { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.shownIDs == [2, 3])
        try screen.expectConsistent()
    }

    // The same after a load whose first page holds only rows removed locally: it pages on
    // past them, and shows "No results" only once no page is left.
    @Test func aFirstPageOfRemovedRowsPagesOnUntilTheEnd() async throws {
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { page in
            Page(posts(page * 2..<page * 2 + 2), hasMore: page < 2)
        }
        let screen = PostScreen(viewportHeight: 88)
        screen.controller.bind(to: source)
        await source.load().value
        source.edit { $0.removeAll() }      // rows 0, 1 removed locally
        while source.isFetching { await Task.yield() }
        await source.load().value            // page 0 again: only removed rows
        while source.isFetching { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.shownIDs == [2, 3], "the next page shows")
        source.edit { $0.removeAll() }
        while source.isFetching { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.shownIDs == [4, 5])
        source.edit { $0.removeAll() }
        while source.isFetching { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.shownIDs.isEmpty)
        #expect(!source.hasMore)
        #expect(screen.placeholder is NoResultsPlaceholder, "no page left: no results")
        try screen.expectConsistent()
    }

    // An outside user's report (outside8a, doc gap): a cancelled next page (cancel(), its
    // task cancelled, or the fetch throwing CancellationError) left no load-more row, no
    // retry and no error: the list just stopped. It now ends with the failed load-more row
    // (retry), and onError is not called.
    @Test(arguments: ["cancel()", "task", "fetch"])
    func aCancelledNextPageEndsTheListWithTheRetryRow(how: String) async throws {
        let gate = FetchGate<Page<Post>>()
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { page in
            if page == 0 { return Page(posts(0..<2), hasMore: true) }
            return try await gate.fetch(page)
        }
        let screen = PostScreen()
        screen.controller.bind(to: source)
        await source.load().value
        await screen.controller.settle()
        let next = source.loadNextPage()
        await gate.waitForCalls(1)
        switch how {
        case "cancel()":
            source.cancel()
            await gate.resume(0, returning: Page(posts(2..<4), hasMore: true))   // too late: dropped
        case "task":
            next?.cancel()
            await gate.resume(0, returning: Page(posts(2..<4), hasMore: true))
        default: await gate.resume(0, throwing: CancellationError())
        }
        await next?.value
        await screen.controller.settle()
        #expect(source.items.map(\.id) == [0, 1])
        #expect(source.hasMore)
        let last = screen.controller.displayed.sections.last?.items.last?.model as? LoadMorePlaceholder
        #expect(screen.errors.value.isEmpty, "nothing failed: no onError")
        guard last?.isFailed == true else {
            Issue.record("the list ends with no retry row: \(String(describing: last))")
            return
        }

        // Selecting the row asks for the page again.
        let path = ItemPath(item: 0, section: screen.controller.displayed.sections.count - 1)
        screen.listView.selectItem(at: path)
        #expect(source.pageInFlight == 1)
        await gate.waitForCalls(2)
        await gate.resume(1, returning: Page(posts(2..<4), hasMore: false))
        while source.isFetching { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 1, 2, 3])
        try screen.expectConsistent()
    }

    // An outside user's report (outside9a, D1): a paged list that local edits emptied, with
    // more pages left, showed "No results" once its next page failed: no retry, nothing
    // selectable, the page never asked for again. It now ends with the failed load-more row
    // (the only row), whose retry asks for the page again; the failure with nothing else to
    // show is a `loadFailed` diagnostic, not `onError`. Both orders: the page fails after
    // the edit emptied the list (it asked for it itself), or before (the edit comes after).
    @Test(arguments: [true, false])
    func aFailedPageOfAnEmptiedListEndsItWithTheRetryRow(failsAfterTheEdit: Bool) async throws {
        let (gate, source, screen) = await loadedPagedScreen(prefetchDistance: 0, firstPage: posts(0..<2), hasMore: true)
        let diagnostics = CollectedDiagnostics()
        screen.controller.diagnostics = diagnostics.handler
        await screen.controller.settle()
        if failsAfterTheEdit {
            source.edit { $0.removeAll() }                  // asks for page 1 itself
        } else {
            source.loadNextPage()
        }
        await gate.waitForCalls(2)
        await gate.resume(1, throwing: FetchFailed())
        while source.isFetching { await Task.yield() }
        if !failsAfterTheEdit {
            await screen.controller.settle()                  // the failure shows with the rows
            source.edit { $0.removeAll() }
        }
        await screen.controller.settle()

        #expect(source.items.isEmpty && source.hasMore && source.nextPageError is FetchFailed)
        let row = screen.controller.displayed.sections.last?.items.last?.model
        guard let more = row as? LoadMorePlaceholder, more.isFailed else {
            Issue.record("the emptied list shows \(String(describing: row)), not the failed load-more row")
            return
        }
        #expect(screen.controller.displayed.itemCount == 1)
        if failsAfterTheEdit {
            // Nothing else shows: a diagnostic naming the source and the error, no onError.
            #expect(screen.errors.value.isEmpty)
            #expect(diagnostics.all.map(\.kind) == [.loadFailed])
            #expect(diagnostics.all.first?.message.contains("PaginatedDataSource<Post>") == true)
            #expect(diagnostics.all.first?.message.contains("fetch failed: offline") == true)
            // It names the page, as `pagingStalled` does (outside check 12c).
            #expect(diagnostics.all.first?.message.contains("load of page 1 failed") == true, "\(diagnostics.all)")
        } else {
            #expect(screen.errors.value == ["fetch failed: offline"], "it failed while rows showed")
            // Reported once (outside check 12c): the edit that empties the list reports it no more.
            #expect(diagnostics.all.isEmpty, "\(diagnostics.all)")
        }
        #expect(await gate.arguments == [0, 1], "the row showing asks for nothing by itself")
        // Another edit of the emptied list reports the failure no more either.
        source.edit { $0.removeAll() }
        await screen.controller.settle()
        #expect(diagnostics.all.count == (failsAfterTheEdit ? 1 : 0))
        #expect(screen.errors.value.count == (failsAfterTheEdit ? 0 : 1))

        // Selecting the row asks for the page again; paging goes on.
        let path = ItemPath(item: 0, section: screen.controller.displayed.sections.count - 1)
        #expect(screen.controller.listView(screen.listView, canSelectItemAt: path))
        screen.listView.selectItem(at: path)
        #expect(source.pageInFlight == 1)
        await gate.waitForCalls(3)
        await gate.resume(2, returning: Page(posts(2..<4), hasMore: false))
        while source.isFetching { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.shownIDs == [2, 3])
        try screen.expectConsistent()
    }

    // The same list whose next page's task is cancelled (no row to end with the retry row):
    // it kept the loading row for good, with nothing loading. It now shows the error row
    // with a retry, as after cancel(), and no error is reported (nothing failed).
    @Test func aCancelledPageOfAnEmptiedListShowsTheErrorRowWithARetry() async throws {
        let (gate, source, screen) = await loadedPagedScreen(prefetchDistance: 0, firstPage: posts(0..<2), hasMore: true)
        await screen.controller.settle()
        let next = source.loadNextPage()
        source.edit { $0.removeAll() }                      // page 1 loads: the loading row
        await gate.waitForCalls(2)
        next?.cancel()
        await gate.resume(1, returning: Page(posts(2..<4), hasMore: true))   // too late: dropped
        await next?.value
        await screen.controller.settle()
        #expect(!source.isFetching && source.items.isEmpty && source.hasMore)
        let error = screen.placeholder as? ErrorPlaceholder
        #expect(error?.error is CancellationError && error?.canRetry == true, "not \(String(describing: screen.placeholder))")
        #expect(screen.errors.value.isEmpty)
    }

    // The same failure through a MultiDataSource: a page that failed while rows showed (one
    // onError) is not reported again when an edit empties the list (outside check 12c).
    @Test func aFailedPageOfAPagedChildEmptiedByAnEditIsReportedOnce() async throws {
        let gate = FetchGate<Page<Post>>()
        let paged = PaginatedDataSource<Post>(prefetchDistance: 0) { try await gate.fetch($0) }
        let screen = PostScreen()
        let diagnostics = CollectedDiagnostics()
        screen.controller.diagnostics = diagnostics.handler
        screen.controller.bind(to: MultiDataSource([paged]))
        let load = paged.load()
        await gate.waitForCalls(1)
        await gate.resume(0, returning: Page(posts(0..<2), hasMore: true))
        await load.value
        await screen.controller.settle()
        paged.loadNextPage()
        await gate.waitForCalls(2)
        await gate.resume(1, throwing: FetchFailed())
        while paged.isFetching { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.errors.value == ["fetch failed: offline"])
        paged.edit { $0.removeAll() }
        await screen.controller.settle()
        paged.edit { $0.removeAll() }
        await screen.controller.settle()
        #expect(screen.errors.value == ["fetch failed: offline"])
        #expect(diagnostics.all.isEmpty, "\(diagnostics.all)")
        let row = screen.controller.displayed.sections.last?.items.last?.model
        #expect((row as? LoadMorePlaceholder)?.isFailed == true, "\(String(describing: row))")
        try screen.expectConsistent()
    }
}
