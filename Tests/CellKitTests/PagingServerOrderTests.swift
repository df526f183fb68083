import CellKit
import CellKitTesting
import Testing

/// A server whose list changes the ways an inbox's does between fetches: new items on top,
/// an item moving to the top with a new version (a "bump"), an item sinking, deletes.
/// Pages of `size` items from the top.
actor ChangingServer {
    private(set) var ids: [Int]
    private(set) var versions: [Int: Int] = [:]
    let size: Int

    init(_ ids: [Int], pageSize: Int) {
        self.ids = ids
        size = pageSize
    }

    func text(of id: Int) -> String { "post \(id)" + (versions[id].map { " v\($0)" } ?? "") }

    func page(_ n: Int) -> Page<Post> {
        let start = min(n * size, ids.count)
        let end = min(start + size, ids.count)
        return Page(ids[start..<end].map { Post($0, text(of: $0)) }, hasMore: end < ids.count)
    }

    /// The posts as the server has them, in its order.
    var posts: [Post] { ids.map { Post($0, text(of: $0)) } }

    func publish(_ new: [Int]) { ids.insert(contentsOf: new, at: 0) }
    func insert(_ id: Int, at index: Int) { ids.insert(id, at: min(index, ids.count)) }
    func delete(_ id: Int) { ids.removeAll { $0 == id } }

    /// `id` moves to `index`, in a new version.
    func move(_ id: Int, to index: Int) {
        guard let from = ids.firstIndex(of: id) else { return }
        ids.remove(at: from)
        ids.insert(id, at: min(index, ids.count))
        versions[id, default: 0] += 1
    }
}

/// Paged to the end after a refresh, the list is the server's: every item it holds once, in
/// its order and version, whatever changed on the server between the fetches. The tests
/// of the server's changes and the seeded one failed before the fix (an outside user's
/// report, D1, D4, D5, D6); the one of a row moved locally guards what an edit keeps.
@MainActor
@Suite("Paging: a refresh and the pages after it show the server's list")
struct PagingServerOrderTests {
    /// A source over `server` bound to a new screen, `pages` pages loaded.
    func loaded(_ server: ChangingServer, pages: Int) async -> (PaginatedDataSource<Post>, PostScreen) {
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { await server.page($0) }
        let screen = PostScreen()
        screen.controller.bind(to: source)
        await source.load().value
        for _ in 1..<pages { await source.loadNextPage()?.value }
        return (source, screen)
    }

    @Test(arguments: [(3, 2), (7, 1), (7, 2), (9, 2), (12, 3), (14, 3)])
    func aRefreshAfterAnItemMovedToTheTopKeepsEveryRow(bump: Int, pages: Int) async throws {
        // D1: with 0–9 loaded, 7 moves to the top: 4, 5 and 6 were lost for good.
        let server = ChangingServer(Array(0..<20), pageSize: 5)
        let (source, screen) = await loaded(server, pages: pages)
        await server.move(bump, to: 0)
        await source.refresh().value
        let loadedIDs = Array(0..<pages * 5)
        #expect(source.items.map(\.id) == [bump] + loadedIDs.filter { $0 != bump },
                "the rows loaded before stay, in the server's order")
        #expect(source.items.first?.text == "post \(bump) v1")
        #expect(source.lastRefreshNewItemCount == (loadedIDs.contains(bump) ? 0 : 1))
        await source.loadAll().value
        await screen.controller.settle()
        #expect(source.items == (await server.posts))
        #expect(screen.shownIDs == (await server.ids))
        try screen.expectConsistent()
    }

    @Test func aServerDeleteInTheFirstPageLosesNoItemAtThePageBoundary() async throws {
        // D5: with 0–9 loaded, 2 is deleted on the server: 10 never showed.
        let server = ChangingServer(Array(0..<15), pageSize: 5)
        let (source, screen) = await loaded(server, pages: 2)
        await server.delete(2)
        await source.refresh().value
        #expect(source.items.map(\.id) == [0, 1] + Array(3..<10))
        await source.loadAll().value
        await screen.controller.settle()
        #expect(source.items.map(\.id) == [0, 1] + Array(3..<15))
        try screen.expectConsistent()
    }

    @Test func anItemThatSinksIntoALoadedPageShowsThereOnceThatPageIsFetchedAgain() async throws {
        // D5, without a delete: 1 moves from the first page to position 8; it was lost for good.
        let server = ChangingServer(Array(0..<15), pageSize: 5)
        let (source, screen) = await loaded(server, pages: 2)
        await server.move(1, to: 8)
        await source.refresh().value
        #expect(source.items.map(\.id) == [0, 2, 3, 4, 5, 6, 7, 8, 9], "gone from the first page")
        await source.loadNextPage()?.value
        #expect(source.items.map(\.id) == [0, 2, 3, 4, 5, 6, 7, 8, 1, 9], "back where page 1 has it")
        await source.loadAll().value
        await screen.controller.settle()
        #expect(source.items == (await server.posts))
        try screen.expectConsistent()
    }

    @Test func anItemThatArrivedWhileScrollingTakesTheServersPlaceAfterARefresh() async throws {
        // D4: 100–103 arrive after the first page; page 1 then holds 103, shown after 2.
        let server = ChangingServer(Array(0..<6), pageSize: 3)
        let (source, screen) = await loaded(server, pages: 1)
        await server.publish(Array(100..<104))
        await source.loadNextPage()?.value
        #expect(source.items.map(\.id) == [0, 1, 2, 103], "where the page that brings it puts it")
        await source.refresh().value
        await source.loadAll().value
        await screen.controller.settle()
        #expect(source.items.map(\.id) == [100, 101, 102, 103, 0, 1, 2, 3, 4, 5])
        try screen.expectConsistent()
    }

    @Test func aNextPageThatReturnsAnItemInsertedLocallyShowsTheServersCopy() async throws {
        // D6: the "sending…" row stayed although page 1 returned the sent message.
        let server = ChangingServer(Array(0..<10), pageSize: 5)
        let (source, screen) = await loaded(server, pages: 1)
        source.edit {
            $0.insert(Post(7, "sending…"), at: 0)
            $0.insert(Post(50, "draft"), at: 2)                     // the server never gets it
        }
        await source.loadNextPage()?.value
        await screen.controller.settle()
        #expect(source.items.map(\.id) == [0, 50, 1, 2, 3, 4, 5, 6, 7, 8, 9], "where the page puts it; the draft stays")
        #expect(source.items.first { $0.id == 7 }?.text == "post 7")
        await source.refresh().value
        await source.loadAll().value
        #expect(source.items.map(\.id) == [0, 50, 1, 2, 3, 4, 5, 6, 7, 8, 9])
        try screen.expectConsistent()
    }

    @Test func aRowMovedLocallyAfterARefreshStaysWhereItWasPut() async throws {
        let server = ChangingServer(Array(0..<20), pageSize: 5)
        let (source, screen) = await loaded(server, pages: 3)
        await server.publish([100, 101])
        await source.refresh().value                                // 100 101 0 1 2 | 3 … 14 unconfirmed
        source.edit { $0.insert($0.remove(at: 10), at: 0) }         // 8 to the top
        await source.loadAll().value
        await screen.controller.settle()
        #expect(source.items.map(\.id) == [8, 100, 101] + Array(0..<20).filter { $0 != 8 })
        try screen.expectConsistent()
    }

    @Test func theEndComingOnScreenAfterARefreshLoadsThePagesFetchedAgainAndOneMore() async throws {
        // Three pages loaded and refreshed: pages 1 and 2 fetched again put their rows above
        // the end; the end on screen loads them and page 3, without another scroll.
        let server = ChangingServer(Array(0..<40), pageSize: 5)
        let source = PaginatedDataSource<Post>(prefetchDistance: 1) { await server.page($0) }
        let screen = PostScreen(viewportHeight: 220, prefetchDistance: 0)   // five rows
        // Loaded before the screen binds it: the first page alone fills the screen, and its
        // end on screen would ask for pages of its own while the test loads them.
        await source.loadUntil { $0.count >= 15 }.value
        #expect(source.items.map(\.id) == Array(0..<15))
        screen.controller.bind(to: source)
        await screen.controller.settle()
        await source.refresh().value
        await screen.controller.settle()
        #expect(source.nextPage == 1)
        screen.listView.scroll(to: 44 * 10)                         // rows 10–14: the end
        for _ in 0..<10_000 where source.nextPage < 4 || source.isFetching { await Task.yield() }   // bounded
        await screen.controller.settle()
        #expect(source.items.map(\.id) == Array(0..<20))
        #expect(source.nextPage == 4)
        try screen.expectConsistent()
    }

    @Test func refreshesPagesServerChangesAndLocalEditsEndInTheServersList() async throws {
        // Seeded: between fetches the server gets new items on top, bumps an item to the top,
        // sinks one, deletes one; the user deletes rows, inserts drafts the server never gets
        // and rows the server gets later (somewhere in its list). After every step no row shows
        // twice and no row deleted locally shows; after a refresh and loading to the end, the
        // rows are the server's items (less the ones deleted locally), in its order and
        // version, with the drafts where they were put.
        for seed in UInt64(1)...300 {
            var rng = SplitMix64(seed: seed)
            let size = Int(2 + rng.next() % 6)
            let server = ChangingServer(Array(0..<Int(3 + rng.next() % 40)), pageSize: size)
            let source = PaginatedDataSource<Post>(prefetchDistance: 0) { await server.page($0) }
            let screen = PostScreen()
            screen.controller.bind(to: source)
            await source.load().value
            var nextID = 1000
            var deleted = Set<Int>()
            var drafts = Set<Int>()
            var sent = Set<Int>()
            var trace: [String] = []
            var failed = false
            for step in 0..<14 {
                let serverIDs = await server.ids
                switch rng.next() % 9 {
                case 0:
                    let count = Int(1 + rng.next() % UInt64(3 * size))
                    await server.publish(Array(nextID..<nextID + count))
                    nextID += count
                    trace.append("server +\(count)")
                case 1 where !serverIDs.isEmpty:
                    let id = serverIDs[Int(rng.next() % UInt64(serverIDs.count))]
                    await server.move(id, to: 0)
                    trace.append("server bumps \(id)")
                case 2 where !serverIDs.isEmpty:
                    let id = serverIDs[Int(rng.next() % UInt64(min(serverIDs.count, 2 * size)))]
                    let to = Int(rng.next() % UInt64(serverIDs.count))
                    await server.move(id, to: to)
                    trace.append("server sinks \(id) to \(to)")
                case 3 where !serverIDs.isEmpty:
                    // Not an item sent from here: one the server never returned would stay a draft.
                    let id = serverIDs[Int(rng.next() % UInt64(serverIDs.count))]
                    guard !sent.contains(id) else { continue }
                    await server.delete(id)
                    trace.append("server deletes \(id)")
                case 4, 5:
                    await source.refresh().value
                    trace.append("refresh")
                case 6:
                    await source.loadNextPage()?.value
                    trace.append("next")
                case 7 where !source.items.isEmpty:
                    let id = source.items[Int(rng.next() % UInt64(source.items.count))].id
                    guard !drafts.contains(id) else { continue }
                    deleted.insert(id)
                    source.edit { $0.removeAll { $0.id == id } }
                    trace.append("delete \(id)")
                case 8:
                    let id = nextID
                    nextID += 1
                    let at = Int(rng.next() % UInt64(source.items.count + 1))
                    source.edit { $0.insert(Post(id, "sending…"), at: at) }
                    if rng.next() % 2 == 0 {
                        drafts.insert(id)
                        trace.append("draft \(id) at \(at)")
                    } else {
                        let serverAt = Int(rng.next() % UInt64(serverIDs.count + 1))
                        await server.insert(id, at: serverAt)
                        sent.insert(id)
                        trace.append("send \(id) at \(at), server \(serverAt)")
                    }
                default:
                    continue
                }
                let shown = source.items.map(\.id)
                if Set(shown).count != shown.count || !deleted.isDisjoint(with: shown) {
                    Issue.record("seed \(seed), step \(step): a row shows twice or came back: \(shown) after \(trace)")
                    failed = true
                    break
                }
            }
            if !failed {
                await source.refresh().value
                await source.loadAll().value
                await screen.controller.settle()
                let expected = await server.posts.filter { !deleted.contains($0.id) }
                let rows = source.items.filter { !drafts.contains($0.id) }
                #expect(rows == expected, "seed \(seed), page size \(size): \(trace)\n got \(rows.map(\.id))\nwant \(expected.map(\.id))")
                #expect(Set(source.items.map(\.id)).isSuperset(of: drafts), "seed \(seed): a draft went")
                #expect(!source.hasMore)
                failed = rows != expected
                try screen.expectConsistent()
            }
            if failed { print("seed", seed); break }
        }
    }
}
