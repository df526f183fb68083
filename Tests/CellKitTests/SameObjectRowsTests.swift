import CellKit
import CellKitTesting
import Testing

private final class UserCell: TextCell { var image: String? }
private struct User: Identifiable, Equatable, Sendable { let id: Int; var name: String }

/// Coffee updates every visible cell that shows an object (`user == updatedObject`):
/// a user listed in two sections (likers, to follow), or by two children of a
/// `MultiDataSource`, is two rows of one object. Outside report, d1 and d2.
@MainActor
@Suite("Resources reach every row showing the object: duplicates and explicit ids")
struct SameObjectRowsTests {
    private let ada = User(id: 1, name: "Ada")
    private let bob = User(id: 2, name: "Bob")
    private let cy = User(id: 3, name: "Cy")

    private func screen(viewportHeight: Double = 600) -> (ListController, HeadlessListView) {
        let controller = ListController(diagnostics: .ignore)
        controller.register(UserCell.self, for: User.self) { cell, user in
            cell.text = user.name
            cell.image = nil
        }
        controller.dispatch.onResource(User.self) { (cell: UserCell, _, update) in
            if update.key == "image" { cell.image = update.value as? String }
        }
        let listView = HeadlessListView(viewportHeight: viewportHeight, rowHeight: 44)
        controller.attach(to: listView)
        return (controller, listView)
    }

    private func images(_ listView: HeadlessListView) -> [String] {
        listView.visibleCells.map { ($0 as? UserCell)?.image ?? "-" }
    }

    private func settle<M, V>(_ loader: ResourceLoader<M, V>) async {
        for _ in 0..<10_000 where !loader.loadingIDs.isEmpty { await Task.yield() }
    }

    // MARK: d1, ResourceLoader

    @Test func loaderLoadsOnceForAUserInTwoSectionsAndDeliversToBoth() async {
        let (controller, listView) = screen()
        let loader = ResourceLoader<User, String>(key: "image") { user in "img-\(user.id)" }
        controller.addResourceLoader(loader)
        controller.apply(TableModel(sections: [[ada, bob], [cy, ada]]))
        await settle(loader)
        #expect(loader.loadingIDs.isEmpty)
        #expect(images(listView) == ["img-1", "img-2", "img-3", "img-1"])
        #expect(loader.startedLoads == 3)  // one load for Ada, shared by her two rows
        #expect(loader.cachedValue(for: ItemID(ada)) == "img-1")
    }

    @Test func aSecondRowOfACachedUserGetsTheCachedValueWithoutALoad() async {
        let (controller, listView) = screen(viewportHeight: 88)  // two rows on screen
        let loader = ResourceLoader<User, String>(key: "image") { user in "img-\(user.id)" }
        controller.addResourceLoader(loader)
        let others = (10..<20).map { User(id: $0, name: "u\($0)") }
        controller.apply(TableModel([ada] + others + [ada]))
        await settle(loader)
        #expect(loader.startedLoads == 2)
        listView.scrollToItem(at: ItemPath(item: 11, section: 0))  // the second Ada row shows
        await settle(loader)
        let cell = listView.cell(at: ItemPath(item: 11, section: 0)) as? UserCell
        #expect(cell?.text == "Ada")
        #expect(cell?.image == "img-1")
        #expect(!loader.isLoading(ItemID(ada)))
        #expect(loader.startedLoads == 2 + 1)  // row 10 (u19) loaded; Ada came from the cache
    }

    @Test func rowsWithExplicitIdsOfOneUserShareItsLoad() async {
        let (controller, listView) = screen()
        let loader = ResourceLoader<User, String>(key: "image") { user in "img-\(user.id)" }
        controller.addResourceLoader(loader)
        controller.apply(TableModel(sections: [
            TableSection(id: "likers", items: [ListItem(ada, id: "liker-1")]),
            TableSection(id: "follow", items: [ListItem(ada, id: "follow-1")]),
        ]))
        await settle(loader)
        #expect(images(listView) == ["img-1", "img-1"])
        #expect(loader.startedLoads == 1)
        // provideResource finds both too: they show Ada.
        #expect(controller.provideResource(ada, key: "image", value: "new") == [ItemPath(item: 0, section: 0), ItemPath(item: 0, section: 1)])
    }

    // MARK: d2, provideResource

    @Test func provideResourceReachesEveryRowOfTheUserAcrossMultiDataSourceChildren() async {
        let (controller, listView) = screen()
        let multi = MultiDataSource([SimpleDataSource([ada, bob]), SimpleDataSource([cy, ada])])
        controller.bind(to: multi)
        await multi.load().value
        await controller.settle()
        listView.clearLog()
        let paths = controller.provideResource(ada, key: "image", value: "ada.png")
        #expect(paths == [ItemPath(item: 0, section: 0), ItemPath(item: 1, section: 1)])
        #expect(images(listView) == ["ada.png", "-", "-", "ada.png"])
        #expect(listView.log == [.resourceUpdated(ItemPath(item: 0, section: 0), key: "image"),
                                 .resourceUpdated(ItemPath(item: 1, section: 1), key: "image")])
    }

    @Test func aDuplicateRowOffScreenPresentsTheKeptResourceWhenItShows() {
        let (controller, listView) = screen(viewportHeight: 88)
        let others = (10..<20).map { User(id: $0, name: "u\($0)") }
        controller.apply(TableModel([ada] + others + [ada]))
        #expect(controller.provideResource(ada, key: "image", value: "ada.png") == [ItemPath(item: 0, section: 0)])
        listView.scrollToItem(at: ItemPath(item: 11, section: 0))
        let cell = listView.cell(at: ItemPath(item: 11, section: 0)) as? UserCell
        #expect(cell?.text == "Ada")
        #expect(cell?.image == "ada.png")
    }
}
