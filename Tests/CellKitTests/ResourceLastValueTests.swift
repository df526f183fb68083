import CellKit
import CellKitTesting
import Testing

private final class PhotoCell: TextCell { var image: String? }

/// The rules of outside check 12a: a delivery fans out only to cells that still show the
/// object after a handler changed the list; the last value given for an object and key
/// wins, whether the app or a loader gave it; `removeAllCachedValues()` forgets the
/// controller's kept copy too.
@MainActor
@Suite("Resources: the fan-out checks each row again, the last value given wins")
struct ResourceLastValueTests {
    /// 10 rows of 44 on screen; images through `gate` (keyed by post id) when `loader` is used.
    private func makeScreen(_ rows: [Post] = posts(1...40)) -> (PostScreen, ResourceLoader<Post, String>, FetchGate<String>) {
        let gate = FetchGate<String>()
        let screen = PostScreen()
        screen.controller.register(PhotoCell.self, for: Post.self) { cell, post in
            cell.text = post.text
            cell.image = nil
        }
        let loader = ResourceLoader<Post, String>(key: "image") { post in try await gate.fetch(post.id) }
        screen.controller.addResourceLoader(loader)
        screen.controller.apply(TableModel(rows))
        return (screen, loader, gate)
    }

    /// `makeScreen()` with each image shown in its cell, the 10 rows on screen loading;
    /// with `post1Loaded`, post 1's load answered "old.jpg" and cached.
    private func showingImages(post1Loaded: Bool) async -> (PostScreen, ResourceLoader<Post, String>, FetchGate<String>) {
        let (screen, loader, gate) = makeScreen()
        screen.controller.dispatch.onResource(Post.self) { (cell: PhotoCell, _, update) in cell.image = update.value as? String }
        await gate.waitForCalls(10)
        if post1Loaded {
            await gate.resume(argument: 1, returning: "old.jpg")
            await settle { loader.cachedValue(for: ItemID(Post(1))) != nil }
        }
        return (screen, loader, gate)
    }

    private func image(_ screen: PostScreen, _ item: Int) -> String?? {
        (screen.listView.cell(at: ItemPath(item: item, section: 0)) as? PhotoCell).map(\.image)
    }

    /// Yields until `done`, at most 10,000 times.
    private func settle(until done: () -> Bool) async {
        for _ in 0..<10_000 where !done() { await Task.yield() }
    }

    @Test(arguments: [false, true])
    func aHandlerApplyingDuringTheFanOutKeepsTheResourceFromTheReusedCell(useLoader: Bool) async throws {
        let (screen, loader, gate) = makeScreen([Post(1), Post(2), Post(1, "dup")])
        var applied = false
        var delivered: [String] = []
        screen.controller.dispatch.onResource(Post.self) { [unowned screen] (cell: PhotoCell, post, update) in
            cell.image = update.value as? String
            delivered.append(post.text)
            if !applied {
                applied = true     // the duplicate row is replaced by post 3, whose cell is the duplicate's
                screen.controller.apply(TableModel([Post(1), Post(2), Post(3)]))
            }
        }
        await gate.waitForCalls(2)
        if useLoader {
            await gate.resume(argument: 1, returning: "one")
            await settle { !loader.isLoading(ItemID(Post(1))) && applied }
        } else {
            screen.controller.provideResource(Post(1), key: "image", value: "one")
        }
        try screen.expectConsistent()
        #expect(screen.listView.visibleTexts == ["post 1", "post 2", "post 3"])
        #expect(image(screen, 0) == "one")
        #expect(image(screen, 2) == .some(nil), "post 3's cell got post 1's image")
        #expect(delivered == ["post 1"])
    }

    @Test func aProvidedValueOutlivesTheLoadersOlderCacheOnReconfigure() async throws {
        let (screen, loader, _) = await showingImages(post1Loaded: true)
        #expect(image(screen, 0) == "old.jpg")
        screen.controller.provideResource(Post(1), key: "image", value: "new.jpg")
        #expect(image(screen, 0) == "new.jpg")
        #expect(loader.cachedValue(for: ItemID(Post(1))) == "new.jpg", "the loader caches the value given last")
        var rows = posts(1...40)
        rows[0].text = "liked"                                       // same identity: a reconfigure
        screen.controller.apply(TableModel(rows))
        #expect(screen.listView.visibleTexts.first == "liked")
        #expect(image(screen, 0) == "new.jpg")
    }

    @Test func aProvidedValueOutlivesTheLoadersOlderCacheWhenTheRowShowsAgain() async throws {
        let (screen, _, _) = await showingImages(post1Loaded: true)
        screen.controller.provideResource(Post(1), key: "image", value: "new.jpg")
        screen.listView.scroll(to: 1000)
        screen.listView.scroll(to: 0)
        #expect(image(screen, 0) == "new.jpg")
    }

    /// The last value given wins, whoever gives it: a load under way when the app provides
    /// a value goes on, and its result, given later, replaces the provided one.
    @Test func aLoadFinishingAfterAProvidedValueWinsInTurn() async throws {
        let (screen, loader, gate) = await showingImages(post1Loaded: false)
        screen.controller.provideResource(Post(1), key: "image", value: "provided.jpg")
        #expect(loader.isLoading(ItemID(Post(1))))
        #expect(loader.cachedValue(for: ItemID(Post(1))) == "provided.jpg")
        await gate.resume(argument: 1, returning: "loaded.jpg")
        await settle { !loader.isLoading(ItemID(Post(1))) }
        #expect(image(screen, 0) == "loaded.jpg")
        #expect(loader.cachedValue(for: ItemID(Post(1))) == "loaded.jpg")
        screen.listView.scroll(to: 1000)
        screen.listView.scroll(to: 0)
        #expect(image(screen, 0) == "loaded.jpg")
    }

    @Test func removingTheCachedValuesForgetsTheKeptCopyForARowThatShowsAgain() async throws {
        let (screen, loader, gate) = await showingImages(post1Loaded: true)
        #expect(image(screen, 0) == "old.jpg")
        screen.listView.scroll(to: 1000)
        loader.removeAllCachedValues()
        let started = loader.startedLoads
        screen.listView.scroll(to: 0)
        #expect(loader.startedLoads > started, "post 1 loads again")
        #expect(image(screen, 0) == .some(nil), "the old image shows before the new load finished")
        let calls = await gate.arguments
        await gate.resume(calls.lastIndex(of: 1)!, throwing: FetchFailed())
        await settle { !loader.isLoading(ItemID(Post(1))) }
        #expect(image(screen, 0) == .some(nil), "the old image shows after the new load failed")
    }
}
