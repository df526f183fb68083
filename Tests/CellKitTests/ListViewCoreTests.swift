import CellKit
import CellKitTesting
import Testing

/// The real list-view core (the code the UIKit adapters run) driven through a
/// fake backend that records what UIKit would be asked and where it would raise.
@Suite("List-view core: the controller's batches through a UIKit-like backend")
@MainActor
struct ListViewCoreTests {
    struct Row: Identifiable, Equatable, Sendable { let id: Int; var text: String }

    private func make() -> (ListController, UIKitLikeBackend) {
        let listView = UIKitLikeBackend()
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Row.self) { cell, row in cell.text = row.text }
        controller.attach(to: listView)
        return (controller, listView)
    }

    private func expectVisibleCellsShowTheModel(_ controller: ListController, _ listView: UIKitLikeBackend, _ note: String) {
        for path in listView.visibleItemPaths {
            let shown = (listView.cell(at: path) as? TextCell)?.text
            let model = (controller.displayed.model(at: path) as? Row)?.text
            #expect(shown == model, "\(note): row \(path) shows \(shown ?? "nil"), model is \(model ?? "nil")")
        }
    }

    @Test(arguments: 0..<40)
    func randomSnapshotsStayInSync(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &+ 1000)
        let (controller, listView) = make()
        var rows = (0..<20).map { Row(id: $0, text: "r\($0)") }
        var nextID = 20
        controller.apply(TableModel(rows))
        for step in 0..<15 {
            rows.removeAll { _ in rng.below(8) == 0 }
            for i in rows.indices where rng.below(6) == 0 { rows[i].text += "'" }
            if rows.count > 2, rng.below(2) == 0 { rows.swapAt(rng.below(rows.count), rng.below(rows.count)) }
            for _ in 0..<rng.below(4) {
                rows.insert(Row(id: nextID, text: "r\(nextID)"), at: rng.below(rows.count + 1))
                nextID += 1
            }
            controller.apply(TableModel(rows))
            #expect(!listView.plans.contains { if case .reload(.invalid) = $0 { true } else { false } }, "seed \(seed) step \(step)")
            #expect(listView.crashes.isEmpty, "seed \(seed) step \(step): \(listView.crashes)")
            #expect(listView.core.consistencyProblem() == nil, "seed \(seed) step \(step)")
            expectVisibleCellsShowTheModel(controller, listView, "seed \(seed) step \(step)")
        }
        #expect(listView.plans.contains { if case .animate = $0 { true } else { false } })
    }

    @Test func contentChangeReconfiguresTheSameCell() throws {
        let (controller, listView) = make()
        controller.apply(TableModel((0..<5).map { Row(id: $0, text: "r\($0)") }))
        let before = listView.cell(at: ItemPath(item: 2, section: 0))
        var rows = (0..<5).map { Row(id: $0, text: "r\($0)") }
        rows[2].text = "changed"
        rows.insert(Row(id: 99, text: "new"), at: 0)
        let callsBefore = listView.calls.count
        controller.apply(TableModel(rows))
        let after = listView.cell(at: ItemPath(item: 3, section: 0))
        #expect(before === after)
        #expect((after as? TextCell)?.text == "changed")
        let calls = listView.calls[callsBefore...]
        // The diff may stage the update before or after the insert; either way the cell was reconfigured, not replaced.
        #expect(calls.contains { if case .reconfigure = $0 { true } else { false } })
        #expect(!calls.contains(.dequeue(reuseIdentifier: CellSource.type(TextCell.self).reuseIdentifier, path: ItemPath(item: 3, section: 0))))
        #expect(listView.crashes.isEmpty)
    }

    @Test func outsideAWindowTheControllerBatchBecomesAReload() {
        let (controller, listView) = make()
        listView.hasWindow = false
        controller.apply(TableModel([Row(id: 1, text: "a")]))
        controller.apply(TableModel([Row(id: 0, text: "z"), Row(id: 1, text: "a")]))
        #expect(listView.plans.last == .reload(.notInWindow))
        #expect(listView.visibleItemPaths.count == 2)
    }

    @Test func thresholdTurnsLargeBatchesIntoReloads() {
        let (controller, listView) = make()
        listView.core.reloadThreshold = 3
        controller.apply(TableModel((0..<5).map { Row(id: $0, text: "r\($0)") }))
        controller.apply(TableModel((10..<20).map { Row(id: $0, text: "r\($0)") }))
        guard case .reload(.overThreshold) = listView.plans.last else {
            Issue.record("expected an over-threshold reload, got \(String(describing: listView.plans.last))")
            return
        }
        #expect((listView.cell(at: ItemPath(item: 0, section: 0)) as? TextCell)?.text == "r10")
    }

    // MARK: UIKit contracts the core keeps

    /// Contract 2: the data switches inside the platform's batch closure, never before it.
    @Test func theDataSwitchesInsideThePlatformBatch() {
        let (controller, listView) = make()
        controller.apply(TableModel((0..<3).map { Row(id: $0, text: "r\($0)") }))
        controller.apply(TableModel((0..<5).map { Row(id: $0, text: "r\($0)") }))
        #expect(listView.calls.contains { if case .batch = $0 { true } else { false } })
        #expect(listView.crashes.isEmpty, "\(listView.crashes)")
    }

    /// An invalid batch does not reach UIKit as such: inside the platform's closure it
    /// becomes a replacement of every section, which UIKit always accepts.
    @Test func anInvalidBatchNeverReachesThePlatform() {
        let listView = UIKitLikeBackend()
        let source = TableModelDataSource(strings(["a", "b"]))
        listView.dataSource = source
        listView.reloadData()
        let outcome = listView.performBatchUpdates(Changeset(itemInserts: [ItemPath(item: 0, section: 0)])) {
            source.model = strings(["x", "y", "a", "b"])   // two rows arrive, one announced
        }
        #expect(outcome.error?.rule == .itemCountMismatch)
        #expect(listView.crashes.isEmpty, "\(listView.crashes)")
        #expect(listView.core.consistencyProblem() == nil)
        #expect((listView.cell(at: ItemPath(item: 0, section: 0)) as? TextCell)?.text == "x")
    }

    /// Contract 1: a reconfigure hands back the cell showing the row; a data source
    /// that builds another one is refused and the showing cell stays.
    @Test func aReconfigureThatReturnsAnotherCellIsRefused() {
        let listView = UIKitLikeBackend()
        let source = FreshCellDataSource(["a", "b"])
        listView.dataSource = source
        listView.reloadData()
        let shown = listView.cell(at: ItemPath(item: 1, section: 0))
        source.texts[1] = "B"
        let outcome = listView.performBatchUpdates(Changeset(itemUpdates: [ItemPath(item: 1, section: 0)])) {}
        #expect(outcome == .animated)
        #expect(listView.cell(at: ItemPath(item: 1, section: 0)) === shown)
        #expect(listView.core.consistencyProblem()?.contains("different cell") == true)
        #expect(listView.crashes.isEmpty, "the core hands UIKit the same cell: \(listView.crashes)")
    }

    /// Contract 1, when the platform asks for reconfigured cells only on its next
    /// layout pass: the dequeue still hands back the cell showing the row.
    @Test func aDeferredReconfigureStillGetsTheSameCell() {
        let (controller, listView) = make()
        listView.defersReconfigure = true
        var rows = (0..<5).map { Row(id: $0, text: "r\($0)") }
        controller.apply(TableModel(rows))
        let shown = listView.cell(at: ItemPath(item: 2, section: 0))
        rows[2].text = "changed"
        controller.apply(TableModel(rows))
        let before = listView.calls.count
        listView.layoutIfNeeded()
        #expect(listView.cell(at: ItemPath(item: 2, section: 0)) === shown)
        #expect((shown as? TextCell)?.text == "changed")
        #expect(!listView.calls[before...].contains { if case .dequeue = $0 { true } else { false } })
        #expect(listView.crashes.isEmpty, "\(listView.crashes)")
    }

    /// Contract 1 for cells UIKit prepared ahead of display (iOS 15 cell prefetching):
    /// `reconfigureRows(at:)` updates "existing (including prefetched) cells", so the
    /// core hands the platform every updated row, not only the displayed ones; the
    /// prepared cell comes on screen with the new content.
    @Test func aCellPreparedAheadOfDisplayIsReconfiguredToo() {
        let (controller, listView) = make()
        var rows = (0..<20).map { Row(id: $0, text: "r\($0)") }
        controller.apply(TableModel(rows))
        let path = ItemPath(item: 13, section: 0)   // 12 rows fit on screen
        #expect(listView.cell(at: path) == nil)
        let prepared = listView.prepareCell(at: path)
        rows[13].text = "changed"
        controller.apply(TableModel(rows))
        #expect(listView.calls.contains(.reconfigure([path])))
        #expect((prepared as? TextCell)?.text == "changed", "the prepared cell would show the old text")
        listView.screenRows = 14
        listView.layoutIfNeeded()
        #expect(listView.cell(at: path) === prepared)
        expectVisibleCellsShowTheModel(controller, listView, "after the prepared row came on screen")
        #expect(listView.crashes.isEmpty, "\(listView.crashes)")
        #expect(listView.core.consistencyProblem() == nil)
    }

    /// Rows of `Row`, shown by a template source (a table cell with a style: UIKit has no
    /// class registered for it and dequeues it by identifier alone) or a registered type.
    private func make(template: Bool) -> (ListController, UIKitLikeBackend) {
        let listView = UIKitLikeBackend()
        let controller = ListController(diagnostics: .ignore)
        let source = template ? CellSource.template(TextCell.self) { TextCell() } : CellSource.type(TextCell.self)
        controller.registry.register(source, for: Row.self) { (cell: TextCell, row: Row) in cell.text = row.text }
        controller.attach(to: listView)
        return (controller, listView)
    }

    /// Contract 1 for a prepared row whose cell the platform cannot dequeue by index path
    /// (a template): the core hands back the prepared cell itself, which is reconfigured.
    @Test(arguments: [true, false])
    func aPreparedRowIsReconfiguredWithItsOwnCell(template: Bool) {
        let (controller, listView) = make(template: template)
        var rows = (0..<20).map { Row(id: $0, text: "r\($0)") }
        controller.apply(TableModel(rows))
        let path = ItemPath(item: 13, section: 0)
        let prepared = listView.prepareCell(at: path)
        rows[13].text = "changed"
        controller.apply(TableModel(rows))
        #expect(listView.crashes.isEmpty, "\(listView.crashes)")
        #expect(listView.preparedCell(at: path) === prepared)
        #expect((prepared as? TextCell)?.text == "changed")
        #expect(listView.core.consistencyProblem() == nil)
    }

    /// A prepared row moved by one batch, then updated by the next: its cell followed it.
    @Test(arguments: [true, false])
    func aPreparedRowMovedByABatchThenUpdatedKeepsItsCell(template: Bool) {
        let (controller, listView) = make(template: template)
        var rows = (0..<20).map { Row(id: $0, text: "r\($0)") }
        controller.apply(TableModel(rows))
        let prepared = listView.prepareCell(at: ItemPath(item: 13, section: 0))
        rows.insert(contentsOf: [Row(id: 100, text: "new"), Row(id: 101, text: "new")], at: 0)
        rows.remove(at: 5)
        rows.swapAt(14, 17)   // the prepared row (id 13, now at 14) moves to 17, off screen
        controller.apply(TableModel(rows))
        let moved = ItemPath(item: 17, section: 0)
        #expect(listView.preparedCell(at: moved) === prepared)
        rows[17].text = "changed"
        controller.apply(TableModel(rows))
        listView.layout()
        let cell = listView.cell(at: moved) ?? listView.preparedCell(at: moved)
        #expect(cell === prepared)
        #expect((prepared as? TextCell)?.text == "changed")
        #expect(listView.crashes.isEmpty, "\(listView.crashes)")
        expectVisibleCellsShowTheModel(controller, listView, "after the move and the update")
        #expect(listView.core.consistencyProblem() == nil)
    }

    /// A prepared cell the platform gave up and dequeued for another row is that row's
    /// cell only: a reconfigure of its old row (UIKit would skip it; this backend asks)
    /// gets another cell, and the cell keeps showing its new row.
    @Test(arguments: [true, false])
    func aPreparedCellReusedForAnotherRowIsNotHandedBackForItsOldRow(template: Bool) {
        let (controller, listView) = make(template: template)
        var rows = (0..<20).map { Row(id: $0, text: "r\($0)") }
        controller.apply(TableModel(rows))
        let cell = listView.prepareCell(at: ItemPath(item: 13, section: 0))
        listView.discardPreparedCell(at: ItemPath(item: 13, section: 0))
        #expect(listView.prepareCell(at: ItemPath(item: 15, section: 0)) === cell)   // from the pool
        listView.asksForRowsWithoutCells = true
        rows[13].text = "changed"
        controller.apply(TableModel(rows))
        #expect((cell as? TextCell)?.text == "r15")
        #expect(listView.preparedCell(at: ItemPath(item: 13, section: 0)) !== cell)
        #expect(listView.crashes.isEmpty, "\(listView.crashes)")
        #expect(listView.core.consistencyProblem() == nil)
    }

    /// A prepared cell the platform dropped into its pool unannounced: the platform skips
    /// the row's reconfigure, and its later, fresh request for the row gets a dequeued
    /// cell, not the pooled one.
    @Test(arguments: [true, false])
    func aFreshRequestAfterADroppedPreparedCellGetsNoPooledCell(template: Bool) {
        let (controller, listView) = make(template: template)
        var rows = (0..<20).map { Row(id: $0, text: "r\($0)") }
        controller.apply(TableModel(rows))
        let path = ItemPath(item: 13, section: 0)
        listView.prepareCell(at: path)
        listView.discardPreparedCell(at: path)
        rows[13].text = "changed"
        controller.apply(TableModel(rows))
        let fresh = listView.prepareCell(at: path)
        #expect((fresh as? TextCell)?.text == "changed")
        #expect(listView.crashes.isEmpty, "\(listView.crashes)")
        #expect(listView.core.consistencyProblem() == nil)
    }

    /// A reload drops the prepared cells (UIKit puts them in its pool): a row updated
    /// afterwards does not get its old prepared cell back.
    @Test(arguments: [true, false])
    func aReloadForgetsPreparedCells(template: Bool) {
        let (controller, listView) = make(template: template)
        var rows = (0..<20).map { Row(id: $0, text: "r\($0)") }
        controller.apply(TableModel(rows))
        let path = ItemPath(item: 13, section: 0)
        listView.prepareCell(at: path)
        listView.reloadData()
        listView.asksForRowsWithoutCells = true
        rows[13].text = "changed"
        let before = listView.calls.count
        controller.apply(TableModel(rows))
        // Dequeued from the platform (which may give the old cell from its pool), not handed back.
        #expect(listView.calls[before...].contains { if case .dequeue(_, path) = $0 { true } else { false } })
        #expect((listView.preparedCell(at: path) as? TextCell)?.text == "changed")
        #expect(listView.crashes.isEmpty, "\(listView.crashes)")
        #expect(listView.core.consistencyProblem() == nil)
    }

    /// Seeded random runs of what UIKit does with cells: prepare rows ahead of display,
    /// scroll (display, end display), drop prepared cells into the pool, batches that
    /// insert, delete, move and update rows, reloads. After each step every row the
    /// table holds a cell for (displayed or prepared) shows its current model, and no
    /// cell is held for two rows.
    @Test(arguments: 0..<30)
    func randomPreparedCellsStayInSync(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 7000)
        print("randomPreparedCellsStayInSync seed \(seed)")
        let (controller, listView) = make(template: seed % 2 == 0)
        listView.screenRows = 6
        var rows = (0..<24).map { Row(id: $0, text: "r\($0)") }
        var nextID = 24
        controller.apply(TableModel(rows))
        for step in 0..<40 {
            let count = controller.displayed.itemCount
            var action = ""
            switch rng.below(8) {
            case 0, 1:
                let item = rng.below(max(count, 1))
                action = "prepare \(item)"
                if item < count { listView.prepareCell(at: ItemPath(item: item, section: 0)) }
            case 2:
                listView.firstRow = rng.below(max(count, 1))
                action = "scroll to \(listView.firstRow)"
                listView.layout()
            case 3:
                if let path = listView.preparedItemPaths.randomElement(using: &rng) {
                    action = "drop prepared \(path.item)"
                    listView.discardPreparedCell(at: path)
                }
            case 4:
                action = "reload"
                listView.reloadData()
            default:
                for i in rows.indices where rng.below(4) == 0 { rows[i].text += "'" }
                rows.removeAll { _ in rng.below(10) == 0 }
                if rows.count > 2, rng.below(2) == 0 { rows.swapAt(rng.below(rows.count), rng.below(rows.count)) }
                for _ in 0..<rng.below(3) {
                    rows.insert(Row(id: nextID, text: "r\(nextID)"), at: rng.below(rows.count + 1))
                    nextID += 1
                }
                action = "batch to \(rows.count) rows"
                controller.apply(TableModel(rows))
            }
            let note = "seed \(seed) step \(step) (\(action))"
            #expect(listView.crashes.isEmpty, "\(note): \(listView.crashes)")
            #expect(listView.core.consistencyProblem() == nil, "\(note)")
            var holders: [ObjectIdentifier: ItemPath] = [:]
            for (path, cell) in listView.heldCells {
                let shown = (cell as? TextCell)?.text
                let model = (controller.displayed.model(at: path) as? Row)?.text
                #expect(shown == model, "\(note): row \(path) shows \(shown ?? "nil"), model is \(model ?? "nil")")
                if let other = holders.updateValue(path, forKey: ObjectIdentifier(cell)) {
                    Issue.record("\(note): one cell is held for rows \(other) and \(path)")
                }
            }
            guard listView.crashes.isEmpty else { return }
        }
    }

    /// A collection view's section index jumps to an item: never one of an empty
    /// section (UIKit raises "Attempted to scroll the collection view to an
    /// out-of-bounds item (0) when there are only 0 items in section 1").
    /// SwiftUI's `dismantleUIView` ("use the teardown process to notify other objects that
    /// the view is disappearing"): UIKit reports no end of display for a released view, so
    /// the core tells the delegate for every row on screen, and the loads of those rows stop.
    @Test(arguments: [true, false])
    func aViewThatGoesAwayEndsTheDisplayOfEveryRow(platformOwned: Bool) {
        final class Spy: ListViewDelegate {
            var ended: [ItemPath] = []
            var cancelled: [ItemPath] = []
            func listView(_ listView: any ListView, didEndDisplaying cell: AnyObject, at path: ItemPath) { ended.append(path) }
            func listView(_ listView: any ListView, cancelPrefetchingItemsAt paths: [ItemPath]) { cancelled += paths }
        }
        let source = TableModelDataSource(TableModel((0..<30).map { Row(id: $0, text: "r\($0)") }))
        let spy = Spy()
        if platformOwned {
            let listView = UIKitLikeBackend()
            listView.dataSource = source
            listView.delegate = spy
            listView.reloadData()
            check(listView.core)
        } else {
            let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44, prefetchDistance: 2)
            listView.dataSource = source
            listView.delegate = spy
            listView.reloadData()
            check(listView.core)
        }
        func check(_ core: ListViewCore) {
            let shown = core.visibleItemPaths
            #expect(!shown.isEmpty)
            core.endDisplayOfEveryRow()
            #expect(spy.ended == shown)
            #expect(core.visibleItemPaths.isEmpty)
            #expect(core.consistencyProblem() == nil)
            if !platformOwned { #expect(spy.cancelled == [ItemPath(item: 10, section: 0), ItemPath(item: 11, section: 0)]) }
        }
    }

    @Test func anIndexJumpLandsOnARowThatExists() {
        let listView = UIKitLikeBackend()
        let source = TableModelDataSource(TableModel(sections: [
            TableSection(id: 0, items: []),
            TableSection(id: 1, items: [ListItem("a"), ListItem("b")]),
            TableSection(id: 2, items: []),
            TableSection(id: 3, items: [ListItem("c"), ListItem("d")]),
            TableSection(id: 4, items: []),
        ]))
        listView.dataSource = source
        listView.reloadData()
        let core = listView.core
        #expect(core.firstItem(fromSection: 0) == ItemPath(item: 0, section: 1))
        #expect(core.firstItem(fromSection: 1) == ItemPath(item: 0, section: 1))
        #expect(core.firstItem(fromSection: 2) == ItemPath(item: 0, section: 3))
        #expect(core.firstItem(fromSection: 4) == ItemPath(item: 1, section: 3))   // none after: the last row before
        #expect(core.firstItem(fromSection: 99) == ItemPath(item: 1, section: 3))
        #expect(core.firstItem(fromSection: -5) == ItemPath(item: 0, section: 1))
        source.model = TableModel(sections: [TableSection(id: 0, items: [])])
        listView.reloadData()
        #expect(core.firstItem(fromSection: 0) == nil)
    }

    /// Contract 2, refused: data changed before the batch started makes it a reload, not a crash.
    @Test func dataChangedOutsideTheBatchBecomesAReload() {
        let listView = UIKitLikeBackend()
        let source = TableModelDataSource(strings(["a", "b"]))
        listView.dataSource = source
        listView.reloadData()
        source.model = strings(["a", "b", "c"])
        let outcome = listView.performBatchUpdates(Changeset(itemInserts: [ItemPath(item: 2, section: 0)])) {}
        #expect(outcome == .reloaded(.dataChangedOutsideBatch(cached: [2], reported: [3])))
        #expect(listView.crashes.isEmpty)
        #expect(listView.visibleItemPaths.count == 3)
    }

    /// No batch while a reload's layout is pending: UICollectionView's "invalid number of items".
    @Test func aBatchRightAfterAReloadBecomesAReload() {
        let (controller, listView) = make()
        controller.apply(TableModel([Row(id: 1, text: "a")]))
        listView.laysOutAtOnce = false
        listView.reloadData()
        controller.apply(TableModel([Row(id: 0, text: "z"), Row(id: 1, text: "a")]))
        #expect(listView.plans.last == .reload(.layoutPendingAfterReload))
        listView.layoutIfNeeded()
        #expect(listView.visibleItemPaths.count == 2)
        #expect(listView.crashes.isEmpty)
    }

    /// Contract 8: a user's drag is already on screen; the pure-move batch that
    /// follows is not replayed, even when an unrelated batch arrives first.
    @Test func aUsersMoveSurvivesAnUnrelatedBatchAndIsNotReplayed() {
        let (controller, listView) = make()
        var rows = (0..<5).map { Row(id: $0, text: "r\($0)") }
        controller.apply(TableModel(rows))
        listView.core.userDidMoveItem(from: ItemPath(item: 0, section: 0), to: ItemPath(item: 3, section: 0))
        // An unrelated content change lands first.
        rows[4].text = "changed"
        controller.apply(TableModel(rows))
        #expect(listView.core.isUserMovePending)
        // Then the data catches up with the drag.
        rows.insert(rows.removeFirst(), at: 3)
        let before = listView.calls.count
        controller.apply(TableModel(rows))
        #expect(!listView.core.isUserMovePending)
        let replayed = listView.calls[before...].compactMap { if case .batch(let c, _) = $0 { c } else { nil } }
        #expect(replayed.allSatisfy { $0.itemMoves.isEmpty }, "the drag was replayed again: \(replayed)")
        #expect(listView.core.consistencyProblem() == nil)
        expectVisibleCellsShowTheModel(controller, listView, "after the drag")
    }

    /// Contract 8: a drag across sections stops in the row's own section when its model says so.
    @Test func dragsStayInTheirSectionWhereTheModelSaysSo() {
        struct Pinned: Sendable {}
        let editing = EditingTable()
        editing.keepsInSection(Pinned.self)
        let from = ItemPath(item: 1, section: 1)
        #expect(editing.target(forMoving: Pinned(), from: from, proposed: ItemPath(item: 0, section: 2), rowsInSourceSection: 4) == ItemPath(item: 3, section: 1))
        #expect(editing.target(forMoving: Pinned(), from: from, proposed: ItemPath(item: 5, section: 0), rowsInSourceSection: 4) == ItemPath(item: 0, section: 1))
        #expect(editing.target(forMoving: Pinned(), from: from, proposed: ItemPath(item: 2, section: 1), rowsInSourceSection: 4) == ItemPath(item: 2, section: 1))
        #expect(editing.target(forMoving: Row(id: 1, text: ""), from: from, proposed: ItemPath(item: 0, section: 2), rowsInSourceSection: 4) == ItemPath(item: 0, section: 2))
    }

    /// Contract 3: a self-sizing row stays self-sizing after it was measured (its
    /// cached height is an estimate, never a fixed height), and a new width measures again.
    @Test func aMeasuredSelfSizingRowIsNeverFixed() {
        let controller = ListController(diagnostics: .ignore)
        controller.rowHeights.set(Row.self, .estimated(44))
        let row = ListItem(Row(id: 1, text: "a"))
        controller.rowHeights.didMeasure(row, height: 80)
        #expect(controller.rowHeights.sizesItself(row))
        #expect(controller.rowHeights.height(for: row) == 80)
        controller.rowHeights.width = 500
        #expect(controller.rowHeights.height(for: row) == 44)
    }

    // MARK: Re-entrancy (issue 10, items 3 and 4)

    /// Item 4: an apply from a display hook while another apply runs waits for it;
    /// the controller and the list view never disagree on what is shown.
    @Test func anApplyFromADisplayHookRunsAfterTheApplyInProgress() throws {
        let (controller, listView) = make()
        var fired = false
        controller.onWillDisplay { path, _ in
            guard !fired, path.item == 2 else { return }
            fired = true
            controller.apply(TableModel((0..<3).map { Row(id: $0, text: "late \($0)") }))
        }
        controller.apply(TableModel((0..<10).map { Row(id: $0, text: "r\($0)") }))
        #expect(fired)
        #expect(controller.displayed.itemCount == 3)
        #expect(listView.core.counts == [3])
        #expect(listView.visibleItemPaths.count == 3)
        #expect(listView.core.consistencyProblem() == nil)
        expectVisibleCellsShowTheModel(controller, listView, "after the nested apply")
    }

    /// A batch started inside another is refused with a message naming the call; nothing switches.
    @Test func aBatchInsideABatchIsRefused() {
        let listView = UIKitLikeBackend()
        let source = TableModelDataSource(strings(["a"]))
        listView.dataSource = source
        listView.reloadData()
        var inner: BatchOutcome?
        listView.performBatchUpdates(Changeset(itemInserts: [ItemPath(item: 1, section: 0)])) {
            source.model = strings(["a", "b"])
            inner = listView.performBatchUpdates(Changeset()) { source.model = strings(["never"]) }
        }
        guard case .refused(let message) = inner else {
            Issue.record("expected a refusal, got \(String(describing: inner))")
            return
        }
        #expect(message.contains("performBatchUpdates"))
        #expect(source.model.itemCount == 2)
        #expect(listView.core.consistencyProblem() == message, "the refused batch is a violation")
    }
}

/// One section of string rows, identified by their value.
@MainActor
func strings(_ texts: [String]) -> TableModel {
    TableModel(sections: [TableSection(id: 0, items: texts.map { ListItem($0) })])
}

/// A data source that ignores dequeuing on purpose: a new cell every time (what a
/// `cellStyle:` table source did before dequeuing with the index path).
@MainActor
final class FreshCellDataSource: ListViewDataSource {
    var texts: [String]
    init(_ texts: [String]) { self.texts = texts }
    func numberOfSections(in listView: any ListView) -> Int { 1 }
    func listView(_ listView: any ListView, numberOfItemsInSection section: Int) -> Int { texts.count }
    func listView(_ listView: any ListView, cellForItemAt path: ItemPath) -> AnyObject {
        let cell = TextCell()
        cell.text = texts[path.item]
        return cell
    }
}
