import CGtk
import CellKit
@testable import CellKitGTK
import Foundation
import XCTest

/// Lists driven by a `ListController` in a real GTK window.
final class ListWindowTests: GtkTestCase, @unchecked Sendable {
    /// A million rows: GTK binds only what shows plus its margin, and creates that many widgets.
    func testMillionRowsCreateWidgetsOnlyForWhatShows() throws {
        try requireDisplay()
        MainActor.assumeIsolated {
            let window = makeWindow("million rows")
            let controller = ListController()
            controller.register(TextCell.self, for: Row.self) { cell, row in cell.text = row.text }
            controller.attach(to: window.list)
            controller.apply(TableModel((0..<1_000_000).map { Row($0) }))
            waitFor("the first rows") { shownTexts(window).first == "Row 0" }
            settle()
            let list = window.list
            let bound = list.visibleItemPaths.count
            let shown = list.shownRows().count
            XCTAssertGreaterThan(shown, 5)
            XCTAssertLessThan(bound, 300, "bound rows: \(bound)")

            // Scroll with the mouse wheel, then jump to the middle.
            click(x: 200, y: 300, button: 5, repeat: 30, in: "million rows")
            waitFor("wheel scrolling") { shownTexts(window).first != "Row 0" }
            list.scroll(to: ItemPath(item: 500_000, section: 0))
            waitFor("row 500000 on screen") { shownTexts(window).contains("Row 500000") }
            click(x: 200, y: 300, button: 5, repeat: 20, in: "million rows")
            settle()
            let texts = shownTexts(window)
            // What GTK shows is consecutive rows: positions and CellKit's rows agree.
            let numbers = texts.compactMap { Int($0.dropFirst(4)) }
            XCTAssertEqual(numbers.count, texts.count, "\(texts)")
            XCTAssertEqual(numbers, Array((numbers.first ?? 0)..<((numbers.first ?? 0) + numbers.count)))
            XCTAssertGreaterThan(numbers.first ?? 0, 400_000)
            XCTAssertLessThanOrEqual(list.createdCellCount, 2 * 300, "cells built for a million rows")
            XCTAssertLessThanOrEqual(list.createdRowWidgetCount, 300, "GTK row widgets for a million rows")
            print("million rows: shown \(shown), bound \(bound), cells built \(list.createdCellCount), GTK row widgets \(list.createdRowWidgetCount)")
            screenshot("million-rows", of: "million rows")
        }
    }

    /// Arrow keys move GTK's selection (skipping header rows), Enter activates: the controller's select handler.
    func testKeyboardSelectionAndActivation() throws {
        try requireDisplay()
        MainActor.assumeIsolated {
            let window = makeWindow("keys")
            let controller = ListController()
            controller.register(TextCell.self, for: Row.self) { cell, row in cell.text = row.text }
            var opened: [Row] = []
            controller.onSelect(Row.self) { row, _ in opened.append(row) }
            controller.attach(to: window.list)
            var model = TableModel()
            model.appendSection(id: "a", header: "Section A")
            model.append((0..<3).map { Row($0) })
            model.appendSection(id: "b", header: "Section B")
            model.append((3..<40).map { Row($0) })
            controller.apply(model)
            waitFor("the rows") { shownTexts(window).prefix(2) == ["Section A", "Row 0"] }

            settle()
            click(x: 200, y: Int(window.list.shownRows()[1].y) + 10 + 50, in: "keys") // below the header bar
            waitFor("a click selects row 0") { window.list.selectedPath == ItemPath(item: 0, section: 0) }
            press("Down Down", in: "keys")
            waitFor("Down ×2 selects row 2") { window.list.selectedPath == ItemPath(item: 2, section: 0) }
            // The keyboard focus stops on the header of B (GTK 4.8 cannot make a row
            // unfocusable): no row is selected; the next Down selects row 3.
            press("Down", in: "keys")
            waitFor("the header takes the focus") { window.list.selectedPath == nil }
            press("Down", in: "keys")
            waitFor("Down ×4 selects row 3") { window.list.selectedPath == ItemPath(item: 0, section: 1) }
            XCTAssertEqual(window.list.shownSelectedRow()?.texts, ["Row 3"])
            press("Return", in: "keys")
            waitFor("Enter opens row 3") { opened == [Row(3)] }
            screenshot("keys", of: "keys")
        }
    }

    /// A batch reaches GTK as ranges: rows that stay keep their widgets (no full rebind).
    func testBatchesRebindOnlyChangedRows() throws {
        try requireDisplay()
        MainActor.assumeIsolated {
            let window = makeWindow("batches")
            let controller = ListController()
            var configured = 0
            controller.register(TextCell.self, for: Row.self) { cell, row in
                cell.text = row.text
                configured += 1
            }
            controller.attach(to: window.list)
            var rows = (0..<100).map { Row($0) }
            controller.apply(TableModel(sections: [TableSection(id: "s", header: "Rows", items: rows.map { ListItem($0) })]))
            waitFor("the rows") { shownTexts(window).prefix(2) == ["Rows", "Row 0"] }
            settle()
            let before = configured
            window.list.spliceLog.removeAll()
            let bound = window.list.visibleItemPaths.count

            rows.insert(Row(1000, "New on top"), at: 0)
            rows[3].text = "Row 2 (edited)"
            rows.remove(at: 5)
            controller.apply(TableModel(sections: [TableSection(id: "s", header: "Rows", items: rows.map { ListItem($0) })]))
            waitFor("the batch on screen") { shownTexts(window).prefix(5) == ["Rows", "New on top", "Row 0", "Row 1", "Row 2 (edited)"] }
            settle()
            // GTK 4.8 rebinds every row whose position changed; their cells come back as they were,
            // and only the edited row is configured again.
            let reconfigured = configured - before
            XCTAssertLessThanOrEqual(reconfigured, 3, "a batch of 3 changes configured \(reconfigured) of \(bound) bound rows")
            XCTAssertFalse(shownTexts(window).contains("Row 4"))
            // Two items-changed of one row each: Row 4 (flat 5) removed, the new row
            // inserted at flat 1; Row 2, edited, was configured again in place.
            XCTAssertEqual(window.list.spliceLog, [
                FlatLayout.Splice(position: 5, removed: 1, added: 0),
                FlatLayout.Splice(position: 1, removed: 0, added: 1),
            ])
            XCTAssertEqual(window.list.rows.count, 101)

            // A second section with a header appears as a header row.
            controller.apply(TableModel(sections: [
                TableSection(id: "t", header: "Pinned", items: [ListItem(Row(2000, "Pinned row"))]),
                TableSection(id: "s", header: "Rows", items: rows.map { ListItem($0) }),
            ]))
            // GTK keeps the row at the top in place (the new rows arrive above it): scroll up to see them.
            waitFor("the new section") { window.list.rows.count == 1 + 1 + 1 + 100 }
            settle()
            gtk_adjustment_set_value(ck_list_view_vadjustment(OpaquePointer(window.list.listViewWidget)), 0)
            waitFor("the new section on top") { shownTexts(window).prefix(4) == ["Pinned", "Pinned row", "Rows", "New on top"] }
            screenshot("batches", of: "batches")
        }
    }

    /// Loading, empty and error states show as placeholder rows; activating the error row retries.
    func testLoadingEmptyAndErrorStates() throws {
        try requireDisplay()
        MainActor.assumeIsolated {
            let window = makeWindow("states")
            let controller = ListController()
            var retried = 0
            controller.onRetry = { retried += 1 }
            controller.attach(to: window.list)
            waitFor("the loading row") { shownTexts(window) == ["Loading…"] }
            screenshot("states-loading", of: "states")
            controller.apply(TableModel(), state: .empty)
            waitFor("the no-results row") { shownTexts(window) == ["No results"] }
            struct Offline: LocalizedError { var errorDescription: String? { "the network is offline" } }
            controller.apply(TableModel(), state: .failed(Offline()))
            waitFor("the error row") { shownTexts(window).first?.contains("the network is offline") == true }
            screenshot("states-error", of: "states")
            click(x: 200, y: Int(window.list.shownRows()[0].y) + 10 + 50, in: "states")
            press("Return", in: "states")
            waitFor("a retry") { retried == 1 }
        }
    }
}
