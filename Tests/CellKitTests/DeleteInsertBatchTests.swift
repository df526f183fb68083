import CellKit
import CellKitTesting
import Testing

/// The controller hands a delete stage and an insert stage with no moves to the list view
/// as one batch (`ListController.batches(of:)`): deletes and reloads at the old paths,
/// inserts at the new ones, as `performBatchUpdates` reads them ("deletes are processed
/// before inserts"). UIKit review 10.
@MainActor
@Suite("Batches: a delete and an insert stage as one batch, as UIKit takes it")
struct DeleteInsertBatchTests {
    private func section(_ id: String, _ rows: [String]) -> TableSection {
        TableSection(id: SectionID(id), items: rows.map { ListItem($0, id: String($0.prefix(2))) })
    }

    /// A section deleted where a row is inserted into the section that takes its index, a
    /// row deleted and one updated in another section: one batch, valid for UIKit (the
    /// UIKit-like backend records what `performBatchUpdates` would raise), the updated row
    /// reconfigured at its new path, and the headless list view takes the same batch.
    @Test func aSectionDeleteAndARowInsertAtItsIndexAreOneValidBatch() throws {
        let before = TableModel(sections: [section("A", ["a0", "a1", "a2"]), section("B", ["b0", "b1"]), section("C", ["c0"])])
        let after = TableModel(sections: [section("A", ["a0", "a2*"]), section("C", ["c9", "c0"])])
        let controller = ListController(diagnostics: .ignore)
        let table = UIKitLikeBackend()
        controller.attach(to: table)
        controller.apply(before)
        let batchesBefore = table.calls.filter { if case .batch = $0 { true } else { false } }.count
        controller.apply(after)
        let batches = table.calls.compactMap { if case .batch(let changeset, _) = $0 { changeset } else { nil } }.dropFirst(batchesBefore)
        #expect(batches.map(\.self) == [Changeset(
            sectionDeletes: [1], itemDeletes: [ItemPath(item: 1, section: 0)], itemInserts: [ItemPath(item: 0, section: 1)]
        )])
        #expect(table.crashes == [])
        #expect(table.calls.contains(.reconfigure([ItemPath(item: 1, section: 0)])))
        #expect(table.core.counts == [2, 2])

        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        let headless = ListController(diagnostics: .ignore)
        headless.attach(to: listView)
        headless.apply(before)
        listView.clearLog()
        headless.apply(after)
        #expect(listView.log.filter { if case .batch = $0 { true } else { false } }.count == 1)
        #expect(listView.visibleTexts == ["a0", "a2*", "c9", "c0"])
        try listView.checkConsistency()
    }
}
