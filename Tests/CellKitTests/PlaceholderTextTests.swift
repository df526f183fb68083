import CellKit
import CellKitTesting
import Foundation
import Testing

// Issue 13: the placeholder texts come from CellKit's strings table (English the
// base), an app overrides each one on `ListController.placeholders`, the error row
// shows a user-facing description, and placeholder rows carry accessibility labels.

private struct Unreachable: LocalizedError {
    var errorDescription: String? { "The coffee server is unreachable." }
}

private struct DeveloperOnly: Error, CustomStringConvertible {
    var description: String { "socket 3: ECONNRESET at FeedClient.swift:88" }
}

@MainActor
@Suite("Placeholder texts: localized, overridable, user-facing")
struct PlaceholderTextTests {
    @Test func theDefaultsComeFromTheEnglishTable() {
        let placeholders = ListController.Placeholders()
        #expect(placeholders.loading.message == "Loading…")
        #expect(placeholders.noResults.message == "No results")
        #expect(placeholders.retryHint == "Select to retry")
        #expect(placeholders.retryTitle == "Retry")
        #expect(placeholders.unknownErrorMessage == "Couldn't load the content.")
        #expect(placeholders.cancelledMessage == "Loading was cancelled.")
        #expect(placeholders.loadedAnnouncement == "Content loaded")
        #expect(LoadingPlaceholder().message == "Loading…" && NoResultsPlaceholder().message == "No results")
    }

    @Test func anotherLanguageReadsItsOwnTableAndFallsBackToEnglish() {
        #expect(ListController.Placeholders.availableLocalizations.contains("de"))
        #expect(ListController.Placeholders.availableLocalizations.contains("en"))
        let german = ListController.Placeholders(localization: "de")
        #expect(german.loading.message == "Wird geladen …")
        #expect(german.noResults.message == "Keine Ergebnisse")
        #expect(german.retryHint == "Zum erneuten Laden auswählen")
        let unknown = ListController.Placeholders(localization: "xx")
        #expect(unknown.loading.message == "Loading…", "a language CellKit has no table for falls back to English")
    }

    @Test func theErrorRowShowsAUserFacingDescriptionNeverTheDebugText() {
        let placeholders = ListController.Placeholders()
        #expect(placeholders.message(for: Unreachable()) == "The coffee server is unreachable.")
        #expect(placeholders.message(for: DeveloperOnly()) == "Couldn't load the content.")
        #expect(placeholders.message(for: CancellationError()) == "Loading was cancelled.")
        let urlError = placeholders.message(for: URLError(.notConnectedToInternet))
        #expect(!urlError.isEmpty && urlError != "Couldn't load the content.", "Foundation's errors carry their own description: \(urlError)")

        let listView = HeadlessListView()
        let controller = ListController(diagnostics: .ignore)
        controller.attach(to: listView)
        controller.apply(TableModel(), state: .failed(DeveloperOnly()))
        #expect(listView.visibleTexts == ["Couldn't load the content."])
        let row = controller.displayed.model(at: ItemPath(item: 0, section: 0)) as? ErrorPlaceholder
        #expect(row?.error is DeveloperOnly, "the error itself stays available to the app")
    }

    @Test func theLoadMoreRowIsLocalizedAndShowsAUserFacingError() {
        let placeholders = ListController.Placeholders()
        #expect(placeholders.loadMore.message == "Loading more…")
        let failed = placeholders.loadMore.failed(with: Unreachable())
        #expect(failed.text == "Couldn't load more: The coffee server is unreachable.")
        #expect(failed.retryHint == "Select to retry")
        #expect(placeholders.loadMore.failed(with: DeveloperOnly()).text == "Couldn't load more", "no debug text in the row")
        #expect(ListController.Placeholders(localization: "de").loadMore.message == "Weitere werden geladen …")
    }

    @Test func anAppOverridesEachText() {
        let listView = HeadlessListView()
        let controller = ListController(diagnostics: .ignore)
        controller.placeholders.loading.message = "Brewing…"
        controller.placeholders.noResults.message = "No coffee yet"
        controller.placeholders.retryHint = "Tap to try again"
        controller.placeholders.unknownErrorMessage = "The coffee machine is offline."
        controller.placeholders.cancelledMessage = "Stopped."
        controller.onRetry = {}                          // the error row offers a retry only with one to call
        controller.attach(to: listView)
        controller.apply(TableModel(), state: .loading)
        #expect(listView.visibleTexts == ["Brewing…"])
        controller.apply(TableModel(), state: .empty)
        #expect(listView.visibleTexts == ["No coffee yet"])
        controller.apply(TableModel(), state: .failed(DeveloperOnly()))
        let cell = listView.visibleCells.first as? ErrorCell
        #expect(cell?.text == "The coffee machine is offline." && cell?.detailText == "Tap to try again")
        controller.apply(TableModel(), state: .failed(CancellationError()))
        #expect(listView.visibleTexts == ["Stopped."])

        controller.placeholders.showsRows = false
        controller.placeholders.retryTitle = "Again"
        controller.apply(TableModel(), state: .failed(DeveloperOnly()))
        #expect(controller.backgroundPlaceholder == .error(message: "The coffee machine is offline.", retryTitle: "Again"))
    }

    @Test func placeholderRowsAndBackgroundsCarryAccessibilityLabels() {
        let listView = HeadlessListView()
        let controller = ListController(diagnostics: .ignore)
        controller.onRetry = {}
        controller.attach(to: listView)
        #expect(listView.visibleAccessibilityLabels == ["Loading…"])
        controller.apply(TableModel(), state: .failed(Unreachable()))
        #expect(listView.visibleAccessibilityLabels == ["The coffee server is unreachable., Select to retry"])
        controller.apply(TableModel(), state: .empty)
        #expect(listView.visibleAccessibilityLabels == ["No results"])

        controller.placeholders.showsRows = false
        controller.apply(TableModel(), state: .loading)
        #expect(controller.backgroundPlaceholder?.accessibilityLabel == "Loading…")
        controller.apply(TableModel(), state: .failed(Unreachable()))
        #expect(controller.backgroundPlaceholder?.accessibilityLabel == "The coffee server is unreachable.")
    }

    @Test func textCellsCarryTheirTextAsAccessibilityLabelUntilReused() {
        let cell = TextCell()
        cell.text = "Ada"
        #expect(cell.accessibilityLabel == "Ada")
        cell.detailText = "First programmer"
        #expect(cell.accessibilityLabel == "Ada, First programmer")
        cell.accessibilityLabel = "Ada Lovelace, mathematician"
        #expect(cell.accessibilityLabel == "Ada Lovelace, mathematician")
        cell.prepareForReuse()
        cell.text = "Grace"
        #expect(cell.accessibilityLabel == "Grace", "a custom label does not outlive the row it was set for")
    }
}
