#if canImport(UIKit)
import UIKit
import CellKit

/// Makes a `UITableView` a CellKit ``/CellKit/ListView``: a ``/CellKit/ListController`` attached to
/// the adapter drives the table through data source, delegate and prefetching bridges.
///
/// The adapter is UIKit glue over a ``/CellKit/ListViewCore`` (see ``ListViewAdapter``):
/// the core validates each batch once against the counts the table cached,
/// switches the data inside `performBatchUpdates`, reconfigures changed rows in
/// place with the same cell, keeps the first visible row put when rows arrive
/// above it, and reloads instead when the table has no window, was just
/// reloaded, the batch is over ``ListViewAdapter/reloadThreshold`` or breaks a rule.
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
public final class TableViewAdapter: ListViewAdapter {
    /// The table view driven.
    public var tableView: UITableView { unsafeDowncast(scrollView, to: UITableView.self) }
    /// The animation of inserted, deleted and reloaded rows and sections.
    public var rowAnimation: UITableView.RowAnimation = .automatic

    /// Makes `tableView` a list view; becomes its data source, delegate and prefetch data source.
    public convenience init(tableView: UITableView) {
        self.init(tableView: tableView, role: .drives)
    }

    init(tableView: UITableView, role: Role) {
        super.init(scrollView: tableView, role: role)
        guard role == .drives else { return }
        if tableView.rowHeight <= 0 { tableView.rowHeight = UITableView.automaticDimension }
        tableView.dataSource = self
        tableView.delegate = self
        tableView.prefetchDataSource = self
    }

    override func platformRegister(_ source: CellSource) {
        if let nib = source.uiNib {
            tableView.register(nib, forCellReuseIdentifier: source.reuseIdentifier)
        } else if case .template = source.kind, source.cellType is UITableViewCell.Type {
            // A template builds its own cells (with their cell style): no class registered.
        } else {
            let cellClass = source.cellType as? UITableViewCell.Type ?? HostingTableCell.self
            tableView.register(cellClass, forCellReuseIdentifier: source.reuseIdentifier)
        }
    }

    override func platformDequeue(_ source: CellSource, at indexPath: IndexPath) -> UIView {
        if case .template = source.kind, source.cellType is UITableViewCell.Type {
            // Never during a reconfigure of a row UIKit has a cell for: the core hands that cell back
            // (showing the row, or prepared for it) before this.
            if let reused = tableView.dequeueReusableCell(withIdentifier: templateIdentifiers.dequeueIdentifier(for: source)) {
                return reused
            }
            let built = (source.make?() as? UITableViewCell) ?? HostingTableCell()
            templateIdentifiers.built(source, carrying: built.reuseIdentifier)
            return built
        }
        return tableView.dequeueReusableCell(withIdentifier: source.reuseIdentifier, for: indexPath)
    }

    override func platformBatch(_ updates: () -> Void) { tableView.performBatchUpdates(updates) }

    /// Tells the table one structural batch: sections first, then rows (UIKit's order).
    override func platformReplay(_ batch: Changeset) {
        let table = tableView, animation = rowAnimation
        let sectionSteps: [([Int], (IndexSet, UITableView.RowAnimation) -> Void)] = [
            (batch.sectionDeletes, table.deleteSections), (batch.sectionInserts, table.insertSections), (batch.sectionUpdates, table.reloadSections),
        ]
        for (sections, step) in sectionSteps where !sections.isEmpty { step(Changeset.indexSet(sections), animation) }
        batch.sectionMoves.forEach { table.moveSection($0.from, toSection: $0.to) }
        let rowSteps: [([ItemPath], ([IndexPath], UITableView.RowAnimation) -> Void)] = [
            (batch.itemDeletes, table.deleteRows), (batch.itemInserts, table.insertRows),
        ]
        for (rows, step) in rowSteps where !rows.isEmpty { step(Changeset.indexPaths(rows), animation) }
        batch.itemMoves.forEach { table.moveRow(at: $0.from.indexPath, to: $0.to.indexPath) }
    }

    override func platformReconfigure(_ indexPaths: [IndexPath]) {
        tableView.reconfigureRows(at: indexPaths)   // iOS 15, the package's minimum: no reload fallback (it would replace the cell)
    }

    /// "Use this method followed by `endUpdates()` to animate the change in the row heights
    /// without reloading the cell" (`beginUpdates()`): an empty batch asks the heights again.
    override func platformMeasureAgain(_ indexPaths: [IndexPath]) {
        tableView.performBatchUpdates(nil, completion: nil)
    }

    override func platformReload() { tableView.reloadData() }

    override func platformFrame(at indexPath: IndexPath) -> CGRect? {
        indexPath.section < tableView.numberOfSections && indexPath.row < tableView.numberOfRows(inSection: indexPath.section)
            ? tableView.rectForRow(at: indexPath) : nil
    }

    override func platformCell(at indexPath: IndexPath) -> UIView? { tableView.cellForRow(at: indexPath) }

    override func platformScroll(to indexPath: IndexPath, animated: Bool) {
        tableView.scrollToRow(at: indexPath, at: .top, animated: animated)
    }

    /// "`NSNotFound` is a valid row index for scrolling to a section with zero rows" (`scrollToRow(at:at:animated:)`).
    override var platformScrollsToSectionTops: Bool { true }

    /// Any table cell (a table takes cells it did not dequeue).
    override func platformAccepts(_ view: UIView) -> Bool { view is UITableViewCell }

    private func model(at indexPath: IndexPath) -> Any? { AdapterSupport.model(in: dataSource, at: ItemPath(indexPath)) }
}

// MARK: - UITableViewDataSource

extension TableViewAdapter: UITableViewDataSource {
    public func numberOfSections(in tableView: UITableView) -> Int { core.readCounts().count }
    public func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { rowCount(in: section) }
    public func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        tableCell(configuredCell(at: indexPath))
    }

    /// The cell UIKit gets (one the adapter hands out is always a table cell).
    func tableCell(_ view: UIView) -> UITableViewCell { view as? UITableViewCell ?? UITableViewCell() }

    public func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? {
        dataSource?.listView(self, titleForHeaderInSection: section)
    }

    public func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String? {
        dataSource?.listView(self, titleForFooterInSection: section)
    }

    public func sectionIndexTitles(for tableView: UITableView) -> [String]? { platformIndexTitles() }

    public func tableView(_ tableView: UITableView, sectionForSectionIndexTitle title: String, at index: Int) -> Int {
        dataSource?.listView(self, sectionForSectionIndexTitle: title, at: index) ?? index
    }

    public func tableView(_ tableView: UITableView, canEditRowAt indexPath: IndexPath) -> Bool {
        guard let model = model(at: indexPath) else { return false }
        return editing.canEdit(model, at: ItemPath(indexPath)) || editing.canMove(model, at: ItemPath(indexPath))
    }

    public func tableView(_ tableView: UITableView, commit editingStyle: UITableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        guard editingStyle == .delete, let model = model(at: indexPath) else { return }
        editing.delete(model, at: ItemPath(indexPath))
    }

    public func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool {
        model(at: indexPath).map { editing.canMove($0, at: ItemPath(indexPath)) } ?? false
    }

    public func tableView(_ tableView: UITableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        guard sourceIndexPath != destinationIndexPath else { return }
        platformUserMoved(from: sourceIndexPath, to: destinationIndexPath)
    }
}

// MARK: - UITableViewDelegate

extension TableViewAdapter: UITableViewDelegate {
    public func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat {
        fixedHeight(at: ItemPath(indexPath), width: tableView.bounds.width) ?? UITableView.automaticDimension
    }

    public func tableView(_ tableView: UITableView, estimatedHeightForRowAt indexPath: IndexPath) -> CGFloat {
        // The cached (measured) height, or the estimate: rows do not jump as they self-size.
        delegateHeight(at: ItemPath(indexPath))
            ?? (tableView.estimatedRowHeight > 0 ? tableView.estimatedRowHeight : 44)
    }

    public func tableView(_ tableView: UITableView, shouldHighlightRowAt indexPath: IndexPath) -> Bool {
        platformShouldHighlight(indexPath, forwarded: (forwardingDelegate as? UITableViewDelegate)?.tableView?(tableView, shouldHighlightRowAt: indexPath))
    }

    public func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        platformDidSelect(indexPath, deselect: tableView.deselectRow)
    }

    public func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        platformWillDisplay(cell, at: indexPath)
    }

    public func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        platformDidEndDisplaying(cell, at: indexPath)
    }

    public func tableView(_ tableView: UITableView, editingStyleForRowAt indexPath: IndexPath) -> UITableViewCell.EditingStyle {
        model(at: indexPath).map { editing.canDelete($0, at: ItemPath(indexPath)) ? .delete : .none } ?? .none
    }

    public func tableView(
        _ tableView: UITableView, targetIndexPathForMoveFromRowAt sourceIndexPath: IndexPath, toProposedIndexPath proposed: IndexPath
    ) -> IndexPath {
        platformMoveTarget(from: sourceIndexPath, proposed: proposed)
    }

    public func tableView(_ tableView: UITableView, leadingSwipeActionsConfigurationForRowAt indexPath: IndexPath) -> UISwipeActionsConfiguration? {
        model(at: indexPath).flatMap { UISwipeActionsConfiguration.make(core.rowActions(editing.leadingActions(for: $0, at: ItemPath(indexPath)), offeredAt: ItemPath(indexPath)), at: ItemPath(indexPath)) }
    }

    public func tableView(_ tableView: UITableView, trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath) -> UISwipeActionsConfiguration? {
        model(at: indexPath).flatMap { UISwipeActionsConfiguration.make(core.rowActions(editing.trailingActions(for: $0, at: ItemPath(indexPath)), offeredAt: ItemPath(indexPath)), at: ItemPath(indexPath)) }
    }
}

// MARK: - UITableViewDataSourcePrefetching

extension TableViewAdapter: UITableViewDataSourcePrefetching {
    public func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) { platformPrefetch(indexPaths) }
    public func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) { platformCancelPrefetch(indexPaths) }
}

extension UISwipeActionsConfiguration {
    /// UIKit's contextual actions for CellKit's row actions; `nil` when there are none. The
    /// adapters pass actions from `ListViewCore.rowActions(_:offeredAt:)`, which run on the
    /// swiped row wherever batches moved it while the actions showed (`path` is not used then).
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
