import CellKit
import CellKitTesting
import Testing

// Swipe actions stay open while batches change the rows (UIKit keeps the configuration
// it was given): an action must run on the row it was offered for, where that row is
// when the user picks it, and not at all once the row is gone (Eureka #1807: a swipe
// handler with the index path of the swipe deletes the wrong row).

@Suite("List-view core: row actions follow their row")
@MainActor
struct RowActionFollowTests {
    struct Note: Identifiable, Equatable, Sendable { let id: Int; var text: String }

    private func make(_ ids: [Int]) -> (ListController, HeadlessListView) {
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Note.self) { cell, note in cell.text = note.text }
        controller.attach(to: listView)
        controller.apply(TableModel(ids.map { Note(id: $0, text: "n\($0)") }))
        return (controller, listView)
    }

    private func refusals(_ listView: HeadlessListView) -> [String] {
        listView.log.compactMap { if case .refused(let message) = $0 { message } else { nil } }
    }

    @Test("the editing table's default delete, picked after a row arrived above, deletes the swiped row at its new path")
    func defaultDeleteAfterAnInsertAbove() throws {
        let (controller, listView) = make([1, 2, 3, 4])
        let editing = EditingTable()
        var deleted: [(Int, ItemPath)] = []
        editing.onDelete(Note.self) { note, path in deleted.append((note.id, path)) }
        let swiped = ItemPath(item: 2, section: 0)
        let model = try #require(controller.displayed.model(at: swiped))
        let actions = listView.core.rowActions(editing.trailingActions(for: model, at: swiped), offeredAt: swiped)
        controller.apply(TableModel([0, 1, 2, 3, 4].map { Note(id: $0, text: "n\($0)") }))
        #expect(try #require(actions.first).handler(swiped))
        #expect(deleted.map(\.0) == [3])
        #expect(deleted.map(\.1) == [ItemPath(item: 3, section: 0)])
        // The path handed to the delete names note 3 in the list as it is now.
        #expect((controller.displayed.model(at: deleted[0].1) as? Note)?.id == 3)
    }

    @Test("an action picked after its row was deleted does not run, and says so")
    func rowGone() throws {
        let (controller, listView) = make([1, 2, 3])
        var ran: [ItemPath] = []
        let actions = listView.core.rowActions([RowAction(title: "Pin") { path in ran.append(path); return true }],
                                               offeredAt: ItemPath(item: 1, section: 0))
        controller.apply(TableModel([1, 3].map { Note(id: $0, text: "n\($0)") }))
        #expect(!(try #require(actions.first).handler(ItemPath(item: 1, section: 0))))
        #expect(ran.isEmpty)
        #expect(refusals(listView).contains { $0.contains("\"Pin\"") && $0.contains("section 0, row 1") })
    }

    @Test("after a reload the row is gone for its actions; moves and deletes elsewhere keep it")
    func movesAndReload() throws {
        let (controller, listView) = make([1, 2, 3, 4, 5])
        var ran: [ItemPath] = []
        let actions = listView.core.rowActions([RowAction(title: "Flag") { path in ran.append(path); return true }],
                                               offeredAt: ItemPath(item: 3, section: 0))   // note 4
        controller.apply(TableModel([4, 2, 5, 1].map { Note(id: $0, text: "n\($0)") }))
        #expect(try #require(actions.first).handler(.init(item: 3, section: 0)))
        #expect(ran == [ItemPath(item: 0, section: 0)])
        listView.reloadData()
        #expect(!(try #require(actions.first).handler(.init(item: 0, section: 0))))
        #expect(ran.count == 1)
    }

    // Recheck 10: actions offered for a path that was no row ran with that path.
    @Test("actions offered for a path that is no row do not run")
    func offeredForNoRow() throws {
        let (_, listView) = make([1, 2])
        var ran: [ItemPath] = []
        for path in [ItemPath(item: 99, section: 7), ItemPath(item: 2, section: 0), ItemPath(item: -1, section: 0)] {
            let actions = listView.core.rowActions([RowAction(title: "Pin") { path in ran.append(path); return true }], offeredAt: path)
            #expect(!(try #require(actions.first).handler(path)))
        }
        #expect(ran.isEmpty)
        #expect(refusals(listView).contains { $0.contains("section 7, row 99") })
    }
}
