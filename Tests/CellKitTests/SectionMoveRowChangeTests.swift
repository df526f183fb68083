import CellKit
import CellKitTesting
import Testing

// A section that moves while rows in it change is a batch UICollectionView raises for
// ("attempt to perform an insert and a move to the same section") or corrupts its heap
// with (IGListKit #690, #691; openradar 31779360, 48941906). The core hands the platform
// a delete + insert of that section instead, as IGListKit does.

@Suite("Adapter: a moved section whose rows change is deleted and inserted")
@MainActor
struct SectionMoveRowChangeTests {
    private let p = { (item: Int, section: Int) in ItemPath(item: item, section: section) }

    private func plannedSteps(_ batch: Changeset, _ old: [Int], _ new: [Int]) -> BatchPlan.Steps? {
        guard case .animate(let steps) = BatchPlan.decide(batch, oldCounts: old, newCounts: new, hasWindow: true) else { return nil }
        return steps
    }

    @Test("IGListKit #691: insert section 0, move section 3 to 1, insert a row at the top of the moved section")
    func insertIntoAMovedSection() throws {
        let batch = Changeset(sectionInserts: [0], sectionMoves: [Move(from: 3, to: 1)], itemInserts: [p(0, 1)])
        try batch.validate(oldCounts: [3, 3, 3, 3], newCounts: [0, 4, 3, 3, 3])
        let steps = try #require(plannedSteps(batch, [3, 3, 3, 3], [0, 4, 3, 3, 3]))
        #expect(steps.structural == Changeset(sectionDeletes: [3], sectionInserts: [0, 1]))
        #expect(steps.reconfigure.isEmpty)
    }

    @Test("rows moved out of a moved section are inserted where they land; rows moved into it are deleted where they were")
    func movesAcrossAMovedSection() throws {
        // Old: s0 [a b c], s1 [d e], s2 [f g]. New: s0 = old s2 [f g b], s1 = old s0 [a c d], s2 = old s1 [e].
        // Section 2 moves to 0 (b moves into it); b leaves s0, d moves from s1 into s0; s0 and s1 shift.
        let batch = Changeset(
            sectionMoves: [Move(from: 2, to: 0)],
            itemUpdates: [p(0, 2), p(0, 0)],
            itemMoves: [Move(from: p(1, 0), to: p(2, 0)), Move(from: p(0, 1), to: p(2, 1))]
        )
        try batch.validate(oldCounts: [3, 2, 2], newCounts: [3, 3, 1])
        let steps = try #require(plannedSteps(batch, [3, 2, 2], [3, 3, 1]))
        // b's move into the moved section becomes its delete at (1, 0); d's move stays.
        #expect(steps.structural == Changeset(
            sectionDeletes: [2], sectionInserts: [0],
            itemDeletes: [p(1, 0)], itemMoves: [Move(from: p(0, 1), to: p(2, 1))]
        ))
        try steps.structural.validate(oldCounts: [3, 2, 2], newCounts: [3, 3, 1])
        // f (updated) comes with the inserted section; a (updated) is reconfigured where it went.
        #expect(steps.reconfigure == [p(0, 1)])
    }

    @Test("a section move without row changes in it stays a move, with the row changes elsewhere")
    func untouchedMoveStays() throws {
        let batch = Changeset(sectionMoves: [Move(from: 0, to: 1)], itemDeletes: [p(0, 1)], itemInserts: [p(0, 0)])
        let steps = try #require(plannedSteps(batch, [2, 3], [3, 2]))
        #expect(steps.structural == batch)
    }

    @Test("rows moved within a moved section: the section is deleted and inserted, its moves dropped")
    func moveWithinAMovedSection() throws {
        let batch = Changeset(sectionMoves: [Move(from: 1, to: 0)], itemMoves: [Move(from: p(0, 1), to: p(1, 0))])
        let steps = try #require(plannedSteps(batch, [1, 2], [2, 1]))
        #expect(steps.structural == Changeset(sectionDeletes: [1], sectionInserts: [0]))
    }

    @Test("random sectioned batches: the plan is valid, moves no section whose rows change, and maps the other rows like the oracle",
          arguments: 0..<300)
    func randomBatches(seed: UInt64) throws {
        let c = AdapterPathMappingRandomTests.randomCase(seed: seed)
        let steps = try #require(plannedSteps(c.batch, c.oldCounts, c.newCounts), "seed \(seed)")
        try steps.structural.validate(oldCounts: c.oldCounts, newCounts: c.newCounts)
        #expect(UIKitLikeBackend.sectionMoveWithRowChanges(steps.structural) == nil, "seed \(seed): \(steps.structural)")
        // Rows of a section still moved, or not moved, keep the oracle's path; a section
        // made a delete + insert sends its rows away (new cells come with the insert).
        let mapping = PathMapping(steps.structural, oldCounts: c.oldCounts, newCounts: c.newCounts)
        let separated = Set(steps.structural.sectionDeletes).subtracting(c.batch.sectionDeletes)
        for (old, new) in c.expected {
            #expect(mapping.newPath(of: old) == (separated.contains(old.section) ? nil : new), "seed \(seed): row \(old)")
        }
        let reconfigure = c.batch.itemUpdates.filter { !separated.contains($0.section) }.compactMap { c.expected[$0] ?? nil }.sorted()
        #expect(steps.reconfigure == reconfigure, "seed \(seed)")
    }

    struct Row: Identifiable, Equatable, Sendable { let id: Int; var text: String }

    @Test("a controller's sectioned apply that moves a section and inserts a row into it reaches UIKit without a crash")
    func controllerApply() {
        let listView = UIKitLikeBackend()
        listView.screenRows = 20
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Row.self) { cell, row in cell.text = row.text }
        controller.attach(to: listView)
        func model(_ sections: [(Int, [Int])]) -> TableModel {
            TableModel(sections: sections.map { id, rows in TableSection(id: SectionID(id), items: rows.map { ListItem(Row(id: $0, text: "r\($0)")) }) })
        }
        controller.apply(model([(0, [1, 2]), (1, [3, 4]), (2, [5, 6])]))
        // Section 2 moves to the top and gets a row: the diff moves the section and inserts into it.
        controller.apply(model([(2, [5, 6, 7]), (0, [1, 2]), (1, [3, 4])]))
        #expect(listView.crashes == [])
        #expect(controller.displayed.sections.map(\.id) == [2, 0, 1])
        for path in listView.visibleItemPaths {
            let shown = (listView.cell(at: path) as? TextCell)?.text
            #expect(shown == (controller.displayed.model(at: path) as? Row)?.text, "row \(path)")
        }
        #expect(listView.visibleItemPaths.count == 7)
    }
}
