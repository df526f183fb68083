import CellKit
import CellKitTesting
import Testing

private struct Row: Identifiable, Equatable, Sendable { let id: Int; var text: String }
private final class RowCell: TextCell {}
private final class TallCell: TextCell {}

@MainActor
private func rows(_ n: Int) -> TableModel { TableModel((0..<n).map { Row(id: $0, text: "row \($0)") }) }

/// A data source whose counts the test sets by hand, to feed wrong batches on purpose.
@MainActor
private final class CountsDataSource: ListViewDataSource {
    var counts: [Int]
    init(_ counts: [Int]) { self.counts = counts }
    func numberOfSections(in listView: any ListView) -> Int { counts.count }
    func listView(_ listView: any ListView, numberOfItemsInSection section: Int) -> Int { counts[section] }
    func listView(_ listView: any ListView, cellForItemAt path: ItemPath) -> AnyObject {
        listView.dequeueReusableCell(.type(RowCell.self), for: path)
    }
}

@MainActor
@Suite("Headless list view: UITableView's semantics")
struct HeadlessListViewTests {
    @Test func scrolling100kRowsCreatesOnlyAScreenfulOfCells() {
        let controller = ListController(diagnostics: .ignore)
        controller.register(RowCell.self, for: Row.self) { cell, row in cell.text = row.text }
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        listView.isLoggingEnabled = false
        controller.attach(to: listView)
        controller.apply(rows(100_000))
        var step = 0.0
        while listView.contentOffset < listView.contentHeight - listView.viewportHeight {
            step += 1
            listView.scroll(by: 37 + step.truncatingRemainder(dividingBy: 13))  // uneven steps
        }
        #expect(listView.visibleTexts.last == "row 99999")
        // 10 rows fit; a partly scrolled viewport shows 11; +1 in the pool at the swap.
        let rowCells = listView.createdCells[CellSource.type(RowCell.self).reuseIdentifier] ?? 0
        #expect(rowCells <= 12, "created \(rowCells) cells for a 10-row viewport")
        #expect(listView.createdCellCount <= 13)  // plus the loading placeholder shown before the first apply
    }

    @Test func cellsAreAskedForOnlyForVisibleRows() {
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView(viewportHeight: 100, rowHeight: 50)
        controller.attach(to: listView)
        controller.apply(rows(1000))
        listView.clearLog()
        listView.scroll(to: 500)
        let configured = listView.log.compactMap { if case .configured(let p) = $0 { p } else { nil } }
        #expect(configured == [ItemPath(row: 10, section: 0), ItemPath(row: 11, section: 0)])
    }

    @Test func eachReuseIdentifierHasItsOwnPool() {
        struct Tall: Identifiable, Equatable, Sendable { let id: Int }
        let controller = ListController(diagnostics: .ignore)
        controller.register(RowCell.self, for: Row.self)
        controller.register(TallCell.self, for: Tall.self)
        let items = (0..<200).map { $0 % 2 == 0 ? ListItem(Row(id: $0, text: "")) : ListItem(Tall(id: $0)) }
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel(sections: [TableSection(id: 0, items: items)]))
        listView.scroll(to: 44 * 150)
        let visible = listView.visibleCells
        #expect(zip(visible, listView.visibleItemPaths).allSatisfy { cell, path in
            path.row % 2 == 0 ? cell is RowCell : cell is TallCell
        })
        #expect(listView.createdCells.values.allSatisfy { $0 <= 7 })
    }

    @Test func sectionHeadersTakeSpaceAndTitlesComeFromTheModel() {
        var model = TableModel()
        let a = model.appendSection(header: "A")
        model.append([Row(id: 1, text: "")], toSection: a)
        let b = model.appendSection(header: "B", footer: "end")
        model.append([Row(id: 2, text: "")], toSection: b)
        let dataSource = TableModelDataSource(model)
        let listView = HeadlessListView(viewportHeight: 1000, rowHeight: 40, sectionHeaderHeight: 20)
        listView.dataSource = dataSource
        listView.reloadData()
        #expect(listView.offset(ofItemAt: ItemPath(row: 0, section: 1)) == 80)
        #expect(dataSource.listView(listView, titleForFooterInSection: 1) == "end")
    }

    // MARK: Wrong batches are rejected with the rule that broke

    private func rejected(_ batch: Changeset, before: [Int], after: [Int]) -> BatchUpdateError? {
        let dataSource = CountsDataSource(before)
        let listView = HeadlessListView()
        listView.dataSource = dataSource
        listView.reloadData()
        do {
            try listView.performBatchUpdates(batch) { dataSource.counts = after }
            return nil
        } catch {
            // The list view reloaded and agrees with its data source again.
            #expect(throws: Never.self) { try listView.checkConsistency() }
            let batchError = error as? BatchUpdateError
            #expect(batchError.map { listView.log.contains(.rejected($0)) } == true)
            return batchError
        }
    }

    @Test func countsThatDoNotAddUpAreRejected() {
        let error = rejected(Changeset(itemInserts: [ItemPath(row: 0, section: 1)]), before: [3, 3], after: [3, 5])
        #expect(error?.rule == .itemCountMismatch)
        #expect(error?.section == 1)
        #expect(error?.description.contains("section 1") == true)
    }

    @Test func aDeleteOutOfRangeIsRejected() {
        let error = rejected(Changeset(itemDeletes: [ItemPath(row: 7, section: 0)]), before: [3], after: [2])
        #expect(error?.rule == .itemOutOfRange)
        #expect(error?.item == 7)
    }

    @Test func deletingARowTwiceIsRejected() {
        let path = ItemPath(row: 1, section: 0)
        let error = rejected(Changeset(itemDeletes: [path, path]), before: [3], after: [1])
        #expect(error?.rule == .duplicateDelete)
    }

    @Test func reloadingAndDeletingTheSameRowIsRejected() {
        let path = ItemPath(row: 1, section: 0)
        let error = rejected(Changeset(itemDeletes: [path], itemUpdates: [path]), before: [3], after: [2])
        #expect(error?.rule == .deleteAndUpdate)
    }

    @Test func sectionCountsMustAgree() {
        let error = rejected(Changeset(sectionDeletes: [0]), before: [3, 2], after: [3, 2])
        #expect(error?.rule == .sectionCountMismatch)
    }

    @Test func aValidBatchMovesVisibleCellsWithTheirRows() throws {
        let dataSource = CountsDataSource([3])
        let listView = HeadlessListView()
        listView.dataSource = dataSource
        listView.reloadData()
        let first = listView.cell(at: ItemPath(row: 0, section: 0))
        try listView.performBatchUpdates(Changeset(itemInserts: [ItemPath(row: 0, section: 0)])) { dataSource.counts = [4] }
        #expect(listView.cell(at: ItemPath(row: 1, section: 0)) === first)
        #expect(listView.sectionCounts == [4])
        try listView.checkConsistency()
    }
}
