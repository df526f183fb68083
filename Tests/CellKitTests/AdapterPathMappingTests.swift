import CellKit
import CellKitTesting
import Testing

// PathMapping against an independent oracle: random edits of sectioned ids
// (deletes, cross-section moves, inserts) turned into UIKit-semantics batches.

@Suite("Adapter: PathMapping and ScrollAnchor")
struct AdapterPathMappingTests {
    private let p = { (item: Int, section: Int) in ItemPath(item: item, section: section) }


    static func position(of id: Int, in sections: [[Int]]) -> ItemPath? {
        for (s, rows) in sections.enumerated() {
            if let i = rows.firstIndex(of: id) { return ItemPath(item: i, section: s) }
        }
        return nil
    }

    @Test(arguments: 0..<200)
    func randomEditsMapLikeTheOracle(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed))
        let sectionCount = 1 + rng.below(4)
        var nextID = 0
        let old: [[Int]] = (0..<sectionCount).map { _ in
            (0..<rng.below(8)).map { _ in defer { nextID += 1 }; return nextID }
        }
        var new = old
        var deleted: [Int] = [], moved: [Int] = []
        for id in old.flatMap({ $0 }) {
            switch rng.below(6) {
            case 0: deleted.append(id)
            case 1: moved.append(id)
            default: break
            }
        }
        new = new.map { $0.filter { !deleted.contains($0) && !moved.contains($0) } }
        var inserted: [Int] = []
        for id in moved + (0..<rng.below(5)).map({ _ in defer { nextID += 1 }; return nextID }) {
            let s = rng.below(sectionCount)
            new[s].insert(id, at: rng.below(new[s].count + 1))
            if !moved.contains(id) { inserted.append(id) }
        }
        let batch = Changeset(
            itemDeletes: deleted.map { Self.position(of: $0, in: old)! },
            itemInserts: inserted.map { Self.position(of: $0, in: new)! },
            itemMoves: moved.map { Move(from: Self.position(of: $0, in: old)!, to: Self.position(of: $0, in: new)!) }
        )
        let oldCounts = old.map(\.count), newCounts = new.map(\.count)
        try batch.validate(oldCounts: oldCounts, newCounts: newCounts)
        let mapping = PathMapping(batch, oldCounts: oldCounts, newCounts: newCounts)
        for id in old.flatMap({ $0 }) {
            let from = Self.position(of: id, in: old)!
            let expected = deleted.contains(id) ? nil : Self.position(of: id, in: new)
            #expect(mapping.newPath(of: from) == expected, "seed \(seed): id \(id) from \(from)")
        }
    }

    @Test func sectionDeletesInsertsMovesAndReloads() {
        // Old sections A B C D: delete A, reload B, move D to the front, insert a new section at 2.
        // New: D B X C.
        let batch = Changeset(sectionDeletes: [0], sectionInserts: [2], sectionUpdates: [1], sectionMoves: [Move(from: 3, to: 0)])
        let mapping = PathMapping(batch, oldCounts: [1, 2, 3, 4], newCounts: [4, 2, 5, 3])
        #expect(mapping.newSections == [nil, 1, 3, 0])
        #expect(mapping.newPath(of: p(0, 0)) == nil)           // deleted section
        #expect(mapping.newPath(of: p(1, 1)) == nil)           // reloaded section: rows replaced
        #expect(mapping.newPath(of: p(2, 2)) == p(2, 3))
        #expect(mapping.newPath(of: p(3, 3)) == p(3, 0))
        #expect(mapping.newPath(of: p(0, 9)) == nil)           // no such section
    }

    @Test func docExamples() {
        let prepend = Changeset(itemInserts: [p(0, 0), p(1, 0)])
        let mapping = PathMapping(prepend, oldCounts: [3], newCounts: [5])
        #expect(mapping.newPath(of: p(0, 0)) == p(2, 0))

        let one = Changeset(itemInserts: [p(0, 0)])
        let anchor = ScrollAnchor.find(visible: [p(4, 0)], changeset: one, mapping: PathMapping(one, oldCounts: [10], newCounts: [11]))
        #expect(anchor == ScrollAnchor(old: p(4, 0), new: p(5, 0), shiftedFromAbove: true))
        #expect(anchor?.moved == true)
    }

    @Test func anchorSkipsDeletedVisibleRowsAndIgnoresChangesBelow() {
        let deleteTop = Changeset(itemDeletes: [p(3, 0)], itemInserts: [p(0, 0), p(1, 0)])
        let mapping = PathMapping(deleteTop, oldCounts: [10], newCounts: [11])
        let anchor = ScrollAnchor.find(visible: [p(3, 0), p(4, 0), p(5, 0)], changeset: deleteTop, mapping: mapping)
        #expect(anchor == ScrollAnchor(old: p(4, 0), new: p(5, 0), shiftedFromAbove: true))

        let appendBelow = Changeset(itemInserts: [p(10, 0)])
        let below = ScrollAnchor.find(visible: [p(2, 0), p(3, 0)], changeset: appendBelow, mapping: PathMapping(appendBelow, oldCounts: [10], newCounts: [11]))
        #expect(below?.moved == false)
        #expect(below?.shiftedFromAbove == false)

        let allGone = Changeset(itemDeletes: [p(0, 0), p(1, 0)])
        #expect(ScrollAnchor.find(visible: [p(0, 0), p(1, 0)], changeset: allGone, mapping: PathMapping(allGone, oldCounts: [2], newCounts: [0])) == nil)
    }

    @Test func deletingAVisibleRowAnimatesInsteadOfAnchoring() {
        // Swipe-to-delete of the first visible row: the rows below slide up as usual.
        let delete = Changeset(itemDeletes: [p(5, 0)])
        let anchor = ScrollAnchor.find(visible: [p(5, 0), p(6, 0)], changeset: delete, mapping: PathMapping(delete, oldCounts: [20], newCounts: [19]))
        #expect(anchor == ScrollAnchor(old: p(6, 0), new: p(5, 0), shiftedFromAbove: false))
        // A row deleted above the screen pulls the content up: anchor it.
        let above = Changeset(itemDeletes: [p(1, 0)])
        #expect(ScrollAnchor.find(visible: [p(5, 0)], changeset: above, mapping: PathMapping(above, oldCounts: [20], newCounts: [19]))?.shiftedFromAbove == true)
        // A section inserted above the screen pushes it down.
        let section = Changeset(sectionInserts: [0])
        let pushed = ScrollAnchor.find(visible: [p(2, 0)], changeset: section, mapping: PathMapping(section, oldCounts: [5], newCounts: [3, 5]))
        #expect(pushed == ScrollAnchor(old: p(2, 0), new: p(2, 1), shiftedFromAbove: true))
    }

    @MainActor @Test func anchorOverTheHeadlessListView() throws {
        // Prepending rows: the anchor's new path is where the headless list view now shows that row.
        let listView = HeadlessListViewHarness.feed(count: 30)
        listView.view.scrollToItem(at: p(10, 0))
        let visible = listView.view.visibleItemPaths
        let firstModel = listView.source.model.item(at: visible[0])?.model as? String
        let batch = Changeset(itemInserts: [p(0, 0), p(1, 0), p(2, 0)])
        var after = listView.source.model
        after.sections[0].items.insert(contentsOf: ["new0", "new1", "new2"].map { ListItem($0) }, at: 0)
        let anchor = try #require(ScrollAnchor.find(visible: visible, changeset: batch, mapping: PathMapping(batch, oldCounts: [30], newCounts: [33])))
        #expect(anchor.shiftedFromAbove)
        #expect(listView.view.performBatchUpdates(batch) { listView.source.model = after } == .animated)
        #expect(anchor.new == p(13, 0))
        #expect(after.item(at: anchor.new)?.model as? String == firstModel)
    }
}

extension SplitMix64 {
    /// A value in `0..<n` (0 when `n` is not positive).
    mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }
}
