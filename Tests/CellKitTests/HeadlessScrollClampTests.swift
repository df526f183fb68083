import CellKit
import CellKitTesting
import Testing

private struct Short: Identifiable, Equatable, Sendable { let id: Int }

/// A scroll past the end over rows shorter than their estimate stays within the content (an
/// outside user's report 11b, d3: the offset was clamped against the estimates, then the rows
/// it showed were measured shorter, and the viewport ended below the last row).
@MainActor
@Suite("Headless list view: the offset stays within the content once rows are measured")
struct HeadlessScrollClampTests {
    /// Twelve rows 30 tall (360 in all) by the controller's heights, estimated at 44; a viewport of 220.
    func shortRows() -> (ListController, HeadlessListView) {
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Short.self) { cell, row in cell.text = "r\(row.id)" }
        controller.height(for: Short.self) { _ in 30 }
        let list = HeadlessListView(viewportHeight: 220, rowHeight: 44)
        controller.attach(to: list)
        controller.apply(TableModel((0..<12).map { Short(id: $0) }))
        return (controller, list)
    }

    @Test("scroll(to:) past the end ends the viewport at the last row", arguments: [1_000_000, 300, 200] as [Double])
    func scrollToPastTheEnd(offset: Double) throws {
        let (controller, list) = shortRows()
        defer { withExtendedLifetime(controller) {} }
        list.scroll(to: offset)
        #expect(list.contentHeight == 360)
        #expect(list.contentOffset == 140)                             // was 196 (clamped by the estimates)
        #expect(list.visibleTexts.last == "r11")
        try list.checkConsistency()
    }

    @Test func scrollByPastTheEndEndsTheViewportAtTheLastRow() throws {
        let (controller, list) = shortRows()
        defer { withExtendedLifetime(controller) {} }
        list.scroll(by: 1_000_000)
        #expect(list.contentOffset == list.contentHeight - list.viewportHeight)
        #expect(list.visibleTexts == (4..<12).map { "r\($0)" })     // row 4 shows its last 10 points
        try list.checkConsistency()
    }

    @Test func aShorterViewportAtTheEndStaysWithinTheContent() throws {
        let (controller, list) = shortRows()
        defer { withExtendedLifetime(controller) {} }
        list.scroll(to: 1_000_000)
        list.viewportHeight = 300
        #expect(list.contentOffset <= list.contentHeight - list.viewportHeight)
        try list.checkConsistency()
    }
}
