// The diff's hot path: matching identifiers through a flat open-addressing table,
// and the longest increasing subsequence that decides which matched items stay.
// Everything here is `@inlinable` so that it is specialised for the caller's
// identifier type in the caller's module.

/// A later occurrence of an identifier, and the position of its first occurrence.
@usableFromInline
internal struct _DuplicateRecord {
    /// Whether the duplicate is in the new snapshot (else the old one).
    @usableFromInline var isNew: Bool
    /// Index of the first occurrence, in the same snapshot.
    @usableFromInline var first: Int
    /// Index of this later occurrence.
    @usableFromInline var later: Int

    @inlinable
    init(isNew: Bool, first: Int, later: Int) {
        self.isNew = isNew
        self.first = first
        self.later = later
    }
}

/// Which old element matches which new one (by identifier, first occurrence wins).
@usableFromInline
internal struct _Matching {
    /// For each old index: the matching new index, or -1.
    @usableFromInline var oldToNew: [Int32]
    /// For each new index: the matching old index, or -1.
    @usableFromInline var newToOld: [Int32]
    /// Every later occurrence of an identifier, in scan order.
    @usableFromInline var duplicates: [_DuplicateRecord]

    @inlinable
    init(oldToNew: [Int32], newToOld: [Int32], duplicates: [_DuplicateRecord]) {
        self.oldToNew = oldToNew
        self.newToOld = newToOld
        self.duplicates = duplicates
    }
}

/// Matches identifiers of two snapshots through a flat open-addressing table.
///
/// The table has a power-of-two capacity and linear probing; each slot is one
/// 64-bit word: the upper 32 bits of the identifier's hash as a tag, and the
/// entry in the lower 32 bits (old index + 1, or −(new index + 1) for an
/// identifier seen only in the new snapshot, kept to detect duplicates there).
/// The first occurrence of an identifier on each side keeps the identity; later
/// ones stay unmatched and are recorded as duplicates.
///
/// - Complexity: O(*n* + *m*) expected, *n* and *m* the two counts; one hash per identifier.
@inlinable
internal func _matchIdentifiers<ID: Hashable>(
    _ oldIDs: UnsafeBufferPointer<ID>, _ newIDs: UnsafeBufferPointer<ID>
) -> _Matching {
    let nOld = oldIDs.count
    let nNew = newIDs.count
    precondition(nOld < Int(Int32.max) && nNew < Int(Int32.max), "CellKitDiff handles fewer than 2^31 elements per side")
    var oldToNew = [Int32](repeating: -1, count: nOld)
    var newToOld = [Int32](repeating: -1, count: nNew)
    var duplicates: [_DuplicateRecord] = []
    if nOld == 0 && nNew == 0 {
        return _Matching(oldToNew: oldToNew, newToOld: newToOld, duplicates: duplicates)
    }
    // Load factor at most 2/3 even when every identifier is distinct.
    let total = nOld + nNew
    let needed = total + total / 2 + 1
    var capacity = 16
    while capacity < needed { capacity &<<= 1 }
    let mask = capacity &- 1
    let table = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
    table.initialize(repeating: 0, count: capacity)
    defer { table.deallocate() }
    let tagMask: UInt64 = 0xFFFF_FFFF_0000_0000

    oldToNew.withUnsafeMutableBufferPointer { o2n in
        newToOld.withUnsafeMutableBufferPointer { n2o in
            for i in 0..<nOld {
                let id = oldIDs[i]
                let hash = id.hashValue
                let tag = UInt64(truncatingIfNeeded: hash) & tagMask
                var slot = hash & mask
                while true {
                    let entry = table[slot]
                    if entry == 0 {
                        table[slot] = tag | UInt64(UInt32(truncatingIfNeeded: i &+ 1))
                        break
                    }
                    if entry & tagMask == tag {
                        let first = Int(Int32(truncatingIfNeeded: entry)) &- 1
                        if oldIDs[first] == id {
                            duplicates.append(_DuplicateRecord(isNew: false, first: first, later: i))
                            break
                        }
                    }
                    slot = (slot &+ 1) & mask
                }
            }
            for j in 0..<nNew {
                let id = newIDs[j]
                let hash = id.hashValue
                let tag = UInt64(truncatingIfNeeded: hash) & tagMask
                var slot = hash & mask
                while true {
                    let entry = table[slot]
                    if entry == 0 {
                        table[slot] = tag | UInt64(UInt32(bitPattern: Int32(truncatingIfNeeded: -(j &+ 1))))
                        break
                    }
                    if entry & tagMask == tag {
                        let value = Int(Int32(truncatingIfNeeded: entry))
                        if value > 0 {
                            let i = value &- 1
                            if oldIDs[i] == id {
                                let matched = Int(o2n[i])
                                if matched < 0 {
                                    o2n[i] = Int32(truncatingIfNeeded: j)
                                    n2o[j] = Int32(truncatingIfNeeded: i)
                                } else {
                                    duplicates.append(_DuplicateRecord(isNew: true, first: matched, later: j))
                                }
                                break
                            }
                        } else {
                            let first = -value &- 1
                            if newIDs[first] == id {
                                duplicates.append(_DuplicateRecord(isNew: true, first: first, later: j))
                                break
                            }
                        }
                    }
                    slot = (slot &+ 1) & mask
                }
            }
        }
    }
    return _Matching(oldToNew: oldToNew, newToOld: newToOld, duplicates: duplicates)
}

/// Marks the members of one longest strictly increasing subsequence of `values`.
///
/// Patience sorting with predecessor links; a value greater than the current
/// longest tail is appended without a search, which makes mostly-sorted input
/// (the usual diff) nearly linear.
///
/// - Complexity: O(*n* log *n*), *n* = `values.count`.
@inlinable
internal func _markLongestIncreasingSubsequence(
    _ values: UnsafeBufferPointer<Int32>, _ marks: UnsafeMutableBufferPointer<Bool>
) {
    let n = values.count
    if n == 0 { return }
    let tails = UnsafeMutablePointer<Int32>.allocate(capacity: n)
    let previous = UnsafeMutablePointer<Int32>.allocate(capacity: n)
    defer {
        tails.deallocate()
        previous.deallocate()
    }
    var length = 0
    for x in 0..<n {
        let v = values[x]
        if length == 0 || values[Int(tails[length &- 1])] < v {
            previous[x] = length == 0 ? -1 : tails[length &- 1]
            tails[length] = Int32(truncatingIfNeeded: x)
            length &+= 1
            continue
        }
        // Smallest position whose tail is ≥ v.
        var lo = 0
        var hi = length &- 1
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if values[Int(tails[mid])] < v { lo = mid &+ 1 } else { hi = mid }
        }
        tails[lo] = Int32(truncatingIfNeeded: x)
        previous[x] = lo == 0 ? -1 : tails[lo &- 1]
    }
    var k = Int(tails[length &- 1])
    while k >= 0 {
        marks[k] = true
        k = Int(previous[k])
    }
}

/// Groups duplicate records into one diagnostic per identifier and side.
@inlinable
internal func _duplicateDiagnostics<ID>(
    _ records: [_DuplicateRecord],
    kind: DuplicateIdentifier.Kind,
    oldIDs: UnsafeBufferPointer<ID>, newIDs: UnsafeBufferPointer<ID>,
    oldPath: (Int) -> ItemPath, newPath: (Int) -> ItemPath
) -> [DuplicateIdentifier] {
    if records.isEmpty { return [] }
    var byKey: [Int: Int] = [:]  // (first << 1 | isNew) → result index
    var result: [DuplicateIdentifier] = []
    for record in records {
        let key = record.first << 1 | (record.isNew ? 1 : 0)
        let path = record.isNew ? newPath(record.later) : oldPath(record.later)
        if let index = byKey[key] {
            result[index].positions.append(path)
        } else {
            let firstPath = record.isNew ? newPath(record.first) : oldPath(record.first)
            let id = record.isNew ? newIDs[record.first] : oldIDs[record.first]
            byKey[key] = result.count
            result.append(DuplicateIdentifier(
                side: record.isNew ? .new : .old, kind: kind,
                identifier: String(describing: id), positions: [firstPath, path]
            ))
        }
    }
    return result
}
