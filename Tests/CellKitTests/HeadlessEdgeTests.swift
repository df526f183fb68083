import CellKit
import CellKitTesting
import Synchronization
import Testing

private struct Song: Identifiable, Equatable, Sendable { let id: Int; var title: String }

/// Collects diagnostics for a test.
private final class Collected: Sendable {
    private let store = Mutex<[Diagnostic]>([])
    var all: [Diagnostic] { store.withLock { $0 } }
    var handler: DiagnosticHandler { DiagnosticHandler { d in self.store.withLock { $0.append(d) } } }
}

/// A delegate that gives every row the same height, whatever it is.
@MainActor
private final class ConstantHeights: ListViewDelegate {
    let height: Double
    init(_ height: Double) { self.height = height }
    func listView(_ listView: any ListView, heightForItemAt path: ItemPath) -> Double? { height }
}

@MainActor
private func songs(_ n: Int, viewport: Double = 440, rowHeight: Double = 44,
                   diagnostics: DiagnosticHandler = .ignore) -> (ListController, HeadlessListView) {
    let controller = ListController(diagnostics: diagnostics)
    controller.register(TextCell.self, for: Song.self) { cell, song in cell.text = song.title }
    let list = HeadlessListView(viewportHeight: viewport, rowHeight: rowHeight)
    controller.attach(to: list)
    controller.apply(TableModel((0..<n).map { Song(id: $0, title: "s\($0)") }))
    return (controller, list)
}

/// An outside user's report (outside2): invalid paths and bad heights on the headless list view.
@MainActor
@Suite("Headless list view: paths at Int.min and Int.max, bad heights")
struct HeadlessEdgeTests {
    static let extremes = [Int.min, -1, 0, 1, 99, Int.max]
    static let badPaths = extremes.flatMap { item in extremes.map { ItemPath(item: item, section: $0) } }
        .filter { $0 != ItemPath(item: 0, section: 0) && $0 != ItemPath(item: 1, section: 0) }

    // Item 5.
    @Test("every entry point that takes a path ignores one it does not have, at any value")
    func invalidPathsAreIgnored() throws {
        let (controller, list) = songs(2)
        for path in Self.badPaths {
            #expect(list.offset(ofItemAt: path) == nil, "\(path)")
            #expect(list.viewportOffset(ofItemAt: path) == nil, "\(path)")
            #expect(list.cell(at: path) == nil, "\(path)")
            list.scrollToItem(at: path)
            list.scrollItem(at: path, toViewportOffset: 10)
            list.selectItem(at: path)
            #expect(controller.listView(list, heightForItemAt: path) == nil)
            #expect(!controller.listView(list, needsMeasuringItemAt: path))
            #expect(!controller.listView(list, canSelectItemAt: path))
            controller.listView(list, didMeasureHeight: 10, forItemAt: path)
            controller.listView(list, didSelectItemAt: path)
            #expect(controller.displayed.item(at: path) == nil)
            #expect(controller.displayed.model(at: path) == nil)
            list.reconfigureItems(at: [path])
            list.cellDidChange(at: path, reason: .reconfigured)
        }
        for index in Self.extremes where index != 0 {
            #expect(controller.listView(list, numberOfItemsInSection: index) == 0)
            #expect(controller.listView(list, titleForHeaderInSection: index) == nil)
            #expect(controller.listView(list, titleForFooterInSection: index) == nil)
            _ = controller.listView(list, sectionForSectionIndexTitle: "A", at: index)
            #expect(controller.displayed.itemCount(inSection: index) == 0)
            #expect(controller.displayed.header(ofSection: index) == nil)
        }
        #expect(list.contentOffset == 0)
        #expect(!list.log.contains { if case .selected = $0 { true } else { false } })
        // The refused scroll to and selection of a missing row are what UIKit raises for.
        #expect(throws: HeadlessListViewInconsistency.self) { try list.checkConsistency() }
        #expect(list.offset(ofItemAt: ItemPath(item: 1, section: 0)) == 44)
    }

    /// UITableView raises for scrollToRow(at:) past a section's rows ("Attempted to scroll
    /// the table view to an out-of-bounds row (0) when there are only 0 rows in section 3"):
    /// the headless list view refuses it, naming section and row, and does not scroll.
    @Test("scrolling to a row it does not have is refused, naming the section and row")
    func scrollToMissingRowIsRefused() throws {
        let (controller, list) = songs(30)
        list.scroll(to: 88)
        list.clearLog()
        list.scrollToItem(at: ItemPath(item: 30, section: 0))
        list.scrollToItem(at: ItemPath(item: 0, section: 2))
        let refused = list.log.compactMap { if case .refused(let message) = $0 { message } else { nil } }
        #expect(refused == [
            "scrollToItem(at:): section 0, row 30 does not exist, which has 30 rows; nothing scrolled",
            "scrollToItem(at:): section 2, row 0 does not exist (the list view has 1 sections); nothing scrolled",
        ])
        #expect(list.contentOffset == 88)
        list.scrollToItem(at: ItemPath(item: 29, section: 0))
        #expect(list.log.filter { if case .refused = $0 { true } else { false } }.count == 2)
        #expect(list.contentOffset > 88)
        withExtendedLifetime(controller) {}
    }

    /// `scrollToRow(at:at:animated:)`: "NSNotFound is a valid row index for scrolling to a
    /// section with zero rows"; row 0 of that section is out of bounds.
    @Test("a row of NSNotFound (Int.max) scrolls to its section, even an empty one; row 0 of an empty section is refused")
    func scrollToAnEmptySection() throws {
        let model = TableModel(sections: [
            TableSection(id: 0, items: (0..<20).map { ListItem(Song(id: $0, title: "a\($0)")) }),
            TableSection(id: 1, items: []),
            TableSection(id: 2, items: (20..<40).map { ListItem(Song(id: $0, title: "b\($0)")) }),
        ])
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Song.self) { cell, song in cell.text = song.title }
        let list = HeadlessListView(viewportHeight: 132, rowHeight: 44)
        controller.attach(to: list)
        controller.apply(model)
        list.scrollToItem(at: ItemPath(item: Int.max, section: 1))
        #expect(list.contentOffset == 20 * 44)
        #expect(list.visibleTexts == ["b20", "b21", "b22"])
        list.scrollToItem(at: ItemPath(item: Int.max, section: 0))
        #expect(list.contentOffset == 0)
        list.clearLog()
        list.scrollToItem(at: ItemPath(item: 0, section: 1))
        list.scrollToItem(at: ItemPath(item: Int.max, section: 3))
        let refused = list.log.compactMap { if case .refused(let message) = $0 { message } else { nil } }
        #expect(refused == [
            "scrollToItem(at:): section 1, row 0 does not exist, which has 0 rows; nothing scrolled",
            "scrollToItem(at:): section 3, row \(Int.max) does not exist (the list view has 3 sections); nothing scrolled",
        ])
        #expect(list.contentOffset == 0)
        #expect(throws: HeadlessListViewInconsistency.self) { try list.checkConsistency() }
    }

    /// Outside check 11c (d1): the refusals UIKit raises for were logged, but
    /// `checkConsistency()` returned normally; each now makes it throw, naming the call.
    @Test("a refused scroll, selection, delegate height or batch in a layout pass makes checkConsistency() throw")
    func refusalsUIKitRaisesForAreViolations() throws {
        func problem(_ list: HeadlessListView) -> String? {
            do { try list.checkConsistency(); return nil } catch { return error.message }
        }
        let (c1, scrolled) = songs(3)
        try scrolled.checkConsistency()
        scrolled.scrollToItem(at: ItemPath(item: 3, section: 0))
        #expect(problem(scrolled)?.hasPrefix("scrollToItem(at:): section 0, row 3 does not exist") == true, "\(problem(scrolled) ?? "none")")
        let (c2, selected) = songs(3)
        selected.selectItem(at: ItemPath(item: 9, section: 0))
        #expect(problem(selected)?.hasPrefix("selectItem(at:): section 0, row 9 does not exist") == true, "\(problem(selected) ?? "none")")
        for height in [-5, .nan] as [Double] {
            let controller = ListController(diagnostics: .ignore)
            controller.register(TextCell.self, for: Song.self) { cell, song in cell.text = song.title }
            let list = HeadlessListView(viewportHeight: 88, rowHeight: 44)
            controller.attach(to: list)
            let heights = ConstantHeights(height)
            list.delegate = heights
            controller.apply(TableModel((0..<3).map { Song(id: $0, title: "s\($0)") }))
            #expect(problem(list)?.hasPrefix("the delegate's height for section 0, row 0: \(height)") == true, "\(problem(list) ?? "none")")
        }
        // A batch started by a configure handler while a scroll lays out rows.
        let controller = ListController(diagnostics: .ignore)
        let list = HeadlessListView(viewportHeight: 88, rowHeight: 44)
        var outcome: BatchOutcome?
        controller.register(TextCell.self, for: Song.self) { [unowned list] cell, song in
            cell.text = song.title
            if song.id == 20, outcome == nil { outcome = list.performBatchUpdates(Changeset()) {} }
        }
        controller.attach(to: list)
        controller.apply(TableModel((0..<30).map { Song(id: $0, title: "s\($0)") }))
        try list.checkConsistency()
        list.scroll(to: 44 * 20)
        guard case .refused = outcome else { Issue.record("not refused: \(String(describing: outcome))"); return }
        #expect(problem(list)?.hasPrefix("performBatchUpdates(_:updateData:) called inside a layout pass") == true, "\(problem(list) ?? "none")")
        withExtendedLifetime((c1, c2, controller)) {}
    }

    @Test("a prefetch distance of Int.max announces the rest of the list")
    func hugePrefetchDistance() throws {
        let (controller, list) = songs(30, viewport: 88)
        list.prefetchDistance = Int.max
        list.scroll(to: 44 * 10)
        list.scroll(by: .infinity)
        list.scroll(to: .nan)
        #expect(list.contentOffset == 0)
        try list.checkConsistency()
        withExtendedLifetime(controller) {}
    }

    // Bad heights: clamped to 0...RowHeights.maximumHeight and reported.
    @Test("a negative or NaN row height or viewport counts as 0 and is logged", arguments: [-44, .nan, -.infinity] as [Double])
    func badOwnHeights(_ height: Double) throws {
        let (controller, list) = songs(10, viewport: height, rowHeight: height)
        #expect(list.contentHeight == 0)
        #expect(list.visibleCells.isEmpty)
        let refused = list.log.compactMap { if case .refused(let message) = $0 { message } else { nil } }
        #expect(refused.contains { $0.contains("rowHeight") } && refused.contains { $0.contains("viewportHeight") }, "\(refused)")
        list.rowHeight = 44
        list.viewportHeight = 88
        list.reloadData()
        #expect(list.contentHeight == 440 && list.visibleCells.count == 2, "\(list.contentHeight) \(list.visibleCells.count)")
        try list.checkConsistency()
        withExtendedLifetime(controller) {}
    }

    /// What the UIKit adapters give UIKit for a height from a delegate that is not a
    /// controller: never NaN or negative ("CALayer position contains NaN").
    @Test("RowHeights.clamped: NaN and negative are 0, too tall is the maximum, the rest is kept",
          arguments: [(-44, 0), (.nan, 0), (-.infinity, 0), (0, 0), (44.5, 44.5), (.infinity, RowHeights.maximumHeight), (1e300, RowHeights.maximumHeight)] as [(Double, Double)])
    func clampedHeights(height: Double, expected: Double) {
        #expect(RowHeights.clamped(height) == expected)
    }

    @Test("a delegate's bad height is clamped and logged with its row", arguments: [-44, .nan, .infinity, 1e300] as [Double])
    func badDelegateHeights(_ height: Double) throws {
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Song.self) { cell, song in cell.text = song.title }
        let list = HeadlessListView(viewportHeight: 88, rowHeight: 44)
        controller.attach(to: list)
        let heights = ConstantHeights(height)
        list.delegate = heights
        controller.apply(TableModel((0..<10).map { Song(id: $0, title: "s\($0)") }))
        #expect(list.contentHeight.isFinite && list.contentHeight >= 0, "\(list.contentHeight)")
        let refused = list.log.compactMap { if case .refused(let message) = $0 { message } else { nil } }
        #expect(refused.contains { $0.contains("section 0, row 0") }, "\(refused)")
        list.scroll(to: .infinity)
        #expect(list.contentOffset.isFinite)
        // UITableView raises for a negative or NaN height ("Invalid row height provided by table
        // delegate"); a height above the maximum is clamped without one.
        if height < 0 || height.isNaN {
            #expect(throws: HeadlessListViewInconsistency.self) { try list.checkConsistency() }
        } else {
            try list.checkConsistency()
        }
    }

    /// `rows` songs of `height` on a 440-point headless list, diagnostics collected.
    private func songsWithHeight(_ height: RowHeight<Song>, rows: Int) -> (Collected, ListController, HeadlessListView) {
        let collected = Collected()
        let controller = ListController(diagnostics: collected.handler)
        controller.register(TextCell.self, for: Song.self) { cell, song in cell.text = song.title }
        controller.rowHeights.set(Song.self, height)
        let list = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        controller.attach(to: list)
        controller.apply(TableModel((0..<rows).map { Song(id: $0, title: "s\($0)") }))
        return (collected, controller, list)
    }

    @Test("the controller clamps a model's bad height and names the type, once per type", arguments: [-44, .nan, .infinity, 1e19] as [Double])
    func controllerReportsBadHeights(_ height: Double) throws {
        let (collected, controller, list) = songsWithHeight(.fixed(height), rows: 10)
        let expected = height > 0 ? RowHeights.maximumHeight : 0
        #expect(controller.listView(list, heightForItemAt: ItemPath(item: 3, section: 0)) == expected)
        #expect(list.contentHeight.isFinite && list.contentHeight >= 0)
        let reports = collected.all.filter { $0.kind == .invalidHeight }
        #expect(reports.count == 1, "\(collected.all)")
        #expect(reports.first.map { $0.message.contains("Song") && $0.message.contains("section 0, row 0") } == true, "\(reports)")
        #expect(!list.log.contains { if case .refused = $0 { true } else { false } })
        try list.checkConsistency()
    }

    /// An estimate of 0 is no estimate: `UITableView` turns estimation off for it ("If your
    /// table uses self-sizing cells, the value of this property must not be 0",
    /// `estimatedRowHeight`), and rows of height 0 would all come into the viewport.
    @Test("a self-sizing row's estimate of 0 gives way to the list view's own, and names the type once",
          arguments: [0, -44, .nan] as [Double])
    func anEstimateOfZeroIsNoEstimate(estimate: Double) throws {
        let (collected, controller, list) = songsWithHeight(.estimated(estimate), rows: 100)
        #expect(controller.listView(list, heightForItemAt: ItemPath(item: 3, section: 0)) == nil)
        #expect(list.visibleItemPaths.count == 10)
        let reports = collected.all.filter { $0.kind == .invalidHeight && $0.message.hasPrefix("estimate") }
        #expect(reports.count == 1, "\(collected.all)")
        #expect(reports.first.map { $0.message.contains("Song") && $0.message.contains("section 0, row 0") } == true, "\(reports)")
        // A measured height replaces the estimate as usual.
        controller.listView(list, didMeasureHeight: 60, forItemAt: ItemPath(item: 3, section: 0))
        #expect(controller.listView(list, heightForItemAt: ItemPath(item: 3, section: 0)) == 60)
        try list.checkConsistency()
    }

    // Placeholder rows that do nothing take no tap.
    @Test("a tap on the no-results or loading row does nothing")
    func placeholderTapsAreIgnored() {
        let (controller, list) = songs(0)
        #expect(list.visibleTexts == ["No results"])
        list.selectItem(at: ItemPath(item: 0, section: 0))
        controller.apply(TableModel(), state: .loading)
        list.selectItem(at: ItemPath(item: 0, section: 0))
        #expect(!list.log.contains { if case .selected = $0 { true } else { false } })
        controller.apply(TableModel([Song(id: 1, title: "one")]))
        list.selectItem(at: ItemPath(item: 0, section: 0))
        #expect(list.log.contains(.selected(ItemPath(item: 0, section: 0))))
    }
}
