/// Builds the cell for an object of a ``TableModelDataSource`` (Nimbus's
/// `NITableViewModelDelegate`). ``CellRegistry`` adopts it, so the registry can
/// be the data source's delegate directly.
@MainActor
public protocol TableModelCellProvider: AnyObject {
    /// The configured cell for `object`, at `path` of `listView`.
    func tableModel(_ model: TableModel, cellFor listView: any ListView, at path: ItemPath, with object: Any) -> AnyObject
}

/// A list view data source backed by a ``TableModel`` (Nimbus `NITableViewModel`):
/// counts and titles come from the model; cells come from its ``delegate``.
///
/// The middle level of adoption: keep your own controller, let the model answer
/// the list view, and build cells in one delegate method, or set the registry
/// itself as the delegate:
///
/// ```swift
/// struct Tweet: Identifiable, Equatable, Sendable { let id: Int; var text: String }
/// final class TweetCell: TextCell {}
///
/// @MainActor func feed(_ tweets: [Tweet], in listView: any ListView) -> (TableModelDataSource, CellRegistry) {
///     let registry = CellRegistry()
///     registry.register(TweetCell.self, for: Tweet.self) { cell, tweet in cell.text = tweet.text }
///     let dataSource = TableModelDataSource(TableModel(tweets))
///     dataSource.delegate = registry          // Nimbus: _model.delegate = [NICellFactory class]
///     listView.dataSource = dataSource
///     listView.reloadData()
///     return (dataSource, registry)           // both are held weakly by the list view
/// }
/// ```
@MainActor
public final class TableModelDataSource: ListViewDataSource {
    /// The rows shown. After changing it, reload the list view or apply the returned paths.
    public var model: TableModel
    /// Builds cells; held weakly. Without one, rows show the default ``TextCell``.
    public weak var delegate: (any TableModelCellProvider)?

    /// Creates a data source for `model`.
    public init(_ model: TableModel = TableModel()) { self.model = model }

    public func numberOfSections(in listView: any ListView) -> Int { model.sections.count }

    public func listView(_ listView: any ListView, numberOfItemsInSection section: Int) -> Int {
        model.itemCount(inSection: section)
    }

    public func listView(_ listView: any ListView, cellForItemAt path: ItemPath) -> AnyObject {
        let object: Any = model.model(at: path) ?? "missing row at section \(path.section), row \(path.item)"
        if let delegate { return delegate.tableModel(model, cellFor: listView, at: path, with: object) }
        let cell = listView.dequeueReusableCell(.type(TextCell.self), for: path)
        (cell as? TextCell)?.text = TextCell.defaultText(for: object)
        return cell
    }

    /// The ``ItemID`` of the row at `path`.
    public func listView(_ listView: any ListView, identityOfItemAt path: ItemPath) -> ItemID? { model.item(at: path)?.id }

    public func listView(_ listView: any ListView, titleForHeaderInSection section: Int) -> String? {
        model.header(ofSection: section)
    }

    public func listView(_ listView: any ListView, titleForFooterInSection section: Int) -> String? {
        model.footer(ofSection: section)
    }

    public func sectionIndexTitles(for listView: any ListView) -> [String] { model.sectionIndexTitles }

    public func listView(_ listView: any ListView, sectionForSectionIndexTitle title: String, at index: Int) -> Int {
        model.section(forSectionIndexTitle: title, at: index)
    }
}

extension CellRegistry: TableModelCellProvider {
    /// The registry as a table model's delegate: the configured cell for `object`.
    public func tableModel(_ model: TableModel, cellFor listView: any ListView, at path: ItemPath, with object: Any) -> AnyObject {
        cell(for: object, in: listView, at: path)
    }
}
