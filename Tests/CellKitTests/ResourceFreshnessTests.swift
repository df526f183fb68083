import CellKit
import Foundation
import CellKitTesting
import Testing

private final class AvatarCell: TextCell { var avatar: String? }

/// Outside check 11a: what the cache forgets, a loader added late, and text that shows nothing.
@MainActor
@Suite("Resources: stale loads and late loaders; blank text")
struct ResourceFreshnessTests {
    /// 10 rows of 40 on screen, avatars through `gate`; the loader is added before the rows
    /// show unless `addLoaderLate`.
    private func makeScreen(addLoaderLate: Bool = false) -> (PostScreen, ResourceLoader<Post, String>, FetchGate<String>) {
        let gate = FetchGate<String>()
        let screen = PostScreen()
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

    private func avatar(_ screen: PostScreen, row: Int) -> String? {
        (screen.listView.visibleCells[row] as! AvatarCell).avatar
    }

    /// Yields until `done` holds (bounded: a load that never lands fails the test, not hangs it).
    private func settle<M, V>(_ loader: ResourceLoader<M, V>, until done: (ResourceLoader<M, V>) -> Bool,
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
        #expect(avatar(screen, row: 3) == nil)
        await gate.resume(argument: 3, returning: "new")
        await settle(loader) { !$0.isLoading(ItemID(Post(3))) }
        #expect(loader.cachedValue(for: ItemID(Post(3))) == "new")
        #expect(avatar(screen, row: 3) == "new")
        try screen.expectConsistent()
    }

    @Test("a value provided after removeAllCachedValues is not overwritten by a load that started before it")
    func providedValueStays() async throws {
        let (screen, loader, gate) = makeScreen()
        await gate.waitForCalls(10)
        loader.removeAllCachedValues()
        screen.controller.provideResource(Post(3), key: "avatar", value: "provided")
        #expect(avatar(screen, row: 3) == "provided")
        await gate.resume(argument: 3, returning: "old")
        for _ in 0..<10 { await Task.yield() }
        #expect(avatar(screen, row: 3) == "provided")
        try screen.expectConsistent()
    }

    @Test("a loader added while rows show loads them at once")
    func loaderAddedLate() async throws {
        let (screen, loader, gate) = makeScreen(addLoaderLate: true)
        #expect(loader.startedLoads == 10)
        await gate.waitForCalls(10)
        #expect(Set(await gate.arguments) == Set(0..<10))
        await gate.resume(argument: 2, returning: "avatar-2")
        await settle(loader) { !$0.isLoading(ItemID(Post(2))) }
        #expect(avatar(screen, row: 2) == "avatar-2")
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
        await settle(loader) { !$0.isLoading(ItemID(Post(4))) }
        #expect(avatar(screen, row: 4) == "avatar-4")
        try screen.expectConsistent()
    }

    /// A model whose description is `text`.
    private struct Described: Identifiable, Hashable, Sendable, CustomStringConvertible {
        let id: Int
        let text: String
        var description: String { text }
    }

    @Test("the default cell never shows a description of invisible characters", arguments: [
        "\u{3164}", "\u{115F}\u{1160}", "\u{FFA0}", "\u{034F}", "\u{17B4}\u{17B5}", "\u{180B}\u{180D}",
        "\u{FE0F}", "\u{2065}", "\u{2800}", " \u{3164} ", "\u{200B}",
    ])
    func invisibleDescriptions(text: String) throws {
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView(viewportHeight: 44, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel([Described(id: 7, text: text)]))
        #expect(listView.visibleTexts == ["Described(id: 7)"])
    }

    @Test("a description with something to show is shown as it is")
    func visibleDescription() {
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView(viewportHeight: 44, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel([Described(id: 7, text: "\u{3164}x")]))
        #expect(listView.visibleTexts == ["\u{3164}x"])
    }

    private struct Blank: Error, LocalizedError {
        let text: String
        var errorDescription: String? { text }
    }

    @Test("an error whose description shows nothing gets the generic message", arguments: ["", "   ", "\u{3164}", "\n\t"])
    func blankErrorDescription(text: String) {
        #expect(ListController.Placeholders().message(for: Blank(text: text)) == "Couldn't load the content.")
        #expect(ListController.Placeholders().message(for: Blank(text: "Offline")) == "Offline")
    }

    @Test("HeightCache keeps nothing for a width that no lookup can find")
    func heightCacheRefusesBadWidths() {
        var cache = HeightCache()
        let item = ListItem(Post(1))
        for width in [Double.nan, .infinity, 0, -3] { cache.store(40, for: item, width: width) }
        #expect(cache.count == 0)
        cache.store(40, for: item, width: 320)
        #expect(cache.height(for: item, width: 320) == 40)
    }
}
