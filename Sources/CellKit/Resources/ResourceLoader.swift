/// Loads one resource per row (Coffee's image download) for the rows on screen
/// and near it, and hands each finished resource to the visible cells that show
/// its row through ``ListController/provideResource(_:key:value:)``, with its key.
///
/// A load starts when a row of `Model` is about to show or is prefetched, is
/// cancelled when the row leaves (or stops being prefetched) before it finishes,
/// and its result is cached by the row's identity, ``ItemID`` (least recently
/// used results go first past ``cacheLimit``); a finished resource reaches the
/// cells of that row by the same identity, whatever the model's id looks like. A cached resource reaches a row that shows again
/// at once, without a load. Nothing but the visible cells of that row is
/// touched, and nothing is reloaded. Prefetched rows that an apply removes are
/// cancelled too, as removed visible rows are.
///
/// The cache knows a row by its identity, not its content: when what the resource
/// depends on changes (a user's new avatar URL, same id), the cached value stays until
/// ``removeAllCachedValues()``; or make what it depends on part of the row's identity
/// (``ListItem/init(_:id:)``).
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
    /// How many loads were started (cache hits start none).
    public private(set) var startedLoads = 0
    /// How many loads were cancelled before they finished.
    public private(set) var cancelledLoads = 0

    private let load: Load
    private var running: [ItemID: Running] = [:]
    private var cache: [ItemID: (value: Value, tick: Int)] = [:]
    private var tick = 0
    private var visible: [ObjectIdentifier: ItemID] = [:]
    private var visibleCount: [ItemID: Int] = [:]
    private var prefetched: Set<ItemID> = []
    private var nextToken = 0
    weak var controller: ListController?

    private struct Running {
        let token: Int
        let task: Task<Void, Never>
    }

    /// Creates a loader delivering results of `load` with `key`.
    public init(key: ResourceKey, cacheLimit: Int = 200, load: @escaping Load) {
        self.key = key
        self.cacheLimit = cacheLimit
        self.load = load
    }

    /// The cached resource of the row with identity `id`, if any.
    public func cachedValue(for id: ItemID) -> Value? {
        guard let entry = cache[id] else { return nil }
        tick += 1
        cache[id]?.tick = tick
        return entry.value
    }

    /// Whether a load runs for the row with identity `id`.
    public func isLoading(_ id: ItemID) -> Bool { running[id] != nil }

    /// The rows whose loads are running.
    public var loadingIDs: Set<ItemID> { Set(running.keys) }

    /// Forgets every cached result: the rows load again when they show again (what
    /// changed while the rows show, provide with ``ListController/provideResource(_:key:value:)``).
    public func removeAllCachedValues() { cache.removeAll() }

    // MARK: Rows coming and going

    func willDisplay(_ item: ListItem, cell: AnyObject) {
        guard let model = item.model as? Model else { return }
        visible[ObjectIdentifier(cell)] = item.id
        visibleCount[item.id, default: 0] += 1
        if let value = cachedValue(for: item.id) {
            controller?.deliverResource(of: model, rowID: item.id, key: key, value: value)
        } else {
            start(item.id, model)
        }
    }

    /// A visible row was configured again (a reconfigure reset its cell): hand it the cached resource.
    func reconfigured(_ item: ListItem) {
        guard let model = item.model as? Model, let value = cachedValue(for: item.id) else { return }
        controller?.deliverResource(of: model, rowID: item.id, key: key, value: value)
    }

    func didEndDisplaying(cell: AnyObject) {
        guard let id = visible.removeValue(forKey: ObjectIdentifier(cell)) else { return }
        let count = (visibleCount[id] ?? 1) - 1
        visibleCount[id] = count > 0 ? count : nil
        if count <= 0, !prefetched.contains(id) { cancel(id) }
    }

    func prefetch(_ items: [ListItem]) {
        for item in items {
            guard let model = item.model as? Model else { continue }
            prefetched.insert(item.id)
            if cache[item.id] == nil { start(item.id, model) }
        }
    }

    func cancelPrefetch(_ items: [ListItem]) {
        for item in items where prefetched.remove(item.id) != nil {
            if visibleCount[item.id] == nil { cancel(item.id) }
        }
    }

    // MARK: Loads

    private func start(_ id: ItemID, _ model: Model) {
        guard running[id] == nil else { return }
        nextToken += 1
        let token = nextToken
        startedLoads += 1
        let load = load
        let task = Task { [weak self] in
            let value = try? await load(model)
            self?.finish(id, token: token, model: model, value: value)
        }
        running[id] = Running(token: token, task: task)
    }

    private func cancel(_ id: ItemID) {
        guard let run = running.removeValue(forKey: id) else { return }
        run.task.cancel()
        cancelledLoads += 1
    }

    private func finish(_ id: ItemID, token: Int, model: Model, value: Value?) {
        guard running[id]?.token == token else { return }  // cancelled, or replaced by a newer load
        running[id] = nil
        guard let value, !Task.isCancelled else { return }
        tick += 1
        cache[id] = (value, tick)
        trimCache()
        if visibleCount[id] != nil {
            controller?.deliverResource(of: model, rowID: id, key: key, value: value)
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
    let reconfigured: @MainActor (ListItem) -> Void
    let prefetch: @MainActor ([ListItem]) -> Void
    let cancelPrefetch: @MainActor ([ListItem]) -> Void

    init<Model, Value>(_ loader: ResourceLoader<Model, Value>) {
        willDisplay = { loader.willDisplay($0, cell: $1) }
        didEndDisplaying = { loader.didEndDisplaying(cell: $0) }
        reconfigured = { loader.reconfigured($0) }
        prefetch = { loader.prefetch($0) }
        cancelPrefetch = { loader.cancelPrefetch($0) }
    }
}

extension ListController {
    /// Runs `loader` for the rows of this list: loads start as rows show or are
    /// prefetched, and finished resources reach the visible cells of their rows.
    /// The controller keeps the loader alive.
    public func addResourceLoader<Model, Value>(_ loader: ResourceLoader<Model, Value>) {
        loader.controller = self
        resources.add(AnyResourceLoader(loader))
    }
}
