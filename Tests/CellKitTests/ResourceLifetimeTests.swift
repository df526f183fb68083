import CellKit
import CellKitTesting
import Synchronization
import Testing

/// The ids whose loads saw a cancellation.
private final class CancelledLoads: Sendable {
    private let ids = Mutex<[Int]>([])
    func add(_ id: Int) { ids.withLock { $0.append(id) } }
    var value: Set<Int> { ids.withLock { Set($0) } }
}

/// Outside check 12b (doc gap 2): loads nobody can take the result of any more are cancelled.
/// Before, a loader freed with its controller, and the loads of the rows of a list view the app
/// let go, ran on until their fetches ended (a download that never ends kept its task).
@MainActor
@Suite("Resources: loads nobody can take are cancelled")
struct ResourceLifetimeTests {
    private func loader(_ gate: FetchGate<String>, _ cancelled: CancelledLoads) -> ResourceLoader<Post, String> {
        ResourceLoader<Post, String>(key: "avatar") { post in
            try await withTaskCancellationHandler {
                try await gate.fetch(post.id)                    // a server that answers only when told
            } onCancel: {
                cancelled.add(post.id)
            }
        }
    }

    private func controller() -> ListController {
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Post.self) { cell, post in cell.text = post.text }
        return controller
    }

    @Test func aLoaderFreedWithItsControllerCancelsItsLoads() async {
        let gate = FetchGate<String>()
        let cancelled = CancelledLoads()
        let listView = HeadlessListView(viewportHeight: 88, rowHeight: 44)   // kept by the app
        weak var weakLoader: ResourceLoader<Post, String>?
        weak var weakController: ListController?
        do {
            let controller = controller()
            let loader = loader(gate, cancelled)
            controller.addResourceLoader(loader)
            controller.attach(to: listView)
            controller.apply(TableModel(posts(0..<10)))
            weakLoader = loader
            weakController = controller
        }
        await gate.waitForCalls(2)
        for _ in 0..<1_000 where weakLoader != nil || cancelled.value.count < 2 { await Task.yield() }
        #expect(weakController == nil && weakLoader == nil)
        #expect(cancelled.value == [0, 1], "the loads of the freed loader were cancelled")
        await gate.resume(argument: 0, returning: "a0")
        await gate.resume(argument: 1, returning: "a1")
    }

    @Test func theLoadsOfAListViewLetGoAreCancelledAtTheNextApply() async throws {
        let gate = FetchGate<String>()
        let cancelled = CancelledLoads()
        let controller = controller()
        let loader = loader(gate, cancelled)
        controller.addResourceLoader(loader)
        var listView: HeadlessListView? = HeadlessListView(viewportHeight: 88, rowHeight: 44)
        weak let weakListView = listView
        controller.attach(to: listView!)
        controller.apply(TableModel(posts(0..<10)))
        await gate.waitForCalls(2)
        listView = nil
        #expect(weakListView == nil)
        controller.apply(TableModel(posts(5..<10)))                      // rows 0 and 1 removed
        for _ in 0..<1_000 where cancelled.value.count < 2 { await Task.yield() }
        #expect(cancelled.value == [0, 1] && loader.loadingIDs.isEmpty)
        #expect(loader.cancelledLoads == 2)

        // A list view attached again loads its rows afresh.
        let again = HeadlessListView(viewportHeight: 88, rowHeight: 44)
        controller.attach(to: again)
        await gate.waitForCalls(4)
        #expect(loader.loadingIDs == [ItemID(Post(5)), ItemID(Post(6))])
        await gate.resume(argument: 5, returning: "a5")
        for _ in 0..<1_000 where loader.isLoading(ItemID(Post(5))) { await Task.yield() }
        #expect(loader.cachedValue(for: ItemID(Post(5))) == "a5")
        await gate.resume(argument: 6, returning: "a6")
        for index in 0..<2 { await gate.resume(index, returning: "late") }
        try again.checkConsistency()
    }
}
