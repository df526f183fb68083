/// Hands resources to the visible cells of the rows they belong to (Coffee's
/// `provideResourceToVisibleCells:updatedKey:`), and tells resource loaders
/// which rows come and go. The ``ListController`` owns one.
///
/// A visible row gets a resource of an object when it shows the object: its
/// identity (``ItemID``) is the object's, or its model's own identity is (a later
/// row with a duplicate identity, a row made with an explicit id), or it holds that
/// very object (classes); or when its model adopts ``ResourceReferencing`` and
/// refers to it. No other cell is touched and nothing is reloaded.
///
/// The last resource provided for each (object identity, key) is kept, for the
/// last ``providedLimit`` identities: a row showing that object that shows or is
/// reconfigured later presents it (rows matched only by object identity or by
/// reference get a resource while visible only).
@MainActor
final class ResourceFanOut {
    private let rows: RowBinding
    private var loaders: [AnyResourceLoader] = []

    /// The last resource provided per object identity and key, for rows that show later.
    private var provided: [ItemID: [ResourceKey: ResourceUpdate]] = [:]
    /// The identities in `provided`, least recently provided first.
    private var providedOrder: [ItemID] = []
    /// The model types of the identities in `provided` (a superset while any are kept):
    /// a row of another type skips working out its model's own identity.
    private var providedTypes: Set<ObjectIdentifier> = []
    /// How many object identities keep their last provided resources.
    static let providedLimit = 256

    init(rows: RowBinding) { self.rows = rows }

    private func remember(_ update: ResourceUpdate, for id: ItemID) {
        if provided[id] != nil, let index = providedOrder.firstIndex(of: id) { providedOrder.remove(at: index) }
        provided[id, default: [:]][update.key] = update
        providedOrder.append(id)
        providedTypes.insert(ObjectIdentifier(id.modelType))
        if providedOrder.count > Self.providedLimit { provided[providedOrder.removeFirst()] = nil }
    }

    /// Forgets the kept resources with `key` whose object `matches` (a loader's
    /// ``ResourceLoader/removeAllCachedValues()``: they are as stale as its cache).
    func forgetKept(key: ResourceKey, where matches: (Any) -> Bool) {
        guard !provided.isEmpty else { return }
        for (id, updates) in provided {
            guard let update = updates[key], matches(update.object) else { continue }
            provided[id]?[key] = nil
            if provided[id]?.isEmpty == true {
                provided[id] = nil
                if let index = providedOrder.firstIndex(of: id) { providedOrder.remove(at: index) }
            }
        }
    }

    /// The app gave `value` for the object with identity `id`: the loaders with `key` take
    /// it as their cached result, so the value given last wins whoever hands it next.
    func appProvided(_ object: any Sendable, id: ItemID, key: ResourceKey, value: (any Sendable)?) {
        for loader in loaders { loader.provided(object, id, key, value) }
    }

    /// Hands `cell`, which shows `item` (it just showed or was reconfigured), the
    /// resources provided for the object it shows.
    func presentProvided(_ item: ListItem, cell: AnyObject) {
        guard !provided.isEmpty else { return }
        var updates = provided[item.id]
        if updates == nil, providedTypes.contains(ObjectIdentifier(item.id.modelType)),
           let own = ItemID(anyModel: item.model), own != item.id {
            updates = provided[own]
        }
        guard let updates else { return }
        for key in updates.keys.sorted(by: { $0.name < $1.name }) {
            if let update = updates[key] { _ = deliver(update, to: cell, showing: item.model) }
        }
    }

    /// The identity of the object `item` shows: its model's own identity (``ItemID``
    /// as a row made from the model alone), else the row's (models that are neither
    /// `Identifiable` nor `Hashable`, whose rows carry an explicit id). Two rows showing
    /// one user, a duplicate or a row with an explicit id among them, have the same one.
    static func objectID(of item: ListItem) -> ItemID {
        ItemID(anyModel: item.model) ?? item.id
    }

    /// Runs `loader` for the rows shown from now on.
    func add(_ loader: AnyResourceLoader) { loaders.append(loader) }

    /// Hands `update` to the visible cells of `listView` whose rows in `displayed` (what
    /// the list view shows, read again before each delivery) show `update.object`
    /// (identity `id`, when it has one), or to `cell` alone when given (a row that just
    /// showed or was reconfigured); returns the paths updated.
    ///
    /// A handler may change the list while the update fans out (an `onResource` handler
    /// that applies a model, scrolls or reconfigures): each cell is checked again just
    /// before it is handed the update, at the path where it shows now, so a cell that
    /// meanwhile shows another model, or left the screen, gets nothing.
    func provide(_ update: ResourceUpdate, id: ItemID?, displayed: () -> TableModel, listView: any ListView, only cell: AnyObject? = nil) -> [ItemPath] {
        if let id { remember(update, for: id) }
        var targets: [(path: ItemPath, cell: AnyObject)] = []
        for path in listView.visibleItemPaths {
            guard let shown = listView.cell(at: path) else { continue }
            if let cell, shown !== cell { continue }
            targets.append((path, shown))
        }
        var updated: [ItemPath] = []
        for (index, target) in targets.enumerated() {
            // Before the first delivery nothing can have changed; after it, find the cell again.
            let path: ItemPath
            if index == 0 {
                path = target.path
            } else if listView.cell(at: target.path) === target.cell {
                path = target.path
            } else if let moved = listView.visibleItemPaths.first(where: { listView.cell(at: $0) === target.cell }) {
                path = moved
            } else {
                continue
            }
            guard let item = displayed().item(at: path), Self.item(item, concerns: update.object, id: id) else { continue }
            if deliver(update, to: target.cell, showing: item.model) {
                updated.append(path)
                listView.cellDidChange(at: path, reason: .resource(update.key))
            }
        }
        return updated
    }

    /// Whether `item` is a row of `object`: by identity (its model's own, or the row's
    /// for a model that has none), by object identity, or by reference.
    ///
    /// Not by the row's identity when its model has one of its own: a row made with an
    /// explicit id may show another object whose own id equals that id (`ListItem(post11,
    /// id: 1)` beside post 1), and post 1's resource is not for it.
    static func item(_ item: ListItem, concerns object: Any, id: ItemID?) -> Bool {
        if let id, item.id.modelType == id.modelType {
            if let own = ItemID(anyModel: item.model) {
                if own == id { return true }
            } else if item.id == id {
                return true
            }
        }
        if type(of: object) is AnyClass, type(of: item.model) is AnyClass, (object as AnyObject) === (item.model as AnyObject) { return true }
        if let referencing = item.model as? any ResourceReferencing { return referencing.refers(to: object) }
        return false
    }

    // MARK: Rows coming and going, for the loaders

    func willDisplay(_ item: ListItem, cell: AnyObject) {
        for loader in loaders { loader.willDisplay(item, cell) }
    }

    /// A visible row was configured again (a reconfigure reset its cell): its cell gets the
    /// resources provided for its object, and the loaders' cached ones, again.
    ///
    /// A reconfigure asked from inside a delivery to that cell (an `onResource` handler that
    /// made its row taller) hands them again once: the handler runs again for the fresh
    /// configuration. A reconfigure asked from inside that second delivery hands nothing:
    /// a handler that reconfigures its row every time would otherwise call itself until
    /// the stack overflows.
    func reconfigured(_ item: ListItem, cell: AnyObject) {
        let id = ObjectIdentifier(cell)
        guard !redelivering.contains(id) else { return }
        let nested = delivering.contains(id)
        if nested { redelivering.insert(id) }
        defer { if nested { redelivering.remove(id) } }
        presentProvided(item, cell: cell)
        for loader in loaders { loader.reconfigured(item, cell) }
    }

    /// The cells a resource is being handed to (their `onResource` handler runs).
    private var delivering: Set<ObjectIdentifier> = []
    /// The cells handed their resources again because their handler reconfigured them.
    private var redelivering: Set<ObjectIdentifier> = []

    /// Hands `update` to `cell` through the dispatch table, noting the cell as being delivered to.
    private func deliver(_ update: ResourceUpdate, to cell: AnyObject, showing model: Any) -> Bool {
        let inserted = delivering.insert(ObjectIdentifier(cell)).inserted
        defer { if inserted { delivering.remove(ObjectIdentifier(cell)) } }
        return rows.deliver(update, to: cell, showing: model)
    }

    /// Whether an apply is showing a model: loaders wait for its end before they cancel
    /// the loads of objects whose rows left (``holdingCancellations(_:)``).
    private(set) var holdsCancellations = false

    /// Runs `body`, an apply's batches or reload with the layout that follows them, then lets
    /// the loaders cancel the loads of objects no row of which shows or is prefetched: a row
    /// an apply deletes and another row of the same object that the apply brings on screen
    /// (rows below move up into view) keep the load in flight.
    func holdingCancellations(_ body: () -> Void) {
        guard !holdsCancellations, !loaders.isEmpty else { return body() }
        holdsCancellations = true
        body()
        holdsCancellations = false
        for loader in loaders { loader.cancelLeaving() }
    }

    /// The list view the rows showed on is gone (see ``ResourceLoader``): the loaders forget
    /// its rows and cancel their loads.
    func listViewGone() {
        for loader in loaders { loader.listViewGone() }
    }

    func didEndDisplaying(cell: AnyObject) {
        for loader in loaders { loader.didEndDisplaying(cell) }
    }

    func prefetch(_ items: [ListItem]) {
        for loader in loaders { loader.prefetch(items) }
    }

    func cancelPrefetch(_ items: [ListItem]) {
        for loader in loaders { loader.cancelPrefetch(items) }
    }
}
