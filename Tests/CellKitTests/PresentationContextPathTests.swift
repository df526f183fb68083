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

    // Outside report 7 d1: before the fix, the context of a later duplicate whose cell had
    // been reused resolved by identity to the first row with it ([0,0]).
    @Test func aScrolledAwayDuplicateRowFollowsItsOwnRow() {
        let controller = ListController(diagnostics: .ignore)
        var contexts: [(Int, PresentationContext<ButtonPresenter.Event>)] = []
        struct Spy: Presenter {
            let seen: @MainActor (Item, PresentationContext<ButtonPresenter.Event>) -> Void
            func present(_ item: Item, in cell: ButtonCell, style: CellStyle, context: PresentationContext<ButtonPresenter.Event>) {
                cell.text = "p\(item.id)"
                MainActor.assumeIsolated { seen(item, context) }
            }
        }
        controller.addPresenter(Spy { item, context in contexts.append((item.id, context)) })
        let listView = HeadlessListView(viewportHeight: 88, rowHeight: 44)
        controller.attach(to: listView)
        let filler = (10..<30).map { Item(id: $0) }
        controller.apply(TableModel(sections: [[Item(id: 1)], filler + [Item(id: 1)]]))
        listView.scrollToItem(at: ItemPath(item: 20, section: 1))
        listView.layoutIfNeeded()
        let second = contexts.last { $0.0 == 1 }?.1
        #expect(second?.path == ItemPath(item: 20, section: 1))
        listView.scrollToItem(at: ItemPath(item: 0, section: 0))       // its cell is reused
        listView.layoutIfNeeded()
        controller.apply(TableModel(sections: [[Item(id: 1)], [Item(id: 99)] + filler + [Item(id: 1)]]))
        #expect(second?.path == ItemPath(item: 21, section: 1))
        let first = contexts.first { $0.0 == 1 }?.1
        #expect(first?.path == ItemPath(item: 0, section: 0))
        // The later duplicate gone: the documented limit, the one row left with its identity.
        controller.apply(TableModel(sections: [[Item(id: 1)], filler]))
        #expect(second?.path == ItemPath(item: 0, section: 0))
        #expect(first?.path == ItemPath(item: 0, section: 0))
        // No row with it at all: the path it was last presented at.
        controller.apply(TableModel(sections: [[], filler]))
        #expect(second?.path == ItemPath(item: 20, section: 1))
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
