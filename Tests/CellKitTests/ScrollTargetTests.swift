import CellKit
import CellKitTesting
import Testing

// UIKit review 7: the decisions behind ListViewAdapter.scrollToItem(at:animated:), in the core
// so they run on Linux (the UIKit calls that replay them are type-checked only).
//
// 1. Where a scroll to a row goes (ListViewCore.scrollTarget(for:sectionTops:)): the UIKit
//    adapter refused a row of NSNotFound, which UITableView.scrollToRow(at:at:animated:) takes
//    "for scrolling to a section with zero rows" and the headless list view scrolls to its
//    section with; a UICollectionView has no such row and raises for an item of an empty section.
// 2. A scroll the UIKit adapter defers past UIKit's layout pass (a main-actor task) ran even
//    when a newer scroll had run at once meanwhile, so the older position won
//    (ListViewCore.deferredViewportChange(_:_:) drops it).

private struct Tune: Identifiable, Equatable, Sendable { let id: Int }

@MainActor
private func sections(_ rows: [Int]) -> (ListController, HeadlessListView) {
    let controller = ListController(diagnostics: .ignore)
    let listView = HeadlessListView(viewportHeight: 88, rowHeight: 44)
    controller.attach(to: listView)
    var next = 0
    controller.apply(TableModel(sections: rows.enumerated().map { index, count in
        defer { next += count }
        return TableSection(id: SectionID(index), items: (next..<next + count).map { ListItem(Tune(id: $0)) })
    }))
    return (controller, listView)
}

@Suite("ListViewCore: scroll targets and deferred viewport changes")
@MainActor
struct ScrollTargetTests {
    @Test("a table scrolls to the top of a section for a row of NSNotFound, even an empty section")
    func tableSectionTops() {
        let (controller, listView) = sections([2, 0, 3])
        let core = listView.core
        #expect(core.scrollTarget(for: ItemPath(item: Int.max, section: 0)) == .sectionTop(0))
        #expect(core.scrollTarget(for: ItemPath(item: Int.max, section: 1)) == .sectionTop(1))
        #expect(core.scrollTarget(for: ItemPath(item: 2, section: 2)) == .row(ItemPath(item: 2, section: 2)))
        #expect(core.scrollTarget(for: ItemPath(item: 0, section: 1))
            == .missing("section 1, row 0 does not exist, which has 0 rows"))
        #expect(core.scrollTarget(for: ItemPath(item: Int.max, section: 3))
            == .missing("section 3, row \(Int.max) does not exist (the list view has 3 sections)"))
        #expect(core.scrollTarget(for: ItemPath(item: -1, section: 0))
            == .missing("section 0, row -1 does not exist, which has 2 rows"))
        withExtendedLifetime(controller) {}
    }

    @Test("a collection view goes to a section's first item for a row of NSNotFound; an empty section is refused")
    func collectionSections() {
        let (controller, listView) = sections([2, 0, 3])
        let core = listView.core
        #expect(core.scrollTarget(for: ItemPath(item: Int.max, section: 2), sectionTops: false) == .row(ItemPath(item: 0, section: 2)))
        #expect(core.scrollTarget(for: ItemPath(item: Int.max, section: 1), sectionTops: false)
            == .missing("section 1 has no rows, and a row of NSNotFound names the top of a section on a table view only"))
        #expect(core.scrollTarget(for: ItemPath(item: 1, section: 0), sectionTops: false) == .row(ItemPath(item: 1, section: 0)))
        withExtendedLifetime(controller) {}
    }

    @Test("the headless list view decides where its scrolls go through the core, as the UIKit adapters do")
    func headlessUsesTheCore() {
        let (controller, listView) = sections([2, 0, 3])
        listView.scrollToItem(at: ItemPath(item: Int.max, section: 1))
        #expect(listView.contentOffset == 88)
        listView.scrollToItem(at: ItemPath(item: 0, section: 1))
        #expect(listView.log.last == .refused("scrollToItem(at:): section 1, row 0 does not exist, which has 0 rows; nothing scrolled"))
        withExtendedLifetime(controller) {}
    }

    @Test("after a reload whose layout is pending, a scroll is decided against the new data (UIKit reads its counts again for it)")
    func scrollAfterAReload() {
        let listView = HeadlessListView(viewportHeight: 88, rowHeight: 44)
        listView.defersLayoutAfterReload = true
        let source = TableModelDataSource(TableModel((0..<10).map { Tune(id: $0) }))
        listView.dataSource = source
        listView.reloadData()
        listView.layoutIfNeeded()
        // Fewer rows: row 5 was a row of the old data only; UIKit raises for it.
        source.model = TableModel((0..<3).map { Tune(id: $0) })
        listView.reloadData()
        #expect(listView.core.isReloadPending)
        #expect(listView.core.scrollTarget(for: ItemPath(item: 5, section: 0)) == .missing("section 0, row 5 does not exist, which has 3 rows"))
        // More rows: row 7 is the newest row, scrolled to.
        source.model = TableModel((0..<8).map { Tune(id: $0) })
        #expect(listView.core.scrollTarget(for: ItemPath(item: 7, section: 0)) == .row(ItemPath(item: 7, section: 0)))
        listView.scrollToItem(at: ItemPath(item: 7, section: 0))
        #expect(listView.visibleItemPaths.first == ItemPath(item: 6, section: 0))   // the last row at the bottom of 2 rows
        #expect(!listView.log.contains { if case .refused = $0 { true } else { false } })
    }

    @Test("a deferred scroll is dropped when a newer scroll ran at once before it")
    func olderDeferredScrollDropped() {
        let (controller, listView) = sections([10])
        let core = listView.core
        var ran: [String] = []
        let older = core.deferredViewportChange(.scroll) { ran.append("older") }
        core.performViewportChange(.scroll) { ran.append("newer") }
        older()
        #expect(ran == ["newer"])
        withExtendedLifetime(controller) {}
    }

    @Test("of two deferred scrolls only the newest runs; a scroll by a distance after it runs too, after it")
    func newestDeferredScrollWins() {
        let (controller, listView) = sections([10])
        let core = listView.core
        var ran: [String] = []
        let first = core.deferredViewportChange(.scroll) { ran.append("first") }
        let second = core.deferredViewportChange(.scroll) { ran.append("second") }
        let by = core.deferredViewportChange(.scrollBy) { ran.append("by") }
        first()
        second()
        by()
        #expect(ran == ["second", "by"])
        withExtendedLifetime(controller) {}
    }

    @Test("a scroll does not drop a deferred resize, nor a resize a deferred scroll")
    func kindsApart() {
        let (controller, listView) = sections([10])
        let core = listView.core
        var ran: [String] = []
        let resize = core.deferredViewportChange(.resize) { ran.append("resize") }
        let scroll = core.deferredViewportChange(.scroll) { ran.append("scroll") }
        core.performViewportChange(.scroll) { ran.append("scroll now") }
        core.performViewportChange(.resize) { ran.append("resize now") }
        resize()
        scroll()
        #expect(ran == ["scroll now", "resize now"])
        let later = core.deferredViewportChange(.resize) { ran.append("later resize") }
        core.performViewportChange(.scroll) { ran.append("another scroll") }
        later()
        #expect(ran == ["scroll now", "resize now", "another scroll", "later resize"])
        withExtendedLifetime(controller) {}
    }

    @Test("a deferred scroll run during a layout pass waits for its end, in order with the work asked before it")
    func deferredRunsAfterThePass() {
        let (controller, listView) = sections([10])
        let core = listView.core
        var ran: [String] = []
        let scroll = core.deferredViewportChange(.scroll) { ran.append("scroll") }
        core.layingOut {
            core.performWhenIdle { ran.append("apply") }
            scroll()
            ran.append("pass")
        }
        #expect(ran == ["pass", "apply", "scroll"])
        withExtendedLifetime(controller) {}
    }
}
