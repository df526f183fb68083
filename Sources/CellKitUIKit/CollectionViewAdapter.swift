#if canImport(UIKit)
import UIKit
import CellKit

/// Makes a `UICollectionView`, with any layout (list, compositional, flow), a
/// CellKit ``/CellKit/ListView`` that a ``/CellKit/ListController`` drives.
///
/// It behaves like ``TableViewAdapter``: batches go through ``/CellKit/BatchPlan``, rows
/// whose content changed are reconfigured in place, the first visible item stays
/// put when items arrive above it, prefetching reaches the controller, and
/// section titles become header and footer supplementary views.
///
/// Cells: a `.type` source registers its `UICollectionViewCell` class, a `.nib`
/// source its nib. A `.template` source registers its class too: a collection
/// view always builds its own cells, so the template's `make` is not used here.
/// Platform-neutral cells (the default ``/CellKit/TextCell``, the placeholder cells) are
/// hosted in list cells and drawn by ``renderer``.
///
/// Keep a strong reference to the adapter: the collection view and the controller hold it weakly.
///
/// ```swift
/// final class PhotoCell: UICollectionViewListCell {}
/// struct Photo: Identifiable, Equatable, Sendable { let id: Int; var title: String }
///
/// @MainActor func photoGrid(_ photos: [Photo], controller: ListController) -> CollectionViewAdapter {
///     let collectionView = UICollectionView(frame: .zero, collectionViewLayout: UICollectionViewFlowLayout())
///     let adapter = CollectionViewAdapter(collectionView: collectionView)
///     collectionView.collectionViewLayout = adapter.makeListLayout(appearance: .plain)
///     controller.register(PhotoCell.self, for: Photo.self) { cell, photo in
///         var content = cell.defaultContentConfiguration()
///         content.text = photo.title
///         cell.contentConfiguration = content
///     }
///     controller.attach(to: adapter)
///     controller.apply(TableModel(photos))
///     return adapter
/// }
/// ```
@MainActor
public final class CollectionViewAdapter: NSObject, ListView {
    /// The collection view driven.
    public let collectionView: UICollectionView
    /// Who answers counts and cells (usually a ``/CellKit/ListController``); held weakly.
    public weak var dataSource: (any ListViewDataSource)?
    /// Who hears about heights, selection, display and prefetching; held weakly.
    public weak var delegate: (any ListViewDelegate)?

    /// Above this many changes in one batch, the view reloads instead of animating; `nil`: never.
    public var reloadThreshold: Int?
    /// Whether the first visible item stays put when items are inserted or removed above it.
    public var keepsFirstVisibleRow = true
    /// Whether a selected item is deselected right away.
    public var deselectsAfterSelection = true
    /// Delete, reorder and swipe actions per model type (swipes need ``makeListLayout(appearance:headers:footers:)``).
    public let editing = EditingTable()
    /// Draws platform-neutral cells into list cells.
    public var renderer = HostedCellRenderer.standard
    /// Builds a section's header or footer view; the default shows the data source's title.
    /// Return `nil` to use the default.
    public var supplementaryViewProvider: (@MainActor (_ collectionView: UICollectionView, _ kind: String, _ indexPath: IndexPath) -> UICollectionReusableView?)?
    /// Builds the background view for a ``/CellKit/BackgroundPlaceholder`` (when placeholders are not rows).
    public var backgroundViewProvider: @MainActor (BackgroundPlaceholder, _ retry: (@MainActor () -> Void)?) -> UIView = {
        PlaceholderBackgroundView(placeholder: $0, retry: $1)
    }
    /// Runs when the user pulls to refresh; the spinner stops when it returns. `nil`: no refresh control.
    public var refreshAction: (@MainActor () async -> Void)? {
        get { refresh.action }
        set {
            refresh.action = newValue
            refresh.install(on: collectionView)
        }
    }
    /// The last decision taken for a batch, for diagnostics and tests.
    public private(set) var lastPlan: BatchPlan?

    private var registered: Set<String> = []
    private var registeredSupplementary: Set<String> = []
    private var hosts = HostIndex()
    private var layoutPendingAfterReload = false
    private var userMovePending = false
    private let refresh = RefreshBridge()

    private static let titleReuseIdentifier = "CellKit.SectionTitle"

    /// Makes `collectionView` a list view; becomes its data source, delegate and prefetch data source.
    public init(collectionView: UICollectionView) {
        self.collectionView = collectionView
        super.init()
        collectionView.dataSource = self
        collectionView.delegate = self
        collectionView.prefetchDataSource = self
    }

    /// A list layout (iOS 14's `UICollectionLayoutListConfiguration`) with swipe
    /// actions from ``editing``, and the sections' header and footer titles as
    /// supplementary views when `headers` / `footers` is true.
    public func makeListLayout(
        appearance: UICollectionLayoutListConfiguration.Appearance = .insetGrouped,
        headers: Bool = false, footers: Bool = false
    ) -> UICollectionViewLayout {
        var configuration = UICollectionLayoutListConfiguration(appearance: appearance)
        configuration.headerMode = headers ? .supplementary : .none
        configuration.footerMode = footers ? .supplementary : .none
        configuration.leadingSwipeActionsConfigurationProvider = { [weak self] indexPath in
            self?.swipeActions(at: indexPath, leading: true)
        }
        configuration.trailingSwipeActionsConfigurationProvider = { [weak self] indexPath in
            self?.swipeActions(at: indexPath, leading: false)
        }
        return UICollectionViewCompositionalLayout.list(using: configuration)
    }

    // MARK: ListView

    public func register(_ source: CellSource) {
        guard registered.insert(source.reuseIdentifier).inserted else { return }
        let id = source.reuseIdentifier
        if let nib = source.uiNib {
            collectionView.register(nib, forCellWithReuseIdentifier: id)
        } else if let cellClass = source.cellType as? UICollectionViewCell.Type {
            collectionView.register(cellClass, forCellWithReuseIdentifier: id)
        } else {
            collectionView.register(HostingCollectionCell.self, forCellWithReuseIdentifier: id)
        }
    }

    public func dequeueReusableCell(_ source: CellSource, for path: ItemPath) -> AnyObject {
        register(source)
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: source.reuseIdentifier, for: path.indexPath)
        guard let host = cell as? HostingCollectionCell else { return cell }
        let content = host.content ?? source.make?() ?? TextCell()
        host.content = content
        hosts.remember(host, for: content)
        return content
    }

    public var visibleItemPaths: [ItemPath] {
        collectionView.indexPathsForVisibleItems.map(ItemPath.init).sorted()
    }

    public func cell(at path: ItemPath) -> AnyObject? {
        guard let cell = collectionView.cellForItem(at: path.indexPath) else { return nil }
        return (cell as? HostingCollectionCell)?.content ?? cell
    }

    public func reloadData() {
        layoutPendingAfterReload = true
        userMovePending = false
        collectionView.reloadData()
        updateBackground()
    }

    public func performBatchUpdates(_ changeset: Changeset, updateData: () -> Void) throws {
        let oldCounts = AdapterSupport.counts(of: self)
        updateData()
        let newCounts = AdapterSupport.counts(of: self)
        if userMovePending, AdapterSupport.isPureMove(changeset, oldCounts: oldCounts, newCounts: newCounts) {
            userMovePending = false
            lastPlan = .animate(BatchPlan.Steps(structural: changeset, reconfigure: []))
            return
        }
        userMovePending = false
        let plan = BatchPlan.decide(
            changeset, oldCounts: oldCounts, newCounts: newCounts,
            hasWindow: collectionView.window != nil, threshold: reloadThreshold,
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
        guard let host = collectionView.cellForItem(at: path.indexPath) as? HostingCollectionCell, let content = host.content else { return }
        renderer.render(content, host)
    }

    /// Updates the background placeholder after every apply, also when no row changed.
    public func contentStateDidChange(_ state: ContentState) { updateBackground() }

    /// Shows the controller's background placeholder (or none) behind the items.
    ///
    /// Called after every reload, batch and apply (``contentStateDidChange(_:)``).
    public func updateBackground() {
        guard dataSource is ListController else { return }
        collectionView.backgroundView = AdapterSupport.backgroundView(for: dataSource, provider: backgroundViewProvider)
    }

    // MARK: Applying a plan

    private func animate(_ steps: BatchPlan.Steps, oldCounts: [Int], newCounts: [Int]) {
        let batch = steps.structural
        var anchor: (ScrollAnchor, CGFloat)?
        if keepsFirstVisibleRow, !batch.isEmpty {
            let mapping = PathMapping(batch, oldCounts: oldCounts, newCounts: newCounts)
            if let found = ScrollAnchor.find(visible: visibleItemPaths, changeset: batch, mapping: mapping), found.shiftedFromAbove,
               let frame = collectionView.layoutAttributesForItem(at: found.old.indexPath)?.frame {
                anchor = (found, frame.minY - collectionView.contentOffset.y)
            }
        }
        let apply = {
            self.collectionView.performBatchUpdates({ self.replay(batch) }, completion: nil)
        }
        if let (found, distance) = anchor {
            UIView.performWithoutAnimation {
                apply()
                self.collectionView.layoutIfNeeded()
                if let frame = self.collectionView.layoutAttributesForItem(at: found.new.indexPath)?.frame {
                    self.collectionView.contentOffset = AdapterSupport.anchoredOffset(top: frame.minY, distance: distance, in: self.collectionView)
                }
            }
        } else if !batch.isEmpty {
            apply()
        }
        guard !steps.reconfigure.isEmpty else { return }
        let paths = steps.reconfigure.map(\.indexPath)
        if #available(iOS 15.0, *) {
            collectionView.reconfigureItems(at: paths)
        } else {
            collectionView.reloadItems(at: paths)
        }
    }

    /// Tells the collection view one structural batch: sections first, then items.
    private func replay(_ batch: Changeset) {
        if !batch.sectionDeletes.isEmpty { collectionView.deleteSections(Changeset.indexSet(batch.sectionDeletes)) }
        if !batch.sectionInserts.isEmpty { collectionView.insertSections(Changeset.indexSet(batch.sectionInserts)) }
        if !batch.sectionUpdates.isEmpty { collectionView.reloadSections(Changeset.indexSet(batch.sectionUpdates)) }
        for move in batch.sectionMoves { collectionView.moveSection(move.from, toSection: move.to) }
        if !batch.itemDeletes.isEmpty { collectionView.deleteItems(at: Changeset.indexPaths(batch.itemDeletes)) }
        if !batch.itemInserts.isEmpty { collectionView.insertItems(at: Changeset.indexPaths(batch.itemInserts)) }
        for move in batch.itemMoves { collectionView.moveItem(at: move.from.indexPath, to: move.to.indexPath) }
    }

    // MARK: Helpers

    private func swipeActions(at indexPath: IndexPath, leading: Bool) -> UISwipeActionsConfiguration? {
        let path = ItemPath(indexPath)
        guard let model = AdapterSupport.model(in: dataSource, at: path) else { return nil }
        let actions = leading ? editing.leadingActions(for: model, at: path) : editing.trailingActions(for: model, at: path)
        return UISwipeActionsConfiguration.make(actions, at: path)
    }

    fileprivate func noteCountsAsked() { layoutPendingAfterReload = false }
    fileprivate func noteUserMove() { userMovePending = true }

    fileprivate func displayedObject(for cell: UICollectionViewCell) -> AnyObject {
        (cell as? HostingCollectionCell)?.content ?? cell
    }

    fileprivate func uiCell(for object: AnyObject, at indexPath: IndexPath) -> UICollectionViewCell {
        if let cell = object as? UICollectionViewCell { return cell }
        if let host = hosts.host(of: object) as? HostingCollectionCell {
            renderer.render(object, host)
            return host
        }
        let source = CellSource(cellType: type(of: object), style: .default, kind: .type, make: nil)
        register(source)
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: source.reuseIdentifier, for: indexPath)
        if let host = cell as? HostingCollectionCell {
            host.content = object
            hosts.remember(host, for: object)
            renderer.render(object, host)
        }
        return cell
    }

    fileprivate func titleView(kind: String, at indexPath: IndexPath) -> UICollectionReusableView {
        if registeredSupplementary.insert(kind).inserted {
            collectionView.register(UICollectionViewListCell.self, forSupplementaryViewOfKind: kind, withReuseIdentifier: Self.titleReuseIdentifier)
        }
        let view = collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: Self.titleReuseIdentifier, for: indexPath)
        let isFooter = kind == UICollectionView.elementKindSectionFooter
        let title = isFooter
            ? dataSource?.listView(self, titleForFooterInSection: indexPath.section)
            : dataSource?.listView(self, titleForHeaderInSection: indexPath.section)
        if let cell = view as? UICollectionViewListCell {
            var content = isFooter ? UIListContentConfiguration.groupedFooter() : UIListContentConfiguration.groupedHeader()
            content.text = title
            cell.contentConfiguration = content
        }
        return view
    }
}

// MARK: - UICollectionViewDataSource

extension CollectionViewAdapter: UICollectionViewDataSource {
    public func numberOfSections(in collectionView: UICollectionView) -> Int {
        noteCountsAsked()
        return dataSource?.numberOfSections(in: self) ?? 0
    }

    public func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        noteCountsAsked()
        return dataSource?.listView(self, numberOfItemsInSection: section) ?? 0
    }

    public func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        guard let dataSource else {
            register(CellSource(cellType: TextCell.self, style: .default, kind: .type, make: nil))
            return uiCell(for: TextCell(), at: indexPath)
        }
        return uiCell(for: dataSource.listView(self, cellForItemAt: ItemPath(indexPath)), at: indexPath)
    }

    public func collectionView(
        _ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath
    ) -> UICollectionReusableView {
        if let view = supplementaryViewProvider?(collectionView, kind, indexPath) { return view }
        return titleView(kind: kind, at: indexPath)
    }

    public func indexTitles(for collectionView: UICollectionView) -> [String]? {
        let titles = dataSource?.sectionIndexTitles(for: self) ?? []
        return titles.isEmpty ? nil : titles
    }

    public func collectionView(_ collectionView: UICollectionView, indexPathForIndexTitle title: String, at index: Int) -> IndexPath {
        let section = dataSource?.listView(self, sectionForSectionIndexTitle: title, at: index) ?? index
        return IndexPath(item: 0, section: max(0, min(section, collectionView.numberOfSections - 1)))
    }

    public func collectionView(_ collectionView: UICollectionView, canMoveItemAt indexPath: IndexPath) -> Bool {
        let path = ItemPath(indexPath)
        guard let model = AdapterSupport.model(in: dataSource, at: path) else { return false }
        return editing.canMove(model, at: path)
    }

    public func collectionView(_ collectionView: UICollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        guard sourceIndexPath != destinationIndexPath else { return }
        noteUserMove()
        editing.onMove?(ItemPath(sourceIndexPath), ItemPath(destinationIndexPath))
    }
}

// MARK: - UICollectionViewDelegate

extension CollectionViewAdapter: UICollectionViewDelegateFlowLayout {
    public func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
        if deselectsAfterSelection { collectionView.deselectItem(at: indexPath, animated: true) }
        delegate?.listView(self, didSelectItemAt: ItemPath(indexPath))
    }

    public func collectionView(_ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath) {
        let path = ItemPath(indexPath)
        if delegate?.listView(self, needsMeasuringItemAt: path) == true {
            delegate?.listView(self, didMeasureHeight: Double(cell.bounds.height), forItemAt: path)
        }
        delegate?.listView(self, willDisplay: displayedObject(for: cell), at: path)
    }

    public func collectionView(_ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell, forItemAt indexPath: IndexPath) {
        delegate?.listView(self, didEndDisplaying: displayedObject(for: cell), at: ItemPath(indexPath))
    }

    /// Flow layouts only: full-width items, as tall as the controller says, else the layout's item size.
    public func collectionView(
        _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout, sizeForItemAt indexPath: IndexPath
    ) -> CGSize {
        let flow = collectionViewLayout as? UICollectionViewFlowLayout
        let path = ItemPath(indexPath)
        if delegate?.listView(self, needsMeasuringItemAt: path) != true, let height = delegate?.listView(self, heightForItemAt: path) {
            let inset = flow?.sectionInset ?? .zero
            let width = collectionView.bounds.width - collectionView.adjustedContentInset.left - collectionView.adjustedContentInset.right
                - inset.left - inset.right
            return CGSize(width: max(0, width), height: CGFloat(height))
        }
        guard let flow else { return .zero }
        return flow.estimatedItemSize == .zero ? flow.itemSize : flow.estimatedItemSize
    }
}

// MARK: - UICollectionViewDataSourcePrefetching

extension CollectionViewAdapter: UICollectionViewDataSourcePrefetching {
    public func collectionView(_ collectionView: UICollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
        let paths = PrefetchRequest.valid(indexPaths.map(ItemPath.init), counts: AdapterSupport.counts(of: self))
        if !paths.isEmpty { delegate?.listView(self, prefetchItemsAt: paths) }
    }

    public func collectionView(_ collectionView: UICollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]) {
        let paths = PrefetchRequest.valid(indexPaths.map(ItemPath.init), counts: AdapterSupport.counts(of: self))
        if !paths.isEmpty { delegate?.listView(self, cancelPrefetchingItemsAt: paths) }
    }
}
#endif
