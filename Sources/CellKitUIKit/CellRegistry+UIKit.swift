#if canImport(UIKit)
import UIKit
import CellKit

extension CellRegistry {
    /// A configured cell for `model` from a `UITableViewDataSource` of your own (Nimbus's
    /// `[NICellFactory tableViewModel:nil cellForTableView:atIndexPath:withObject:]`):
    /// the first level of adoption, with no rewrite of the data source.
    ///
    /// It does what ``TableViewAdapter`` does for a row: the model's ``CellSource`` is
    /// registered with `tableView` on first use (its class or nib; a template builds its
    /// cells, with their cell style), the cell is dequeued with `indexPath` (a template's
    /// by identifier), and configured through the model's binding (the registration's
    /// handler, then ``/CellKit/UpdatableCell/update(with:)``). Platform-neutral cells
    /// (the default ``/CellKit/TextCell``, ``/CellKit/LoadingCell``, ...) come back in a
    /// hosting table cell, drawn by ``HostedCellRenderer/standard``. Never nil: a model
    /// nothing maps gets the ``defaultCell`` showing its description, and one diagnostic.
    /// To let your old cell code take over a model not migrated yet, ask
    /// `binding(for: model).origin == .defaultCell` first.
    ///
    /// The table view keeps what this needs (the sources registered, the hosted cells);
    /// nothing else of the table (its data source, delegate, row height) is touched.
    public func cell(for model: Any, in tableView: UITableView, at indexPath: IndexPath) -> UITableViewCell {
        let vendor = ListViewAdapter.cellVendor(of: tableView) { TableViewAdapter(tableView: tableView, role: .vendsCells) }
        vendor.core.diagnostics = diagnostics
        return vendor.tableCell(vendor.platformCell(for: cell(for: model, in: vendor, at: ItemPath(indexPath)), at: indexPath))
    }

    /// A configured cell for `model` from a `UICollectionViewDataSource` of your own: the
    /// collection view counterpart of ``cell(for:in:at:)-(_,UITableView,_)``, doing what
    /// ``CollectionViewAdapter`` does for a row.
    ///
    /// Every cell is dequeued with `indexPath` (a collection view takes no cell it did not
    /// dequeue); platform-neutral cells come back in a hosting list cell.
    public func cell(for model: Any, in collectionView: UICollectionView, at indexPath: IndexPath) -> UICollectionViewCell {
        let vendor = ListViewAdapter.cellVendor(of: collectionView) { CollectionViewAdapter(collectionView: collectionView, role: .vendsCells) }
        vendor.core.diagnostics = diagnostics
        return vendor.collectionCell(vendor.platformCell(for: cell(for: model, in: vendor, at: ItemPath(indexPath)), at: indexPath))
    }
}
#endif
