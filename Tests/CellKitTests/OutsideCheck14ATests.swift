import CellKit
import CellKitTesting
import Testing

// Outside check 14a (a new user, from the docs only): the headless log's `.batch` entry held
// the batch asked for, not the one applied; a TextCell whose only configure handler takes
// another cell type was left blank; a negative count from a data source passed silently;
// RowOffsetIndex trapped with the standard library's message; reconfigureItems(at:) skipped a
// path the view does not have without a word.

private struct Song: Identifiable, Equatable, Sendable { let id: Int; var title: String }
private final class OtherCell: ListCell { var shown = ""; init() {} }

/// A data source whose counts a test sets, negative ones included.
@MainActor private final class CountingSource: ListViewDataSource {
    var sections = 1
    var rows = 3
    var rowsBySection: [Int] = []
    var useRowsBySection = false
    func numberOfSections(in listView: any ListView) -> Int { useRowsBySection ? rowsBySection.count : sections }
    func listView(_ listView: any ListView, numberOfItemsInSection section: Int) -> Int { useRowsBySection ? rowsBySection[section] : rows }
    func listView(_ listView: any ListView, cellForItemAt path: ItemPath) -> AnyObject {
        let cell = listView.dequeueReusableCell(.type(TextCell.self), for: path)
        (cell as? TextCell)?.text = "row \(path.item)"
        return cell
    }
}

@MainActor
@Suite("Outside check 14a: the log's batches, skipped handlers, negative counts, missing rows")
struct OutsideCheck14ATests {
    private func refusals(_ listView: HeadlessListView) -> [String] {
        listView.log.compactMap { if case .refused(let message) = $0 { message } else { nil } }
    }

    // D1: a section that moves while a row is inserted into it is a delete and an insert of
    // that section for every backend (UITableView and UICollectionView raise for the move);
    // the log said the move happened.
    @Test func theLogHoldsTheBatchTheViewApplied() {
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Song.self) { cell, song in cell.text = song.title }
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        controller.attach(to: listView)
        let a = Song(id: 1, title: "a"), b = Song(id: 2, title: "b"), c = Song(id: 3, title: "c")
        controller.apply(TableModel(sections: [
            TableSection(id: "A", items: [ListItem(a)]), TableSection(id: "B", items: [ListItem(b)]),
        ]))
        listView.clearLog()
        controller.apply(TableModel(sections: [
            TableSection(id: "B", items: [ListItem(b), ListItem(c)]), TableSection(id: "A", items: [ListItem(a)]),
        ]))
        let batches = listView.log.compactMap { if case .batch(let changes) = $0 { changes } else { nil } }
        #expect(batches.count == 1)
        #expect(batches.allSatisfy { $0.sectionMoves.isEmpty }, "\(batches)")
        #expect(batches.first.map { !$0.sectionDeletes.isEmpty && !$0.sectionInserts.isEmpty } == true, "\(batches)")
        #expect(listView.visibleTexts == ["b", "c", "a"])
    }

    // D1, a batch made by hand: the log holds BatchPlan's structural step, item updates out
    // (they follow as reconfigures).
    @Test func aHandMadeBatchIsLoggedAsReplayed() throws {
        let source = CountingSource()
        source.sections = 2
        source.rows = 1
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        listView.dataSource = source
        listView.reloadData()
        listView.clearLog()
        // Section 1 moves to 0 and gets a second row; section 0 (one row) follows it.
        let batch = Changeset(sectionMoves: [Move(from: 1, to: 0)], itemInserts: [ItemPath(item: 1, section: 0)])
        source.rowsBySection = [2, 1]
        let outcome = listView.performBatchUpdates(batch) { source.useRowsBySection = true }
        #expect(outcome == .animated)
        let logged = listView.log.compactMap { if case .batch(let changes) = $0 { changes } else { nil } }
        #expect(logged == [Changeset(sectionDeletes: [1], sectionInserts: [0])])
        #expect(listView.sectionCounts == [2, 1])
        try listView.checkConsistency()
    }

    // D1: item updates are not in the logged batch; the visible row whose content changed
    // follows as a reconfigure, at its path after the batch.
    @Test func anUpdatedRowIsLoggedAsAReconfigureNotInTheBatch() throws {
        let source = CountingSource()
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        listView.dataSource = source
        listView.reloadData()
        listView.clearLog()
        let batch = Changeset(itemInserts: [ItemPath(item: 0, section: 0)], itemUpdates: [ItemPath(item: 1, section: 0)])
        let outcome = listView.performBatchUpdates(batch) { source.rows = 4 }
        #expect(outcome == .animated)
        let logged = listView.log.compactMap { if case .batch(let changes) = $0 { changes } else { nil } }
        #expect(logged == [Changeset(itemInserts: [ItemPath(item: 0, section: 0)])])
        #expect(listView.log.contains(.reconfigured(ItemPath(item: 2, section: 0))))
        try listView.checkConsistency()
    }

    // D2: the only configure handler takes another cell type: it is skipped and reported once,
    // and the TextCell shows the description, as with no handler at all.
    @Test func aTextCellWhoseOnlyHandlerTakesAnotherCellShowsTheDescription() {
        let log = DiagnosticLog()
        let controller = ListController(diagnostics: log.handler)
        controller.registry.diagnostics = log.handler
        controller.dispatch.diagnostics = log.handler
        controller.registry.register(CellSource.type(TextCell.self), for: Song.self)
        controller.dispatch.configure(Song.self) { (cell: OtherCell, song: Song) in cell.shown = song.title }
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel([Song(id: 1, title: "a"), Song(id: 2, title: "b")]))
        #expect(listView.visibleTexts == [String(describing: Song(id: 1, title: "a")), String(describing: Song(id: 2, title: "b"))])
        #expect(log.all.filter { $0.kind == .cellTypeMismatch }.count == 1)
        #expect(!log.all.contains { $0.kind == .missingRegistration }, "one report, the mismatch: \(log.all)")
    }

    // D2, the registration's own configure closure: a nib source on the headless view builds a
    // TextCell, the closure that takes the nib's class is skipped, and the row is not blank.
    @Test func aNibSourceOnTheHeadlessViewShowsTheDescription() {
        final class ProductCell: ListCell { var title = ""; init() {} }
        let log = DiagnosticLog()
        let controller = ListController(diagnostics: log.handler)
        controller.registry.diagnostics = log.handler
        controller.registry.register(CellSource.nib(ProductCell.self, name: "ProductCell"), for: Song.self) { (cell: ProductCell, song) in
            cell.title = song.title
        }
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel([Song(id: 1, title: "a")]))
        #expect(listView.visibleTexts == [String(describing: Song(id: 1, title: "a"))])
        #expect(log.all.filter { $0.kind == .cellTypeMismatch }.count == 1)
        #expect(!log.all.contains { $0.kind == .missingRegistration })
    }

    // D3: a negative count is refused, naming the section and the count, and read as 0.
    @Test func aNegativeCountIsRefusedNamingTheSection() {
        let source = CountingSource()
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        listView.dataSource = source
        listView.reloadData()
        #expect(refusals(listView).isEmpty)
        source.rows = -3
        listView.reloadData()
        #expect(listView.sectionCounts == [0])
        #expect(refusals(listView).count == 1)
        #expect(refusals(listView).first.map { $0.contains("-3 rows in section 0") } == true, "\(refusals(listView))")
        #expect(throws: HeadlessListViewInconsistency.self) { try listView.checkConsistency() }
        source.sections = -2
        listView.reloadData()
        #expect(listView.sectionCounts == [])
        #expect(refusals(listView).count == 2)
        #expect(refusals(listView).last.map { $0.contains("-2 sections") } == true, "\(refusals(listView))")
    }

    // Gap: reconfigureItems(at:) with a path the view does not have is refused, naming it,
    // and the rows it has are still reconfigured.
    @Test func aReconfigureOfARowTheViewDoesNotHaveIsRefusedNamingIt() throws {
        let source = CountingSource()
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        listView.dataSource = source
        listView.reloadData()
        listView.clearLog()
        listView.reconfigureItems(at: [ItemPath(item: -1, section: 0), ItemPath(item: 1, section: 0), ItemPath(item: 3, section: 0), ItemPath(item: 0, section: 4)])
        let refused = refusals(listView)
        #expect(refused.count == 1)
        #expect(refused.first.map { $0.contains("section 0, row -1") && $0.contains("section 0, row 3") && $0.contains("section 4, row 0") } == true, "\(refused)")
        #expect(listView.log.contains(.reconfigured(ItemPath(item: 1, section: 0))))
        try listView.checkConsistency()   // logged, not a violation
    }
}

// D4: RowOffsetIndex's entry points trap naming the type, the method and the row or range.
@Suite("Outside check 14a: RowOffsetIndex traps name the method and the row")
struct RowOffsetIndexTrapTests {
    private func expectTrap(_ expected: String, result: ExitTest.Result?) throws {
        let output = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(output.contains(expected), "\(output)")
    }

    @Test func aNegativeCount() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = RowOffsetIndex(count: -1, height: 44)
        }
        try expectTrap("RowOffsetIndex.init(count:height:): count -1 is negative", result: result)
    }

    @Test func theHeightOfARowPastTheEnd() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = RowOffsetIndex(count: 3, height: 44).height(ofRow: 5)
        }
        try expectTrap("RowOffsetIndex.height(ofRow:): row 5 is out of range 0..<3", result: result)
    }

    @Test func replacingRowsPastTheEnd() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var index = RowOffsetIndex(count: 3, height: 44)
            index.replaceRows(2..<9, with: [1])
        }
        try expectTrap("RowOffsetIndex.replaceRows(_:with:): rows 2..<9 are out of range 0..<3", result: result)
    }

    @Test func replacingRowsBeforeTheStart() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var index = RowOffsetIndex(count: 3, height: 44)
            index.replaceRows(-1..<1, with: [])
        }
        try expectTrap("RowOffsetIndex.replaceRows(_:with:): rows -1..<1 are out of range 0..<3", result: result)
    }
}
