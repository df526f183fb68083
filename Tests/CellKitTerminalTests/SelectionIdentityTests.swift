import CellKit
import CellKitTerminal
import Testing

/// Outside check 11b, d1: a batch that deletes and inserts the selected row (its section
/// moved while its rows changed, or it moved into a new section) left the selection on
/// whatever row took its place.
@MainActor
@Suite("Terminal list view: the selection finds its row again after a delete and insert")
struct SelectionIdentityTests {
    private struct Row: Identifiable, Hashable, Sendable { let id: Int }

    private func terminal() -> (TerminalListView, ListController) {
        let list = TerminalListView(columns: 40, rows: 6)
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Row.self) { cell, row in cell.text = "row \(row.id)" }
        controller.attach(to: list)
        return (list, controller)
    }

    private func model(_ sections: [(Int, [Int])]) -> TableModel {
        TableModel(sections: sections.map { TableSection(id: SectionID($0.0), items: $0.1.map { ListItem(Row(id: $0)) }) })
    }

    private func selectedRow(_ list: TerminalListView, _ controller: ListController) -> Int? {
        list.selectedPath.flatMap { controller.displayed.item(at: $0)?.model(as: Row.self)?.id }
    }

    @Test("a section that moves while its rows change keeps the selected row selected")
    func sectionMovedWithChangedRows() {
        let (list, controller) = terminal()
        controller.apply(model([(0, [1, 2]), (1, [3, 4])]))
        list.select(ItemPath(item: 0, section: 1))
        #expect(selectedRow(list, controller) == 3)
        controller.apply(model([(1, [4, 3]), (0, [1, 2])]))
        #expect(list.selectedPath == ItemPath(item: 1, section: 0))
        #expect(selectedRow(list, controller) == 3)
    }

    @Test("a row moved into a section the same apply inserts stays selected")
    func rowMovedIntoNewSection() {
        let (list, controller) = terminal()
        controller.apply(model([(0, [1, 2, 3, 4])]))
        list.select(ItemPath(item: 1, section: 0))
        controller.apply(model([(0, [4, 3, 1]), (1, [2])]))
        #expect(list.selectedPath == ItemPath(item: 0, section: 1))
        #expect(selectedRow(list, controller) == 2)
    }

    @Test("a row deleted, shown gone in a frame, then inserted again by a later apply does not take the selection back")
    func lostRowAfterAFrame() {
        let (list, controller) = terminal()
        controller.apply(model([(0, [1, 2, 3])]))
        list.select(ItemPath(item: 1, section: 0))
        controller.apply(model([(0, [1, 3])]))
        _ = list.renderFrame()
        #expect(selectedRow(list, controller) == 3)
        controller.apply(model([(0, [1, 3]), (1, [2])]))
        #expect(selectedRow(list, controller) == 3)
    }

    @Test("a selected row that is deleted hands the selection to the row now at its place, as documented")
    func deletedRowStillMovesOn() {
        let (list, controller) = terminal()
        controller.apply(model([(0, [1, 2, 3])]))
        list.select(ItemPath(item: 1, section: 0))
        controller.apply(model([(0, [1, 3]), (1, [5])]))
        #expect(selectedRow(list, controller) == 3)
    }
}
