/// Hands resources to the visible cells of the rows they belong to (Coffee's
/// `provideResourceToVisibleCells:updatedKey:`), and tells resource loaders
/// which rows come and go. The ``ListController`` owns one.
///
/// A visible row gets a resource of an object when its identity (``ItemID``) is
/// the object's and it is the first row with that identity (later rows with the
/// same identity are distinct rows), when it shows that very object (classes),
/// or when its model adopts ``ResourceReferencing`` and refers to it. No other
/// cell is touched and nothing is reloaded.
///
/// The last resource provided for each (row identity, key) is kept, for the
/// last ``providedLimit`` identities: a row with that identity that shows or is
/// reconfigured later presents it (rows matched only by object identity or by
/// reference get a resource while visible only).
@MainActor
final class ResourceFanOut {
    private let rows: RowBinding
    private var loaders: [AnyResourceLoader] = []

    /// Where the identities asked about first occur in the displayed model
    /// (`TableModel.indexPath(of:)`, remembered until the model changes):
    /// one scan, stopping at the first match, per identity per displayed model;
    /// no index of every row.
    private var firstPaths: [ItemID: ItemPath?] = [:]

    /// The last resource provided per row identity and key, for rows that show later.
    private var provided: [ItemID: [ResourceKey: ResourceUpdate]] = [:]
    /// The identities in `provided`, least recently provided first.
    private var providedOrder: [ItemID] = []
    /// How many row identities keep their last provided resources.
    static let providedLimit = 256

    init(rows: RowBinding) { self.rows = rows }

    private func remember(_ update: ResourceUpdate, for id: ItemID) {
        if provided[id] != nil, let index = providedOrder.firstIndex(of: id) { providedOrder.remove(at: index) }
        provided[id, default: [:]][update.key] = update
        providedOrder.append(id)
        if providedOrder.count > Self.providedLimit { provided[providedOrder.removeFirst()] = nil }
    }

    /// Hands `cell`, which shows `item` at `path` (it just showed or was reconfigured),
    /// the resources provided for its identity, when it is the first row with it.
    func presentProvided(_ item: ListItem, cell: AnyObject, at path: ItemPath, displayed: TableModel) {
        guard let updates = provided[item.id], firstPath(of: item.id, in: displayed) == path else { return }
        for key in updates.keys.sorted(by: { $0.name < $1.name }) {
            if let update = updates[key] { _ = rows.deliver(update, to: cell, showing: item.model) }
        }
    }

    /// The displayed model changed: the first occurrences are found again when needed.
    func displayDidChange() { firstPaths.removeAll(keepingCapacity: true) }

    private func firstPath(of id: ItemID, in displayed: TableModel) -> ItemPath? {
        if let known = firstPaths[id] { return known }
        let path = displayed.indexPath(of: id)
        firstPaths[id] = path
        return path
    }

    /// Runs `loader` for the rows shown from now on.
    func add(_ loader: AnyResourceLoader) { loaders.append(loader) }

    /// Hands `update` to the visible cells of `listView` whose rows in `displayed`
    /// are about `update.object` (identity `id`, when it has one); returns the paths updated.
    func provide(_ update: ResourceUpdate, id: ItemID?, displayed: TableModel, listView: any ListView) -> [ItemPath] {
        if let id { remember(update, for: id) }
        var updated: [ItemPath] = []
        for path in listView.visibleItemPaths {
            guard let item = displayed.item(at: path), let cell = listView.cell(at: path) else { continue }
            // A later row with the object's identity is a distinct row: only the first one is the object's.
            let ownID = id.flatMap { id in item.id == id && firstPath(of: id, in: displayed) == path ? id : nil }
            guard Self.item(item, concerns: update.object, id: ownID) else { continue }
            if rows.deliver(update, to: cell, showing: item.model) {
                updated.append(path)
                listView.cellDidChange(at: path, reason: .resource(update.key))
            }
        }
        return updated
    }

    /// Whether `item` is a row of `object`: by identity, by object identity, or by reference.
    static func item(_ item: ListItem, concerns object: Any, id: ItemID?) -> Bool {
        if let id, item.id == id { return true }
        if type(of: object) is AnyClass, type(of: item.model) is AnyClass, (object as AnyObject) === (item.model as AnyObject) { return true }
        if let referencing = item.model as? any ResourceReferencing { return referencing.refers(to: object) }
        return false
    }

    // MARK: Rows coming and going, for the loaders

    func willDisplay(_ item: ListItem, cell: AnyObject) {
        for loader in loaders { loader.willDisplay(item, cell) }
    }

    /// A visible row was configured again: loaders hand it their cached resources.
    func reconfigured(_ item: ListItem) {
        for loader in loaders { loader.reconfigured(item) }
    }

    var hasLoaders: Bool { !loaders.isEmpty }

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
