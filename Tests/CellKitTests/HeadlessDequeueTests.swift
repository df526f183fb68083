import CellKit
import CellKitTesting
import Testing

/// How a data source of the app's own misuses dequeuing.
private enum Misuse { case none, twice, otherRow, returnsItsOwn, freshWithoutDequeue }

/// A data source of the app's own (Nimbus level 1) with three rows, dequeuing as `misuse` says.
@MainActor
private final class DequeuingDataSource: ListViewDataSource {
    var misuse = Misuse.none
    func numberOfSections(in listView: any ListView) -> Int { 1 }
    func listView(_ listView: any ListView, numberOfItemsInSection section: Int) -> Int { 3 }
    func listView(_ listView: any ListView, cellForItemAt path: ItemPath) -> AnyObject {
        if misuse == .freshWithoutDequeue {
            let cell = TextCell()
            cell.text = "fresh row \(path.item)"
            return cell
        }
        let cell = listView.dequeueReusableCell(.type(TextCell.self), for: path) as! TextCell
        cell.text = "row \(path.item)"
        switch misuse {
        case .none: return cell
        case .twice: return listView.dequeueReusableCell(.type(TextCell.self), for: path)
        case .otherRow: _ = listView.dequeueReusableCell(.type(TextCell.self), for: ItemPath(item: path.item + 1, section: 0)); return cell
        case .returnsItsOwn, .freshWithoutDequeue: return TextCell()
        }
    }
}

@MainActor
private func refusals(_ list: HeadlessListView) -> [String] {
    list.log.compactMap { if case .refused(let message) = $0 { message } else { nil } }
}

/// UIKit raises when a data source dequeues outside the list view's request for a cell,
/// dequeues a second cell for one index path (`UITableView`: "Attempted to dequeue multiple
/// cells for the same index path"), or does not return the cell it dequeued
/// (`UICollectionView`: "Expected dequeued view to be returned to the collection view"):
/// the headless list view refuses each, naming the section and row.
@MainActor
@Suite("Headless list view: a dequeue answers the list view's request")
struct HeadlessDequeueTests {
    private func shown(_ misuse: Misuse) -> (DequeuingDataSource, HeadlessListView) {
        let source = DequeuingDataSource()
        source.misuse = misuse
        let list = HeadlessListView(viewportHeight: 44, rowHeight: 44)
        list.dataSource = source
        list.reloadData()
        return (source, list)
    }

    @Test("dequeuing inside the request, once, for the row asked, is accepted")
    func theUsualDequeueIsAccepted() throws {
        let (source, list) = shown(.none)
        list.scroll(to: 88)
        #expect(list.visibleTexts == ["row 2"])
        #expect(refusals(list).isEmpty)
        try list.checkConsistency()
        withExtendedLifetime(source) {}
    }

    @Test("a dequeue outside the list view's request for a cell is refused, naming the row")
    func aDequeueOutsideARequestIsRefused() {
        let (source, list) = shown(.none)
        _ = list.dequeueReusableCell(.type(TextCell.self), for: ItemPath(item: 2, section: 0))
        #expect(refusals(list) == [
            "dequeueReusableCell(_:for:) for section 0, row 2 outside the list view's request for a cell: dequeue only inside listView(_:cellForItemAt:), for the row asked (UICollectionView raises for a cell dequeued without a request)",
        ])
        #expect(throws: HeadlessListViewInconsistency.self) { try list.checkConsistency() }
        withExtendedLifetime(source) {}
    }

    @Test("a second cell dequeued for one row is refused, and so is the first one, not returned")
    func aSecondDequeueIsRefused() {
        let (source, list) = shown(.twice)
        #expect(refusals(list) == [
            "a second cell dequeued for section 0, row 0 in one request (UITableView raises: \"Attempted to dequeue multiple cells for the same index path\"): dequeue one cell and return it",
            "the data source dequeued a TextCell for section 0, row 0 but returned another TextCell (UICollectionView raises: \"Expected dequeued view to be returned to the collection view\"): return the cell you dequeued",
        ])
        #expect(throws: HeadlessListViewInconsistency.self) { try list.checkConsistency() }
        withExtendedLifetime(source) {}
    }

    @Test("a dequeue for another row than the one asked is refused, naming both")
    func aDequeueForAnotherRowIsRefused() {
        let (source, list) = shown(.otherRow)
        #expect(refusals(list) == [
            "dequeueReusableCell(_:for:) for section 0, row 1 while the list view asks for the cell of section 0, row 0: dequeue with the index path asked for",
        ])
        #expect(throws: HeadlessListViewInconsistency.self) { try list.checkConsistency() }
        withExtendedLifetime(source) {}
    }

    // Failed before the fix (outside check 8, d3): the view's own reconfigureItems(at:),
    // called directly as tableView.reconfigureRows(at:) is, refused nothing, and a dequeue in
    // it made a new cell instead of handing back the one showing the row.
    @Test("the view's reconfigureItems(at:) called directly hands back the showing cell and refuses another one")
    func aDirectReconfigureHandsBackTheShowingCell() throws {
        let (source, list) = shown(.none)
        let showing = list.visibleCells.first
        list.reconfigureItems(at: [ItemPath(item: 0, section: 0)])
        #expect(list.visibleCells.first === showing)
        #expect(list.createdCellCount == 1)
        #expect(refusals(list).isEmpty)
        try list.checkConsistency()

        source.misuse = .freshWithoutDequeue
        list.reconfigureItems(at: [ItemPath(item: 0, section: 0)])
        #expect(list.visibleCells.first === showing)
        #expect(refusals(list).count == 1)
        #expect(refusals(list).first?.hasPrefix("the data source returned a different cell (TextCell) when reconfiguring section 0, row 0") == true, "\(refusals(list))")
        #expect(throws: HeadlessListViewInconsistency.self) { try list.checkConsistency() }
    }

    @Test("a dequeued cell that is not returned is refused and goes back to its pool")
    func aDequeuedCellNotReturnedIsRefused() {
        let (source, list) = shown(.returnsItsOwn)
        #expect(refusals(list).count == 1)
        #expect(refusals(list).first?.hasPrefix("the data source dequeued a TextCell for section 0, row 0 but returned another TextCell") == true)
        source.misuse = .none
        list.scroll(to: 44)
        // The dequeued cell went back to the pool: the next row reuses it.
        #expect(list.createdCellCount == 1)
        withExtendedLifetime(source) {}
    }
}
