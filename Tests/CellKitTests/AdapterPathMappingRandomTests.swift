import CellKit
import CellKitTesting
import Testing

// PathMapping and BatchPlan's reconfigure paths against an oracle of ids, on
// random batches that change sections (deleted, reloaded, inserted, moved) and
// rows (deleted, reloaded, moved across sections, inserted), with the change
// lists in order (as the diff makes them) or shuffled, in small lists (sorted
// through a bitmap) and large ones with a few changes (sorted by comparison).

@Suite("Adapter: PathMapping on random sectioned batches")
struct AdapterPathMappingRandomTests {
    struct Case {
        var batch: Changeset
        var oldCounts: [Int], newCounts: [Int]
        /// Every old row's expected new path (`nil`: gone), for the rows checked.
        var expected: [ItemPath: ItemPath?]
    }

    static func randomCase(seed: UInt64) -> Case {
        var rng = SplitMix64(seed: seed)
        func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(rng.next() % UInt64(n)) }
        let large = seed % 3 == 0
        var nextID = 0
        func ids(_ n: Int) -> [Int] { defer { nextID += n }; return Array(nextID..<nextID + n) }
        let oldSections = (0..<1 + below(4)).map { _ in ids(large ? 2_000 + below(3_000) : below(9)) }
        // Sections: deleted, reloaded or kept; kept ones in order, or all moved
        // when shuffled (a reloaded section cannot move).
        let movesSections = below(3) == 0
        var fate = oldSections.indices.map { _ in below(10) }  // 0: deleted, 1: reloaded
        if movesSections { fate = fate.map { $0 == 1 ? 5 : $0 } }
        if fate.allSatisfy({ $0 == 0 }) { fate[0] = 5 }
        var order = oldSections.indices.filter { fate[$0] != 0 }
        if movesSections { order.shuffle(using: &rng) }
        var newSectionOld: [Int?] = order.map { $0 }
        for _ in 0..<below(2) { newSectionOld.insert(nil, at: below(newSectionOld.count + 1)) }
        var batch = Changeset()
        batch.sectionDeletes = oldSections.indices.filter { fate[$0] == 0 }
        batch.sectionUpdates = oldSections.indices.filter { fate[$0] == 1 }
        batch.sectionInserts = newSectionOld.indices.filter { newSectionOld[$0] == nil }
        if movesSections {
            batch.sectionMoves = newSectionOld.indices.compactMap { j in newSectionOld[j].map { Move(from: $0, to: j) } }
        }
        // Rows of the open sections (kept, not reloaded): some deleted, moved, reloaded.
        var newSections: [[Int]] = newSectionOld.map { old in old.map { oldSections[$0] } ?? ids(below(5)) }
        let openNew = newSectionOld.indices.filter { newSectionOld[$0].map { fate[$0] != 1 } ?? false }
        var deleted = Set<Int>(), moved: [Int] = [], updated = Set<Int>()
        for j in openNew {
            let rows = newSections[j]
            let picks = large ? (0..<12).map { _ in rows[below(rows.count)] } : rows
            for id in picks where !deleted.contains(id) && !updated.contains(id) && !moved.contains(id) {
                switch below(5) {
                case 0: deleted.insert(id)
                case 1: moved.append(id)
                case 2: updated.insert(id)
                default: break
                }
            }
            newSections[j].removeAll { deleted.contains($0) || moved.contains($0) }
        }
        var inserted = Set<Int>()
        if !openNew.isEmpty {
            for id in moved + ids(below(large ? 12 : 5)) {
                let j = openNew[below(openNew.count)]
                newSections[j].insert(id, at: below(newSections[j].count + 1))
                if !moved.contains(id) { inserted.insert(id) }
            }
        } else {
            deleted.formUnion(moved)
            moved = []
        }
        var oldPath: [Int: ItemPath] = [:], newPath: [Int: ItemPath] = [:]
        for (s, rows) in oldSections.enumerated() { for (r, id) in rows.enumerated() { oldPath[id] = ItemPath(item: r, section: s) } }
        for (s, rows) in newSections.enumerated() { for (r, id) in rows.enumerated() { newPath[id] = ItemPath(item: r, section: s) } }
        batch.itemDeletes = deleted.map { oldPath[$0]! }.sorted()
        batch.itemUpdates = updated.map { oldPath[$0]! }.sorted()
        batch.itemMoves = moved.map { Move(from: oldPath[$0]!, to: newPath[$0]!) }.sorted { $0.to < $1.to }
        batch.itemInserts = inserted.map { newPath[$0]! }.sorted()
        if below(2) == 0 {  // not in the diff's order
            batch.itemDeletes.shuffle(using: &rng)
            batch.itemUpdates.shuffle(using: &rng)
            batch.itemMoves.shuffle(using: &rng)
            batch.itemInserts.shuffle(using: &rng)
        }
        var expected: [ItemPath: ItemPath?] = [:]
        let checked = oldSections.enumerated().flatMap { s, rows in
            large ? (0..<60).map { _ in rows[below(rows.count)] } + rows.filter { moved.contains($0) || updated.contains($0) || deleted.contains($0) } : rows
        }
        for id in checked {
            let from = oldPath[id]!
            expected[from] = fate[from.section] <= 1 || deleted.contains(id) ? nil : newPath[id]
        }
        return Case(batch: batch, oldCounts: oldSections.map(\.count), newCounts: newSections.map(\.count), expected: expected)
    }

    @Test(arguments: 0..<300)
    func mapsLikeTheOracle(seed: UInt64) throws {
        let c = Self.randomCase(seed: seed)
        try c.batch.validate(oldCounts: c.oldCounts, newCounts: c.newCounts)
        let mapping = PathMapping(c.batch, oldCounts: c.oldCounts, newCounts: c.newCounts)
        for (old, new) in c.expected {
            #expect(mapping.newPath(of: old) == new, "seed \(seed): row \(old)")
        }
        // A moved section whose rows change is deleted and inserted instead: SectionMoveRowChangeTests.
        guard UIKitLikeBackend.sectionMoveWithRowChanges(c.batch) == nil else { return }
        // The reconfigured rows: the updated ones at their new paths, ascending.
        let plan = BatchPlan.decide(c.batch, oldCounts: c.oldCounts, newCounts: c.newCounts, hasWindow: true)
        let reconfigure = c.batch.itemUpdates.compactMap { c.expected[$0] ?? nil }.sorted()
        var structural = c.batch
        structural.itemUpdates = []
        #expect(plan == .animate(BatchPlan.Steps(structural: structural, reconfigure: reconfigure)), "seed \(seed)")
    }

    @Test("a mapping built with the old counts as new ones (as before the data switches) still maps rows above")
    func newCountsNotKnownYet() {
        // Rows inserted past the old count: the new-side bitmap cannot hold them, the comparison sort does.
        let batch = Changeset(itemInserts: [ItemPath(item: 12, section: 0), ItemPath(item: 0, section: 0)])
        let mapping = PathMapping(batch, oldCounts: [10], newCounts: [10])
        #expect(mapping.newPath(of: ItemPath(item: 3, section: 0)) == ItemPath(item: 4, section: 0))
        #expect(mapping.newPath(of: ItemPath(item: 9, section: 0)) == ItemPath(item: 10, section: 0))
    }

    @MainActor @Test("the core hands its batch mapping to the backend while the batch is replayed, and forgets it after")
    func batchMappingDuringTheBatch() {
        let harness = HeadlessListViewHarness.feed(count: 30)
        let recorder = MappingRecorder()
        let core = ListViewCore(listView: harness.view, backend: recorder)
        recorder.core = core
        core.readCounts()
        #expect(core.batchMapping == nil)
        var after = harness.source.model
        after.sections[0].items.insert(ListItem("new"), at: 0)
        let outcome = core.performBatchUpdates(Changeset(itemInserts: [ItemPath(item: 0, section: 0)])) { harness.source.model = after }
        #expect(outcome == .animated)
        #expect(recorder.seen?.newPath(of: ItemPath(item: 0, section: 0)) == ItemPath(item: 1, section: 0))
        #expect(core.batchMapping == nil)
    }
}

/// A backend that records the core's batch mapping once the batch's body has run.
@MainActor
private final class MappingRecorder: ListViewBackend {
    weak var core: ListViewCore?
    var seen: PathMapping?
    var hasWindow: Bool { true }
    func performBatch(animated: Bool, _ body: () -> Changeset) {
        _ = body()
        seen = core?.batchMapping
    }
    func reconfigureItems(at paths: [ItemPath]) {}
    func reloadAll() {}
    func viewportOffset(ofItemAt path: ItemPath) -> Double? { nil }
    func scrollItem(at path: ItemPath, toViewportOffset offset: Double) {}
    func makeCell(_ source: CellSource, for path: ItemPath) -> AnyObject { TextCell() }
}
