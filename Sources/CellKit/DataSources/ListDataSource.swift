/// A source of list content that loads asynchronously and publishes snapshots
/// (Coffee's `CTableViewDataSource`, Instant Cocoa's `ICDataSource`).
///
/// A data source owns its content and its loads; it publishes every change as a
/// ``ListSnapshot`` to its one observer, ``onSnapshot`` (a ``ListController``
/// bound with ``ListController/bind(to:)``, or a parent ``MultiDataSource``).
/// Loads are generation-numbered: a result that arrives after a newer load
/// started is dropped. Methods that start work return the task doing it, so
/// callers (and tests) can await it; cancelling that task cancels the load: the
/// source does what ``cancel()`` does for it on the main actor's next turn, without
/// waiting for a fetch that ignores cancellation (a callback API wrapped in a
/// continuation), whose late result is dropped. The task is unstructured: cancelling a
/// task that awaits its `value` does not cancel the load. A cancelled refresh keeps the
/// content and reports no error.
///
/// ```swift
/// struct Song: Identifiable, Equatable, Sendable { let id: Int; var title: String }
///
/// let listView = HeadlessListView()
/// let controller = ListController()
/// controller.attach(to: listView)
/// let source = RemoteDataSource { [Song(id: 1, title: "Blue"), Song(id: 2, title: "Red")] }
/// controller.bind(to: source)
/// Task { @MainActor in
///     await source.load().value
///     await controller.settle()
///     assert(controller.model.itemCount == 2)
/// }
/// ```
@MainActor
public protocol ListDataSource: AnyObject {
    /// The snapshot published last.
    var snapshot: ListSnapshot { get }
    /// Called on the main actor with every snapshot published; the one observer.
    var onSnapshot: (@MainActor (ListSnapshot) -> Void)? { get set }
    /// Starts the first load (or loads again from scratch). Default: nothing to load.
    @discardableResult func load() -> Task<Void, Never>
    /// Reloads while keeping the content visible (pull to refresh). Default: ``load()``.
    @discardableResult func refresh() -> Task<Void, Never>
    /// Stops whatever runs, leaving a consistent snapshot; nothing starts by itself after it
    /// (a ``PaginatedDataSource`` loads no next page until one is asked for: see
    /// ``PaginatedDataSource/cancel()``). Default: nothing.
    func cancel()
    /// The row at `path` of `model` is about to show (paginated sources load the next page). Default: nothing.
    func willDisplayItem(at path: ItemPath, in model: TableModel)
    /// Loads the next page now, also after a failed one (the retry of the
    /// ``LoadMorePlaceholder`` row); returns the task, or `nil` when nothing was
    /// started (no page left, one already loading). Default: `nil`.
    @discardableResult func loadNextPage() -> Task<Void, Never>?
    /// Whether the source waits to hear the last row on screen once its next snapshot shows.
    ///
    /// A ``PaginatedDataSource`` does while a next page may load and none is under way (not
    /// after a ``cancel()``, until a page or a load is asked for): after
    /// a refresh, a page of rows shown already or an edit, with the end of the list on screen
    /// already, no row comes on screen to ask for the next page. While this is `true`, the
    /// controller binding the source calls ``willDisplayItem(at:in:)`` after each snapshot it
    /// shows with ``visibleEndIsOnScreen(at:in:)`` for the content rows on screen, from the last up, until it turns
    /// `false` (a paged child of a ``MultiDataSource`` may end above another child's rows). A source that wraps
    /// another (a filter, a shape of its own) forwards it and ``visibleEndIsOnScreen(at:in:)``, as
    /// ``MultiDataSource`` does for its children.
    /// Default: `false`.
    var awaitsVisibleEnd: Bool { get }
    /// The row at `path` of `model` is on screen with the end of the list, reported because the source
    /// waits for that end (``awaitsVisibleEnd``).
    ///
    /// The controller calls this, not ``willDisplayItem(at:in:)``, for its report of the rows on screen
    /// after a snapshot shows. The two differ for a source made of others: only the ones that wait may
    /// hear this report, since another would take it for a row coming on screen (a
    /// ``PaginatedDataSource`` held by ``cancel()`` would load its next page). ``MultiDataSource`` passes
    /// it to the child whose row it is when that child waits; a source that wraps another forwards it to
    /// the wrapped source's own method, in that source's coordinates. Default: ``willDisplayItem(at:in:)``
    /// while ``awaitsVisibleEnd`` is `true`.
    func visibleEndIsOnScreen(at path: ItemPath, in model: TableModel)
}

extension ListDataSource {
    @discardableResult public func load() -> Task<Void, Never> { Task {} }
    @discardableResult public func refresh() -> Task<Void, Never> { load() }
    public func cancel() {}
    public func willDisplayItem(at path: ItemPath, in model: TableModel) {}
    @discardableResult public func loadNextPage() -> Task<Void, Never>? { nil }
    public var awaitsVisibleEnd: Bool { false }
    public func visibleEndIsOnScreen(at path: ItemPath, in model: TableModel) {
        if awaitsVisibleEnd { willDisplayItem(at: path, in: model) }
    }
}

/// Generation numbers for loads: each new load makes every older one stale.
struct LoadGenerations {
    private(set) var current = 0
    var task: Task<Void, Never>?

    /// Starts a new generation, cancelling the running load; returns the new number.
    mutating func next() -> Int {
        task?.cancel()
        task = nil
        current &+= 1
        return current
    }

    /// Whether `generation` is still the newest.
    func isCurrent(_ generation: Int) -> Bool { generation == current }
}

/// Runs `fetch` for the task that a load returned (`load()`, `refresh()`, `loadNextPage()`):
/// when that task is cancelled, `cancelled` runs on the main actor's next turn, also while a
/// fetch that ignores cancellation (a callback API wrapped in `withCheckedContinuation`)
/// goes on. `cancelled` does what the source's `cancel()` does for that load, so that
/// cancelling the task is `cancel()`, as ``ListDataSource`` promises, without waiting for
/// the fetch; the fetch's late result is dropped, its generation stale by then.
///
/// The next turn, not within `cancel()` of the task: a cancellation handler runs on the
/// thread that cancels, under the task's own lock, and the standard library has no check
/// that does not trap for "this is the main actor" (on Linux the main actor does not run on
/// the process's main thread). `cancelled` must check that its load is still the one
/// running: the source's own `cancel()` and newer loads cancel the task too.
@MainActor
func runFetch<Value: Sendable>(
    _ fetch: @Sendable () async throws -> Value, cancelled: @escaping @MainActor @Sendable () -> Void
) async -> Result<Value, any Error> {
    await withTaskCancellationHandler {
        do { return .success(try await fetch()) } catch { return .failure(error) }
    } onCancel: {
        Task { @MainActor in cancelled() }
    }
}
