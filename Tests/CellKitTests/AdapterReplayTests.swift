import CellKit
import CellKitTesting
import Testing

/// A list view that replays batches the way the UIKit adapters do (BatchPlan:
/// structural step, then a reconfigure of the updated rows by their new paths,
/// or a reload), on top of the headless list view that enforces UIKit's rules.
@MainActor
final class ReplayingListView: ListView {
    let headless: HeadlessListView
    var hasWindow = true
    var threshold: Int?
    private(set) var plans: [BatchPlan] = []
    private var layoutPending = false

    init(_ headless: HeadlessListView) { self.headless = headless }

    weak var dataSource: (any ListViewDataSource)? { didSet { headless.dataSource = dataSource } }
    weak var delegate: (any ListViewDelegate)? { didSet { headless.delegate = delegate } }

    func register(_ source: CellSource) { headless.register(source) }
    func dequeueReusableCell(_ source: CellSource, for path: ItemPath) -> AnyObject { headless.dequeueReusableCell(source, for: path) }
    var visibleItemPaths: [ItemPath] { headless.visibleItemPaths }
    func cell(at path: ItemPath) -> AnyObject? { headless.cell(at: path) }
    func cellDidChange(at path: ItemPath, reason: CellChangeReason) { headless.cellDidChange(at: path, reason: reason) }

    func reloadData() {
        headless.reloadData()
        // The headless view lays out at once; a UIKit view would only on its next pass.
        layoutPending = !hasWindow
    }

    func performBatchUpdates(_ changeset: Changeset, updateData: () -> Void) throws {
        let oldCounts = headless.sectionCounts
        updateData()
        let newCounts = counts()
        let plan = BatchPlan.decide(changeset, oldCounts: oldCounts, newCounts: newCounts,
                                    hasWindow: hasWindow, threshold: threshold, layoutPendingAfterReload: layoutPending)
        plans.append(plan)
        switch plan {
        case .reload(let reason):
            reloadData()
            if case .invalid(let error) = reason { throw error }
        case .animate(let steps):
            if !steps.structural.isEmpty { try headless.performBatchUpdates(steps.structural) {} }
            if !steps.reconfigure.isEmpty { try headless.performBatchUpdates(Changeset(itemUpdates: steps.reconfigure)) {} }
        }
    }

    private func counts() -> [Int] {
        guard let dataSource else { return [] }
        return (0..<dataSource.numberOfSections(in: self)).map { dataSource.listView(self, numberOfItemsInSection: $0) }
    }
}

@Suite("Adapter: replaying the controller's batches like UIKit")
@MainActor
struct AdapterReplayTests {
    struct Row: Identifiable, Equatable, Sendable { let id: Int; var text: String }

    private func make() -> (ListController, ReplayingListView) {
        let listView = ReplayingListView(HeadlessListView(viewportHeight: 44 * 12, rowHeight: 44))
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Row.self) { cell, row in cell.text = row.text }
        controller.attach(to: listView)
        return (controller, listView)
    }

    private func expectVisibleCellsShowTheModel(_ controller: ListController, _ listView: ReplayingListView, _ note: String) {
        for path in listView.visibleItemPaths {
            let shown = (listView.cell(at: path) as? TextCell)?.text
            let model = (controller.displayed.model(at: path) as? Row)?.text
            #expect(shown == model, "\(note): row \(path) shows \(shown ?? "nil"), model is \(model ?? "nil")")
        }
    }

    @Test(arguments: 0..<40)
    func randomSnapshotsStayInSync(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &+ 1000)
        let (controller, listView) = make()
        var rows = (0..<20).map { Row(id: $0, text: "r\($0)") }
        var nextID = 20
        controller.apply(TableModel(rows))
        for step in 0..<15 {
            rows.removeAll { _ in rng.below(8) == 0 }
            for i in rows.indices where rng.below(6) == 0 { rows[i].text += "'" }
            if rows.count > 2, rng.below(2) == 0 { rows.swapAt(rng.below(rows.count), rng.below(rows.count)) }
            for _ in 0..<rng.below(4) {
                rows.insert(Row(id: nextID, text: "r\(nextID)"), at: rng.below(rows.count + 1))
                nextID += 1
            }
            controller.apply(TableModel(rows))
            #expect(!listView.headless.log.contains { if case .rejected = $0 { true } else { false } }, "seed \(seed) step \(step)")
            try listView.headless.checkConsistency()
            expectVisibleCellsShowTheModel(controller, listView, "seed \(seed) step \(step)")
        }
        #expect(listView.plans.contains { if case .animate = $0 { true } else { false } })
    }

    @Test func contentChangeReconfiguresTheSameCell() throws {
        let (controller, listView) = make()
        controller.apply(TableModel((0..<5).map { Row(id: $0, text: "r\($0)") }))
        let before = listView.cell(at: ItemPath(item: 2, section: 0))
        var rows = (0..<5).map { Row(id: $0, text: "r\($0)") }
        rows[2].text = "changed"
        rows.insert(Row(id: 99, text: "new"), at: 0)
        listView.headless.clearLog()
        controller.apply(TableModel(rows))
        let after = listView.cell(at: ItemPath(item: 3, section: 0))
        #expect(before === after)
        #expect((after as? TextCell)?.text == "changed")
        // The diff may stage the update before or after the insert; either way the cell was reconfigured, not replaced.
        #expect(listView.headless.log.contains { if case .reconfigured = $0 { true } else { false } })
        #expect(!listView.headless.log.contains(.created(reuseIdentifier: CellSource.type(TextCell.self).reuseIdentifier, path: ItemPath(item: 3, section: 0))))
    }

    @Test func outsideAWindowTheControllerBatchBecomesAReload() {
        let (controller, listView) = make()
        listView.hasWindow = false
        controller.apply(TableModel([Row(id: 1, text: "a")]))
        controller.apply(TableModel([Row(id: 0, text: "z"), Row(id: 1, text: "a")]))
        #expect(listView.plans.last == .reload(.notInWindow))
        #expect(listView.visibleItemPaths.count == 2)
    }

    @Test func thresholdTurnsLargeBatchesIntoReloads() {
        let (controller, listView) = make()
        listView.threshold = 3
        controller.apply(TableModel((0..<5).map { Row(id: $0, text: "r\($0)") }))
        controller.apply(TableModel((10..<20).map { Row(id: $0, text: "r\($0)") }))
        guard case .reload(.overThreshold) = listView.plans.last else {
            Issue.record("expected an over-threshold reload, got \(String(describing: listView.plans.last))")
            return
        }
        #expect((listView.cell(at: ItemPath(item: 0, section: 0)) as? TextCell)?.text == "r10")
    }
}
