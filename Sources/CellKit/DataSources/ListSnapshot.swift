/// What a data source is doing besides holding its content.
///
/// Refreshing and loading more keep the current content visible; a list view
/// adapter shows a refresh control or a spinner row from it.
public enum ListActivity: Hashable, Sendable, CustomStringConvertible {
    /// Nothing is running (or the first load runs: see ``ContentState/loading``).
    case idle
    /// A pull to refresh runs; the content stays.
    case refreshing
    /// The next page is loading; the content stays.
    case loadingMore

    public var description: String {
        switch self {
        case .idle: "idle"
        case .refreshing: "refreshing"
        case .loadingMore: "loading more"
        }
    }
}

/// One published state of a data source: its content, its state and its activity.
///
/// ```swift
/// struct Song: Identifiable, Equatable, Sendable { let id: Int; var title: String }
/// let snapshot = ListSnapshot(TableModel([Song(id: 1, title: "Blue")]), state: .loaded)
/// assert(snapshot.model.itemCount == 1 && snapshot.activity == .idle)
/// ```
public struct ListSnapshot: Sendable, CustomStringConvertible {
    /// The content (without placeholder rows).
    public var model: TableModel
    /// Where the content stands; the controller shows placeholder rows from it.
    public var state: ContentState
    /// What runs while the content stays visible.
    public var activity: ListActivity
    /// Whether more pages exist after the content (paginated sources); `false` otherwise.
    public var hasMore: Bool
    /// Why the last next-page load failed, until the next page is asked for again.
    ///
    /// While it is set, the controller ends the list with the
    /// ``LoadMorePlaceholder`` row in its failed form ("couldn't load more"):
    /// selecting that row, or the row coming on screen again, calls the data
    /// source's ``ListDataSource/loadNextPage()``.
    public var nextPageError: (any Error)?
    /// Names the failure of a `.failed` state that a source publishes again (a paged list
    /// that an edit emptied after its next page failed): the controller reports one failure
    /// once (see ``ListController/onError``). `nil`: a failure of its own, always reported.
    var failureID: Int?
    /// The next page whose failure a `.failed` state reports, for the diagnostic (a paged list).
    var failedPage: Int?

    /// Creates a snapshot.
    public init(
        _ model: TableModel = TableModel(), state: ContentState = .loading, activity: ListActivity = .idle,
        hasMore: Bool = false, nextPageError: (any Error)? = nil
    ) {
        self.model = model
        self.state = state
        self.activity = activity
        self.hasMore = hasMore
        self.nextPageError = nextPageError
    }

    public var description: String {
        "ListSnapshot(\(model.itemCount) rows, \(state), \(activity)\(hasMore ? ", more" : "")\(nextPageError.map { ", next page failed: \($0)" } ?? ""))"
    }
}

extension ContentState {
    /// `.loaded`, or `.empty` when `model` has no rows.
    static func settled(_ model: TableModel) -> ContentState { model.isEmpty ? .empty : .loaded }
}

/// Numbers for the failures a source may publish more than once (``ListSnapshot/failureID``),
/// unique across sources.
@MainActor
enum FailureIDs {
    private static var last = 0
    /// A number no failure had.
    static func next() -> Int {
        last &+= 1
        return last
    }
}

extension ListSnapshot {
    /// The state to publish with a new activity: a failure that kept content was
    /// already reported, so it turns back into `.loaded`.
    var quietState: ContentState {
        if case .failed = state, !model.isEmpty { return .loaded }
        return state
    }
}
