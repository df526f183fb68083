#if canImport(UIKit)
import CellKit
import CellKitUIKit
import UIKit
import XCTest

/// `TableViewAdapter` on a real `UITableView` in a window: UIKit contracts 1–5 of
/// issue 11 and a 1,000-row smoke test. Runs on an iOS simulator only (see the README).
@MainActor
final class TableViewAdapterTests: XCTestCase {
    /// A table in a window, driven by a fresh controller through an adapter (kept by the caller).
    private struct Fixture {
        let window: UIWindow
        let table: SpyTableView
        let adapter: TableViewAdapter
        let controller: ListController
        let tracker: CellTracker
    }

    private func makeFixture(width: CGFloat = 390, configure: ((ListController) -> Void)? = nil) -> Fixture {
        let table = SpyTableView(frame: .zero, style: .plain)
        let window = hostInWindow(table, width: width)
        let adapter = TableViewAdapter(tableView: table)
        let controller = ListController()
        let tracker = CellTracker()
        if let configure {
            configure(controller)
        } else {
            controller.register(RowTableCell.self, for: Row.self) { cell, row in
                tracker.saw(cell)
                cell.textLabel?.text = row.text
            }
        }
        controller.attach(to: adapter)
        return Fixture(window: window, table: table, adapter: adapter, controller: controller, tracker: tracker)
    }

    // MARK: 1. A reconfigure gives back the same cell

    func testReconfigureKeepsTheSameCell() throws {
        let f = makeFixture()
        f.controller.apply(TableModel(rows(20)))
        f.table.layoutIfNeeded()
        let before = try XCTUnwrap(f.table.cellForRow(at: path(3)))

        var changed = rows(20)
        changed[3].text = "liked"
        f.controller.apply(TableModel(changed))
        f.table.layoutIfNeeded()

        XCTAssertIdentical(f.table.cellForRow(at: path(3)), before)
        XCTAssertEqual(before.textLabel?.text, "liked")
        XCTAssertNil(f.adapter.core.consistencyProblem())
        XCTAssertTrue(f.adapter.core.violations.isEmpty, "\(f.adapter.core.violations)")
    }

    func testReconfigureKeepsTheSameCellOfACellStyleSource() throws {
        // `cellStyle:` sources are templates: the table dequeues them without an index path.
        let f = makeFixture { controller in
            controller.register(RowTableCell.self, for: Row.self, cellStyle: .subtitle) { cell, row in
                cell.textLabel?.text = row.text
                cell.detailTextLabel?.text = "#\(row.id)"
            }
        }
        f.controller.apply(TableModel(rows(20)))
        f.table.layoutIfNeeded()
        let before = try XCTUnwrap(f.table.cellForRow(at: path(0)))
        XCTAssertEqual(before.detailTextLabel?.text, "#0")   // built with the subtitle style

        for like in 1...3 {
            var changed = rows(20)
            changed[0].text = "liked \(like) times"
            f.controller.apply(TableModel(changed))
            f.table.layoutIfNeeded()
            XCTAssertIdentical(f.table.cellForRow(at: path(0)), before, "like \(like)")
            XCTAssertEqual(before.textLabel?.text, "liked \(like) times")
        }
        XCTAssertTrue(f.adapter.core.violations.isEmpty, "\(f.adapter.core.violations)")
    }

    // MARK: 2. The data source reports the new counts only inside the batch

    func testNewCountsAreReportedOnlyInsideTheBatch() {
        let f = makeFixture()
        f.controller.apply(TableModel(rows(10)))
        f.table.layoutIfNeeded()
        f.table.batches.removeAll()

        f.controller.apply(TableModel(rows(13)))          // three rows inserted
        f.table.layoutIfNeeded()
        f.controller.apply(TableModel(Array(rows(13).dropFirst(5))))   // five deleted
        f.table.layoutIfNeeded()

        XCTAssertEqual(f.table.batches.map(\.before), [10, 13])
        XCTAssertEqual(f.table.batches.map(\.inside), [13, 8])
        XCTAssertEqual(f.table.numberOfSections, 1)
        XCTAssertEqual(f.table.numberOfRows(inSection: 0), 8)
        XCTAssertEqual(f.adapter.core.counts, [8])
        XCTAssertNil(f.adapter.core.consistencyProblem())
    }

    // MARK: 3. Self-sizing: measured, at the table's real width, invalidated by a width change

    func testSelfSizingRowsAreMeasuredAtTheTablesWidth() throws {
        let f = makeFixture(width: 390)
        f.controller.rowHeights.set(Row.self, .estimated(30))
        f.controller.apply(TableModel(rows(20)))
        f.table.layoutIfNeeded()

        XCTAssertEqual(f.controller.rowHeights.width, 390)    // not the default 320
        let item = try XCTUnwrap(f.controller.displayed.item(at: ItemPath(item: 0, section: 0)))
        XCTAssertFalse(f.controller.rowHeights.isEstimate(for: item), "the displayed row was measured")
        let measured = try XCTUnwrap(f.controller.rowHeights.height(for: item))
        XCTAssertEqual(measured, Double(f.table.rectForRow(at: path(0)).height), accuracy: 0.5)

        // Narrower: the table asks again, the cache is keyed by the new width.
        f.table.frame.size.width = 300
        f.table.layoutIfNeeded()
        XCTAssertEqual(f.controller.rowHeights.width, 300)
        XCTAssertEqual(f.adapter.tableView(f.table, heightForRowAt: path(0)), UITableView.automaticDimension,
                       "a self-sizing row is never given its measured height as fixed")
    }

    // MARK: 4. A resource delivered at willDisplay reaches the displayed cell and survives a reconfigure

    func testResourceReachesTheDisplayedCellAndSurvivesAReconfigure() async throws {
        let f = makeFixture { controller in
            controller.register(RowTableCell.self, for: Row.self) { cell, row in
                cell.textLabel?.text = row.text
                cell.avatar = nil                          // as real cells do: configure resets it
            }
        }
        f.controller.dispatch.onResource(Row.self) { (cell: RowTableCell, _, update) in cell.avatar = update.value as? String }
        let loader = ResourceLoader<Row, String>(key: "avatar") { row in "avatar-\(row.id)" }
        f.controller.addResourceLoader(loader)

        f.controller.apply(TableModel(rows(50)))
        f.table.layoutIfNeeded()
        let cell = try XCTUnwrap(f.table.cellForRow(at: path(0)) as? RowTableCell)
        let delivered = await poll { cell.avatar != nil }
        XCTAssertTrue(delivered, "the loaded avatar reached the displayed cell")
        XCTAssertEqual(cell.avatar, "avatar-0")
        XCTAssertLessThan(loader.startedLoads, 50, "only rows on screen (and prefetched) load")

        var changed = rows(50)
        changed[0].text = "edited"
        f.controller.apply(TableModel(changed))
        f.table.layoutIfNeeded()
        XCTAssertIdentical(f.table.cellForRow(at: path(0)), cell)
        XCTAssertEqual(cell.textLabel?.text, "edited")
        XCTAssertEqual(cell.avatar, "avatar-0", "configure ran again and the cached resource came back")
    }

    // MARK: 5. The app's forwarding delegate hears what CellKit does not handle

    func testForwardingDelegateReceivesUnhandledCalls() throws {
        let f = makeFixture()
        let app = AppDelegateSpy()
        f.adapter.forwardingDelegate = app
        f.controller.apply(TableModel(rows(100)))
        f.table.layoutIfNeeded()

        f.table.setContentOffset(CGPoint(x: 0, y: 200), animated: false)
        XCTAssertGreaterThan(app.scrolls, 0)

        let delegate = try XCTUnwrap(f.table.delegate)
        XCTAssertTrue(delegate.responds(to: #selector(UITableViewDelegate.tableView(_:shouldHighlightRowAt:))))
        XCTAssertEqual(delegate.tableView?(f.table, shouldHighlightRowAt: path(0)), true)
        XCTAssertEqual(app.highlightQuestions, 1)
        // What CellKit handles stays with the adapter.
        XCTAssertIdentical(f.table.delegate, f.adapter)
    }

    // MARK: Background views

    func testTheAppsOwnBackgroundViewStaysWhenThereIsNoPlaceholder() {
        let f = makeFixture()
        let own = UIView()
        f.table.backgroundView = own
        f.controller.apply(TableModel(rows(3)))
        f.controller.apply(TableModel(rows(5)))
        XCTAssertIdentical(f.table.backgroundView, own, "every apply used to set the table's backgroundView to nil")
    }

    func testThePlaceholderViewStaysWhileThePlaceholderIsTheSame() throws {
        let f = makeFixture()
        f.controller.placeholders.showsRows = false
        f.controller.apply(TableModel(), state: .loading)
        let shown = try XCTUnwrap(f.table.backgroundView as? PlaceholderBackgroundView)
        f.controller.apply(TableModel(), state: .loading)
        f.adapter.updateBackground()
        XCTAssertIdentical(f.table.backgroundView, shown, "a new view restarts the spinner and moves VoiceOver's focus")
        f.controller.apply(TableModel(rows(2)))
        XCTAssertNil(f.table.backgroundView)
    }

    // MARK: Smoke: 1,000 rows, only visible cells built, a 10% diff

    func testThousandRowsAndATenPercentDiff() {
        let f = makeFixture()
        f.controller.rowHeights.set(Row.self, .fixed(44))
        let initial = rows(1000)
        f.controller.apply(TableModel(initial))
        f.table.layoutIfNeeded()

        XCTAssertEqual(f.table.numberOfRows(inSection: 0), 1000)
        XCTAssertGreaterThan(f.tracker.cells.count, 0)
        let onScreen = Int(f.table.bounds.height / 44) + 1
        let built = f.tracker.cells.count
        XCTAssertLessThan(built, onScreen * 2, "cells built for the rows on screen, not the thousand")
        XCTAssertLessThan(f.table.visibleCells.count, onScreen + 2)

        // 10%: every 20th row goes, 50 new rows arrive, 50 rows change text.
        var next = initial.filter { $0.id % 20 != 0 }
        for k in 0..<50 { next.insert(Row(id: 1000 + k, text: "new \(k)"), at: k * 19) }
        for k in stride(from: 5, to: next.count, by: 19) { next[k].text += " (edited)" }
        f.controller.apply(TableModel(next))
        f.table.layoutIfNeeded()

        XCTAssertEqual(f.table.numberOfRows(inSection: 0), next.count)
        XCTAssertEqual(f.adapter.core.counts, [next.count])
        XCTAssertNil(f.adapter.core.consistencyProblem())
        XCTAssertTrue(f.adapter.core.violations.isEmpty, "\(f.adapter.core.violations)")
        XCTAssertEqual(f.table.cellForRow(at: path(0))?.textLabel?.text, "new 0")
    }
}
#endif
