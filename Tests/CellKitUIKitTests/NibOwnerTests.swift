#if canImport(UIKit)
import CellKit
import CellKitUIKit
import UIKit
import XCTest

/// Nimbus level 1 on UIKit (`CellRegistry.cell(for:in:at:)` from a data source of the app's
/// own) and Carbon Five's nib owner. Runs on an iOS simulator only (see the README).
@MainActor
final class LevelOneAndNibOwnerTests: XCTestCase {
    /// An existing `UITableViewDataSource`, not rewritten: it asks the registry for each cell.
    private final class LegacyDataSource: NSObject, UITableViewDataSource, UICollectionViewDataSource {
        let registry = CellRegistry(diagnostics: .ignore)
        var objects: [Any] = []
        var legacyCells = 0

        func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { objects.count }
        func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let object = objects[indexPath.row]
            if object is String, registry.binding(for: object).origin == .defaultCell {
                legacyCells += 1   // the old cell code still takes over what is not migrated
                return UITableViewCell(style: .default, reuseIdentifier: nil)
            }
            return registry.cell(for: object, in: tableView, at: indexPath)
        }

        func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { objects.count }
        func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
            registry.cell(for: objects[indexPath.item], in: collectionView, at: indexPath)
        }
    }

    func testLevelOneFromAnExistingTableDataSource() throws {
        let table = UITableView(frame: .zero, style: .plain)
        let window = hostInWindow(table)
        let legacy = LegacyDataSource()
        legacy.registry.register(CellSource.tableCell(RowTableCell.self, cellStyle: .subtitle), for: Row.self) { (cell: RowTableCell, row) in
            cell.textLabel?.text = row.text
        }
        legacy.objects = rows(3) + [42, "not migrated"]
        table.dataSource = legacy
        table.reloadData()
        table.layoutIfNeeded()
        XCTAssertTrue(table.dataSource === legacy)                 // nothing of the table is taken over
        XCTAssertEqual((table.cellForRow(at: path(1)) as? RowTableCell)?.textLabel?.text, "row 1")
        // Unmapped: the default cell (a TextCell hosted in a table cell) with the description.
        let hosted = try XCTUnwrap(table.cellForRow(at: path(3)))
        XCTAssertEqual((hosted.contentConfiguration as? UIListContentConfiguration)?.text, "42")
        XCTAssertEqual(legacy.legacyCells, 1)
        // Reloading reuses the cells the table pooled (the template's identifier, its class registered once).
        let first = table.cellForRow(at: path(0))
        table.reloadData()
        table.layoutIfNeeded()
        XCTAssertNotNil(first)
        XCTAssertEqual((table.cellForRow(at: path(2)) as? RowTableCell)?.textLabel?.text, "row 2")
        _ = window
    }

    func testLevelOneFromAnExistingCollectionDataSource() throws {
        let collection = UICollectionView(frame: .zero, collectionViewLayout: UICollectionViewCompositionalLayout.list(using: .init(appearance: .plain)))
        let window = hostInWindow(collection)
        let legacy = LegacyDataSource()
        legacy.registry.register(CellSource.collectionCell(RowCollectionCell.self), for: Row.self) { (cell: RowCollectionCell, row) in
            cell.text = row.text
        }
        legacy.objects = rows(2) + [7]
        collection.dataSource = legacy
        collection.reloadData()
        collection.layoutIfNeeded()
        XCTAssertEqual((collection.cellForItem(at: path(1)) as? RowCollectionCell)?.text, "row 1")
        let hosted = try XCTUnwrap(collection.cellForItem(at: path(2)))
        XCTAssertEqual((hosted.contentConfiguration as? UIListContentConfiguration)?.text, "7")
        _ = window
    }

    /// A template whose cells carry an identifier of their own (as a nib's cell does) is
    /// dequeued by it, so its cells are reused.
    func testTemplateCellsCarryingTheirOwnIdentifierAreReused() {
        let table = UITableView(frame: .zero, style: .plain)
        let window = hostInWindow(table)
        let adapter = TableViewAdapter(tableView: table)
        let controller = ListController()
        let tracker = CellTracker()
        let source = CellSource.tableCellTemplate(RowTableCell.self) { _ in RowTableCell(style: .default, reuseIdentifier: "FromNib") }
        controller.registry.register(source, for: Row.self) { (cell: RowTableCell, row) in
            tracker.saw(cell)
            cell.textLabel?.text = row.text
        }
        controller.attach(to: adapter)
        controller.apply(TableModel(rows(500)))
        table.layoutIfNeeded()
        for y in stride(from: 0, to: 20_000, by: 400) {
            table.contentOffset.y = CGFloat(y)
            table.layoutIfNeeded()
        }
        XCTAssertLessThan(tracker.cells.count, 60)   // reused, not one per row
        _ = window
    }

    final class ProductCell: UITableViewCell {}

    final class OwnerViewController: UITableViewController {
        func factory() -> CellSource {
            CellSource.nibCell(ProductCell.self, name: "Cells", bundle: .main, owner: self, identifier: "ProductCell")
        }
    }

    func testNibCellWithOwnerIsATableTemplateThatDoesNotKeepItsOwner() {
        var owner: OwnerViewController? = OwnerViewController(style: .plain)
        weak let gone = owner
        let source = owner!.factory()
        XCTAssertEqual(source.kind, .template)
        XCTAssertTrue(source.cellType == ProductCell.self)
        XCTAssertNotEqual(source, owner!.factory())   // each factory is a pool of its own
        owner = nil
        XCTAssertNil(gone)                            // the source holds the owner weakly
        _ = source
    }
}
#endif
