import CellKitTesting
@testable import CellKitDiff

/// A test element: identity and content kept apart; `==` compares both.
struct TItem: Differentiable, Equatable, Hashable, Sendable, CustomStringConvertible {
    var id: Int
    var content: Int
    var differenceIdentifier: Int { id }
    var description: String { "\(id):\(content)" }
}

typealias TSection = DiffSection<Int, Int, TItem>


/// Length of a longest strictly increasing subsequence, by the O(n²) DP.
func lisLengthByDP(_ values: [Int]) -> Int {
    if values.isEmpty { return 0 }
    var best = [Int](repeating: 1, count: values.count)
    for i in values.indices {
        for k in 0..<i where values[k] < values[i] { best[i] = max(best[i], best[k] + 1) }
    }
    return best.max()!
}

/// Length of a longest strictly increasing subsequence: the DP on small input,
/// patience piles (length only) on large input.
func lisLength(_ values: [Int]) -> Int {
    if values.count <= 300 { return lisLengthByDP(values) }
    var piles: [Int] = []  // smallest top of each pile
    for v in values {
        var lo = 0
        var hi = piles.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if piles[mid] < v { lo = mid + 1 } else { hi = mid }
        }
        if lo == piles.count { piles.append(v) } else { piles[lo] = v }
    }
    return piles.count
}

/// First-occurrence matching of two id lists: new index → old index (or nil).
func firstOccurrenceMatching(_ old: [Int], _ new: [Int]) -> [Int?] {
    var firstOld: [Int: Int] = [:]
    for (i, id) in old.enumerated() where firstOld[id] == nil { firstOld[id] = i }
    var seenNew: Set<Int> = []
    return new.map { id in
        guard seenNew.insert(id).inserted else { return nil }
        return firstOld[id]
    }
}

/// Duplicates as the policy defines them: id → all positions, per side.
func expectedDuplicates(_ ids: [Int], side: DuplicateIdentifier.Side, kind: DuplicateIdentifier.Kind, path: (Int) -> ItemPath) -> Set<DuplicateIdentifier> {
    var positions: [Int: [Int]] = [:]
    for (i, id) in ids.enumerated() { positions[id, default: []].append(i) }
    return Set(positions.compactMap { id, list in
        list.count > 1 ? DuplicateIdentifier(side: side, kind: kind, identifier: String(id), positions: list.map(path)) : nil
    })
}

enum OracleFailure: Error, CustomStringConvertible {
    case mismatch(String)
    var description: String {
        switch self { case .mismatch(let s): return s }
    }
}

func ensure(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw OracleFailure.mismatch(message()) }
}

/// Replays a flat staged changeset stage by stage with UIKit's rules and checks
/// every stage against its own data, the end against `new`, and the move count
/// against the minimum computed independently.
func checkFlat(old: [TItem], new: [TItem], options: DiffOptions = DiffOptions()) throws {
    let result = StagedChangeset(from: old, to: new, options: options)
    try ensure(result.finalData == new, "finalData differs from new")
    var current = old
    for (k, stage) in result.stages.enumerated() {
        try ensure(!stage.changeset.isEmpty, "stage \(k) is empty")
        try ensure(stage.changeset.sectionDeletes.isEmpty && stage.changeset.sectionInserts.isEmpty
                   && stage.changeset.sectionMoves.isEmpty && stage.changeset.sectionUpdates.isEmpty, "flat diff touched sections")
        do {
            let applied = try stage.changeset.apply(to: [current], reading: [stage.data], items: \.self)
            try ensure(applied == [stage.data], "stage \(k): applying gives \(applied[0]), stage data is \(stage.data)")
        } catch let error as BatchUpdateError {
            throw OracleFailure.mismatch("stage \(k) is invalid: \(error)\n\(stage.changeset)")
        }
        current = stage.data
    }
    if result.isReload { return }
    try ensure(current == new, "after all stages: \(current), expected \(new)")

    // Independent minimum: trim as documented, match first occurrences, LIS by DP.
    var lo = 0
    var oldHi = old.count
    var newHi = new.count
    if options.trimsIdenticalEnds {
        while lo < min(old.count, new.count) && old[lo] == new[lo] { lo += 1 }
        while oldHi > lo && newHi > lo && old[oldHi - 1] == new[newHi - 1] { oldHi -= 1; newHi -= 1 }
    }
    let oldWindow = Array(old[lo..<oldHi])
    let newWindow = Array(new[lo..<newHi])
    let match = firstOccurrenceMatching(oldWindow.map(\.id), newWindow.map(\.id))
    let matched = match.compactMap { $0 }
    let expectedMoves = matched.count - lisLength(matched)
    let expectedUpdates = match.enumerated().filter { j, i in i.map { oldWindow[$0].content != newWindow[j].content } ?? false }.count
    let all = result.stages.map(\.changeset)
    let moves = all.reduce(0) { $0 + $1.itemMoves.count }
    let updates = all.reduce(0) { $0 + $1.itemUpdates.count }
    let deletes = all.reduce(0) { $0 + $1.itemDeletes.count }
    let inserts = all.reduce(0) { $0 + $1.itemInserts.count }
    try ensure(moves == expectedMoves, "moves: \(moves), minimum \(expectedMoves)")
    try ensure(updates == expectedUpdates, "updates: \(updates), expected \(expectedUpdates)")
    try ensure(deletes == oldWindow.count - matched.count, "deletes: \(deletes), expected \(oldWindow.count - matched.count)")
    try ensure(inserts == newWindow.count - matched.count, "inserts: \(inserts), expected \(newWindow.count - matched.count)")

    // Duplicates: exact without trimming; with trimming, only true duplicates.
    let path = { (i: Int) in ItemPath(item: i, section: 0) }
    let expected = expectedDuplicates(old.map(\.id), side: .old, kind: .item, path: path)
        .union(expectedDuplicates(new.map(\.id), side: .new, kind: .item, path: path))
    if options.trimsIdenticalEnds {
        var byKey: [String: Set<ItemPath>] = [:]
        for e in expected { byKey["\(e.side) \(e.identifier)"] = Set(e.positions) }
        for d in result.duplicates {
            try ensure(byKey["\(d.side) \(d.identifier)"].map { Set(d.positions).isSubset(of: $0) } ?? false, "reported \(d), not a duplicate")
        }
    } else {
        try ensure(Set(result.duplicates) == expected, "duplicates \(result.duplicates), expected \(expected)")
    }
}

/// The sectioned counterpart of ``checkFlat``.
func checkSectioned(old: [TSection], new: [TSection], options: DiffOptions = DiffOptions()) throws {
    let result = StagedChangeset(from: old, to: new, options: options)
    try ensure(result.finalData == new, "finalData differs from new")
    var current = old
    for (k, stage) in result.stages.enumerated() {
        try ensure(!stage.changeset.isEmpty, "stage \(k) is empty")
        do {
            let applied = try stage.changeset.apply(to: current, reading: stage.data, items: \.elements)
            try ensure(applied == stage.data, "stage \(k): applying gives \(applied), stage data is \(stage.data)\n\(stage.changeset)")
        } catch let error as BatchUpdateError {
            throw OracleFailure.mismatch("stage \(k) is invalid: \(error)\n\(stage.changeset)")
        }
        current = stage.data
    }
    if result.isReload { return }
    try ensure(current == new, "after all stages: \(current), expected \(new)")

    // Independent minimum.
    let sectionMatch = firstOccurrenceMatching(old.map(\.id), new.map(\.id))
    let matchedSections = sectionMatch.compactMap { $0 }
    let expectedSectionMoves = matchedSections.count - lisLength(matchedSections)
    var newOfOld = [Int?](repeating: nil, count: old.count)
    for (j, i) in sectionMatch.enumerated() { if let i { newOfOld[i] = j } }
    var oldFlat: [(id: Int, section: Int, item: Int)] = []
    for (s, section) in old.enumerated() { for (r, e) in section.elements.enumerated() { oldFlat.append((e.id, s, r)) } }
    var newFlat: [(id: Int, section: Int, item: Int)] = []
    for (s, section) in new.enumerated() { for (r, e) in section.elements.enumerated() { newFlat.append((e.id, s, r)) } }
    let itemMatch = firstOccurrenceMatching(oldFlat.map(\.id), newFlat.map(\.id))
    var cross = 0
    var perPair: [Int: [Int]] = [:]  // new section → old flat indices in new order
    for (g, go) in itemMatch.enumerated() {
        guard let go else { continue }
        let j = newFlat[g].section
        let i = oldFlat[go].section
        guard sectionMatch[j] != nil, newOfOld[i] != nil else { continue }
        if newOfOld[i] == j { perPair[j, default: []].append(go) } else { cross += 1 }
    }
    let expectedItemMoves = cross + perPair.values.reduce(0) { $0 + $1.count - lisLength($1) }
    let all = result.stages.map(\.changeset)
    let itemMoves = all.reduce(0) { $0 + $1.itemMoves.count }
    let sectionMoves = all.reduce(0) { $0 + $1.sectionMoves.count }
    try ensure(sectionMoves == expectedSectionMoves, "section moves: \(sectionMoves), minimum \(expectedSectionMoves)")
    try ensure(itemMoves == expectedItemMoves, "item moves: \(itemMoves), minimum \(expectedItemMoves)")

    let expected = expectedDuplicates(old.map(\.id), side: .old, kind: .section, path: { ItemPath(item: -1, section: $0) })
        .union(expectedDuplicates(new.map(\.id), side: .new, kind: .section, path: { ItemPath(item: -1, section: $0) }))
        .union(expectedDuplicates(oldFlat.map(\.id), side: .old, kind: .item, path: { ItemPath(item: oldFlat[$0].item, section: oldFlat[$0].section) }))
        .union(expectedDuplicates(newFlat.map(\.id), side: .new, kind: .item, path: { ItemPath(item: newFlat[$0].item, section: newFlat[$0].section) }))
    try ensure(Set(result.duplicates) == expected, "duplicates \(result.duplicates), expected \(expected)")
}

// MARK: Random snapshots

/// A random flat pair; the seed picks the shape (edits, independent, edge cases).
func randomFlatPair(seed: UInt64) -> (old: [TItem], new: [TItem]) {
    var rng = SplitMix64(seed: seed)
    let shape = Int(seed % 16)
    let size = Int.random(in: 0...12, using: &rng)
    let withDuplicates = Bool.random(using: &rng) && shape % 3 == 0
    let idRange = withDuplicates ? max(1, size / 2 + 1) : 1_000_000
    func element() -> TItem { TItem(id: Int.random(in: 0..<idRange, using: &rng), content: Int.random(in: 0..<2, using: &rng)) }
    var old: [TItem] = []
    var used: Set<Int> = []
    while old.count < size {
        let e = element()
        if withDuplicates || used.insert(e.id).inserted { old.append(e) }
    }
    switch shape {
    case 0: return (old, [])  // full → empty
    case 1: return ([], old)  // empty → full
    case 2: return (old, old)  // nothing changed
    case 3:  // everything changed: new ids
        return (old, old.map { TItem(id: $0.id + 2_000_000, content: $0.content) })
    case 4:  // everything updated
        return (old, old.map { TItem(id: $0.id, content: $0.content + 1) })
    case 5:  // independent
        var new: [TItem] = []
        let n = Int.random(in: 0...12, using: &rng)
        while new.count < n { new.append(element()) }
        return (old, new)
    default:  // edits
        var new = old
        let edits = Int.random(in: 0...5, using: &rng)
        for _ in 0..<edits {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0 where !new.isEmpty: new.remove(at: Int.random(in: 0..<new.count, using: &rng))
            case 1: new.insert(element(), at: Int.random(in: 0...new.count, using: &rng))
            case 2 where !new.isEmpty:
                let e = new.remove(at: Int.random(in: 0..<new.count, using: &rng))
                new.insert(e, at: Int.random(in: 0...new.count, using: &rng))
            case 3 where !new.isEmpty: new[Int.random(in: 0..<new.count, using: &rng)].content += 1
            default: break
            }
        }
        return (old, new)
    }
}

/// A random sectioned pair; the seed picks the shape. `large`: up to 10 sections of
/// up to 40 rows and up to 30 edits (runs of kept rows between the changes, sections
/// whose rows keep their order beside ones whose rows move).
func randomSectionedPair(seed: UInt64, large: Bool = false) -> (old: [TSection], new: [TSection]) {
    var rng = SplitMix64(seed: seed)
    let shape = Int(seed % 12)
    let withDuplicates = shape % 3 == 0
    let sectionIDRange = withDuplicates ? (large ? 12 : 4) : 1_000
    let itemIDRange = withDuplicates ? (large ? 60 : 10) : 1_000_000
    let maxSections = large ? 10 : 4
    let maxRows = large ? 40 : 4
    var usedItems: Set<Int> = []
    var usedSections: Set<Int> = []
    func item() -> TItem {
        while true {
            let e = TItem(id: Int.random(in: 0..<itemIDRange, using: &rng), content: Int.random(in: 0..<2, using: &rng))
            if withDuplicates || usedItems.insert(e.id).inserted { return e }
        }
    }
    func section() -> TSection {
        var id: Int
        repeat { id = Int.random(in: 0..<sectionIDRange, using: &rng) } while !withDuplicates && !usedSections.insert(id).inserted
        let n = Int.random(in: 0...maxRows, using: &rng)
        return TSection(id: id, content: Int.random(in: 0..<2, using: &rng), elements: (0..<n).map { _ in item() })
    }
    let old = (0..<Int.random(in: 0...maxSections, using: &rng)).map { _ in section() }
    switch shape {
    case 1: return (old, [])
    case 2: return ([], old)
    case 4: return (old, old)
    case 5: return (old, (0..<Int.random(in: 0...maxSections, using: &rng)).map { _ in section() })
    default:
        var new = old
        for _ in 0..<Int.random(in: 0...(large ? 30 : 6), using: &rng) {
            switch Int.random(in: 0..<8, using: &rng) {
            case 0 where !new.isEmpty: new.remove(at: Int.random(in: 0..<new.count, using: &rng))
            case 1: new.insert(section(), at: Int.random(in: 0...new.count, using: &rng))
            case 2 where !new.isEmpty:
                let s = new.remove(at: Int.random(in: 0..<new.count, using: &rng))
                new.insert(s, at: Int.random(in: 0...new.count, using: &rng))
            case 3 where !new.isEmpty: new[Int.random(in: 0..<new.count, using: &rng)].content += 1
            case 4 where !new.isEmpty:  // move an item, possibly across sections
                let a = Int.random(in: 0..<new.count, using: &rng)
                let b = Int.random(in: 0..<new.count, using: &rng)
                if !new[a].elements.isEmpty {
                    let e = new[a].elements.remove(at: Int.random(in: 0..<new[a].elements.count, using: &rng))
                    new[b].elements.insert(e, at: Int.random(in: 0...new[b].elements.count, using: &rng))
                }
            case 5 where !new.isEmpty:
                let a = Int.random(in: 0..<new.count, using: &rng)
                new[a].elements.insert(item(), at: Int.random(in: 0...new[a].elements.count, using: &rng))
            case 6 where !new.isEmpty:
                let a = Int.random(in: 0..<new.count, using: &rng)
                if !new[a].elements.isEmpty { new[a].elements.remove(at: Int.random(in: 0..<new[a].elements.count, using: &rng)) }
            case 7 where !new.isEmpty:
                let a = Int.random(in: 0..<new.count, using: &rng)
                if !new[a].elements.isEmpty { new[a].elements[Int.random(in: 0..<new[a].elements.count, using: &rng)].content += 1 }
            default: break
            }
        }
        return (old, new)
    }
}
