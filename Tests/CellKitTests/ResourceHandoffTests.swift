import CellKit
import CellKitTesting
import Testing

/// A post pinned at the top and also in the feed, loaded through `gate`.
@MainActor
@Suite("Resources: a load follows its object from row to row, and a failed load says so")
struct ResourceHandoffTests {
    private func pinnedScreen(prefetchDistance: Int = 0) -> (PostScreen, ResourceLoader<Post, String>, FetchGate<String>) {
        let gate = FetchGate<String>()
        let screen = PostScreen(viewportHeight: 300, rowHeight: 100, prefetchDistance: prefetchDistance)
        let loader = ResourceLoader<Post, String>(key: "image") { post in try await gate.fetch(post.id) }
        screen.controller.addResourceLoader(loader)
        screen.controller.apply(TableModel(sections: [
            TableSection(id: "pinned", items: [ListItem(Post(3, "pinned"))]),
            TableSection(id: "posts", items: posts(1...50).map { ListItem($0) }),
        ]))
        return (screen, loader, gate)
    }

    /// d2 (outside check 10a): one scroll takes the pinned row of post 3 off screen and the feed
    /// row of post 3 on; a row of the object shows before and after, so its load goes on.
    @Test func loadGoesOnWhenOneScrollMovesItsObjectFromRowToRow() async throws {
        let (screen, loader, gate) = pinnedScreen()
        await gate.waitForCalls(3)
        #expect(screen.listView.visibleTexts == ["pinned", "post 1", "post 2"])
        screen.listView.scroll(to: 300)
        #expect(screen.listView.visibleTexts == ["post 3", "post 4", "post 5"])
        #expect(loader.isLoading(ItemID(Post(3))))
        #expect(loader.cancelledLoads == 2)   // posts 1 and 2 left; post 3 did not
        #expect(loader.startedLoads == 5)     // 3, 1, 2, then 4 and 5
        await gate.waitForCalls(5)
        #expect(await gate.arguments.filter { $0 == 3 }.count == 1)
        try screen.expectConsistent()

        // When the last row of the object leaves, its load is cancelled, at the end of the scroll.
        screen.listView.scroll(to: 1000)
        #expect(!loader.isLoading(ItemID(Post(3))))
        #expect(loader.cancelledLoads == 5)
    }

    /// The same for an apply: the pinned row (its own id) goes, the feed rows move up, and
    /// the feed row of post 3 comes on screen in the same batch; the load goes on.
    @Test func loadGoesOnWhenAnApplyMovesItsObjectFromRowToRow() async throws {
        let gate = FetchGate<String>()
        let screen = PostScreen(viewportHeight: 300, rowHeight: 100)
        let loader = ResourceLoader<Post, String>(key: "image") { post in try await gate.fetch(post.id) }
        screen.controller.addResourceLoader(loader)
        let feed = posts(1...50).map { ListItem($0) }
        screen.controller.apply(TableModel(sections: [TableSection(id: 0, items: [ListItem(Post(3, "pinned"), id: "pinned")] + feed)]))
        await gate.waitForCalls(3)
        #expect(screen.listView.visibleTexts == ["pinned", "post 1", "post 2"])
        screen.controller.apply(TableModel(sections: [TableSection(id: 0, items: feed)]))
        #expect(screen.listView.visibleTexts == ["post 1", "post 2", "post 3"])
        #expect(loader.isLoading(ItemID(Post(3))))
        #expect(loader.cancelledLoads == 0)
        #expect(loader.startedLoads == 3)
        try screen.expectConsistent()

        // An apply that removes every row of an object cancels its load, once the apply is over.
        screen.controller.apply(TableModel(posts([1, 2, 4, 5])))
        #expect(!loader.isLoading(ItemID(Post(3))))
        #expect(loader.cancelledLoads == 1)
    }

    /// A loader that throws: the row stays without its resource, nothing is cached, a
    /// diagnostic names the loader's key and the object's id, and the row loads again when it shows again.
    @Test func failedLoadIsReportedWithKeyAndIDAndLoadsAgainWhenShownAgain() async throws {
        let collected = CollectedDiagnostics()
        let (screen, loader, gate) = pinnedScreen()
        screen.controller.diagnostics = collected.handler
        await gate.waitForCalls(3)
        let failing = await gate.arguments.firstIndex(of: 1)!
        await gate.resume(failing, throwing: FetchFailed(reason: "404"))
        while loader.isLoading(ItemID(Post(1))) { await Task.yield() }
        let failures = collected.all.filter { $0.kind == .loadFailed }.map(\.message)
        #expect(failures == [#"ResourceLoader "image" could not load the resource of Post(1): fetch failed: 404; nothing was cached, and a row of it that shows again loads it again"#])
        #expect(loader.cachedValue(for: ItemID(Post(1))) == nil)
        screen.listView.scroll(to: 300)
        screen.listView.scroll(to: 0)
        #expect(loader.isLoading(ItemID(Post(1))))
        await gate.waitForCalls(7)   // 3, 1, 2; 4, 5; 1 and 2 again
        #expect(await gate.arguments.filter { $0 == 1 }.count == 2)
    }

    /// A cancelled load that throws (a loader honouring cancellation) is no failure.
    @Test func cancelledLoadThatThrowsIsNotReported() async throws {
        let collected = CollectedDiagnostics()
        let (screen, loader, gate) = pinnedScreen()
        screen.controller.diagnostics = collected.handler
        await gate.waitForCalls(3)
        screen.listView.scroll(to: 1000)
        #expect(loader.cancelledLoads == 3)
        for index in 0..<3 { await gate.resume(index, throwing: CancellationError()) }
        for _ in 0..<100 { await Task.yield() }
        #expect(collected.all.filter { $0.kind == .loadFailed }.isEmpty)
    }
}
