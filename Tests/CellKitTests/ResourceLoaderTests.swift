import CellKit
import CellKitTesting
import Testing

private final class AvatarCell: TextCell { var avatar: String? }

@MainActor
@Suite("Resources: one loader per row, for visible and prefetched rows")
struct ResourceLoaderTests {
    /// 10 rows on screen out of 40; avatars loaded through `gate`, keyed by user id; the
    /// loader is added before the rows show unless `addLoaderLate`.
    private func makeScreen(prefetchDistance: Int = 0, addLoaderLate: Bool = false) -> (PostScreen, ResourceLoader<Post, String>, FetchGate<String>) {
        let gate = FetchGate<String>()
        let screen = PostScreen(prefetchDistance: prefetchDistance)
        screen.controller.register(AvatarCell.self, for: Post.self) { cell, post in
            cell.text = post.text
            cell.avatar = nil
        }
        screen.controller.dispatch.onResource(Post.self) { (cell: AvatarCell, _, update) in
            if update.key == "avatar" { cell.avatar = update.value as? String }
        }
        let loader = ResourceLoader<Post, String>(key: "avatar") { post in try await gate.fetch(post.id) }
        if !addLoaderLate { screen.controller.addResourceLoader(loader) }
        screen.controller.apply(TableModel(posts(0..<40)))
        if addLoaderLate { screen.controller.addResourceLoader(loader) }
        return (screen, loader, gate)
    }

    private func avatars(_ screen: PostScreen) -> [String?] { screen.listView.visibleCells.map { ($0 as! AvatarCell).avatar } }

    private func settleLoads<M, V>(_ loader: ResourceLoader<M, V>, until done: (ResourceLoader<M, V>) -> Bool) async {
        while !done(loader) { await Task.yield() }
    }

    @Test func docExample() async {
        let controller = ListController(diagnostics: .ignore)
        struct User: Identifiable, Equatable, Sendable { let id: Int; var name: String }
        let loader = ResourceLoader<User, String>(key: "avatar") { user in "avatar-\(user.id).png" }
        controller.dispatch.onResource(User.self) { (cell: AvatarCell, _, update) in cell.avatar = update.value as? String }
        controller.addResourceLoader(loader)
        controller.register(AvatarCell.self, for: User.self)
        let listView = HeadlessListView(viewportHeight: 88, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel([User(id: 1, name: "a"), User(id: 2, name: "b")]))
        await settleLoads(loader) { $0.loadingIDs.isEmpty }
        #expect(listView.visibleCells.map { ($0 as! AvatarCell).avatar } == ["avatar-1.png", "avatar-2.png"])
    }

    @Test func visibleRowsLoadAndOnlyTheirCellIsUpdatedWithTheKey() async throws {
        let (screen, loader, gate) = makeScreen()
        #expect(loader.startedLoads == 10)
        await gate.waitForCalls(10)
        #expect(Set(await gate.arguments) == Set(0..<10))
        screen.listView.clearLog()
        await gate.resume(argument: 3, returning: "avatar-3")
        await settleLoads(loader) { !$0.isLoading(ItemID(Post(3))) }
        #expect(avatars(screen)[3] == "avatar-3")
        #expect(avatars(screen).enumerated().allSatisfy { $0.offset == 3 || $0.element == nil })
        // Nothing reloaded, dequeued or reconfigured: one resource update, with its key.
        #expect(screen.listView.log == [.resourceUpdated(ItemPath(row: 3, section: 0), key: "avatar")])
        try screen.expectConsistent()
    }

    /// UIKit contract 4: a reconfigure re-runs configure (which clears the avatar);
    /// the cached resource reaches the reconfigured cell again, without a load.
    @Test func aReconfiguredRowGetsItsCachedResourceBack() async throws {
        let (screen, loader, gate) = makeScreen()
        await gate.waitForCalls(10)
        await gate.resume(argument: 3, returning: "avatar-3")
        await settleLoads(loader) { !$0.isLoading(ItemID(Post(3))) }
        #expect(avatars(screen)[3] == "avatar-3")
        var changed = posts(0..<40)
        changed[3].text += " (edited)"
        screen.controller.apply(TableModel(changed))
        #expect(screen.listView.log.contains(.reconfigured(ItemPath(row: 3, section: 0))))
        #expect(avatars(screen)[3] == "avatar-3")
        #expect(loader.startedLoads == 10)
        try screen.expectConsistent()
    }

    @Test func aRowThatLeavesBeforeItsLoadFinishesIsCancelledAndItsLateResultIgnored() async throws {
        let (screen, loader, gate) = makeScreen()
        await gate.waitForCalls(10)
        screen.listView.scroll(to: 20 * 44)  // rows 20–29
        #expect(loader.cancelledLoads == 10)
        #expect(loader.loadingIDs == Set((20..<30).map { ItemID(Post($0)) }))
        screen.listView.clearLog()
        await gate.resume(argument: 2, returning: "late")
        for _ in 0..<5 { await Task.yield() }
        #expect(loader.cachedValue(for: ItemID(Post(2))) == nil)
        #expect(screen.listView.log.isEmpty)
        try screen.expectConsistent()
    }

    @Test func aCachedResourceReachesARowThatShowsAgainWithoutALoad() async throws {
        let (screen, loader, gate) = makeScreen()
        await gate.waitForCalls(10)
        for id in 0..<10 { await gate.resume(argument: id, returning: "avatar-\(id)") }
        await settleLoads(loader) { $0.loadingIDs.isEmpty }
        #expect(avatars(screen) == (0..<10).map { "avatar-\($0)" })
        screen.listView.scroll(to: 20 * 44)
        let started = loader.startedLoads
        screen.listView.scroll(to: 0)
        #expect(loader.startedLoads == started, "rows 0–9 come from the cache")
        #expect(avatars(screen) == (0..<10).map { "avatar-\($0)" })
        screen.controller.dataSource?.cancel()
        try screen.expectConsistent()
    }

    @Test func theCacheKeepsTheMostRecentlyUsedResults() async throws {
        let loader = ResourceLoader<Post, String>(key: "avatar", cacheLimit: 3) { "avatar-\($0.id)" }
        let screen = PostScreen(viewportHeight: 44, rowHeight: 44)
        screen.controller.addResourceLoader(loader)
        screen.controller.apply(TableModel(posts(0..<10)))
        for row in 0..<5 {
            screen.listView.scroll(to: Double(row) * 44)
            await settleLoads(loader) { $0.loadingIDs.isEmpty }
        }
        #expect(loader.cachedValue(for: ItemID(Post(4))) == "avatar-4")
        #expect(loader.cachedValue(for: ItemID(Post(1))) == nil)
        #expect(loader.cachedValue(for: ItemID(Post(2))) == "avatar-2")
    }

    @Test func prefetchedRowsLoadAheadAndAreCancelledWhenNoLongerNear() async throws {
        let (screen, loader, gate) = makeScreen(prefetchDistance: 3)
        let near = Box<[Int]>([])
        screen.controller.onPrefetch { items in near.value += items.compactMap { $0.model(as: Post.self)?.id } }
        screen.listView.scroll(to: 44)  // rows 1–10 visible, 11–13 and 0 near
        #expect(near.value.contains(13))
        #expect(loader.isLoading(ItemID(Post(12))))
        await gate.waitForCalls(14)
        screen.listView.scroll(to: 30 * 44)  // far away: the prefetched rows are no longer expected
        #expect(!loader.isLoading(ItemID(Post(12))))
        #expect(loader.loadingIDs.allSatisfy { id in (27..<40).contains { ItemID(Post($0)) == id } })
        try screen.expectConsistent()
    }

    // Outside report 7 d3: before the fix, a row that scrolled off into the prefetch zone
    // ended display before it was announced as prefetched, so its load was cancelled and
    // started again at once.
    @Test func aRowMovingBetweenTheScreenAndThePrefetchZoneKeepsItsLoad() async throws {
        let (screen, loader, gate) = makeScreen(prefetchDistance: 2)   // rows 0–9 shown, 10 and 11 prefetched
        await gate.waitForCalls(12)
        #expect(loader.startedLoads == 12)
        screen.listView.scroll(to: 44)                                 // row 0 into the zone above, 10 shown, 12 prefetched
        #expect(loader.cancelledLoads == 0)
        #expect(loader.startedLoads == 13)
        #expect(loader.isLoading(ItemID(Post(0))))
        screen.listView.scroll(to: 0)                                  // row 0 shown again, 10 into the zone, 12 far
        #expect(loader.cancelledLoads == 1)
        #expect(!loader.isLoading(ItemID(Post(12))))
        #expect(loader.startedLoads == 13)
        #expect(loader.isLoading(ItemID(Post(0))) && loader.isLoading(ItemID(Post(10))))
        try screen.expectConsistent()
    }

    // Before the fix, an apply that removed rows only prefetched left their loads running
    // (the loads of removed visible rows were cancelled).
    @Test func loadsOfPrefetchedRowsThatAnApplyRemovesAreCancelled() async throws {
        let (screen, loader, gate) = makeScreen(prefetchDistance: 2)
        screen.listView.scroll(to: 0)                                  // rows 0–9 visible, 10 and 11 prefetched
        #expect(loader.isLoading(ItemID(Post(10))) && loader.isLoading(ItemID(Post(11))))
        await gate.waitForCalls(12)
        let cancelledBefore = loader.cancelledLoads
        screen.controller.apply(TableModel(posts(0..<10) + posts([11])))  // post 10 goes; post 11 moves up
        #expect(!loader.isLoading(ItemID(Post(10))), "a removed prefetched row's load is cancelled")
        #expect(loader.isLoading(ItemID(Post(11))), "a prefetched row that stays keeps loading")
        #expect(loader.cancelledLoads == cancelledBefore + 1)

        screen.controller.apply(TableModel([Post]()))                   // everything goes
        #expect(loader.loadingIDs.isEmpty, "still loading: \(loader.loadingIDs)")
        try screen.expectConsistent()
    }
}

/// Outside check 11a: what the cache forgets, a loader added while rows show, a reload.
extension ResourceLoaderTests {
    /// Yields until `done` holds (bounded: a load that never lands fails the test, not hangs it).
    private func settleBounded<M, V>(_ loader: ResourceLoader<M, V>, until done: (ResourceLoader<M, V>) -> Bool,
                              sourceLocation: SourceLocation = #_sourceLocation) async {
        for _ in 0..<100_000 where !done(loader) { await Task.yield() }
        #expect(done(loader), "the load did not land", sourceLocation: sourceLocation)
    }

    @Test("removeAllCachedValues drops the loads under way: their stale result is neither cached nor shown, and the rows on screen load again")
    func forgettingDropsLoadsUnderWay() async throws {
        let (screen, loader, gate) = makeScreen()
        await gate.waitForCalls(10)
        loader.removeAllCachedValues()   // the avatars changed while the first loads ran
        try #require(loader.startedLoads == 20, "the rows on screen load again at once")
        await gate.waitForCalls(20)
        await gate.resume(argument: 3, returning: "old")   // the first load of row 3 lands late
        for _ in 0..<10 { await Task.yield() }
        #expect(loader.cachedValue(for: ItemID(Post(3))) == nil)
        #expect(avatars(screen)[3] == nil)
        await gate.resume(argument: 3, returning: "new")
        await settleBounded(loader) { !$0.isLoading(ItemID(Post(3))) }
        #expect(loader.cachedValue(for: ItemID(Post(3))) == "new")
        #expect(avatars(screen)[3] == "new")
        try screen.expectConsistent()
    }

    @Test("a value provided after removeAllCachedValues is not overwritten by a load that started before it")
    func providedValueStays() async throws {
        let (screen, loader, gate) = makeScreen()
        await gate.waitForCalls(10)
        loader.removeAllCachedValues()
        screen.controller.provideResource(Post(3), key: "avatar", value: "provided")
        #expect(avatars(screen)[3] == "provided")
        await gate.resume(argument: 3, returning: "old")
        for _ in 0..<10 { await Task.yield() }
        #expect(avatars(screen)[3] == "provided")
        try screen.expectConsistent()
    }

    @Test("a loader added while rows show loads them at once")
    func loaderAddedLate() async throws {
        let (screen, loader, gate) = makeScreen(addLoaderLate: true)
        #expect(loader.startedLoads == 10)
        await gate.waitForCalls(10)
        #expect(Set(await gate.arguments) == Set(0..<10))
        await gate.resume(argument: 2, returning: "avatar-2")
        await settleBounded(loader) { !$0.isLoading(ItemID(Post(2))) }
        #expect(avatars(screen)[2] == "avatar-2")
        // A row that leaves cancels its load as with a loader added first.
        screen.listView.scroll(to: 20 * 44)
        #expect(loader.cancelledLoads == 9)
        try screen.expectConsistent()
    }

    @Test("a reload keeps the loads of the rows it shows again")
    func reloadKeepsLoads() async throws {
        let (screen, loader, gate) = makeScreen()
        await gate.waitForCalls(10)
        screen.listView.reloadData()
        #expect(loader.cancelledLoads == 0)
        #expect(loader.startedLoads == 10)
        await gate.resume(argument: 4, returning: "avatar-4")
        await settleBounded(loader) { !$0.isLoading(ItemID(Post(4))) }
        #expect(avatars(screen)[4] == "avatar-4")
        try screen.expectConsistent()
    }
}
