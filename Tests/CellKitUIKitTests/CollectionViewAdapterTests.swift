#if canImport(UIKit)
import CellKit
import CellKitUIKit
import UIKit
import XCTest

/// `CollectionViewAdapter` on a real `UICollectionView` in a window: UIKit contracts
/// 1–5 of issue 11 and a 1,000-item smoke test. Runs on an iOS simulator only (see the README).
@MainActor
final class CollectionViewAdapterTests: XCTestCase {
    /// A collection view in a window, driven by a fresh controller through an adapter.
    private struct Fixture {
        let window: UIWindow
        let collection: SpyCollectionView
        let adapter: CollectionViewAdapter
        let controller: ListController
        let tracker: CellTracker
    }

    /// A list layout unless `flow` (the flow layout asks the adapter for item sizes).
    private func makeFixture(flow: Bool = false, width: CGFloat = 390) -> Fixture {
        let collection = SpyCollectionView(frame: .zero, collectionViewLayout: UICollectionViewFlowLayout())
        let window = hostInWindow(collection, width: width)
        let adapter = CollectionViewAdapter(collectionView: collection)
        if !flow { collection.collectionViewLayout = adapter.makeListLayout(appearance: .plain) }
        let controller = ListController()
        let tracker = CellTracker()
        controller.register(RowCollectionCell.self, for: Row.self) { cell, row in
            tracker.saw(cell)
            cell.text = row.text
            cell.avatar = nil                              // as real cells do: configure resets it
            var content = cell.defaultContentConfiguration()
            content.text = row.text
            cell.contentConfiguration = content
        }
        controller.attach(to: adapter)
        return Fixture(window: window, collection: collection, adapter: adapter, controller: controller, tracker: tracker)
    }

    // MARK: 1. A reconfigure gives back the same cell

    func testReconfigureKeepsTheSameCell() throws {
        let f = makeFixture()
        f.controller.apply(TableModel(rows(20)))
        f.collection.layoutIfNeeded()
        let before = try XCTUnwrap(f.collection.cellForItem(at: path(2)) as? RowCollectionCell)

        var changed = rows(20)
        changed[2].text = "liked"
        f.controller.apply(TableModel(changed))
        f.collection.layoutIfNeeded()

        XCTAssertIdentical(f.collection.cellForItem(at: path(2)), before)
        XCTAssertEqual(before.text, "liked")
        XCTAssertNil(f.adapter.core.consistencyProblem())
        XCTAssertTrue(f.adapter.core.violations.isEmpty, "\(f.adapter.core.violations)")
    }

    // A table-cell template (`cellStyle:`) shown in a collection view builds a
    // UITableViewCell: returned as it was, UIKit raised "the cell returned from
    // -collectionView:cellForItemAtIndexPath: does not have a reuseIdentifier".
    func testATableCellTemplateIsHostedInADequeuedCell() throws {
        let f = makeFixture()
        f.controller.register(RowTableCell.self, for: Row.self, cellStyle: .subtitle) { cell, row in
            cell.textLabel?.text = row.text
        }
        f.controller.apply(TableModel(rows(3)))
        f.collection.layoutIfNeeded()
        let cell = try XCTUnwrap(f.collection.cellForItem(at: path(0)))
        XCTAssertNotNil(cell.reuseIdentifier)
    }

    // MARK: 2. The data source reports the new counts only inside the batch

    func testNewCountsAreReportedOnlyInsideTheBatch() {
        let f = makeFixture()
        f.controller.apply(TableModel(rows(10)))
        f.collection.layoutIfNeeded()
        f.collection.batches.removeAll()

        f.controller.apply(TableModel(rows(13)))
        f.collection.layoutIfNeeded()
        f.controller.apply(TableModel(Array(rows(13).dropFirst(5))))
        f.collection.layoutIfNeeded()

        XCTAssertEqual(f.collection.batches.map(\.before), [10, 13])
        XCTAssertEqual(f.collection.batches.map(\.inside), [13, 8])
        XCTAssertEqual(f.collection.numberOfSections, 1)
        XCTAssertEqual(f.collection.numberOfItems(inSection: 0), 8)
        XCTAssertEqual(f.adapter.core.counts, [8])
        XCTAssertNil(f.adapter.core.consistencyProblem())
    }

    // MARK: 3. Self-sizing in a flow layout: the real width, invalidated by a width change

    func testFlowLayoutFeedsTheRealWidthAndNeverAnAutomaticSize() {
        let f = makeFixture(flow: true, width: 390)
        f.controller.rowHeights.set(Row.self, .estimated(30))
        f.controller.apply(TableModel(rows(20)))
        f.collection.layoutIfNeeded()

        XCTAssertEqual(f.controller.rowHeights.width, 390)    // not the default 320
        let layout = f.collection.collectionViewLayout
        let size = f.adapter.collectionView(f.collection, layout: layout, sizeForItemAt: path(0))
        XCTAssertEqual(size.width, 390)
        XCTAssertGreaterThan(size.height, 0)
        XCTAssertNotEqual(size, UICollectionViewFlowLayout.automaticSize)

        // Narrower: the flow layout invalidates on a width change and asks again.
        f.collection.frame.size.width = 300
        f.collection.layoutIfNeeded()
        XCTAssertEqual(f.controller.rowHeights.width, 300)
        XCTAssertEqual(f.collection.cellForItem(at: path(0))?.bounds.width, 300)
    }

    // MARK: 4. A resource delivered at willDisplay reaches the displayed cell and survives a reconfigure

    func testResourceReachesTheDisplayedCellAndSurvivesAReconfigure() async throws {
        let f = makeFixture()
        f.controller.dispatch.onResource(Row.self) { (cell: RowCollectionCell, _, update) in cell.avatar = update.value as? String }
        let loader = ResourceLoader<Row, String>(key: "avatar") { row in "avatar-\(row.id)" }
        f.controller.addResourceLoader(loader)

        f.controller.apply(TableModel(rows(50)))
        f.collection.layoutIfNeeded()
        let cell = try XCTUnwrap(f.collection.cellForItem(at: path(0)) as? RowCollectionCell)
        let delivered = await poll { cell.avatar != nil }
        XCTAssertTrue(delivered, "the loaded avatar reached the displayed cell")
        XCTAssertEqual(cell.avatar, "avatar-0")

        var changed = rows(50)
        changed[0].text = "edited"
        f.controller.apply(TableModel(changed))
        f.collection.layoutIfNeeded()
        XCTAssertIdentical(f.collection.cellForItem(at: path(0)), cell)
        XCTAssertEqual(cell.text, "edited")
        XCTAssertEqual(cell.avatar, "avatar-0", "configure ran again and the cached resource came back")
    }

    // MARK: 5. The app's forwarding delegate hears what CellKit does not handle

    func testForwardingDelegateReceivesUnhandledCalls() throws {
        let f = makeFixture()
        let app = AppDelegateSpy()
        f.adapter.forwardingDelegate = app
        f.controller.apply(TableModel(rows(100)))
        f.collection.layoutIfNeeded()

        f.collection.setContentOffset(CGPoint(x: 0, y: 200), animated: false)
        XCTAssertGreaterThan(app.scrolls, 0)

        let delegate = try XCTUnwrap(f.collection.delegate)
        XCTAssertTrue(delegate.responds(to: #selector(UICollectionViewDelegate.collectionView(_:shouldHighlightItemAt:))))
        XCTAssertEqual(delegate.collectionView?(f.collection, shouldHighlightItemAt: path(0)), true)
        XCTAssertEqual(app.highlightQuestions, 1)
        XCTAssertIdentical(f.collection.delegate, f.adapter)
    }

    // MARK: Smoke: 1,000 items, only visible cells built, a 10% diff

    func testThousandItemsAndATenPercentDiff() {
        let f = makeFixture()
        let initial = rows(1000)
        f.controller.apply(TableModel(initial))
        f.collection.layoutIfNeeded()

        XCTAssertEqual(f.collection.numberOfItems(inSection: 0), 1000)
        let built = f.tracker.cells.count
        XCTAssertGreaterThan(built, 0)
        XCTAssertLessThan(built, 100, "cells built for the items on screen, not the thousand")
        XCTAssertLessThan(f.collection.visibleCells.count, 100)

        var next = initial.filter { $0.id % 20 != 0 }
        for k in 0..<50 { next.insert(Row(id: 1000 + k, text: "new \(k)"), at: k * 19) }
        for k in stride(from: 5, to: next.count, by: 19) { next[k].text += " (edited)" }
        f.controller.apply(TableModel(next))
        f.collection.layoutIfNeeded()

        XCTAssertEqual(f.collection.numberOfItems(inSection: 0), next.count)
        XCTAssertEqual(f.adapter.core.counts, [next.count])
        XCTAssertNil(f.adapter.core.consistencyProblem())
        XCTAssertTrue(f.adapter.core.violations.isEmpty, "\(f.adapter.core.violations)")
        XCTAssertEqual((f.collection.cellForItem(at: path(0)) as? RowCollectionCell)?.text, "new 0")
    }
}
#endif
