/// Loads one resource per object (Coffee's image download) for the rows on screen
/// and near it, and hands each finished resource to every visible cell that shows
/// the object through ``ListController/provideResource(_:key:value:)``, with its key.
///
/// A load starts when a row of `Model` is about to show or is prefetched, is
/// cancelled when the last row of its object leaves (or stops being prefetched)
/// before it finishes (decided once the list view's pass, or the apply, is over: a scroll
/// or an apply that takes one row of the object off screen and brings another on keeps
/// the load), and its result is cached by the object's own identity: its
/// ``ItemID`` as a row made from the model alone (the model's type and `id`, or its
/// value when it is only `Hashable`; the row's id for a model that is neither). The
/// least recently used results go first past ``cacheLimit``. Every row showing the
/// object shares the load and the cached result: the same user in two sections (a
/// duplicate identity, or a row made with an explicit id) starts one load, and the
/// result reaches both cells. A cached resource reaches a row that shows again
/// at once, without a load. Nothing but the visible cells of the object is
/// touched, and nothing is reloaded. Prefetched rows that an apply removes are
/// cancelled too, as removed visible rows are.
///
/// A load that throws caches and delivers nothing, and a row of the object that shows
/// again loads again. A ``Diagnostic/Kind/loadFailed`` diagnostic to the controller's
/// handler names the key and the object's identity, unless the load threw
/// `CancellationError` (cancelled by the loader, or by the app's own code: neither is
/// reported, and only the loader's cancellations count in ``cancelledLoads``).
/// For a broken-image state, catch in `load` and return a value that says so.
///
/// Attaching the controller to another list view ends the displays of the old one: its
/// loads are cancelled, and the rows of the new one load again (or take the cached
/// results); so does the controller's next apply (or attach) once the list view is gone
/// (the app let it go: it told nothing of its rows leaving). A loader let go (with its
/// controller, when the app does not keep it) cancels its loads under way. A loader the
/// app keeps after its controller is gone lets the loads under way finish into its cache,
/// and hands nothing to any cell.
///
/// The cache knows an object by its identity, not its content: when what the resource
/// depends on changes (a user's new avatar URL, same id), the cached value stays until
/// ``removeAllCachedValues()``, which also drops the loads under way (or hand the new one
/// to the rows on screen with ``ListController/provideResource(_:key:value:)``).
///
/// The last value given for an object wins, whoever gave it: a value the app gives with
/// ``ListController/provideResource(_:key:value:)`` for this loader's key and a `Model`
/// becomes its cached result (a value that is not a `Value`, or `nil`, drops the cached
/// one): a row that shows again or is reconfigured gets the provided value, not an older
/// result. A load of the object under way goes on, and its result, given later, wins in turn.
///
/// ```swift
/// final class AvatarCell: TextCell { var avatar: String? }
/// struct User: Identifiable, Equatable, Sendable { let id: Int; var name: String }
///
/// @MainActor func avatars(_ controller: ListController) -> ResourceLoader<User, String> {
///     let loader = ResourceLoader<User, String>(key: "avatar") { user in "avatar-\(user.id).png" }
///     controller.dispatch.onResource(User.self) { (cell: AvatarCell, _, update) in
///         cell.avatar = update.value as? String
///     }
///     controller.addResourceLoader(loader)
///     return loader
/// }
/// ```
@MainActor
public final class ResourceLoader<Model: Sendable, Value: Sendable> {
    /// Loads the resource of one model.
    public typealias Load = @Sendable (Model) async throws -> Value

    /// The key the resource is delivered with (Coffee's `updatedKey`).
    public let key: ResourceKey
    /// How many results the cache keeps.
    public var cacheLimit: Int { didSet { trimCache() } }
    /// How many loads were started (cache hits, and rows of an object whose load
    /// already runs, start none).
    public private(set) var startedLoads = 0
    /// How many loads were cancelled before they finished.
    public private(set) var cancelledLoads = 0

    private let load: Load
    /// Keyed by the identity of the object a row shows (`ResourceFanOut.objectID(of:)`).
    private var running: [ItemID: Running] = [:]
    private var cache: [ItemID: (value: Value, tick: Int)] = [:]
    private var tick = 0
    /// Visible cell → the identity of the object it shows.
    private var visible: [ObjectIdentifier: ItemID] = [:]
    /// Object identity → how many visible cells show it.
    private var visibleCount: [ItemID: Int] = [:]
    /// Prefetched row identity → the identity of the object it shows.
    private var prefetched: [ItemID: ItemID] = [:]
    private var nextToken = 0
    weak var controller: ListController?

    private struct Running {
        let token: Int
        let task: Task<Void, Never>
        let model: Model
    }

    /// Creates a loader delivering results of `load` with `key`.
    public init(key: ResourceKey, cacheLimit: Int = 200, load: @escaping Load) {
        self.key = key
        self.cacheLimit = cacheLimit
        self.load = load
    }

    /// A loader let go (with its controller, when the app does not keep it) cancels its
    /// loads under way: nothing is left to take their results.
    deinit {
        for run in running.values { run.task.cancel() }
    }

    /// The cached resource of the object with identity `id` (`ItemID(user)`), if any.
    public func cachedValue(for id: ItemID) -> Value? {
        guard let entry = cache[id] else { return nil }
        tick += 1
        cache[id]?.tick = tick
        return entry.value
    }

    /// Whether a load runs for the object with identity `id` (`ItemID(user)`).
    public func isLoading(_ id: ItemID) -> Bool { running[id] != nil }

    /// The identities of the objects whose loads are running.
    public var loadingIDs: Set<ItemID> { Set(running.keys) }

    /// Forgets every cached result, and the results of the loads under way: the rows
    /// load again when they show again (what changed while the rows show, provide with
    /// ``ListController/provideResource(_:key:value:)``).
    ///
    /// The controller's kept copies of the resources with this key for a `Model` (the last
    /// ones delivered, by this loader or with `provideResource`) are forgotten too: a row
    /// that shows again shows what its configure handler shows until its new load delivers,
    /// and keeps that when the load fails.
    ///
    /// A load under way started with what the resource depended on before (the old
    /// avatar URL): it is cancelled, so its stale result is neither cached nor handed to
    /// a row, nor laid over a value provided after this call. An object whose rows show or
    /// are prefetched loads again at once.
    public func removeAllCachedValues() {
        cache.removeAll()
        // The controller's kept copies of this key's resources of `Model` are as stale.
        controller?.resources.forgetKept(key: key) { $0 is Model }
        for (id, run) in running {
            cancel(id)
            if visibleCount[id] != nil || isPrefetched(id) { start(id, run.model) }
        }
    }

    /// The app gave `value` for `object` (identity `id`) with `key` through
    /// ``ListController/provideResource(_:key:value:)``: the value given last wins, so it
    /// becomes the cached result (a value of another type, or none, drops the cached one).
    /// A load of the object under way goes on: its result, given later, wins in turn.
    func provided(_ object: any Sendable, id: ItemID, key: ResourceKey, value: (any Sendable)?) {
        guard key == self.key, object is Model else { return }
        if let value = value as? Value {
            tick += 1
            cache[id] = (value, tick)
            trimCache()
        } else {
            cache[id] = nil
        }
    }

    // MARK: Rows coming and going

    func willDisplay(_ item: ListItem, cell: AnyObject) {
        guard let model = item.model as? Model else { return }
        let id = ResourceFanOut.objectID(of: item)
        let cellID = ObjectIdentifier(cell)
        if let previous = visible[cellID], previous != id { didEndDisplaying(cell: cell) }
        if visible[cellID] == nil {
            visible[cellID] = id
            visibleCount[id, default: 0] += 1
        }
        if let value = cachedValue(for: id) {
            controller?.deliverResource(of: model, objectID: id, key: key, value: value, only: cell)
        } else {
            start(id, model)
        }
    }

    /// A visible row was configured again (a reconfigure reset its cell): hand its cell the cached resource.
    func reconfigured(_ item: ListItem, cell: AnyObject) {
        guard let model = item.model as? Model else { return }
        let id = ResourceFanOut.objectID(of: item)
        guard let value = cachedValue(for: id) else { return }
        controller?.deliverResource(of: model, objectID: id, key: key, value: value, only: cell)
    }

    func didEndDisplaying(cell: AnyObject) {
        guard let id = visible.removeValue(forKey: ObjectIdentifier(cell)) else { return }
        let count = (visibleCount[id] ?? 1) - 1
        visibleCount[id] = count > 0 ? count : nil
        if count <= 0, !isPrefetched(id) { cancelAfterPass(id) }
    }

    func prefetch(_ items: [ListItem]) {
        for item in items {
            guard let model = item.model as? Model else { continue }
            let id = ResourceFanOut.objectID(of: item)
            prefetched[item.id] = id
            if cache[id] == nil { start(id, model) }
        }
    }

    func cancelPrefetch(_ items: [ListItem]) {
        for item in items {
            guard let id = prefetched.removeValue(forKey: item.id) else { continue }
            if visibleCount[id] == nil, !isPrefetched(id) { cancelAfterPass(id) }
        }
    }

    /// The list view the rows showed on is gone (the app let it go while the controller
    /// stays): none of its rows shows or is prefetched any more, and the loads under way
    /// are cancelled, as when another list view is attached.
    func listViewGone() {
        visible = [:]
        visibleCount = [:]
        prefetched = [:]
        leaving = []
        for id in Array(running.keys) { cancel(id) }
    }

    /// Whether a prefetched row shows the object with identity `id`.
    private func isPrefetched(_ id: ItemID) -> Bool {
        prefetched.values.contains(id)
    }

    /// Objects whose last row left (or stopped being prefetched) during the list view's
    /// pass under way: cancelled once it is over if no row of theirs showed meanwhile.
    private var leaving: Set<ItemID> = []

    /// Cancels the load of `id` once the list view's pass is over (a scroll's layout, a
    /// batch), unless a row of the object shows or is prefetched by then: one scroll takes
    /// a row of an object off screen before it brings another row of that object on (a
    /// list view puts leaving cells into its pool first), and the load in flight goes on.
    private func cancelAfterPass(_ id: ItemID) {
        guard running[id] != nil else { return }
        leaving.insert(id)
        // An apply under way decides when its batches (and their layout) are over.
        if controller?.resources.holdsCancellations == true { return }
        guard let listView = controller?.listView else { return cancelLeaving() }
        // One closure per object: a list view that goes away before it runs one leaves none waiting.
        listView.performWhenIdle { [weak self] in self?.cancelLeaving() }
    }

    /// Cancels the loads of the objects that left and have no row on screen or prefetched now.
    func cancelLeaving() {
        let ids = leaving
        leaving = []
        for id in ids where visibleCount[id] == nil && !isPrefetched(id) { cancel(id) }
    }

    // MARK: Loads

    private func start(_ id: ItemID, _ model: Model) {
        guard running[id] == nil else { return }
        nextToken += 1
        let token = nextToken
        startedLoads += 1
        let load = load
        let task = Task { [weak self] in
            let result: Result<Value, any Error>
            do { result = .success(try await load(model)) } catch { result = .failure(error) }
            self?.finish(id, token: token, model: model, result: result)
        }
        running[id] = Running(token: token, task: task, model: model)
    }

    private func cancel(_ id: ItemID) {
        guard let run = running.removeValue(forKey: id) else { return }
        run.task.cancel()
        cancelledLoads += 1
    }

    private func finish(_ id: ItemID, token: Int, model: Model, result: Result<Value, any Error>) {
        guard running[id]?.token == token else { return }  // cancelled, or replaced by a newer load
        running[id] = nil
        guard !Task.isCancelled else { return }
        let value: Value
        switch result {
        case .success(let loaded):
            value = loaded
        case .failure(let error):
            if error is CancellationError { return }
            controller?.diagnostics(Diagnostic(.loadFailed, "ResourceLoader \"\(key.name)\" could not load the resource of \(id): \(error); nothing was cached, and a row of it that shows again loads it again"))
            return
        }
        tick += 1
        cache[id] = (value, tick)
        trimCache()
        if visibleCount[id] != nil {
            // Every visible row showing the object: a duplicate's and an explicit id's too.
            controller?.deliverResource(of: model, objectID: id, key: key, value: value)
        }
    }

    private func trimCache() {
        guard cache.count > cacheLimit else { return }
        let evict = cache.sorted { $0.value.tick < $1.value.tick }.prefix(cache.count - cacheLimit)
        for (id, _) in evict { cache[id] = nil }
    }
}

/// What the controller tells a resource loader about rows coming and going, types erased.
@MainActor
struct AnyResourceLoader {
    let willDisplay: @MainActor (ListItem, AnyObject) -> Void
    let didEndDisplaying: @MainActor (AnyObject) -> Void
    let reconfigured: @MainActor (ListItem, AnyObject) -> Void
    let prefetch: @MainActor ([ListItem]) -> Void
    let cancelPrefetch: @MainActor ([ListItem]) -> Void
    let cancelLeaving: @MainActor () -> Void
    let provided: @MainActor (any Sendable, ItemID, ResourceKey, (any Sendable)?) -> Void
    let listViewGone: @MainActor () -> Void

    init<Model, Value>(_ loader: ResourceLoader<Model, Value>) {
        willDisplay = { loader.willDisplay($0, cell: $1) }
        didEndDisplaying = { loader.didEndDisplaying(cell: $0) }
        reconfigured = { loader.reconfigured($0, cell: $1) }
        prefetch = { loader.prefetch($0) }
        cancelPrefetch = { loader.cancelPrefetch($0) }
        cancelLeaving = { loader.cancelLeaving() }
        provided = { loader.provided($0, id: $1, key: $2, value: $3) }
        listViewGone = { loader.listViewGone() }
    }
}

extension ListController {
    /// Runs `loader` for the rows of this list: loads start as rows show or are
    /// prefetched, and finished resources reach the visible cells of their rows.
    /// The controller keeps the loader alive.
    ///
    /// A loader added while rows show starts their loads at once (or hands them its
    /// cached results), as if it had been there when they showed.
    public func addResourceLoader<Model, Value>(_ loader: ResourceLoader<Model, Value>) {
        loader.controller = self
        let erased = AnyResourceLoader(loader)
        resources.add(erased)
        guard let listView else { return }
        // Once any pass under way is over: its rows are then the ones on screen.
        listView.performWhenIdle { [weak self, weak listView] in
            guard let self, let listView, self.listView === listView else { return }
            for path in listView.visibleItemPaths {
                guard let item = self.displayed.item(at: path), let cell = listView.cell(at: path) else { continue }
                erased.willDisplay(item, cell)
            }
        }
    }
}
