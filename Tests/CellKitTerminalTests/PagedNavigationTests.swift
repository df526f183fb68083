@testable import cellkit_demo
import CellKit
import CellKitTerminal
import Testing

/// The demo's paged navigation, driven in-process with the source's side played by hand.
@Suite("cellkit-demo: paged navigation")
@MainActor
struct PagedNavigationTests {
    // The CI's ThreadSanitizer run caught it (the PgDn tmux test, 1 in 2 clean runs): a page
    // that came just before PgDn but did not show yet made the source hold the rows PgDn
    // needed; loading them "brought nothing", and the key was dropped.
    @Test("PgDn is not dropped when the source already holds the rows it needs but the list does not show them yet")
    func pageDownWithRowsNotShownYet() async {
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Line.self) { cell, line in cell.text = "line \(line.id)" }
        let list = TerminalListView(columns: 30, rows: 6)
        controller.attach(to: list)
        controller.apply(TableModel((0..<2).map { Line(id: $0) }))
        list.select(ItemPath(item: 0, section: 0))
        var loads = 0
        let pages = PagedNavigation.Pages(
            loadNext: { nil },
            loadUntil: { _ in
                loads += 1
                // The 30 rows the source holds show now (the list catches up).
                controller.apply(TableModel((0..<30).map { Line(id: $0) }))
                return Task {}
            },
            count: { 30 },
            hasMore: { true },
            failed: { false }
        )
        let navigation = PagedNavigation(pages: pages, controller: controller)
        #expect(navigation.handle(.pageDown, in: list))
        for _ in 0..<200 where list.selectedPath?.item == 0 {
            await Task.yield()
            await controller.settle()
        }
        #expect(loads == 1)
        #expect((list.selectedPath?.item ?? 0) > 1, "PgDn moved to \(String(describing: list.selectedPath))")
    }

    // Demo report 9, left: a page that failed while PgDn waited for it dropped the key, and
    // the selection stayed short of the "Couldn't load more" row (82/91 after 10 PgDn).
    @Test("PgDn whose page fails still moves, as far as the “Couldn't load more” row")
    func pageDownWhosePageFails() async {
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Line.self) { cell, line in cell.text = "line \(line.id)" }
        let list = TerminalListView(columns: 30, rows: 8)
        controller.attach(to: list)
        let source = PaginatedDataSource<Line>(prefetchDistance: 0) { page in
            guard page == 0 else { throw PageFailed(page: page) }
            return Page((0..<5).map { Line(id: $0) }, hasMore: true)
        }
        controller.bind(to: source)
        await source.load().value
        await controller.settle()
        list.select(ItemPath(item: 0, section: 0))
        let navigation = PagedNavigation(source, controller: controller)
        #expect(navigation.handle(.pageDown, in: list))
        for _ in 0..<200 where source.nextPageError == nil || list.selectedPath?.item == 0 {
            await Task.yield()
            await controller.settle()
        }
        // The retry row, after the five rows (in a section of its own).
        #expect(source.nextPageError != nil)
        let selected = list.selectedPath.flatMap { controller.displayed.item(at: $0) }
        #expect(selected?.model is LoadMorePlaceholder, "PgDn moved to \(String(describing: list.selectedPath))")
    }
}
