#if canImport(UIKit)
import UIKit
import CellKit

/// Makes a `UICollectionView`, with any layout (list, compositional, flow), a
/// CellKit ``/CellKit/ListView`` that a ``/CellKit/ListController`` drives.
///
/// It is UIKit glue over the same ``/CellKit/ListViewCore`` as ``TableViewAdapter`` (see
/// ``ListViewAdapter``): the data switches inside `performBatchUpdates`, rows
/// whose content changed are reconfigured in place, the first visible item stays
/// put when items arrive above it, prefetching reaches the controller, and
/// section titles become header and footer supplementary views. In a flow
/// layout (without `estimatedItemSize`), items get the full width and the controller's
/// height; a self-sizing (`.estimated`) item gets its estimate until it shows, when its
/// content is fitted at that width (Auto Layout) and the item takes that height
/// (``/CellKit/SelfSizingStep``); an item with no height rule gets the layout's
/// `itemSize` height. Headers and footers get the app's forwarding delegate's size, else
/// the layout's reference size, else 28 points for a section with a title
/// (``/CellKit/AdapterSizing/supplementaryHeight(hasTitle:referenceHeight:)``).
///
/// Cells: a `.type` source registers its `UICollectionViewCell` class, a `.nib`
/// source its nib. A `.template` source registers its class too: a collection
/// view always builds its own cells, so the template's `make` is not used here.
/// Platform-neutral cells (the default ``/CellKit/TextCell``, the placeholder cells) are
/// hosted in list cells and drawn by ``ListViewAdapter/renderer``.
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
public final class CollectionViewAdapter: ListViewAdapter {
    /// The collection view driven.
    public var collectionView: UICollectionView { unsafeDowncast(scrollView, to: UICollectionView.self) }
    /// Builds a section's header or footer view; the default shows the data source's title.
    /// Return a view dequeued with `dequeueReusableSupplementaryView(ofKind:withReuseIdentifier:for:)`
    /// for that kind and index path (UIKit raises for any other), or `nil`, without dequeuing
    /// anything, to use the default (a view dequeued and not returned makes UIKit raise too).
    public var supplementaryViewProvider: (@MainActor (_ collectionView: UICollectionView, _ kind: String, _ indexPath: IndexPath) -> UICollectionReusableView?)?

    private var registeredSupplementary: Set<String> = []
    /// The appearance of the list layout ``makeListLayout(appearance:headers:footers:)`` made
    /// last: the default title views take its header and footer style.
    private var listAppearance: UICollectionLayoutListConfiguration.Appearance?
    private static let titleReuseIdentifier = "CellKit.SectionTitle"

    /// Makes `collectionView` a list view; becomes its data source, delegate and prefetch data source.
    public convenience init(collectionView: UICollectionView) {
        self.init(collectionView: collectionView, role: .drives)
    }

    init(collectionView: UICollectionView, role: Role) {
        super.init(scrollView: collectionView, role: role)
        guard role == .drives else { return }
        collectionView.dataSource = self
        collectionView.delegate = self
        collectionView.prefetchDataSource = self
    }

    /// A list layout (iOS 14's `UICollectionLayoutListConfiguration`) with swipe
    /// actions from ``ListViewAdapter/editing``, and the sections' header and footer titles as
    /// supplementary views when `headers` / `footers` is true.
    public func makeListLayout(
        appearance: UICollectionLayoutListConfiguration.Appearance = .insetGrouped,
        headers: Bool = false, footers: Bool = false
    ) -> UICollectionViewLayout {
        listAppearance = appearance
        var configuration = UICollectionLayoutListConfiguration(appearance: appearance)
        configuration.headerMode = headers ? .supplementary : .none
        configuration.footerMode = footers ? .supplementary : .none
        configuration.leadingSwipeActionsConfigurationProvider = { [weak self] in self?.swipeActions(at: $0, leading: true) }
        configuration.trailingSwipeActionsConfigurationProvider = { [weak self] in self?.swipeActions(at: $0, leading: false) }
        return UICollectionViewCompositionalLayout.list(using: configuration)
    }

    override func platformRegister(_ source: CellSource) {
        // A collection view always builds its own cells: a template registers its class.
        if let nib = source.uiNib {
            collectionView.register(nib, forCellWithReuseIdentifier: source.reuseIdentifier)
        } else {
            let cellClass = source.cellType as? UICollectionViewCell.Type ?? HostingCollectionCell.self
            collectionView.register(cellClass, forCellWithReuseIdentifier: source.reuseIdentifier)
        }
    }

    override func platformDequeue(_ source: CellSource, at indexPath: IndexPath) -> UIView {
        collectionView.dequeueReusableCell(withReuseIdentifier: source.reuseIdentifier, for: indexPath)
    }

    override func platformBatch(_ updates: () -> Void) { collectionView.performBatchUpdates(updates, completion: nil) }

    override func platformReplay(_ batch: Changeset) {
        if !batch.sectionDeletes.isEmpty { collectionView.deleteSections(Changeset.indexSet(batch.sectionDeletes)) }
        if !batch.sectionInserts.isEmpty { collectionView.insertSections(Changeset.indexSet(batch.sectionInserts)) }
        if !batch.sectionUpdates.isEmpty { collectionView.reloadSections(Changeset.indexSet(batch.sectionUpdates)) }
        for move in batch.sectionMoves { collectionView.moveSection(move.from, toSection: move.to) }
        if !batch.itemDeletes.isEmpty { collectionView.deleteItems(at: Changeset.indexPaths(batch.itemDeletes)) }
        if !batch.itemInserts.isEmpty { collectionView.insertItems(at: Changeset.indexPaths(batch.itemInserts)) }
        for move in batch.itemMoves { collectionView.moveItem(at: move.from.indexPath, to: move.to.indexPath) }
    }

    override func platformReconfigure(_ indexPaths: [IndexPath]) {
        collectionView.reconfigureItems(at: indexPaths)   // iOS 15, the package's minimum
    }

    /// A flow layout asks `sizeForItemAt` again once its delegate's metrics are invalidated;
    /// other layouts size a reconfigured self-sizing cell again themselves. A row whose top is
    /// above the viewport moves the content offset by its change of height, so the rows on
    /// screen stay put (``/CellKit/AdapterSizing/contentOffsetAdjustment(oldMinY:oldHeight:newHeight:viewportTop:)``,
    /// clamped to the content by ``/CellKit/AdapterSizing/contentOffsetAdjustment(_:contentOffsetY:topInset:maxOffsetY:)``).
    /// Only without `estimatedItemSize` (the guard `platformFittedHeight` uses): with it,
    /// UIKit sizes the cell again itself and `sizeForItemAt` gives only an estimate. The old
    /// frame is the cell's on screen (`cellForItem(at:)`), not the invalidated layout's,
    /// which would prepare the layout again; a row with no cell on screen moves nothing.
    override func platformMeasureAgain(_ indexPaths: [IndexPath]) {
        guard let flow = collectionView.collectionViewLayout as? UICollectionViewFlowLayout else { return }
        let context = UICollectionViewFlowLayoutInvalidationContext()
        context.invalidateFlowLayoutDelegateMetrics = true
        context.invalidateItems(at: indexPaths)
        if flow.estimatedItemSize == .zero {
            let inset = collectionView.adjustedContentInset
            let offsetY = Double(collectionView.contentOffset.y)
            let viewportTop = offsetY + Double(inset.top)
            var adjustment = 0.0
            var growth = 0.0
            for indexPath in indexPaths {
                guard let old = collectionView.cellForItem(at: indexPath)?.frame else { continue }
                let new = Double(collectionView(collectionView, layout: flow, sizeForItemAt: indexPath).height)
                if new.isFinite { growth += new - Double(old.height) }
                adjustment += AdapterSizing.contentOffsetAdjustment(
                    oldMinY: Double(old.minY), oldHeight: Double(old.height), newHeight: new, viewportTop: viewportTop)
            }
            let maxOffsetY = Double(collectionView.contentSize.height) + growth + Double(inset.bottom) - Double(collectionView.bounds.height)
            let clamped = AdapterSizing.contentOffsetAdjustment(
                adjustment, contentOffsetY: offsetY, topInset: Double(inset.top), maxOffsetY: maxOffsetY)
            if clamped != 0 { context.contentOffsetAdjustment = CGPoint(x: 0, y: clamped) }
        }
        flow.invalidateLayout(with: context)
    }

    override func platformReload() { collectionView.reloadData() }

    /// A flow layout without `estimatedItemSize` lays the cell out at the size `sizeForItemAt`
    /// gave (the estimate): the height its content needs at its width, fitted by Auto Layout.
    override func platformFittedHeight(of cell: UIView) -> CGFloat? {
        guard let flow = collectionView.collectionViewLayout as? UICollectionViewFlowLayout, flow.estimatedItemSize == .zero else { return nil }
        let target = CGSize(width: cell.bounds.width, height: UIView.layoutFittingCompressedSize.height)
        return cell.systemLayoutSizeFitting(target, withHorizontalFittingPriority: .required, verticalFittingPriority: .fittingSizeLevel).height
    }

    override func platformFrame(at indexPath: IndexPath) -> CGRect? {
        collectionView.layoutAttributesForItem(at: indexPath)?.frame
    }

    override func platformCell(at indexPath: IndexPath) -> UIView? { collectionView.cellForItem(at: indexPath) }

    override func platformScroll(to indexPath: IndexPath, animated: Bool) {
        collectionView.scrollToItem(at: indexPath, at: .top, animated: animated)
    }

    /// A collection cell it dequeued: one without a reuse identifier makes UIKit raise
    /// ("cells must be retrieved by calling -dequeueReusableCellWithReuseIdentifier:forIndexPath:").
    override func platformAccepts(_ view: UIView) -> Bool { (view as? UICollectionViewCell)?.reuseIdentifier != nil }

    private func swipeActions(at indexPath: IndexPath, leading: Bool) -> UISwipeActionsConfiguration? {
        let path = ItemPath(indexPath)
        guard let model = AdapterSupport.model(in: dataSource, at: path) else { return nil }
        let actions = leading ? editing.leadingActions(for: model, at: path) : editing.trailingActions(for: model, at: path)
        return UISwipeActionsConfiguration.make(core.rowActions(actions, offeredAt: path), at: path)
    }

    /// The width an item gets in a flow layout: the content width less the section insets.
    private func availableWidth(_ layout: UICollectionViewLayout) -> CGFloat {
        let inset = (layout as? UICollectionViewFlowLayout)?.sectionInset ?? .zero
        let content = collectionView.adjustedContentInset
        return max(0, collectionView.bounds.width - content.left - content.right - inset.left - inset.right)
    }

    fileprivate func titleView(kind: String, at indexPath: IndexPath) -> UICollectionReusableView {
        if registeredSupplementary.insert(kind).inserted {
            collectionView.register(UICollectionViewListCell.self, forSupplementaryViewOfKind: kind, withReuseIdentifier: Self.titleReuseIdentifier)
        }
        let view = collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: Self.titleReuseIdentifier, for: indexPath)
        let isFooter = kind == UICollectionView.elementKindSectionFooter
        if let cell = view as? UICollectionViewListCell {
            var content = Self.titleConfiguration(footer: isFooter, appearance: listAppearance)
            content.text = isFooter
                ? dataSource?.listView(self, titleForFooterInSection: indexPath.section)
                : dataSource?.listView(self, titleForHeaderInSection: indexPath.section)
            cell.contentConfiguration = content
        }
        return view
    }

    /// UIKit's header or footer style for a list of `appearance` (grouped when the layout is not one of the adapter's lists).
    private static func titleConfiguration(footer: Bool, appearance: UICollectionLayoutListConfiguration.Appearance?) -> UIListContentConfiguration {
        switch appearance {
        case .plain?, .sidebarPlain?: footer ? .plainFooter() : .plainHeader()
        case .sidebar?: footer ? .groupedFooter() : .sidebarHeader()
        default: footer ? .groupedFooter() : .groupedHeader()
        }
    }
}

// MARK: - UICollectionViewDataSource

extension CollectionViewAdapter: UICollectionViewDataSource {
    public func numberOfSections(in collectionView: UICollectionView) -> Int { core.readCounts().count }

    public func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { rowCount(in: section) }

    public func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        // The data source dequeues with the index path; hosted content comes back in its hosting cell.
        collectionCell(configuredCell(at: indexPath))
    }

    /// The cell UIKit gets (one the adapter hands out is always a cell it dequeued, or hosts).
    func collectionCell(_ view: UIView) -> UICollectionViewCell { view as? UICollectionViewCell ?? UICollectionViewCell() }

    public func collectionView(
        _ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath
    ) -> UICollectionReusableView {
        supplementaryViewProvider?(collectionView, kind, indexPath) ?? titleView(kind: kind, at: indexPath)
    }

    public func indexTitles(for collectionView: UICollectionView) -> [String]? { platformIndexTitles() }

    public func collectionView(_ collectionView: UICollectionView, indexPathForIndexTitle title: String, at index: Int) -> IndexPath {
        // An item that exists: UIKit raises when scrolling to an item of an empty section. A list
        // with no item shows no index (`ListViewCore.indexTitles(_:sectionTops:)`). After a batch
        // that empties the list UIKit may keep the old titles (no reload follows a batch; when it
        // reads them again is assumed, not seen on a device): (0, 0) answers a tap on those.
        let section = dataSource?.listView(self, sectionForSectionIndexTitle: title, at: index) ?? index
        return (core.firstItem(fromSection: section) ?? ItemPath(item: 0, section: 0)).indexPath
    }

    public func collectionView(_ collectionView: UICollectionView, canMoveItemAt indexPath: IndexPath) -> Bool {
        AdapterSupport.model(in: dataSource, at: ItemPath(indexPath)).map { editing.canMove($0, at: ItemPath(indexPath)) } ?? false
    }

    public func collectionView(_ collectionView: UICollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        guard sourceIndexPath != destinationIndexPath else { return }
        platformUserMoved(from: sourceIndexPath, to: destinationIndexPath)
    }
}

// MARK: - UICollectionViewDelegate

extension CollectionViewAdapter: UICollectionViewDelegateFlowLayout {
    public func collectionView(_ collectionView: UICollectionView, shouldHighlightItemAt indexPath: IndexPath) -> Bool {
        platformShouldHighlight(indexPath, forwarded: (forwardingDelegate as? UICollectionViewDelegate)?.collectionView?(collectionView, shouldHighlightItemAt: indexPath))
    }

    public func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
        platformDidSelect(indexPath) { collectionView.deselectItem(at: $0, animated: $1) }
    }

    public func collectionView(_ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath) {
        platformWillDisplay(cell, at: indexPath)
    }

    public func collectionView(_ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell, forItemAt indexPath: IndexPath) {
        platformDidEndDisplaying(cell, at: indexPath)
    }

    public func collectionView(
        _ collectionView: UICollectionView, targetIndexPathForMoveOfItemFromOriginalIndexPath originalIndexPath: IndexPath,
        atCurrentIndexPath currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath
    ) -> IndexPath {
        platformMoveTarget(from: originalIndexPath, proposed: proposedIndexPath)
    }

    /// Flow layouts only: full-width items, as tall as the controller says; a self-sizing
    /// item gets its measured height, or its estimate until it shows and is fitted
    /// (``/CellKit/SelfSizingStep``); an item with no height the layout's `itemSize` height.
    public func collectionView(
        _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout, sizeForItemAt indexPath: IndexPath
    ) -> CGSize {
        let width = availableWidth(collectionViewLayout)
        let path = ItemPath(indexPath)
        let height = fixedHeight(at: path, width: width)
            ?? delegateHeight(at: path)
            ?? (collectionViewLayout as? UICollectionViewFlowLayout).map { max($0.itemSize.height, 1) } ?? 44
        return CGSize(width: width, height: height)
    }

    /// Flow layouts only: the forwarding delegate's header size when it implements the method
    /// (checked with `responds(to:)`: an Objective-C method, or a Swift one marked `@objc` or in a
    /// class that declares `UICollectionViewDelegateFlowLayout`; a Swift method the runtime cannot
    /// see is not found, and its size is ignored without notice); else
    /// the layout's `headerReferenceSize` height in every section, or 28 points in a section
    /// with a header title (``/CellKit/AdapterSizing/supplementaryHeight(hasTitle:referenceHeight:)``).
    public func collectionView(
        _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout, referenceSizeForHeaderInSection section: Int
    ) -> CGSize {
        // Dynamic lookup: UIKit's `responds(to:)` test, like the forwarding of every other call,
        // so a delegate answers when its method is visible to Objective-C (`@objc`, or in a class
        // that declares the protocol), without declaring the protocol.
        if let size = forwardingDelegate?.collectionView?(
            collectionView, layout: collectionViewLayout, referenceSizeForHeaderInSection: section) { return size }
        let height = AdapterSizing.supplementaryHeight(
            hasTitle: dataSource?.listView(self, titleForHeaderInSection: section) != nil,
            referenceHeight: Double((collectionViewLayout as? UICollectionViewFlowLayout)?.headerReferenceSize.height ?? 0))
        return CGSize(width: availableWidth(collectionViewLayout), height: CGFloat(height))
    }

    /// Flow layouts only: the forwarding delegate's footer size when it implements the method
    /// (checked with `responds(to:)`: an Objective-C method, or a Swift one marked `@objc` or in a
    /// class that declares `UICollectionViewDelegateFlowLayout`; a Swift method the runtime cannot
    /// see is not found, and its size is ignored without notice); else
    /// the layout's `footerReferenceSize` height in every section, or 28 points in a section
    /// with a footer title (``/CellKit/AdapterSizing/supplementaryHeight(hasTitle:referenceHeight:)``).
    public func collectionView(
        _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout, referenceSizeForFooterInSection section: Int
    ) -> CGSize {
        if let size = forwardingDelegate?.collectionView?(
            collectionView, layout: collectionViewLayout, referenceSizeForFooterInSection: section) { return size }
        let height = AdapterSizing.supplementaryHeight(
            hasTitle: dataSource?.listView(self, titleForFooterInSection: section) != nil,
            referenceHeight: Double((collectionViewLayout as? UICollectionViewFlowLayout)?.footerReferenceSize.height ?? 0))
        return CGSize(width: availableWidth(collectionViewLayout), height: CGFloat(height))
    }
}

// MARK: - UICollectionViewDataSourcePrefetching

extension CollectionViewAdapter: UICollectionViewDataSourcePrefetching {
    public func collectionView(_ collectionView: UICollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
        platformPrefetch(indexPaths)
    }

    public func collectionView(_ collectionView: UICollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]) {
        platformCancelPrefetch(indexPaths)
    }
}
#endif
