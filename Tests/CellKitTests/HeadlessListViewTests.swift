import CellKit
import CellKitTesting
import Testing

private struct Row: Identifiable, Equatable, Sendable { let id: Int; var text: String }
private final class RowCell: TextCell {}
private final class TallCell: TextCell {}

@MainActor
private func rows(_ n: Int) -> TableModel { TableModel((0..<n).map { Row(id: $0, text: "row \($0)") }) }

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
        let dataSource = HandCountedSource(before)
        let listView = HeadlessListView()
        listView.dataSource = dataSource
        listView.reloadData()
        guard let batchError = listView.performBatchUpdates(batch, updateData: { dataSource.counts = after }).error else {
            return nil
        }
        // The list view reloaded and agrees with its data source again.
        #expect(throws: Never.self) { try listView.checkConsistency() }
        #expect(listView.log.contains(.rejected(batchError)))
        return batchError
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
        let dataSource = HandCountedSource([3])
        let listView = HeadlessListView()
        listView.dataSource = dataSource
        listView.reloadData()
        let first = listView.cell(at: ItemPath(row: 0, section: 0))
        #expect(listView.performBatchUpdates(Changeset(itemInserts: [ItemPath(row: 0, section: 0)])) { dataSource.counts = [4] } == .animated)
        #expect(listView.cell(at: ItemPath(row: 1, section: 0)) === first)
        #expect(listView.sectionCounts == [4])
        try listView.checkConsistency()
    }

    /// A batch that changes only rows off screen leaves the visible cells where they are
    /// (no display events, no height asked again); one that changes a row on screen moves them.
    @Test func visibleCellsStayForBatchesOffScreenAndMoveForOnesOnIt() throws {
        let dataSource = HandCountedSource([100])
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        listView.dataSource = dataSource
        listView.reloadData()
        let paths = (0..<10).map { ItemPath(row: $0, section: 0) }
        let cells = paths.map { listView.cell(at: $0) }
        #expect(cells.allSatisfy { $0 != nil })
        let asked = listView.heightRequestCount
        listView.clearLog()
        let offScreen = Changeset(itemDeletes: [ItemPath(row: 50, section: 0)], itemInserts: [ItemPath(row: 70, section: 0)],
                                  itemUpdates: [ItemPath(row: 80, section: 0)])
        #expect(listView.performBatchUpdates(offScreen) {} == .animated)
        #expect(zip(paths, cells).allSatisfy { listView.cell(at: $0) === $1 })
        #expect(listView.visibleItemPaths == paths)
        #expect(!listView.log.contains { if case .displayed = $0 { true } else if case .endedDisplay = $0 { true } else { false } })
        #expect(listView.heightRequestCount == asked)
        try listView.checkConsistency()

        #expect(listView.performBatchUpdates(Changeset(itemDeletes: [ItemPath(row: 2, section: 0)])) { dataSource.counts = [99] } == .animated)
        #expect(listView.cell(at: paths[1]) === cells[1])
        #expect((2..<9).allSatisfy { listView.cell(at: paths[$0]) === cells[$0 + 1] })
        #expect(listView.visibleItemPaths == paths)
        try listView.checkConsistency()
    }

    // MARK: What UIKit refuses, the headless view refuses

    /// Issue 10, item 7: an empty viewport intersects nothing, even inside a row.
    @Test func aZeroHeightViewportShowsNoRows() {
        let dataSource = HandCountedSource([10])
        let listView = HeadlessListView(viewportHeight: 0, rowHeight: 44)
        listView.dataSource = dataSource
        listView.reloadData()
        listView.scroll(to: 0)
        #expect(listView.visibleItemPaths.isEmpty)
        #expect(listView.createdCellCount == 0)
        listView.viewportHeight = 88
        listView.scroll(to: 20)   // inside row 0
        listView.viewportHeight = 0
        #expect(listView.visibleItemPaths.isEmpty)
    }

    /// Heights are asked as UITableView asks them: around the viewport, not per row of the list.
    @Test func heightsAreAskedOnlyForRowsThatShow() {
        let controller = ListController(diagnostics: .ignore)
        controller.register(RowCell.self, for: Row.self) { cell, row in cell.text = row.text }
        controller.rowHeights.set(Row.self, .fixed(44))
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(rows(100_000))
        let afterFirst = listView.heightRequestCount
        #expect(afterFirst <= 12, "asked \(afterFirst) heights to show 10 rows")
        var changed = (0..<100_000).map { Row(id: $0, text: "row \($0)") }
        changed.insert(Row(id: -1, text: "new"), at: 0)
        changed[5].text = "changed"
        controller.apply(TableModel(changed))
        #expect(listView.heightRequestCount - afterFirst <= 12, "asked \(listView.heightRequestCount - afterFirst) heights for one apply")
        #expect(listView.contentHeight == 100_001 * 44)
        #expect(listView.visibleTexts.first == "new")
    }

    /// Issue 10, item 3: the consistency check catches one cell object at two paths.
    @Test func oneCellAtTwoPathsIsInconsistent() {
        let listView = HeadlessListView()
        let dataSource = SameCellDataSource()
        listView.dataSource = dataSource
        listView.reloadData()
        #expect(listView.visibleItemPaths.count == 2)
        #expect(throws: HeadlessListViewInconsistency.self) { try listView.checkConsistency() }
    }

    /// Issue 10, item 3: reloadData() from a configure handler while rows are
    /// reconfigured runs after the batch; no cell ends up at two rows.
    @Test func reloadDuringAReconfigureRunsAfterTheBatch() throws {
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        var reloadOnConfigure = false
        controller.register(RowCell.self, for: Row.self) { cell, row in
            cell.text = row.text
            if reloadOnConfigure {
                reloadOnConfigure = false
                listView.reloadData()
            }
        }
        controller.attach(to: listView)
        var model = (0..<8).map { Row(id: $0, text: "row \($0)") }
        controller.apply(TableModel(model))
        model[2].text = "changed 2"
        model[5].text = "changed 5"
        model.insert(Row(id: 99, text: "new"), at: 0)
        reloadOnConfigure = true
        controller.apply(TableModel(model))
        #expect(listView.log.contains { if case .refused(let message) = $0 { message.contains("reloadData()") } else { false } })
        try listView.checkConsistency()
        #expect(listView.visibleTexts == model.map(\.text))
    }

    /// Issue 10, item 4: an apply from onWillDisplay while another apply runs
    /// waits for it; the controller and the list view agree on the rows.
    @Test func anApplyFromOnWillDisplayWaitsForTheApplyInProgress() throws {
        let controller = ListController(diagnostics: .ignore)
        controller.register(RowCell.self, for: Row.self) { cell, row in cell.text = row.text }
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(rows(3))
        var fired = false
        controller.onWillDisplay { path, _ in
            guard !fired, path.item == 5 else { return }
            fired = true
            controller.apply(rows(3))
        }
        controller.apply(rows(10))
        #expect(fired)
        #expect(controller.displayed.itemCount == 3)
        #expect(listView.sectionCounts == [3])
        #expect(listView.visibleItemPaths.count == 3)
        try listView.checkConsistency()
    }

    /// UIKit contract 1: a reconfigure must give back the cell showing the row.
    @Test func aDifferentCellOnReconfigureIsRefused() {
        let dataSource = FreshCellDataSource(["a", "b", "c"])
        let listView = HeadlessListView()
        listView.dataSource = dataSource
        listView.reloadData()
        let shown = listView.cell(at: ItemPath(row: 1, section: 0))
        dataSource.texts[1] = "B"
        listView.performBatchUpdates(Changeset(itemUpdates: [ItemPath(row: 1, section: 0)])) {}
        #expect(listView.cell(at: ItemPath(row: 1, section: 0)) === shown)
        #expect(listView.log.contains { if case .refused(let message) = $0 { message.contains("different cell") } else { false } })
        #expect(throws: HeadlessListViewInconsistency.self) { try listView.checkConsistency() }
    }

    /// UIKit contract 2: data changed before the batch (outside its update closure) is refused.
    @Test func dataChangedOutsideTheUpdateClosureIsRefused() {
        let dataSource = HandCountedSource([3])
        let listView = HeadlessListView()
        listView.dataSource = dataSource
        listView.reloadData()
        dataSource.counts = [4]
        let outcome = listView.performBatchUpdates(Changeset(itemInserts: [ItemPath(row: 0, section: 0)])) {}
        #expect(outcome == .reloaded(.dataChangedOutsideBatch(cached: [3], reported: [4])))
        #expect(throws: HeadlessListViewInconsistency.self) { try listView.checkConsistency() }
    }

    /// A batch while a reload's layout is pending becomes a reload.
    @Test func aBatchWhileAReloadIsPendingBecomesAReload() throws {
        let dataSource = HandCountedSource([3])
        let listView = HeadlessListView()
        listView.defersLayoutAfterReload = true
        listView.dataSource = dataSource
        listView.reloadData()
        #expect(listView.visibleItemPaths.isEmpty)
        let outcome = listView.performBatchUpdates(Changeset(itemInserts: [ItemPath(row: 0, section: 0)])) { dataSource.counts = [4] }
        #expect(outcome == .reloaded(.layoutPendingAfterReload))
        listView.layoutIfNeeded()
        #expect(listView.visibleItemPaths.count == 4)
        try listView.checkConsistency()
    }
}

/// A data source that returns one cell object for every row (a broken reuse).
@MainActor
private final class SameCellDataSource: ListViewDataSource {
    let cell = TextCell()
    func numberOfSections(in listView: any ListView) -> Int { 1 }
    func listView(_ listView: any ListView, numberOfItemsInSection section: Int) -> Int { 2 }
    func listView(_ listView: any ListView, cellForItemAt path: ItemPath) -> AnyObject { cell }
}

/// The headless layout keeps the heights that differ from the estimate and updates
/// their running sums in place as rows are asked: after any mix of scrolls and
/// batches, each row's offset is the one before plus either the estimate (not asked
/// yet) or its real height, rows on screen always with their real height, and the
/// content height ends where the last row does.
@MainActor
@Suite("Headless list view: offsets after scrolling and batches")
struct HeadlessLayoutOffsetTests {
    @Test func offsetsFollowTheHeightsAskedWhateverTheOrder() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("HeadlessLayoutOffsetTests seed \(seed)")
        var random = SplitMix64(seed: seed)
        func height(_ row: Row) -> Double { 20 + Double(row.id % 7) * 10 }   // never the estimate, 44
        let controller = ListController(diagnostics: .ignore)
        controller.register(RowCell.self, for: Row.self) { cell, row in cell.text = row.text }
        controller.rowHeights.set(Row.self, .measured { row, _ in height(row) })
        let listView = HeadlessListView(viewportHeight: 300, rowHeight: 44)
        controller.attach(to: listView)
        var model = (0..<400).map { Row(id: $0, text: "row \($0)") }
        var nextID = 400
        controller.apply(TableModel(model))
        for step in 0..<300 {
            switch random.next() % 5 {
            case 0:
                listView.scroll(to: Double(random.next() % UInt64(max(1, Int(listView.contentHeight)))))
            case 1:
                listView.scroll(by: Double(random.next() % 400) - 200)   // a few rows either way
            case 2:
                if !model.isEmpty { model.remove(at: Int(random.next() % UInt64(model.count))) }
                model.insert(Row(id: nextID, text: "row \(nextID)"), at: Int(random.next() % UInt64(model.count + 1)))
                nextID += 1
                controller.apply(TableModel(model))
            case 3:
                if !model.isEmpty {
                    let i = Int(random.next() % UInt64(model.count))
                    model[i].text += "!"
                    controller.apply(TableModel(model))
                }
            default:
                for _ in 0..<Int(random.next() % 20) { listView.scroll(by: 23) }   // frames of a scroll down
            }
            listView.layoutIfNeeded()
            try listView.checkConsistency()
            let visible = Set(listView.visibleItemPaths.map(\.item))
            #expect(model.isEmpty || listView.offset(ofItemAt: ItemPath(item: 0, section: 0)) == 0)
            for (i, row) in model.enumerated() {
                let offset = try #require(listView.offset(ofItemAt: ItemPath(item: i, section: 0)))
                let next = i + 1 < model.count ? try #require(listView.offset(ofItemAt: ItemPath(item: i + 1, section: 0))) : listView.contentHeight
                let gap = next - offset
                #expect(gap == 44 || gap == height(row), "step \(step), row \(i): height \(gap) (seed \(seed))")
                if visible.contains(i) { #expect(gap == height(row), "step \(step), visible row \(i): height \(gap) (seed \(seed))") }
                // Visible exactly when the row meets the viewport.
                let meets = offset < listView.contentOffset + 300 && next > listView.contentOffset
                #expect(visible.contains(i) == meets, "step \(step), row \(i) at \(offset)..<\(next), viewport at \(listView.contentOffset): visible \(visible.contains(i)) (seed \(seed))")
            }
        }
    }
}
