/// A data source whose content comes from an async fetch (Instant Cocoa's
/// remote data source): cancellable, with ``isFetching``.
///
/// The first load publishes `.loading` (the loading row); a later load or a
/// ``refresh()`` keeps the content and publishes the ``ListActivity/refreshing``
/// activity. A fetch that throws leaves the content in place and publishes
/// `.failed` (the controller shows the error row when there is no content and
/// reports the error otherwise). A result that arrives after a newer load
/// started is dropped; two quick refreshes show the newest result only.
///
/// ``edit(_:)`` changes the items at once (optimistic local edits); a later
/// fetch respects them as described there.
///
/// ```swift
/// struct Song: Identifiable, Equatable, Sendable { let id: Int; var title: String }
///
/// let source = RemoteDataSource { [Song(id: 1, title: "Blue")] }
/// Task { @MainActor in
///     await source.load().value
///     assert(source.items.count == 1 && !source.isFetching)
///     await source.refresh().value
///     assert(source.snapshot.activity == .idle)
/// }
/// ```
@MainActor
public final class RemoteDataSource<Item: Identifiable & Sendable>: ListDataSource where Item.ID: Sendable {
    /// Fetches the whole content.
    public typealias Fetch = @Sendable () async throws -> [Item]

    public private(set) var snapshot = ListSnapshot()
    public var onSnapshot: (@MainActor (ListSnapshot) -> Void)?
    /// The items shown.
    public private(set) var items: [Item] = []
    /// Whether a fetch runs.
    public private(set) var isFetching = false
    /// How many rows the last finished fetch added: the items it brought that were not
    /// showing before it and show now (the "3 new" of a refresh message; an item a
    /// local edit removed does not count); `nil` before a fetch finished.
    public private(set) var lastRefreshNewItemCount: Int?

    private let fetch: Fetch
    private let makeModel: @MainActor ([Item]) -> TableModel
    private var loads = LoadGenerations()
    private var hasLoaded = false
    private var edits = LocalEdits<Item>()
    /// Whether the closure of an ``edit(_:)`` runs, and the edits made inside it, applied after it.
    private let nested = NestedEdits<[Item]>()

    /// Creates a source that shows the fetched items in one section, or as `makeModel` arranges them.
    public init(makeModel: @escaping @MainActor ([Item]) -> TableModel = { TableModel($0) }, fetch: @escaping Fetch) {
        self.fetch = fetch
        self.makeModel = makeModel
    }

    /// Fetches; shows the loading row the first time, keeps the content afterwards.
    @discardableResult
    public func load() -> Task<Void, Never> { start(refreshing: hasLoaded && !items.isEmpty) }

    /// Fetches again, keeping the content visible.
    @discardableResult
    public func refresh() -> Task<Void, Never> { start(refreshing: true) }

    /// Edits the items at once (an optimistic local edit: a swipe to delete, a
    /// like, a reorder) and publishes them; returns what `change` returns.
    ///
    /// The same shape as ``PaginatedDataSource/edit(_:)``: insert, remove, update
    /// and move with `Array`'s methods. A later fetch (``refresh()``, ``load()``)
    /// shows the server's items, versions and order, except that a removed item
    /// stays removed (its row identity, ``ItemID``, is skipped from then on, unless
    /// it is inserted again; removing a `Dog` 1 does not hide a `Cat` 1; of rows that share
    /// an id, only the server's copy of the one removed: see <doc:PagingAndEdits>) and an
    /// inserted item the server does not return yet stays where it was put.
    /// A fetch running during the edit respects it too.
    ///
    /// The closure works on a copy: while it runs, ``items`` and ``snapshot`` still
    /// show the content from before the edit, which is published when the closure
    /// returns (also when it throws: the changes made before the throw are kept). An
    /// `edit(_:)` called from inside the closure runs at once on a copy of the items
    /// from before the outer edit and is applied after it (what it changed replayed on
    /// the outer edit's items, by identity), as in every source (see
    /// ``SimpleDataSource/edit(_:)``); later fetches respect both.
    ///
    /// ```swift
    /// struct Song: Identifiable, Equatable, Sendable { let id: Int; var starred = false }
    ///
    /// let source = RemoteDataSource { (0..<5).map { Song(id: $0) } }
    /// Task { @MainActor in
    ///     await source.load().value
    ///     source.edit { songs in
    ///         songs.removeAll { $0.id == 2 }
    ///         songs[0].starred = true
    ///     }
    ///     await source.refresh().value
    ///     assert(source.items.map(\.id) == [0, 1, 3, 4])
    /// }
    /// ```
    @discardableResult
    public func edit<Result>(_ change: (inout [Item]) throws -> Result) rethrows -> Result {
        try nested.edit(items, change, replay: EditReplay.replay) { edited in
            edits.record(before: items, beforeIDs: items.map { ItemID($0) }, after: edited, afterIDs: edited.map { ItemID($0) })
            items = edited
            let model = makeModel(items)
            let state: ContentState = isFetching && model.isEmpty ? .loading : .settled(model)
            publish(ListSnapshot(model, state: state, activity: isFetching && !model.isEmpty ? .refreshing : .idle))
        }
    }

    /// Stops the fetch. The content stays; a cancelled first load shows the error row with a retry.
    public func cancel() {
        guard isFetching else { return }
        _ = loads.next()
        isFetching = false
        let state: ContentState = snapshot.state.isLoading ? .failed(CancellationError()) : snapshot.state
        publish(ListSnapshot(snapshot.model, state: state))
    }

    private func start(refreshing: Bool) -> Task<Void, Never> {
        let generation = loads.next()
        isFetching = true
        if refreshing {
            publish(ListSnapshot(snapshot.model, state: snapshot.quietState, activity: .refreshing))
        } else {
            publish(ListSnapshot(snapshot.model, state: .loading))
        }
        let fetch = fetch
        // Cancelling the task is cancel() for this load, without waiting for the fetch (see `runFetch`).
        let cancelled: @MainActor @Sendable () -> Void = { [weak self] in self?.loadTaskCancelled(generation) }
        let task = Task { [weak self] in
            let result = await runFetch(fetch, cancelled: cancelled)
            // A cancelled load shows nothing it fetched, even when the fetch returned anyway.
            if Task.isCancelled { cancelled() } else { self?.finish(generation, result) }
        }
        loads.task = task
        return task
    }

    /// The task of load `generation` was cancelled: ``cancel()``, while that load runs.
    private func loadTaskCancelled(_ generation: Int) {
        guard loads.isCurrent(generation), isFetching else { return }
        cancel()
    }

    private func finish(_ generation: Int, _ result: Result<[Item], any Error>) {
        guard loads.isCurrent(generation) else { return }  // a newer load started: this one lost
        loads.task = nil
        isFetching = false
        switch result {
        case .success(let fetched):
            hasLoaded = true
            var shown = Set(items.map { ItemID($0) })
            items = edits.merge(fetched, previous: items)
            // The rows that newly show (once each): not the ones a local edit hides.
            lastRefreshNewItemCount = items.reduce(0) { $0 + (shown.insert(ItemID($1)).inserted ? 1 : 0) }
            let model = makeModel(items)
            publish(ListSnapshot(model, state: .settled(model)))
        case .failure(let error) where error is CancellationError:
            // The fetch threw a cancellation of its own: as `cancel()`.
            publish(ListSnapshot(snapshot.model, state: snapshot.state.isLoading ? .failed(error) : snapshot.state))
        case .failure(let error):
            publish(ListSnapshot(snapshot.model, state: .failed(error)))
        }
    }

    private func publish(_ snapshot: ListSnapshot) {
        self.snapshot = snapshot
        onSnapshot?(snapshot)
    }
}
