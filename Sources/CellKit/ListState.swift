/// The state and activity of what a ``ListController`` shows, as one observable
/// object: what a SwiftUI screen (or any UI) reads to show a spinner in a toolbar,
/// disable a button while loading, or say why the list is empty.
///
/// The controller owns one (``ListController/listState``) and updates it after
/// every apply, with the snapshot the bound data source published last (or the
/// state given to ``ListController/apply(_:state:)``). Observers registered with
/// ``observe(_:)`` are told *before* a value changes (as `objectWillChange` is),
/// and only when one does.
///
/// It stays platform-neutral: CellKit imports no Combine or Observation. The
/// SwiftUI module makes it observable from SwiftUI on iOS 15 and 16
/// (`ObservableObject`) by forwarding ``observe(_:)``; Observation's `@Observable`
/// needs iOS 17, which CellKit does not require.
///
/// ```swift
/// struct Song: Identifiable, Equatable, Sendable { let id: Int; var title: String }
///
/// @MainActor func watch(_ controller: ListController) -> ListState.Observation {
///     controller.listState.observe {
///         print("about to change; now", controller.listState.state)
///     }
/// }
///
/// @MainActor func load(_ controller: ListController) {
///     let token = watch(controller)
///     controller.apply(TableModel([Song(id: 1, title: "Blue")]))
///     assert(controller.listState.itemCount == 1 && !controller.listState.isRefreshing)
///     token.cancel()
/// }
/// ```
@MainActor
public final class ListState {
    /// Where the content stands (loading, loaded, empty, failed).
    public private(set) var state: ContentState = .loading
    /// What the data source does while the content stays (refreshing, loading more).
    public private(set) var activity: ListActivity = .idle
    /// Whether more pages exist after the content.
    public private(set) var hasMore = false
    /// The number of content rows (placeholder rows not counted).
    public private(set) var itemCount = 0
    /// The last announcement made (see ``ListAnnouncement``), if any.
    public private(set) var lastAnnouncement: ListAnnouncement?

    /// Whether a pull to refresh runs.
    public var isRefreshing: Bool { activity == .refreshing }
    /// Whether the next page is loading.
    public var isLoadingMore: Bool { activity == .loadingMore }
    /// Whether a first load (or a load from scratch) runs with no content showing.
    public var isLoading: Bool { state.isLoading }
    /// Whether there is no content.
    public var isEmpty: Bool { itemCount == 0 }
    /// The error of a failed load, if the last load failed.
    public var error: (any Error)? { state.error }

    /// The observations made, held weakly: each holds its own closure, so an observation
    /// cancelled or released lets go of what its closure captured at once.
    private var observers: [WeakObservation] = []
    private struct WeakObservation { weak var token: Observation? }

    /// Creates a state that shows the first load running.
    public init() {}

    /// Calls `willChange` before any of the values changes, until the returned
    /// observation is cancelled or released.
    ///
    /// The observation holds `willChange`, the state only the observation (weakly): once
    /// it is cancelled or released, the closure and what it captured are let go at once, so
    /// the closure may capture the controller (as `watch(_:)` in the ``ListState`` example
    /// does) while the app keeps the observation no longer than the controller.
    public func observe(_ willChange: @escaping @MainActor () -> Void) -> Observation {
        observers.removeAll { $0.token?.willChange == nil }
        let token = Observation(willChange)
        observers.append(WeakObservation(token: token))
        return token
    }

    /// A registration made with ``observe(_:)``; it ends when cancelled or released.
    @MainActor
    public final class Observation {
        fileprivate private(set) var willChange: (@MainActor () -> Void)?
        fileprivate init(_ willChange: @escaping @MainActor () -> Void) { self.willChange = willChange }
        /// Stops the observation and lets go of its closure.
        public func cancel() { willChange = nil }
    }

    /// Takes new values, telling observers first when any differs.
    func update(state: ContentState, activity: ListActivity, hasMore: Bool, itemCount: Int, announcement: ListAnnouncement?) {
        let changed = !Self.same(state, self.state) || activity != self.activity || hasMore != self.hasMore
            || itemCount != self.itemCount || (announcement != nil && announcement != lastAnnouncement)
        guard changed else { return }
        observers.removeAll { $0.token?.willChange == nil }
        // An observer cancelled by one called before it is not called.
        for observer in observers { observer.token?.willChange?() }
        self.state = state
        self.activity = activity
        self.hasMore = hasMore
        self.itemCount = itemCount
        if let announcement { lastAnnouncement = announcement }
    }

    /// Whether two states would read the same to a user (errors compared by their text).
    private static func same(_ a: ContentState, _ b: ContentState) -> Bool {
        switch (a, b) {
        case (.loading, .loading), (.loaded, .loaded), (.empty, .empty): true
        case (.failed(let x), .failed(let y)): "\(x)" == "\(y)" && type(of: x) == type(of: y)
        default: false
        }
    }
}
