import CellKit
import CellKitTesting
import Testing

private struct Tweet: Identifiable, Equatable, Sendable, CustomStringConvertible {
    let id: Int
    var text: String
    var description: String { "tweet \(id): \(text)" }
}

private struct Product: Identifiable, Equatable, Sendable { let id: Int; var title: String }

private final class TweetCell: ListCell, UpdatableCell {
    var text = ""
    init() {}
    func update(with tweet: Tweet) -> Bool { text = tweet.text; return true }
}

private final class MyLoadingCell: LoadingCell {}
private final class MyNoResultsCell: NoResultsCell {}
private final class MyErrorCell: ErrorCell {}
private final class MyLoadMoreCell: LoadMoreCell {}
private struct Offline: Error {}

/// A registration with no configure closure: placeholder cells keep the built-in look
/// (outside report 13a, D3), and a cell nothing sets up is not left blank silently (gaps 1, 9).
@MainActor
@Suite("Registry: cells registered without a configure closure")
struct UnconfiguredCellTests {
    /// The Coffee article's `controller.register(MyLoadingCell.self, for: LoadingPlaceholder.self)`
    /// showed blank rows: no message, no spinner, no retry, an empty accessibility label.
    @Test func placeholderSubclassesRegisteredWithoutConfigureKeepTheBuiltInLook() async throws {
        let controller = ListController(diagnostics: .ignore)
        controller.register(MyLoadingCell.self, for: LoadingPlaceholder.self)
        controller.register(MyNoResultsCell.self, for: NoResultsPlaceholder.self)
        controller.register(MyErrorCell.self, for: ErrorPlaceholder.self)
        controller.register(MyLoadMoreCell.self, for: LoadMorePlaceholder.self)
        controller.placeholders.loading.message = "Brewing…"
        controller.onRetry = {}
        let listView = HeadlessListView()
        controller.attach(to: listView)

        #expect(listView.visibleTexts == ["Brewing…"])
        let loading = try #require(listView.visibleCells.first as? MyLoadingCell)
        #expect(loading.isAnimating)
        #expect(loading.accessibilityLabel == "Brewing…")

        controller.apply(TableModel(), state: .failed(Offline()))
        let error = try #require(listView.visibleCells.first as? MyErrorCell)
        #expect(error.text == controller.placeholders.unknownErrorMessage)
        #expect(error.canRetry && error.error is Offline)
        #expect(error.detailText == controller.placeholders.retryHint)
        #expect(error.accessibilityLabel.isEmpty == false)

        controller.apply(TableModel(), state: .empty)
        #expect((listView.visibleCells.first as? MyNoResultsCell)?.text == controller.placeholders.noResults.message)

        controller.submit(ListSnapshot(TableModel([Product(id: 1, title: "chair")]), state: .loaded, activity: .loadingMore, hasMore: true))
        await controller.settle()
        let more = try #require(listView.visibleCells.last as? MyLoadMoreCell)
        #expect(more.isAnimating && more.text == controller.placeholders.loadMore.message)
        controller.submit(ListSnapshot(TableModel([Product(id: 1, title: "chair")]), state: .loaded, hasMore: true, nextPageError: Offline()))
        await controller.settle()
        let failed = try #require(listView.visibleCells.last as? MyLoadMoreCell)
        #expect(!failed.isAnimating && failed.error is Offline && failed.detailText == controller.placeholders.retryHint)
    }

    @Test func aPlainTextCellForAPlaceholderShowsItsText() {
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: LoadingPlaceholder.self)
        let listView = HeadlessListView()
        controller.attach(to: listView)
        #expect(listView.visibleTexts == [controller.placeholders.loading.message])
    }

    /// A configure closure replaces the built-in one: it sets up the cell itself, as documented.
    @Test func aPlaceholderRegistrationWithAConfigureReplacesTheBuiltInOne() throws {
        let controller = ListController(diagnostics: .ignore)
        controller.register(MyLoadingCell.self, for: LoadingPlaceholder.self) { cell, _ in cell.text = "Custom" }
        let listView = HeadlessListView()
        controller.attach(to: listView)
        let cell = try #require(listView.visibleCells.first as? MyLoadingCell)
        #expect(cell.text == "Custom")
        #expect(!cell.isAnimating, "the closure did not start the spinner")
    }

    /// README's "never blank": a `TextCell` registered with no configure closure, which nothing
    /// else sets up, showed "" (gap 9); it shows the description, reported once.
    @Test func aTextCellThatNothingSetsUpShowsTheDescriptionAndIsReportedOnce() throws {
        let diagnostics = CollectedDiagnostics()
        let controller = ListController(diagnostics: diagnostics.handler)
        controller.register(TextCell.self, for: Tweet.self)
        let listView = HeadlessListView(viewportHeight: 88, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel((0..<20).map { Tweet(id: $0, text: "t\($0)") }))
        #expect(listView.visibleTexts == ["tweet 0: t0", "tweet 1: t1"])
        for row in 0..<20 { listView.scroll(to: Double(row) * 44) }
        let reported = diagnostics.all.filter { $0.kind == .missingRegistration }
        #expect(reported.count == 1, "\(reported)")
        #expect(reported.first?.message.contains("TextCell") == true && reported.first?.message.contains("Tweet") == true)
    }

    @Test func aDispatchHandlerOrAnUpdatableCellCountsAsSettingTheCellUp() {
        let diagnostics = CollectedDiagnostics()
        let controller = ListController(diagnostics: diagnostics.handler)
        controller.register(TextCell.self, for: Tweet.self)
        controller.dispatch.configure(Tweet.self) { (cell: TextCell, tweet) in cell.text = tweet.text }
        controller.registry.register(CellSource.type(TweetCell.self), for: Product.self) { (cell: TweetCell, product: Product) in
            cell.text = product.title
        }
        let listView = HeadlessListView()
        controller.attach(to: listView)
        controller.apply(TableModel(sections: [
            TableSection(id: 0, items: [ListItem(Tweet(id: 1, text: "hello"))]),
            TableSection(id: 1, items: [ListItem(Product(id: 2, title: "chair"))]),
        ]))
        #expect((listView.cell(at: ItemPath(item: 0, section: 0)) as? TextCell)?.text == "hello")
        #expect((listView.cell(at: ItemPath(item: 0, section: 1)) as? TweetCell)?.text == "chair")
        #expect(diagnostics.all.isEmpty, "\(diagnostics.all)")
    }

    /// An `UpdatableCell` registered for a model its `Model` cannot take showed a blank row and
    /// nothing was reported (gap 1; Nimbus's "if more than one type of object maps to this cell").
    @Test func anUpdatableCellGivenAModelItCannotTakeIsReportedOnceNamingBothTypes() {
        let diagnostics = CollectedDiagnostics()
        let controller = ListController(diagnostics: diagnostics.handler)
        controller.registry.register(CellSource.type(TweetCell.self), for: Product.self)
        let listView = HeadlessListView()
        controller.attach(to: listView)
        controller.apply(TableModel([Product(id: 1, title: "chair"), Product(id: 2, title: "desk")]))
        let reported = diagnostics.all.filter { $0.kind == .cellTypeMismatch }
        #expect(reported.count == 1, "\(diagnostics.all)")
        let message = reported.first?.message ?? ""
        #expect(message.contains("TweetCell") && message.contains("Tweet ") && message.contains("Product"), "\(message)")
    }

    /// The registry used from a data source of your own (Nimbus level 2) follows the same rule.
    @Test func theRegistryAsATableModelDelegateFollowsTheSameRule() {
        let diagnostics = CollectedDiagnostics()
        let registry = CellRegistry(diagnostics: diagnostics.handler)
        registry.register(TextCell.self, for: Tweet.self)
        let dataSource = TableModelDataSource(TableModel([Tweet(id: 1, text: "hi")]))
        dataSource.delegate = registry
        let listView = HeadlessListView()
        listView.dataSource = dataSource
        listView.reloadData()
        #expect(listView.visibleTexts == ["tweet 1: hi"])
        #expect(diagnostics.all.map(\.kind) == [.missingRegistration])
    }
}
