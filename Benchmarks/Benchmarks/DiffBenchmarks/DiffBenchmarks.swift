// Diff benchmarks: CellKitDiff against stdlib's `difference(from:)` and a
// Dictionary floor, on the cases of DESIGN.md. Inputs are built once, outside
// the measured region; every case reports the moves it emitted as a metric.

import Benchmark
import CellKitDiff

struct Item: Differentiable, Equatable, Sendable {
    let id: Int
    var content: Int
    var differenceIdentifier: Int { id }
}

/// The splitmix64 finaliser: a bijection on 64-bit words, so ids are unique and random-looking.
func mix(_ x: UInt64) -> Int {
    var z = x &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int(bitPattern: UInt(z ^ (z >> 31)))
}

struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `n` items; `deletes`, `moves` and `updates` drawn from disjoint random items,
/// `inserts` fresh items; inserted and moved items land at random positions.
func flatCase(n: Int, deletes: Int, inserts: Int, moves: Int, updates: Int, seed: UInt64) -> (old: [Item], new: [Item]) {
    var rng = SplitMix64(state: seed)
    let old = (0..<n).map { Item(id: mix(UInt64($0)), content: 0) }
    var picked = Array(0..<n)
    for k in 0..<(deletes + moves + updates) {  // partial Fisher–Yates
        let r = Int.random(in: k..<n, using: &rng)
        picked.swapAt(k, r)
    }
    var role = [UInt8](repeating: 0, count: n)  // 1 delete, 2 move, 3 update
    for k in 0..<deletes { role[picked[k]] = 1 }
    for k in deletes..<(deletes + moves) { role[picked[k]] = 2 }
    for k in (deletes + moves)..<(deletes + moves + updates) { role[picked[k]] = 3 }
    // Staying items keep their order at evenly spaced keys; placed items get random keys.
    var keyed: [(key: Double, item: Item)] = []
    keyed.reserveCapacity(n - deletes + inserts)
    let staying = n - deletes - moves
    var s = 0
    for i in 0..<n {
        switch role[i] {
        case 0: keyed.append((Double(s) / Double(max(staying, 1)), old[i])); s += 1
        case 3: keyed.append((Double(s) / Double(max(staying, 1)), Item(id: old[i].id, content: 1))); s += 1
        case 2: keyed.append((Double.random(in: 0..<1, using: &rng), old[i]))
        default: break
        }
    }
    for k in 0..<inserts { keyed.append((Double.random(in: 0..<1, using: &rng), Item(id: mix(UInt64(n + k)), content: 0))) }
    keyed.sort { $0.key < $1.key }
    return (old, keyed.map(\.item))
}

typealias Section = DiffSection<Int, Int, Item>

/// 100 sections × 1,000 rows; 1,000 rows deleted, 1,000 inserted, 1,000 moved to a
/// random position in another section, 1,000 updated (disjoint, random).
func sectionedCase(seed: UInt64) -> (old: [Section], new: [Section]) {
    let sections = 100
    let rows = 1_000
    let each = 1_000
    var rng = SplitMix64(state: seed)
    let old = (0..<sections).map { s in
        Section(id: s, content: 0, elements: (0..<rows).map { Item(id: mix(UInt64(s * rows + $0)), content: 0) })
    }
    let n = sections * rows
    var picked = Array(0..<n)
    for k in 0..<(3 * each) { picked.swapAt(k, Int.random(in: k..<n, using: &rng)) }
    var role = [UInt8](repeating: 0, count: n)
    for k in 0..<each { role[picked[k]] = 1 }
    for k in each..<(2 * each) { role[picked[k]] = 2 }
    for k in (2 * each)..<(3 * each) { role[picked[k]] = 3 }
    var keyed = [[(key: Double, item: Item)]](repeating: [], count: sections)
    for s in 0..<sections {
        var r = 0
        for i in 0..<rows {
            let g = s * rows + i
            let item = old[s].elements[i]
            switch role[g] {
            case 0: keyed[s].append((Double(r) / Double(rows), item)); r += 1
            case 3: keyed[s].append((Double(r) / Double(rows), Item(id: item.id, content: 1))); r += 1
            case 2:
                var t = Int.random(in: 0..<(sections - 1), using: &rng)
                if t >= s { t += 1 }
                keyed[t].append((Double.random(in: 0..<1, using: &rng), item))
            default: break
            }
        }
    }
    for k in 0..<each {
        let t = Int.random(in: 0..<sections, using: &rng)
        keyed[t].append((Double.random(in: 0..<1, using: &rng), Item(id: mix(UInt64(n + k)), content: 0)))
    }
    let new = (0..<sections).map { s in
        Section(id: s, content: 0, elements: keyed[s].sorted { $0.key < $1.key }.map(\.item))
    }
    return (old, new)
}

let caseA = flatCase(n: 10_000, deletes: 1_000, inserts: 1_000, moves: 1_000, updates: 1_000, seed: 1)
let caseB = flatCase(n: 100_000, deletes: 10_000, inserts: 10_000, moves: 10_000, updates: 10_000, seed: 2)
let caseC: (old: [Item], new: [Item]) = {
    let old = (0..<100_000).map { Item(id: mix(UInt64($0)), content: 0) }
    return (old, [Item(id: mix(100_000), content: 0)] + old)
}()
let caseD = flatCase(n: 1_000_000, deletes: 2_500, inserts: 2_500, moves: 2_500, updates: 2_500, seed: 4)
let caseE = sectionedCase(seed: 5)

func moveCount<D>(_ changes: StagedChangeset<D>) -> Int {
    changes.stages.reduce(0) { $0 + $1.changeset.itemMoves.count + $1.changeset.sectionMoves.count }
}

/// The floor: a Dictionary from id to old index, every new id looked up once.
@inline(never)
func dictionaryFloor(_ old: [Item], _ new: [Item]) -> Int {
    var index = [Int: Int](minimumCapacity: old.count)
    for (i, item) in old.enumerated() { index[item.id] = i }
    var found = 0
    for item in new where index[item.id] != nil { found += 1 }
    return found
}

/// An element with a `String` identifier (issue 12: the lead must hold for non-integer ids).
struct StringItem: Differentiable, Equatable, Sendable {
    let id: String
    var content: Int
    var differenceIdentifier: String { id }
}

/// Case b) with `String` ids: the same changes, every id spelled as "item-<hex>" (14–21 characters).
let caseStringB: (old: [StringItem], new: [StringItem]) = (
    caseB.old.map { StringItem(id: "item-" + String(UInt(bitPattern: $0.id), radix: 16), content: $0.content) },
    caseB.new.map { StringItem(id: "item-" + String(UInt(bitPattern: $0.id), radix: 16), content: $0.content) }
)
/// 10k rows reversed: every row but one moves.
let caseReversal: (old: [Item], new: [Item]) = {
    let old = (0..<10_000).map { Item(id: mix(UInt64($0)), content: 0) }
    return (old, old.reversed())
}()

/// The floor for `String` ids.
@inline(never)
func dictionaryFloor(_ old: [StringItem], _ new: [StringItem]) -> Int {
    var index = [String: Int](minimumCapacity: old.count)
    for (i, item) in old.enumerated() { index[item.id] = i }
    var found = 0
    for item in new where index[item.id] != nil { found += 1 }
    return found
}

let movesMetric = BenchmarkMetric.custom("moves emitted", polarity: .prefersSmaller, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident, movesMetric],
        timeUnits: .microseconds,
        warmupIterations: 3,
        maxDuration: .seconds(3),
        maxIterations: 2_000
    )

    func flat(_ label: String, _ input: (old: [Item], new: [Item]), stdlib: Bool) {
        Benchmark("\(label) CellKitDiff") { benchmark in
            let (old, new) = input
            benchmark.startMeasurement()
            let changes = StagedChangeset(from: old, to: new)
            benchmark.stopMeasurement()
            benchmark.measurement(movesMetric, moveCount(changes))
            blackHole(changes)
        }
        Benchmark("\(label) Dictionary floor") { benchmark in
            let (old, new) = input
            benchmark.startMeasurement()
            blackHole(dictionaryFloor(old, new))
        }
        if stdlib {
            Benchmark("\(label) stdlib difference+inferringMoves") { benchmark in
                let oldIDs = input.old.map(\.id)
                let newIDs = input.new.map(\.id)
                benchmark.startMeasurement()
                let difference = newIDs.difference(from: oldIDs).inferringMoves()
                benchmark.stopMeasurement()
                let moves = difference.insertions.reduce(0) { count, change in
                    if case .insert(_, _, let associated) = change, associated != nil { return count + 1 }
                    return count
                }
                benchmark.measurement(movesMetric, moves)
                blackHole(difference)
            }
        }
    }

    flat("a) 10k 10% mix", caseA, stdlib: true)
    // stdlib's Myers diff is O((N+M)·D): minutes for b) and d), so they are skipped.
    flat("b) 100k 10% mix", caseB, stdlib: false)
    flat("c) 100k insert at front", caseC, stdlib: true)
    flat("d) 1M 1% mix", caseD, stdlib: false)

    // Issue 12: String ids and a full reversal. DifferenceKit is not a peer here
    // (no network dependencies); the Dictionary floor is.
    Benchmark("f) 100k 10% mix, String ids CellKitDiff") { benchmark in
        let (old, new) = caseStringB
        benchmark.startMeasurement()
        let changes = StagedChangeset(from: old, to: new)
        benchmark.stopMeasurement()
        benchmark.measurement(movesMetric, moveCount(changes))
        blackHole(changes)
    }
    Benchmark("f) 100k 10% mix, String ids Dictionary floor") { benchmark in
        let (old, new) = caseStringB
        benchmark.startMeasurement()
        blackHole(dictionaryFloor(old, new))
    }
    flat("g) 10k full reversal", caseReversal, stdlib: false)

    Benchmark("e) 100x1000 sections, 1k cross-section moves CellKitDiff") { benchmark in
        let (old, new) = caseE
        benchmark.startMeasurement()
        let changes = StagedChangeset(from: old, to: new)
        benchmark.stopMeasurement()
        benchmark.measurement(movesMetric, moveCount(changes))
        blackHole(changes)
    }
    Benchmark("e) 100x1000 sections Dictionary floor") { benchmark in
        let old = caseE.old.flatMap(\.elements)
        let new = caseE.new.flatMap(\.elements)
        benchmark.startMeasurement()
        blackHole(dictionaryFloor(old, new))
    }
}
