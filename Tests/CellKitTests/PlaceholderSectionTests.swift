import CellKit
import CellKitTesting
import Testing

private struct Row: Identifiable, Equatable, Sendable { let id: Int }

@MainActor
@Suite("Placeholder section: a typed identity no section of yours can take")
struct PlaceholderSectionTests {
    @Test func thePlaceholderRowSitsInThePlaceholderSection() {
        let controller = ListController(diagnostics: .ignore)
        controller.attach(to: HeadlessListView(viewportHeight: 440, rowHeight: 44))
        #expect(controller.displayed.sections.map(\.id) == [.placeholder])
        #expect(controller.displayed.sections[0].items.first?.model is LoadingPlaceholder)
        controller.apply(TableModel([Row(id: 1)]))
        #expect(controller.displayed.sections.map(\.id) != [.placeholder])
    }

    @Test func aSectionNamedLikeTheOldSentinelIsOrdinaryContent() {
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        var shown: [ItemPath] = []
        controller.onWillDisplay { path, _ in shown.append(path) }
        controller.attach(to: listView)
        let rows = [Row(id: 1), Row(id: 2)].map { ListItem($0) }
        controller.apply(TableModel(sections: [TableSection(id: "cellkit.placeholder", items: rows)]))
        #expect(SectionID("cellkit.placeholder") != .placeholder)
        #expect(SectionID("placeholder") != .placeholder)
        // Rows of a user's section are content: display hooks see them.
        #expect(shown == [ItemPath(item: 0, section: 0), ItemPath(item: 1, section: 0)])
    }
}
