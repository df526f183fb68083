import CellKitTesting
import Testing
@testable import CellKitDiff

/// Large inputs (70k elements: a table filled in order, and its growth path),
/// checked by the same oracle. The partitioned table (tables over 2^18 slots)
/// is exercised by `IdentifierHashTests`' 150k-element diff.
@Suite("Large diffs")
struct LargeDiffTests {
    static func largePair(seed: UInt64, n: Int, duplicates: Bool) -> (old: [TItem], new: [TItem]) {
        var rng = SplitMix64(seed: seed)
        let idRange = duplicates ? n * 3 / 4 : Int.max / 2
        let old = (0..<n).map { i in TItem(id: duplicates ? Int.random(in: 0..<idRange, using: &rng) : i * 7 + 3, content: 0) }
        var new = old
        for _ in 0..<(n / 50) {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: new.remove(at: Int.random(in: 0..<new.count, using: &rng))
            case 1: new.insert(TItem(id: Int.random(in: 0..<idRange, using: &rng) | 1 << 40, content: 0), at: Int.random(in: 0...new.count, using: &rng))
            case 2:
                let e = new.remove(at: Int.random(in: 0..<new.count, using: &rng))
                new.insert(e, at: Int.random(in: 0...new.count, using: &rng))
            default: new[Int.random(in: 0..<new.count, using: &rng)].content += 1
            }
        }
        return (old, new)
    }

    @Test("70k items, unique ids", arguments: [UInt64(1), 2])
    func unique(seed: UInt64) throws {
        let (old, new) = Self.largePair(seed: seed, n: 70_000, duplicates: false)
        try checkFlat(old: old, new: new, options: DiffOptions(trimsIdenticalEnds: seed % 2 == 0))
    }

    @Test("70k items with many duplicate ids, no trimming: every duplicate reported", arguments: [UInt64(3), 4])
    func withDuplicates(seed: UInt64) throws {
        let (old, new) = Self.largePair(seed: seed, n: 70_000, duplicates: true)
        try checkFlat(old: old, new: new, options: DiffOptions(trimsIdenticalEnds: false))
    }

    @Test("everything replaced: the table grows past its first size")
    func allNew() throws {
        let old = (0..<5_000).map { TItem(id: $0, content: 0) }
        let new = (0..<40_000).map { TItem(id: 1_000_000 + $0 % 30_000, content: 0) }
        try checkFlat(old: old, new: new, options: DiffOptions(trimsIdenticalEnds: false))
        try checkFlat(old: new, new: old)
        // The first table has 16,384 slots (twice the 8,000 old ids, rounded up to a
        // power of two); 8,000 old and 7,000 new-only ids fill more than 3/4 of it, so
        // it grows while the new rows are looked up, duplicates among them included.
        let replaced = (0..<8_000).map { TItem(id: 1_000_000 + $0 % 7_000, content: 0) }
        let first = (0..<8_000).map { TItem(id: $0, content: 0) }
        try checkFlat(old: first, new: replaced, options: DiffOptions(trimsIdenticalEnds: false))
    }

    @Test("sectioned: 100 sections of 800 rows, rows moving across sections")
    func sectioned() throws {
        var rng = SplitMix64(seed: 9)
        let old = (0..<100).map { s in TSection(id: s, content: 0, elements: (0..<800).map { TItem(id: s * 800 + $0, content: 0) }) }
        var new = old
        for _ in 0..<2_000 {
            let a = Int.random(in: 0..<100, using: &rng)
            let b = Int.random(in: 0..<100, using: &rng)
            let e = new[a].elements.remove(at: Int.random(in: 0..<new[a].elements.count, using: &rng))
            new[b].elements.insert(e, at: Int.random(in: 0...new[b].elements.count, using: &rng))
        }
        new.swapAt(3, 70)
        new[5].content = 1
        new.remove(at: 50)
        try checkSectioned(old: old, new: new)
    }
}
