#if canImport(UIKit)
import UIKit
import CellKit

/// Makes a `UITableView` a CellKit ``/CellKit/ListView``: a ``/CellKit/ListController`` attached to
/// the adapter drives the table through data source, delegate and prefetching bridges.
///
/// The adapter replays what the core decides: each batch goes through
/// ``/CellKit/BatchPlan/decide(_:oldCounts:newCounts:hasWindow:threshold:layoutPendingAfterReload:)``
/// (animate, or reload when the table has no window, was just reloaded and has
/// not laid out, the batch is over ``reloadThreshold`` or breaks a rule); rows
/// whose content changed are reconfigured in place; the first visible row keeps
/// its place when rows are inserted above it (``/CellKit/ScrollAnchor``).
///
/// Keep a strong reference to the adapter: the table view and the controller hold it weakly.
///
/// ```swift
/// final class TweetCell: UITableViewCell {}
/// struct Tweet: Identifiable, Equatable, Sendable { let id: Int; var text: String }
///
/// @MainActor final class FeedViewController: UITableViewController {
///     let controller = ListController()
///     lazy var adapter = TableViewAdapter(tableView: tableView)
///
///     override func viewDidLoad() {
///         super.viewDidLoad()
///         controller.register(TweetCell.self, for: Tweet.self, cellStyle: .subtitle) { cell, tweet in
///             cell.textLabel?.text = tweet.text
///         }
///         controller.attach(to: adapter)
///         controller.apply(TableModel([Tweet(id: 1, text: "Hello")]))
///     }
/// }
/// ```
@MainActor
public final class TableViewAdapter: NSObject, ListView {
    /// The table view driven.
    public let tableView: UITableView
    /// Who answers counts and cells (usually a ``/CellKit/ListController``); held weakly.
    public weak var dataSource: (any ListViewDataSource)?
    /// Who hears about heights, selection, display and prefetching; held weakly.
    public weak var delegate: (any ListViewDelegate)?

    /// The animation of inserted, deleted and reloaded rows and sections.
    public var rowAnimation: UITableView.RowAnimation = .automatic
    /// Above this many changes in one batch, the table reloads instead of animating; `nil`: never.
    public var reloadThreshold: Int?
    /// Whether the first visible row stays put when rows are inserted or removed above it.
    public var keepsFirstVisibleRow = true
    /// Whether a selected row is deselected right away (a tap, not a persistent selection).
    public var deselectsAfterSelection = true
    /// Delete, reorder and swipe actions per model type.
    public let editing = EditingTable()
    /// Draws platform-neutral cells (the default cell, the placeholder rows) into table cells.
    public var renderer = HostedCellRenderer.standard
    /// Builds the background view for a ``/CellKit/BackgroundPlaceholder`` (when placeholders are not rows).
    public var backgroundViewProvider: @MainActor (BackgroundPlaceholder, _ retry: (@MainActor () -> Void)?) -> UIView = {
        PlaceholderBackgroundView(placeholder: $0, retry: $1)
    }
    /// Runs when the user pulls to refresh; the spinner stops when it returns. `nil`: no refresh control.
    public var refreshAction: (@MainActor () async -> Void)? {
        get { refresh.action }
        set {
            refresh.action = newValue
            refresh.install(on: tableView)
        }
    }
    /// The last decision taken for a batch, for diagnostics and tests.
    public private(set) var lastPlan: BatchPlan?

    private var registered: Set<String> = []
    private var hosts = HostIndex()
    /// Set by ``reloadData()``, cleared when the table asks for its counts again.
    private var layoutPendingAfterReload = false
    /// The table already shows a user's move: the next pure-move batch only switches the data.
    private var userMovePending = false
    private let refresh = RefreshBridge()

    /// Makes `tableView` a list view; becomes its data source, delegate and prefetch data source.
    public init(tableView: UITableView) {
        self.tableView = tableView
        super.init()
        tableView.dataSource = self
        tableView.delegate = self
        tableView.prefetchDataSource = self
        if tableView.rowHeight <= 0 { tableView.rowHeight = UITableView.automaticDimension }
    }

    // MARK: ListView

    public func register(_ source: CellSource) {
        guard registered.insert(source.reuseIdentifier).inserted else { return }
        let id = source.reuseIdentifier
        if let nib = source.uiNib {
            tableView.register(nib, forCellReuseIdentifier: id)
        } else if let cellClass = source.cellType as? UITableViewCell.Type {
            // Templates build their own cells; the class is registered too so a dequeue never fails.
            tableView.register(cellClass, forCellReuseIdentifier: id)
        } else {
            tableView.register(HostingTableCell.self, forCellReuseIdentifier: id)
        }
    }

    public func dequeueReusableCell(_ source: CellSource, for path: ItemPath) -> AnyObject {
        let id = source.reuseIdentifier
        if case .template = source.kind, source.cellType is UITableViewCell.Type {
            // A template builds the cell (with the reuse identifier it was handed) when none is free.
            if let reused = tableView.dequeueReusableCell(withIdentifier: id) { return reused }
            if let made = source.make?() as? UITableViewCell { return made }
        }
        register(source)
        let cell = tableView.dequeueReusableCell(withIdentifier: id, for: path.indexPath)
        guard let host = cell as? HostingTableCell else { return cell }
        let content = host.content ?? source.make?() ?? TextCell()
        host.content = content
        hosts.remember(host, for: content)
        return content
    }

    public var visibleItemPaths: [ItemPath] {
        (tableView.indexPathsForVisibleRows ?? []).map(ItemPath.init).sorted()
    }

    public func cell(at path: ItemPath) -> AnyObject? {
        guard let cell = tableView.cellForRow(at: path.indexPath) else { return nil }
        return (cell as? HostingTableCell)?.content ?? cell
    }

    public func reloadData() {
        layoutPendingAfterReload = true
        userMovePending = false
        tableView.reloadData()
        updateBackground()
    }

    public func performBatchUpdates(_ changeset: Changeset, updateData: () -> Void) throws {
        let oldCounts = currentCounts()
        updateData()
        let newCounts = currentCounts()
        if userMovePending, AdapterSupport.isPureMove(changeset, oldCounts: oldCounts, newCounts: newCounts) {
            // The table moved the row itself; it only needed the data to follow.
            userMovePending = false
            lastPlan = .animate(BatchPlan.Steps(structural: changeset, reconfigure: []))
            return
        }
        userMovePending = false
        let plan = BatchPlan.decide(
            changeset, oldCounts: oldCounts, newCounts: newCounts,
            hasWindow: tableView.window != nil, threshold: reloadThreshold,
            layoutPendingAfterReload: layoutPendingAfterReload
        )
        lastPlan = plan
        switch plan {
        case .reload(let reason):
            reloadData()
            if case .invalid(let error) = reason { throw error }
        case .animate(let steps):
            animate(steps, oldCounts: oldCounts, newCounts: newCounts)
            updateBackground()
        }
    }

    public func cellDidChange(at path: ItemPath, reason: CellChangeReason) {
        guard let host = tableView.cellForRow(at: path.indexPath) as? HostingTableCell, let content = host.content else { return }
        renderer.render(content, host)
    }

    // MARK: Applying a plan

    private func animate(_ steps: BatchPlan.Steps, oldCounts: [Int], newCounts: [Int]) {
        let batch = steps.structural
        var anchor: (ScrollAnchor, CGFloat)?
        if keepsFirstVisibleRow, !batch.isEmpty {
            let mapping = PathMapping(batch, oldCounts: oldCounts, newCounts: newCounts)
            if let found = ScrollAnchor.find(visible: visibleItemPaths, changeset: batch, mapping: mapping), found.shiftedFromAbove {
                let top = tableView.rectForRow(at: found.old.indexPath).minY
                anchor = (found, top - tableView.contentOffset.y)
            }
        }
        let apply = {
            self.tableView.performBatchUpdates {
                self.replay(batch)
            }
        }
        if let (found, distance) = anchor {
            // Rows arrived above what the user reads: keep it in place, without sliding.
            UIView.performWithoutAnimation {
                apply()
                let top = self.tableView.rectForRow(at: found.new.indexPath).minY
                self.tableView.contentOffset = AdapterSupport.anchoredOffset(top: top, distance: distance, in: self.tableView)
            }
        } else if !batch.isEmpty {
            apply()
        }
        guard !steps.reconfigure.isEmpty else { return }
        let paths = steps.reconfigure.map(\.indexPath)
        if #available(iOS 15.0, *) {
            tableView.reconfigureRows(at: paths)
        } else {
            tableView.reloadRows(at: paths, with: rowAnimation)
        }
    }

    /// Tells the table one structural batch: sections first, then rows (UIKit's order).
    private func replay(_ batch: Changeset) {
        if !batch.sectionDeletes.isEmpty { tableView.deleteSections(Changeset.indexSet(batch.sectionDeletes), with: rowAnimation) }
        if !batch.sectionInserts.isEmpty { tableView.insertSections(Changeset.indexSet(batch.sectionInserts), with: rowAnimation) }
        if !batch.sectionUpdates.isEmpty { tableView.reloadSections(Changeset.indexSet(batch.sectionUpdates), with: rowAnimation) }
        for move in batch.sectionMoves { tableView.moveSection(move.from, toSection: move.to) }
        if !batch.itemDeletes.isEmpty { tableView.deleteRows(at: Changeset.indexPaths(batch.itemDeletes), with: rowAnimation) }
        if !batch.itemInserts.isEmpty { tableView.insertRows(at: Changeset.indexPaths(batch.itemInserts), with: rowAnimation) }
        for move in batch.itemMoves { tableView.moveRow(at: move.from.indexPath, to: move.to.indexPath) }
    }

    // MARK: Helpers

    private func currentCounts() -> [Int] { AdapterSupport.counts(of: self) }

    func model(at path: ItemPath) -> Any? { AdapterSupport.model(in: dataSource, at: path) }

    /// Updates the background placeholder after every apply, also when no row changed.
    public func contentStateDidChange(_ state: ContentState) { updateBackground() }

    /// Shows the controller's background placeholder (or none) behind the rows.
    ///
    /// Called after every reload, batch and apply (``contentStateDidChange(_:)``).
    public func updateBackground() {
        guard dataSource is ListController else { return }
        tableView.backgroundView = AdapterSupport.backgroundView(for: dataSource, provider: backgroundViewProvider)
    }

    fileprivate func noteCountsAsked() { layoutPendingAfterReload = false }

    fileprivate func displayedObject(for cell: UITableViewCell) -> AnyObject {
        (cell as? HostingTableCell)?.content ?? cell
    }

    fileprivate func uiCell(for object: AnyObject, at indexPath: IndexPath) -> UITableViewCell {
        if let cell = object as? UITableViewCell { return cell }
        if let host = hosts.host(of: object) as? HostingTableCell {
            renderer.render(object, host)
            return host
        }
        // Not dequeued from this table (a data source that built its own object): host it anyway.
        let source = CellSource(cellType: type(of: object), style: .default, kind: .type, make: nil)
        register(source)
        let host = tableView.dequeueReusableCell(withIdentifier: source.reuseIdentifier, for: indexPath)
        if let host = host as? HostingTableCell {
            host.content = object
            hosts.remember(host, for: object)
            renderer.render(object, host)
        }
        return host
    }

    fileprivate func noteUserMove() { userMovePending = true }
}

// MARK: - UITableViewDataSource

extension TableViewAdapter: UITableViewDataSource {
    public func numberOfSections(in tableView: UITableView) -> Int {
        noteCountsAsked()
        return dataSource?.numberOfSections(in: self) ?? 0
    }

    public func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        noteCountsAsked()
        return dataSource?.listView(self, numberOfItemsInSection: section) ?? 0
    }

    public func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        guard let dataSource else { return UITableViewCell() }
        return uiCell(for: dataSource.listView(self, cellForItemAt: ItemPath(indexPath)), at: indexPath)
    }

    public func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? {
        dataSource?.listView(self, titleForHeaderInSection: section)
    }

    public func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String? {
        dataSource?.listView(self, titleForFooterInSection: section)
    }

    public func sectionIndexTitles(for tableView: UITableView) -> [String]? {
        let titles = dataSource?.sectionIndexTitles(for: self) ?? []
        return titles.isEmpty ? nil : titles
    }

    public func tableView(_ tableView: UITableView, sectionForSectionIndexTitle title: String, at index: Int) -> Int {
        dataSource?.listView(self, sectionForSectionIndexTitle: title, at: index) ?? index
    }

    public func tableView(_ tableView: UITableView, canEditRowAt indexPath: IndexPath) -> Bool {
        let path = ItemPath(indexPath)
        guard let model = model(at: path) else { return false }
        return editing.canEdit(model, at: path) || editing.canMove(model, at: path)
    }

    public func tableView(_ tableView: UITableView, commit editingStyle: UITableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        let path = ItemPath(indexPath)
        guard editingStyle == .delete, let model = model(at: path) else { return }
        editing.delete(model, at: path)
    }

    public func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool {
        let path = ItemPath(indexPath)
        guard let model = model(at: path) else { return false }
        return editing.canMove(model, at: path)
    }

    public func tableView(_ tableView: UITableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        guard sourceIndexPath != destinationIndexPath else { return }
        noteUserMove()
        editing.onMove?(ItemPath(sourceIndexPath), ItemPath(destinationIndexPath))
    }
}

// MARK: - UITableViewDelegate

extension TableViewAdapter: UITableViewDelegate {
    public func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat {
        let path = ItemPath(indexPath)
        // Estimated rows self-size; their measured height goes back to the height cache.
        if delegate?.listView(self, needsMeasuringItemAt: path) == true { return UITableView.automaticDimension }
        return delegate?.listView(self, heightForItemAt: path).map { CGFloat($0) } ?? tableView.rowHeight
    }

    public func tableView(_ tableView: UITableView, estimatedHeightForRowAt indexPath: IndexPath) -> CGFloat {
        // The controller's heights (fed by the height cache) keep rows from jumping as they self-size.
        if let height = delegate?.listView(self, heightForItemAt: ItemPath(indexPath)) { return CGFloat(height) }
        return tableView.estimatedRowHeight > 0 ? tableView.estimatedRowHeight : 44
    }

    public func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        if deselectsAfterSelection { tableView.deselectRow(at: indexPath, animated: true) }
        delegate?.listView(self, didSelectItemAt: ItemPath(indexPath))
    }

    public func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        let path = ItemPath(indexPath)
        if delegate?.listView(self, needsMeasuringItemAt: path) == true {
            delegate?.listView(self, didMeasureHeight: Double(cell.bounds.height), forItemAt: path)
        }
        delegate?.listView(self, willDisplay: displayedObject(for: cell), at: path)
    }

    public func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        delegate?.listView(self, didEndDisplaying: displayedObject(for: cell), at: ItemPath(indexPath))
    }

    public func tableView(_ tableView: UITableView, editingStyleForRowAt indexPath: IndexPath) -> UITableViewCell.EditingStyle {
        let path = ItemPath(indexPath)
        guard let model = model(at: path) else { return .none }
        return editing.canDelete(model, at: path) ? .delete : .none
    }

    public func tableView(_ tableView: UITableView, leadingSwipeActionsConfigurationForRowAt indexPath: IndexPath) -> UISwipeActionsConfiguration? {
        let path = ItemPath(indexPath)
        guard let model = model(at: path) else { return nil }
        return UISwipeActionsConfiguration.make(editing.leadingActions(for: model, at: path), at: path)
    }

    public func tableView(_ tableView: UITableView, trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath) -> UISwipeActionsConfiguration? {
        let path = ItemPath(indexPath)
        guard let model = model(at: path) else { return nil }
        return UISwipeActionsConfiguration.make(editing.trailingActions(for: model, at: path), at: path)
    }
}

// MARK: - UITableViewDataSourcePrefetching

extension TableViewAdapter: UITableViewDataSourcePrefetching {
    public func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
        let paths = PrefetchRequest.valid(indexPaths.map(ItemPath.init), counts: currentCounts())
        if !paths.isEmpty { delegate?.listView(self, prefetchItemsAt: paths) }
    }

    public func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
        let paths = PrefetchRequest.valid(indexPaths.map(ItemPath.init), counts: currentCounts())
        if !paths.isEmpty { delegate?.listView(self, cancelPrefetchingItemsAt: paths) }
    }
}

extension UISwipeActionsConfiguration {
    /// UIKit's contextual actions for CellKit's row actions; `nil` when there are none.
    @MainActor
    static func make(_ actions: [RowAction], at path: ItemPath) -> UISwipeActionsConfiguration? {
        guard !actions.isEmpty else { return nil }
        let contextual = actions.map { action in
            let item = UIContextualAction(style: action.style == .destructive ? .destructive : .normal, title: action.title) { _, _, done in
                done(action.handler(path))
            }
            if let name = action.systemImage { item.image = UIImage(systemName: name) }
            return item
        }
        let configuration = UISwipeActionsConfiguration(actions: contextual)
        configuration.performsFirstActionWithFullSwipe = actions.first?.style == .destructive
        return configuration
    }
}
#endif
