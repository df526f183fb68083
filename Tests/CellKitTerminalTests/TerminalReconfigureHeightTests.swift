import CellKit
import CellKitTerminal
import Testing

private struct Photo: Identifiable, Equatable, Sendable { let id: Int; var caption: String }
@MainActor private final class Lines { var byID: [Int: Double] = [:] }

/// Outside check 10a, d1, on the terminal list view: a reconfigured row is measured again.
@MainActor
@Suite("Terminal list view: a reconfigure measures the row again")
struct TerminalReconfigureHeightTests {
    @Test func reconfigureMeasuresTheRowAgain() throws {
        let lines = Lines()
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Photo.self) { cell, photo in cell.text = photo.caption }
        controller.rowHeights.set(Photo.self, .measured { photo, _ in lines.byID[photo.id] ?? 1 })
        controller.apply(TableModel((1...10).map { Photo(id: $0, caption: "p\($0)") }))
        let list = TerminalListView(columns: 20, rows: 6)
        controller.attach(to: list)
        _ = list.renderFrame()
        #expect(list.viewportOffset(ofItemAt: ItemPath(item: 1, section: 0)) == 1)

        lines.byID[1] = 3
        controller.rowHeights.invalidate(ItemID(Photo(id: 1, caption: "p1")))
        list.reconfigureItems(at: [ItemPath(item: 0, section: 0)])
        #expect(list.viewportOffset(ofItemAt: ItemPath(item: 1, section: 0)) == 3)
        #expect(list.visibleItemPaths.count == 4)   // 3 lines + rows 2, 3, 4
        #expect(list.renderFrame().map(\.plainText).map { $0.trimmingCharacters(in: .whitespaces) } == ["p1", "", "", "p2", "p3", "p4"])
    }
}
