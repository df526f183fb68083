import CellKit
import CellKitTesting
import Testing

/// The error row offers a retry only when something can retry. Before the fix it read
/// "Select to retry" and took the tap with nothing bound and no `onRetry` (an app that
/// applies its own states), and after `apply` let the bound source go.
@MainActor
@Suite("Error row: a retry only when one can run")
struct RetryOfferTests {
    private struct Offline: Error {}

    private func errorCell(_ listView: HeadlessListView) -> ErrorCell? { listView.visibleCells.first as? ErrorCell }
    private let row = ItemPath(item: 0, section: 0)

    @Test func withNothingBoundAndNoOnRetryTheErrorRowOffersNoRetry() throws {
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView()
        controller.attach(to: listView)
        controller.apply(TableModel(), state: .failed(Offline()))
        let cell = try #require(errorCell(listView))
        #expect(!cell.canRetry && cell.detailText == nil)
        #expect(!controller.listView(listView, canSelectItemAt: row))

        // Setting onRetry while the row shows offers the retry at once.
        var retries = 0
        controller.onRetry = { retries += 1 }
        let offered = try #require(errorCell(listView))
        #expect(offered.canRetry && offered.detailText == controller.placeholders.retryHint)
        #expect(controller.listView(listView, canSelectItemAt: row))
        listView.selectItem(at: row)
        #expect(retries == 1)
    }

    @Test func afterApplyLetsTheBoundSourceGoItsRetryGoesToo() async throws {
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView()
        controller.attach(to: listView)
        let source = RemoteDataSource<Post> { throw FetchFailed() }
        controller.bind(to: source)
        await source.load().value
        await controller.settle()
        #expect(try #require(errorCell(listView)).canRetry, "bound: the retry loads the source again")
        #expect(controller.onRetry != nil)

        controller.apply(TableModel(), state: .failed(Offline()))
        #expect(controller.onRetry == nil)
        let cell = try #require(errorCell(listView))
        #expect(!cell.canRetry && cell.detailText == nil)
        #expect(!controller.listView(listView, canSelectItemAt: row))

        // An onRetry of the app's own stays when the source goes.
        var retries = 0
        controller.onRetry = { retries += 1 }
        controller.bind(to: source)
        controller.apply(TableModel(), state: .failed(Offline()))
        listView.selectItem(at: row)
        #expect(retries == 1)
    }

    @Test func changingThePlaceholdersWhileARowShowsUpdatesIt() throws {
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView()
        controller.attach(to: listView)
        controller.apply(TableModel(), state: .loading)
        #expect(listView.visibleTexts == [controller.placeholders.loading.message])
        controller.placeholders.loading.message = "Brewing…"
        #expect(listView.visibleTexts == ["Brewing…"])
        controller.placeholders = ListController.Placeholders(localization: "de")
        #expect(listView.visibleTexts == ["Wird geladen …"])
        try listView.checkConsistency()
    }
}

@Suite("Placeholders: the load-more row's retry hint in the placeholders' language")
struct LoadMoreRetryHintTests {
    // Before the fix, `loadMore.retryHint` stayed English in German placeholders.
    @Test func theLoadMoreRetryHintFollowsTheRetryHint() {
        var german = ListController.Placeholders(localization: "de")
        #expect(german.loadMore.retryHint == german.retryHint)
        #expect(german.loadMore.retryHint == "Zum erneuten Laden auswählen")
        german.retryHint = "Tippen"
        #expect(german.loadMore.retryHint == "Tippen")
    }
}
