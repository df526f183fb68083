@testable import cellkit_demo
import CellKit
import CellKitTerminal
import Foundation
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

    /// The paging row a screen adds under a filter (the history's "search the rest").
    struct Rest: Hashable, Sendable {}

    /// A filtered list played by hand: `shown` matching rows, then `ending` (nothing, the
    /// "Loading more…" row, or a screen's own trailing row); each page asked for brings the
    /// next of `pages` matches (0: a page with none), and the last page ends the source.
    @MainActor final class FilteredList {
        let controller = ListController(diagnostics: .ignore)
        let list = TerminalListView(columns: 30, rows: 6)
        var shown: Int
        var ending: ListItem?
        var pages: [Int]
        var loads = 0
        var loaded = 20
        private(set) var navigation: PagedNavigation!

        init(shown: Int, ending: ListItem?, pages: [Int]) {
            self.shown = shown
            self.ending = ending
            self.pages = pages
            controller.register(TextCell.self, for: Line.self) { cell, line in cell.text = "line \(line.id)" }
            controller.register(TextCell.self, for: Rest.self) { cell, _ in cell.text = "search the rest" }
            controller.onSelect(Rest.self) { _, _ in }
            controller.attach(to: list)
            navigation = PagedNavigation(pages: PagedNavigation.Pages(
                loadNext: { nil },
                loadUntil: { [unowned self] _ in
                    self.loads += 1
                    return Task { [weak self] in
                        // The page comes on a later turn (the key waits meanwhile).
                        await Task.yield()
                        guard let self else { return }
                        self.loaded += 20
                        self.shown += self.pages.removeFirst()
                        if self.pages.isEmpty { self.ending = nil }
                        self.show()
                    }
                },
                count: { [unowned self] in self.loaded },
                hasMore: { [unowned self] in !self.pages.isEmpty },
                failed: { false }
            ), controller: controller)
            navigation.isEnabled = { false }
            navigation.isTrailingRow = { $0.model is Rest }
            show()
            list.select(ItemPath(item: shown - 1, section: 0))
        }

        func show() {
            var model = TableModel((0..<shown).map { Line(id: $0) })
            if let ending { model.sections.append(TableSection(id: "end", items: [ending])) }
            controller.apply(model)
        }

        var selected: (any Sendable)? { list.selectedPath.flatMap { controller.displayed.item(at: $0)?.model } }

        /// What a failure says: the rows shown, the pages to come, the selection.
        var state: String { "\(shown) shown, pages to come \(pages), \(loads) asked for, keys wait: \(navigation.keysWait), selected \(String(describing: list.selectedPath))" }

        /// Presses `key` as the screen does (the navigation first, then the list).
        func press(_ key: Key) {
            if !navigation.handle(key, in: list) { list.handle(key) }
        }

        /// Lets the pages and the keys' moves happen until `done` (polling, with a generous deadline:
        /// 20 s, and 10,000 turns of the main actor, which other tests may hold meanwhile).
        func settle(until done: () -> Bool) async {
            let deadline = Date().addingTimeInterval(20)
            var turns = 0
            while !done(), Date() < deadline || turns < 10_000 {
                turns += 1
                await Task.yield()
                await controller.settle()
            }
        }
    }

    // fixdemo15, defect A: under a filter, `j` on the last match selected the paging row at the
    // list's end (which the end on screen kept loading pages for: End's ride) or, with that row not
    // shown yet (its page asked for by the same burst's moves a moment before), did nothing.
    @Test("under a filter, j on the last match waits for the next one, whatever row ends the list",
          arguments: ["nothing yet", "Loading more…", "search the rest"])
    func filteredDownOnTheLastMatch(_ ending: String) async {
        let row: ListItem? = switch ending {
        case "Loading more…": ListItem(LoadMorePlaceholder())
        case "search the rest": ListItem(Rest())
        default: nil
        }
        let filtered = FilteredList(shown: 5, ending: row, pages: [3, 3])
        filtered.press(.character("j"))
        // The selection stays on the last match while the page loads.
        #expect((filtered.selected as? Line)?.id == 4, "\(filtered.state)")
        await filtered.settle { (filtered.selected as? Line)?.id != 4 }
        #expect((filtered.selected as? Line)?.id == 5, "\(filtered.state)")
        #expect(filtered.loads == 1)
    }

    @Test("under a filter, j on the last match reads on past pages with no match; with none left, it stays on the last match")
    func filteredDownReadsOnToTheNextMatch() async {
        let filtered = FilteredList(shown: 5, ending: ListItem(Rest()), pages: [0, 0, 2, 0])
        filtered.press(.character("j"))
        await filtered.settle { (filtered.selected as? Line)?.id != 4 }
        #expect((filtered.selected as? Line)?.id == 5, "\(filtered.state)")
        #expect(filtered.loads == 3)
        // Row 6, the last match: the last page brings none; the paging row goes with it.
        filtered.press(.character("j"))
        filtered.press(.character("j"))
        await filtered.settle { filtered.loads == 4 && !filtered.navigation.keysWait }
        #expect((filtered.selected as? Line)?.id == 6, "\(filtered.state)")
        #expect(filtered.loads == 4 && filtered.pages.isEmpty)
    }

    @Test("under a filter, PgDn past the last match waits for the pages a screen of matches needs, then moves a screen")
    func filteredPageDownPastTheLastMatch() async {
        let filtered = FilteredList(shown: 5, ending: ListItem(LoadMorePlaceholder()), pages: [2, 0, 3, 3, 3])
        filtered.press(.pageDown)
        #expect((filtered.selected as? Line)?.id == 4, "\(filtered.state)")
        await filtered.settle { !filtered.navigation.keysWait && (filtered.selected as? Line)?.id != 4 }
        // A screen of 6 one-line rows: 5 rows down. It needed the rows of a screen below the one it
        // was on (10 matches): four pages, one with none.
        #expect((filtered.selected as? Line)?.id == 9, "\(filtered.state)")
        #expect(filtered.loads == 4)
    }
}
