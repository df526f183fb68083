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
}
