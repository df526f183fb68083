/// Hands resources to the visible cells of the rows they belong to (Coffee's
/// `provideResourceToVisibleCells:updatedKey:`), and tells resource loaders
/// which rows come and go. The ``ListController`` owns one.
///
/// A visible row gets a resource of an object when its identity (``ItemID``) is
/// the object's, when it shows that very object (classes), or when its model
/// adopts ``ResourceReferencing`` and refers to it. No other cell is touched and
/// nothing is reloaded.
@MainActor
final class ResourceFanOut {
    private let rows: RowBinding
    private var loaders: [AnyResourceLoader] = []

    init(rows: RowBinding) { self.rows = rows }

    /// Runs `loader` for the rows shown from now on.
    func add(_ loader: AnyResourceLoader) { loaders.append(loader) }

    /// Hands `update` to the visible cells of `listView` whose rows in `displayed`
    /// are about `update.object` (identity `id`, when it has one); returns the paths updated.
    func provide(_ update: ResourceUpdate, id: ItemID?, displayed: TableModel, listView: any ListView) -> [ItemPath] {
        var updated: [ItemPath] = []
        for path in listView.visibleItemPaths {
            guard let item = displayed.item(at: path), let cell = listView.cell(at: path),
                  Self.item(item, concerns: update.object, id: id) else { continue }
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
