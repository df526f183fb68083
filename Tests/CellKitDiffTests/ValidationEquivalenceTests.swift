import CellKitDiff
import CellKitTesting
import Testing

// The validator checks rows in bitmaps over each section (hashed sets when the
// list dwarfs the batch); the reference (Support/ReferenceValidation.swift) uses
// `Set<ItemPath>` everywhere, as it did before. On thousands of random batches,
// valid and broken, small lists and large ones, both must give the same error.

@Suite("Batch-update validation: bitmaps against the Set-based reference")
struct ValidationEquivalenceTests {
    @Test("same verdict and same error as the reference, on random batches", arguments: 0..<40)
    func agreesWithTheReference(block: Int) {
        var invalid = 0
        for seed in UInt64(block * 100)..<UInt64(block * 100 + 100) {
            var rng = SplitMix64(seed: seed)
            let (batch, old, new) = Self.randomBatch(&rng)
            let expected = referenceValidationError(batch, oldCounts: old, newCounts: new)
            let actual = batch.validationError(oldCounts: old, newCounts: new)
            #expect(actual == expected, "seed \(seed): \(batch) old \(old) new \(new)")
            if expected != nil { invalid += 1 }
        }
        // Both verdicts are exercised in every block.
        #expect(invalid > 10 && invalid < 95, "block \(block): \(invalid) invalid of 100")
    }

    @Test("a large list with a few changes (hashed sets) and a dense batch (bitmaps) agree with the reference")
    func largeAndDense() {
        for seed: UInt64 in 0..<50 {
            var rng = SplitMix64(seed: 10_000 + seed)
            let (batch, old, new) = Self.randomBatch(&rng, rows: seed % 2 == 0 ? 50_000 : 64, changes: seed % 2 == 0 ? 8 : 60)
            #expect(batch.validationError(oldCounts: old, newCounts: new) == referenceValidationError(batch, oldCounts: old, newCounts: new),
                    "seed \(10_000 + seed)")
        }
    }

    @Test("counts near Int.max and negative counts give the reference's errors")
    func extremeCounts() {
        let cases: [(Changeset, [Int], [Int])] = [
            (Changeset(itemDeletes: [ItemPath(item: 0, section: 0)]), [Int.max], [Int.max]),
            (Changeset(itemDeletes: [ItemPath(item: 0, section: 0)]), [Int.max], [Int.max - 1]),
            (Changeset(itemInserts: [ItemPath(item: 5, section: 1)]), [Int.max, Int.max / 2], [Int.max, Int.max / 2 + 1]),
            (Changeset(itemDeletes: [ItemPath(item: 0, section: 0)]), [-3], [-4]),
            (Changeset(itemMoves: [Move(from: ItemPath(item: 1, section: 0), to: ItemPath(item: 0, section: 0))]), [-1], [-1]),
        ]
        for (batch, old, new) in cases {
            #expect(batch.validationError(oldCounts: old, newCounts: new) == referenceValidationError(batch, oldCounts: old, newCounts: new),
                    "\(batch) \(old) \(new)")
        }
    }

    /// A random batch between two lists: built valid (rows deleted, reloaded,
    /// moved across sections, inserted; sections deleted, reloaded, inserted),
    /// then, half the time, broken by one or two random edits.
    static func randomBatch(_ rng: inout SplitMix64, rows: Int? = nil, changes: Int? = nil) -> (Changeset, [Int], [Int]) {
        func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(rng.next() % UInt64(n)) }
        let large = rows.map { $0 > 1000 } ?? (below(4) == 0)
        let maxRows = rows ?? (large ? 20_000 : 12)
        let oldS = 1 + below(4)
        let old = (0..<oldS).map { _ in large ? maxRows / 2 + below(maxRows / 2) : below(maxRows + 1) }
        var batch = Changeset()
        // Sections: each old one kept, deleted or reloaded; a few inserted.
        var kept: [Int] = []
        for s in 0..<oldS {
            switch below(10) {
            case 0: batch.sectionDeletes.append(s)
            case 1: batch.sectionUpdates.append(s); kept.append(s)
            default: kept.append(s)
            }
        }
        let newS = kept.count + below(2)
        var isInserted = [Bool](repeating: false, count: newS)
        for j in 0..<newS - kept.count {
            var slot = below(newS)
            while isInserted[slot] { slot = (slot + 1) % newS }
            isInserted[slot] = true
            _ = j
        }
        for j in 0..<newS where isInserted[j] { batch.sectionInserts.append(j) }
        var newOfOld = [Int](repeating: -1, count: oldS)
        var next = 0
        for s in kept {
            while isInserted[next] { next += 1 }
            newOfOld[s] = next
            next += 1
        }
        // Rows of kept, not reloaded sections: deleted, reloaded, moved or kept.
        let open = kept.filter { !batch.sectionUpdates.contains($0) }
        let budget = changes ?? (large ? 1 + below(12) : Int.max)
        var survivors = [Int](repeating: 0, count: newS)
        var movers: [ItemPath] = []
        for s in open {
            var picked = Set<Int>()
            let rowsToVisit = large ? (0..<min(budget, old[s])).map { _ in below(old[s]) } : Array(0..<old[s])
            for r in rowsToVisit where picked.insert(r).inserted {
                switch below(5) {
                case 0: batch.itemDeletes.append(ItemPath(item: r, section: s))
                case 1: batch.itemUpdates.append(ItemPath(item: r, section: s))
                case 2 where !open.isEmpty: movers.append(ItemPath(item: r, section: s))
                default: break
                }
            }
            survivors[newOfOld[s]] += old[s] - picked.count
            survivors[newOfOld[s]] += picked.count - batch.itemDeletes.filter { $0.section == s }.count
                - batch.itemUpdates.filter { $0.section == s }.count - movers.filter { $0.section == s }.count
        }
        for s in open {  // reloaded rows stay in place
            survivors[newOfOld[s]] += batch.itemUpdates.filter { $0.section == s }.count
        }
        var new = [Int](repeating: 0, count: newS)
        for j in 0..<newS { new[j] = isInserted[j] ? below(maxRows + 1) : survivors[j] }
        for s in kept where batch.sectionUpdates.contains(s) { new[newOfOld[s]] = below(maxRows + 1) }
        // Moves and inserts land in open new sections, at distinct slots.
        let openNew = open.map { newOfOld[$0] }
        var arrivals: [Int: Int] = [:]
        for _ in movers { arrivals[openNew[below(openNew.count)], default: 0] += 1 }
        let insertCount = large ? below(budget + 1) : below(6)
        if !openNew.isEmpty { for _ in 0..<insertCount { arrivals[openNew[below(openNew.count)], default: 0] += 1 } }
        var destinations: [ItemPath] = []
        for (j, count) in arrivals.sorted(by: { $0.key < $1.key }) {
            new[j] += count
            var slots = Set<Int>()
            while slots.count < count { slots.insert(below(new[j])) }
            destinations += slots.map { ItemPath(item: $0, section: j) }
        }
        destinations.shuffle(using: &rng)
        for (index, from) in movers.enumerated() { batch.itemMoves.append(Move(from: from, to: destinations[index])) }
        batch.itemInserts = Array(destinations.dropFirst(movers.count))
        batch.itemDeletes.shuffle(using: &rng)
        batch.itemUpdates.shuffle(using: &rng)
        if below(2) == 0 { batch.itemInserts.sort() }
        if below(2) == 0 { batch.itemMoves.sort { $0.to < $1.to } }

        var newCounts = new
        if below(2) == 0 {
            for _ in 0..<(1 + below(2)) { breakOnce(&batch, old: old, new: &newCounts, &rng) }
        }
        return (batch, old, newCounts)
    }

    /// One random edit that usually breaks a rule.
    static func breakOnce(_ batch: inout Changeset, old: [Int], new: inout [Int], _ rng: inout SplitMix64) {
        func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(rng.next() % UInt64(n)) }
        func pick<T>(_ list: [T]) -> T? { list.isEmpty ? nil : list[below(list.count)] }
        func nudge(_ p: ItemPath) -> ItemPath {
            switch below(4) {
            case 0: ItemPath(item: p.item + 1, section: p.section)
            case 1: ItemPath(item: -1, section: p.section)
            case 2: ItemPath(item: p.item, section: p.section + 1)
            default: ItemPath(item: p.item, section: -1)
            }
        }
        let anyOld = ItemPath(item: below((old.max() ?? 0) + 1), section: below(old.count + 1))
        let anyNew = ItemPath(item: below((new.max() ?? 0) + 1), section: below(new.count + 1))
        switch below(16) {
        case 0: if let p = pick(batch.itemDeletes) { batch.itemDeletes.insert(p, at: below(batch.itemDeletes.count + 1)) }
        case 1: if let p = pick(batch.itemUpdates) { batch.itemUpdates.insert(p, at: below(batch.itemUpdates.count + 1)) }
        case 2: if let p = pick(batch.itemInserts) { batch.itemInserts.insert(p, at: below(batch.itemInserts.count + 1)) }
        case 3: if let m = pick(batch.itemMoves) { batch.itemMoves.append(Move(from: m.from, to: anyNew)) }
        case 4: if let m = pick(batch.itemMoves) { batch.itemMoves.insert(Move(from: anyOld, to: m.to), at: 0) }
        case 5: if let p = pick(batch.itemDeletes) { batch.itemUpdates.append(p) }
        case 6: if let m = pick(batch.itemMoves) { batch.itemDeletes.append(m.from) }
        case 7: if let m = pick(batch.itemMoves) { batch.itemUpdates.insert(m.from, at: 0) }
        case 8: if let m = pick(batch.itemMoves) { batch.itemInserts.append(m.to) }
        case 9: if !batch.itemDeletes.isEmpty { let i = below(batch.itemDeletes.count); batch.itemDeletes[i] = nudge(batch.itemDeletes[i]) }
        case 10: if !batch.itemInserts.isEmpty { let i = below(batch.itemInserts.count); batch.itemInserts[i] = nudge(batch.itemInserts[i]) }
        case 11: if !batch.itemMoves.isEmpty { let i = below(batch.itemMoves.count); batch.itemMoves[i].to = nudge(batch.itemMoves[i].to) }
        case 12: if !new.isEmpty { new[below(new.count)] += below(2) == 0 ? 1 : -1 }
        case 13: batch.sectionDeletes.append(below(old.count + 1))
        case 14: batch.sectionUpdates.append(below(old.count + 1))
        default: batch.sectionMoves.append(Move(from: below(old.count + 1), to: below(new.count + 1)))
        }
    }
}
