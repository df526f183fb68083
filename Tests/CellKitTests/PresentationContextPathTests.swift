import CellKit
import CellKitTesting
import Testing

private final class ButtonCell: TextCell { var tap: (@MainActor () -> Void)? }
private struct Item: Identifiable, Equatable, Sendable { let id: Int }

private struct ButtonPresenter: Presenter {
    enum Event: Sendable { case tapped(ItemPath) }
    func present(_ item: Item, in cell: ButtonCell, style: CellStyle, context: PresentationContext<Event>) {
        cell.text = "p\(item.id)"
        cell.tap = { context.emit(.tapped(context.path)) }   // the Presenter docs' usage
    }
}

/// Outside report d4: the context a cell's button kept named the row's old path after
/// a row was inserted above it (the row moved, and was not presented again).
@MainActor
@Suite("PresentationContext.path is the row's current path when read")
struct PresentationContextPathTests {
    private func screen() -> (ListController, HeadlessListView, () -> [ItemPath]) {
        let controller = ListController(diagnostics: .ignore)
        var tapped: [ItemPath] = []
        controller.addPresenter(ButtonPresenter()) { if case .tapped(let path) = $0 { tapped.append(path) } }
        let listView = HeadlessListView()
        controller.attach(to: listView)
        return (controller, listView, { tapped })
    }

    private func tap(_ listView: HeadlessListView, _ path: ItemPath) -> String? {
        let cell = listView.cell(at: path) as? ButtonCell
        cell?.tap?()
        return cell?.text
    }

    @Test func aRowMovedByAnInsertAboveReportsItsNewPath() {
        let (controller, listView, tapped) = screen()
        controller.apply(TableModel([Item(id: 1), Item(id: 2)]))
        controller.apply(TableModel([Item(id: 0), Item(id: 1), Item(id: 2)]))
        #expect(tap(listView, ItemPath(item: 2, section: 0)) == "p2")
        #expect(tapped() == [ItemPath(item: 2, section: 0)])
    }

    @Test func aRowMovedByADeleteAboveAndAcrossSectionsReportsItsNewPath() {
        let (controller, listView, tapped) = screen()
        controller.apply(TableModel(sections: [[Item(id: 1), Item(id: 2)], [Item(id: 3)]]))
        controller.apply(TableModel(sections: [[Item(id: 2)], [Item(id: 0), Item(id: 3)]]))
        #expect(tap(listView, ItemPath(item: 0, section: 0)) == "p2")
        #expect(tap(listView, ItemPath(item: 1, section: 1)) == "p3")
        #expect(tapped() == [ItemPath(item: 0, section: 0), ItemPath(item: 1, section: 1)])
    }

    @Test func aDuplicateRowReportsItsOwnPath() {
        let (controller, listView, tapped) = screen()
        controller.apply(TableModel(sections: [[Item(id: 1)], [Item(id: 2), Item(id: 1)]]))
        #expect(tap(listView, ItemPath(item: 1, section: 1)) == "p1")
        #expect(tapped() == [ItemPath(item: 1, section: 1)])
    }

    @Test func aContextMadeWithAPathKeepsIt() {
        var got: [ItemPath] = []
        let context = PresentationContext<ButtonPresenter.Event>(path: ItemPath(item: 4, section: 1)) { event in
            if case .tapped(let path) = event { got.append(path) }
        }
        context.emit(.tapped(context.path))
        #expect(got == [ItemPath(item: 4, section: 1)])
    }
}
