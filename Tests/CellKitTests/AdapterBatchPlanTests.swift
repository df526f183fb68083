import CellKit
import CellKitTesting
import Testing

// The decisions a UIKit adapter replays, tested headlessly: which batch to
// animate, when to reload instead, and where updated rows are reconfigured.

@Suite("Adapter: BatchPlan")
struct AdapterBatchPlanTests {
    private let p = { (item: Int, section: Int) in ItemPath(item: item, section: section) }

    @Test func docExample() {
        let batch = Changeset(itemInserts: [p(0, 0)], itemUpdates: [p(1, 0)])
        let plan = BatchPlan.decide(batch, oldCounts: [3], newCounts: [4], hasWindow: true)
        #expect(plan == .animate(BatchPlan.Steps(structural: Changeset(itemInserts: [p(0, 0)]), reconfigure: [p(2, 0)])))
    }

    @Test func validBatchInWindowAnimates() {
        let batch = Changeset(itemDeletes: [p(0, 0)], itemInserts: [p(3, 0)])
        #expect(BatchPlan.decide(batch, oldCounts: [4], newCounts: [4], hasWindow: true)
            == .animate(BatchPlan.Steps(structural: batch, reconfigure: [])))
    }

    @Test func contentOnlyUpdatesReconfigureInPlace() {
        let batch = Changeset(itemUpdates: [p(2, 0), p(0, 1)])
        let plan = BatchPlan.decide(batch, oldCounts: [3, 2], newCounts: [3, 2], hasWindow: true)
        #expect(plan == .animate(BatchPlan.Steps(structural: Changeset(), reconfigure: [p(2, 0), p(0, 1)])))
    }

    @Test func updatesAreMappedAcrossDeletesInsertsAndSectionMoves() {
        // Section 0 moves to 1; in old section 1 row 0 is deleted, a row is inserted at its top.
        let batch = Changeset(
            sectionMoves: [Move(from: 0, to: 1)],
            itemDeletes: [p(0, 1)], itemInserts: [p(0, 0), p(1, 0)],
            itemUpdates: [p(1, 0), p(2, 1)]
        )
        let plan = BatchPlan.decide(batch, oldCounts: [2, 3], newCounts: [4, 2], hasWindow: true)
        guard case .animate(let steps) = plan else {
            Issue.record("expected animate, got \(plan)")
            return
        }
        #expect(steps.structural.itemUpdates.isEmpty)
        // Old [0,1] → new section 1, row 1; old [1,2] → new section 0, after 2 inserts, rank 1 → row 3.
        #expect(steps.reconfigure == [p(3, 0), p(1, 1)])
    }

    @Test func noWindowReloads() {
        let batch = Changeset(itemInserts: [p(0, 0)])
        #expect(BatchPlan.decide(batch, oldCounts: [1], newCounts: [2], hasWindow: false) == .reload(.notInWindow))
    }

    @Test func layoutPendingAfterReloadReloads() {
        let batch = Changeset(itemInserts: [p(0, 0)])
        #expect(BatchPlan.decide(batch, oldCounts: [1], newCounts: [2], hasWindow: true, layoutPendingAfterReload: true)
            == .reload(.layoutPendingAfterReload))
    }

    @Test func overThresholdReloads() {
        let batch = Changeset(itemInserts: [p(0, 0), p(1, 0), p(2, 0)])
        #expect(BatchPlan.decide(batch, oldCounts: [0], newCounts: [3], hasWindow: true, threshold: 2)
            == .reload(.overThreshold(changes: 3, threshold: 2)))
        #expect(BatchPlan.decide(batch, oldCounts: [0], newCounts: [3], hasWindow: true, threshold: 3)
            == .animate(BatchPlan.Steps(structural: batch, reconfigure: [])))
    }

    @Test func invalidBatchReloadsAndNamesTheRuleEvenOutsideAWindow() {
        let batch = Changeset(itemInserts: [p(0, 0)])
        let plan = BatchPlan.decide(batch, oldCounts: [1], newCounts: [3], hasWindow: false)
        guard case .reload(.invalid(let error)) = plan else {
            Issue.record("expected an invalid reload, got \(plan)")
            return
        }
        #expect(error.rule == .itemCountMismatch)
        #expect(error.section == 0)
    }

    @MainActor @Test func structuralStepPassesTheHeadlessListViewsUIKitRules() throws {
        // The structural step, replayed on the headless list view (UIKit's rules),
        // is accepted, and the reconfigured paths point at the updated models.
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        let source = TableModelDataSource(TableModel(sections: [
            TableSection(id: "a", items: ["a0", "a1", "a2"].map { ListItem($0) }),
            TableSection(id: "b", items: ["b0", "b1"].map { ListItem($0) }),
        ]))
        listView.dataSource = source
        listView.reloadData()
        let batch = Changeset(itemDeletes: [p(0, 0)], itemInserts: [p(0, 1), p(1, 1)], itemUpdates: [p(2, 0), p(1, 1)])
        let after = TableModel(sections: [
            TableSection(id: "a", items: ["a1", "a2*"].map { ListItem($0, id: $0.prefix(2)) }),
            TableSection(id: "b", items: ["n0", "n1", "b0", "b1*"].map { ListItem($0, id: $0.prefix(2)) }),
        ])
        let plan = BatchPlan.decide(batch, oldCounts: [3, 2], newCounts: [2, 4], hasWindow: true)
        guard case .animate(let steps) = plan else {
            Issue.record("expected animate, got \(plan)")
            return
        }
        #expect(listView.performBatchUpdates(steps.structural) { source.model = after } == .animated)
        #expect(!listView.log.contains { if case .rejected = $0 { true } else { false } })
        let updated = steps.reconfigure.compactMap { after.item(at: $0)?.model as? String }
        #expect(updated == ["a2*", "b1*"])
        try listView.checkConsistency()
    }
}
