import CellKit

/// Wraps a data source that loads pages of flat rows (``PaginatedDataSource``)
/// and publishes them shaped for a screen: grouped into sections, with extra
/// rows, and filtered, as `shape` decides.
///
/// Loads, refreshes and the next page stay with the wrapped source; changing
/// the filter only shapes again what is loaded.
@MainActor
final class ShapedDataSource: ListDataSource {
    private(set) var snapshot = ListSnapshot()
    var onSnapshot: (@MainActor (ListSnapshot) -> Void)?
    /// Told about every snapshot published, after the observer (status messages, first-load waiters).
    var onPublish: ((ListSnapshot) -> Void)?

    /// Told about every snapshot of the wrapped source before it is shaped and published
    /// (what the rows say that depends on every loaded row, such as a no-results message).
    var willPublish: ((ListSnapshot) -> Void)?

    /// How many times loaded rows were shaped with a filter (one per filter change, plus one per page while filtering).
    private(set) var filterPasses = 0

    private var inner: any ListDataSource
    private let shape: (TableModel, String, Bool) -> TableModel
    private var nextPage: () -> Task<Void, Never>?
    /// The filter text; "" shows everything.
    var filter = "" {
        didSet {
            endAskedWithRows = nil
            publish(inner.snapshot)
        }
    }

    /// Wraps `pages`; `shape(model, filter, hasMore)` makes the published model from the loaded one.
    convenience init<Item>(_ pages: PaginatedDataSource<Item>, shape: @escaping (TableModel, String, Bool) -> TableModel) {
        self.init(pages, nextPage: { [weak pages] in pages?.loadNextPage() }, shape: shape)
    }

    /// Wraps `inner`; `nextPage` loads the next page; `shape(model, filter, hasMore)` makes the published model.
    init(_ inner: any ListDataSource, nextPage: @escaping () -> Task<Void, Never>?, shape: @escaping (TableModel, String, Bool) -> TableModel) {
        self.inner = inner
        self.nextPage = nextPage
        self.shape = shape
        inner.onSnapshot = { [weak self] snapshot in self?.publish(snapshot) }
        snapshot = ListSnapshot(TableModel(), state: inner.snapshot.state)
    }

    /// Wraps `pages` instead of the source wrapped so far, which is cancelled and let go
    /// (a history read again from the top); publishes nothing until `pages` does.
    func replace<Item>(_ pages: PaginatedDataSource<Item>) {
        inner.onSnapshot = nil
        inner.cancel()
        inner = pages
        nextPage = { [weak pages] in pages?.loadNextPage() }
        pages.onSnapshot = { [weak self] snapshot in self?.publish(snapshot) }
    }

    @discardableResult func load() -> Task<Void, Never> { inner.load() }
    @discardableResult func refresh() -> Task<Void, Never> { inner.refresh() }
    func cancel() { inner.cancel() }
    /// The wrapped source's snapshot: every loaded row, unfiltered.
    var innerSnapshot: ListSnapshot { inner.snapshot }
    /// Loads the next page, if there is one and none is loading; nil when nothing started.
    @discardableResult func loadNextPage() -> Task<Void, Never>? { nextPage() }

    /// The last shaped rows are showing: the wrapped source's last row counts as shown (next page),
    /// with a filter too (the filtered list loads on as it is scrolled, as the whole list does).
    func willDisplayItem(at path: ItemPath, in model: TableModel) {
        guard Self.isNearEnd(path, of: model) else { return }
        askForNextPage()
    }

    /// The wrapped source waits to hear the end of the list on screen (after a refresh, a page, an
    /// edit): ``visibleEndIsOnScreen(at:in:)`` passes the last row on to it. With a filter, only
    /// until a page the end asked for brought no row to show: a filter few rows match does not read
    /// every page by itself (End or, on the history, "search the rest" does); it asks again once
    /// the filter changes or the end comes on screen again.
    var awaitsVisibleEnd: Bool {
        inner.awaitsVisibleEnd && (filter.isEmpty || endAskedWithRows != snapshot.model.itemCount)
    }

    func visibleEndIsOnScreen(at path: ItemPath, in model: TableModel) {
        guard awaitsVisibleEnd, Self.isNearEnd(path, of: model) else { return }
        askForNextPage(onScreen: true)
    }

    /// With a filter, how many rows were shaped when the end on screen last asked for a page.
    private var endAskedWithRows: Int?

    /// Whether `path` is one of the last three rows of `model`.
    private static func isNearEnd(_ path: ItemPath, of model: TableModel) -> Bool {
        path.section == model.sections.count - 1 && path.item >= model.sections[path.section].items.count - 3
    }

    /// Tells the wrapped source its last row shows (`onScreen`: it was on screen already).
    private func askForNextPage(onScreen: Bool = false) {
        let loaded = inner.snapshot.model
        guard let last = loaded.sections.indices.last, !loaded.sections[last].items.isEmpty else { return }
        if !filter.isEmpty, inner.awaitsVisibleEnd { endAskedWithRows = snapshot.model.itemCount }
        let path = ItemPath(item: loaded.sections[last].items.count - 1, section: last)
        if onScreen {
            inner.visibleEndIsOnScreen(at: path, in: loaded)
        } else {
            inner.willDisplayItem(at: path, in: loaded)
        }
    }

    private func publish(_ source: ListSnapshot) {
        willPublish?(source)
        if !filter.isEmpty { filterPasses += 1 }
        let model = shape(source.model, filter, source.hasMore)
        var state = source.state
        switch state {
        case .loaded, .empty: state = model.isEmpty ? .empty : .loaded
        default: break
        }
        snapshot = ListSnapshot(model, state: state, activity: source.activity, hasMore: source.hasMore, nextPageError: source.nextPageError)
        onSnapshot?(snapshot)
        onPublish?(snapshot)
    }
}
