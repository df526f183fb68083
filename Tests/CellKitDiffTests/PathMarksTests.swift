import CellKitTesting
import Testing
@testable import CellKitDiff

// The validator's sets of paths, bitmap and table, against `Set<ItemPath>`:
// same answers for inserts (duplicates included) and lookups, full tables and
// clustered paths included.

@Suite("Batch-update validation: the path sets behind it")
struct PathMarksTests {
    @Test("bitmaps and tables answer like Set<ItemPath>", arguments: 0..<20)
    func agreeWithSet(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        func below(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        let counts = (0..<1 + below(4)).map { _ in seed % 2 == 0 ? below(200) : 100_000 + below(1_000) }
        let changes = 1 + below(300)
        var marks = _PathMarks(counts: counts, changes: changes)
        var reference = Set<ItemPath>()
        var inserted = 0
        while inserted < changes {
            let section = below(counts.count)
            guard counts[section] > 0 else { inserted += 1; continue }
            // Clustered rows (neighbours, repeats) as well as scattered ones.
            let item = below(2) == 0 ? below(min(counts[section], 40)) : below(counts[section])
            let path = ItemPath(item: item, section: section)
            #expect(marks.insert(path) == reference.insert(path).inserted, "seed \(seed): insert \(path)")
            inserted += 1
        }
        for _ in 0..<500 {
            let section = below(counts.count)
            let path = ItemPath(item: below(max(1, min(counts[section], 60))), section: section)
            guard counts[section] > 0 else { continue }
            #expect(marks.contains(path) == reference.contains(path), "seed \(seed): contains \(path)")
        }
        #expect(marks.count == reference.count, "seed \(seed)")
    }
}
