import CellKit
import CellKitTerminal
import Testing

/// An app's own loading cell: a subclass of the open `LoadingCell`.
private final class BrandedLoadingCell: LoadingCell {
    var brand = ""
}

/// An app's own error cell: a subclass of the open `ErrorCell`.
private final class BrandedErrorCell: ErrorCell {}

@Suite("Placeholder cells are open: a replacement that subclasses one keeps its look")
@MainActor
struct PlaceholderSubclassTests {
    /// Outside report d3: a replacement loading cell could not be a `LoadingCell`
    /// (`public`, not `open`), so the terminal drew no spinner for it.
    @Test func loadingCellSubclassShowsTheSpinnerAndAnimates() {
        let list = TerminalListView(columns: 30, rows: 2)
        let controller = ListController(diagnostics: .ignore)
        controller.register(BrandedLoadingCell.self, for: LoadingPlaceholder.self) { cell, _ in
            cell.brand = "coffee"
            cell.text = "Fetching followers"
            cell.isAnimating = true
        }
        controller.attach(to: list)
        let first = list.renderFrame()[0].plainText
        #expect(first.contains("⠋ Fetching followers"))
        #expect(list.isAnimating)
        #expect(list.advanceAnimation())
        let second = list.renderFrame()[0].plainText
        #expect(second.contains("⠙ Fetching followers"))
    }

    @Test func errorCellSubclassKeepsTheErrorLook() {
        struct Offline: Error {}
        let list = TerminalListView(columns: 40, rows: 3)
        let controller = ListController(diagnostics: .ignore)
        controller.register(BrandedErrorCell.self, for: ErrorPlaceholder.self) { cell, row in
            cell.text = "Offline"
            cell.canRetry = row.canRetry
            cell.detailText = "Select to retry"
        }
        controller.onRetry = {}
        controller.attach(to: list)
        controller.apply(TableModel(), state: .failed(Offline()))
        let frame = list.renderFrame().map(\.plainText)
        #expect(frame[0].contains("✖ Offline"))
        #expect(frame[1].contains("(Enter)"))
    }
}
