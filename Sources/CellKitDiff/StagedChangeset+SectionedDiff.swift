extension StagedChangeset {
    /// Computes the staged changeset that takes a sectioned list from `old` to `new`.
    ///
    /// Sections are matched by ``DiffSection/id`` and items by
    /// ``Differentiable/differenceIdentifier`` across all sections, so an item that
    /// changes section is one move. Only matched sections outside a longest
    /// increasing subsequence are section moves; within each pair of matched
    /// sections, only the items outside a longest increasing subsequence move. A
    /// section whose ``DiffSection/content`` changed is a section update (reload);
    /// an item whose content changed is an item update, unless its section is
    /// updated too: the section's reload in stage 3 shows it anew (UIKit accepts no
    /// row changes inside a reloaded section).
    ///
    /// An item whose section is deleted goes with it; an item in an inserted
    /// section comes with it (even if its identifier was elsewhere before), as
    /// UIKit accepts no row changes inside those sections.
    ///
    /// The result has up to three stages, each of which passes
    /// ``Changeset/validate(oldCounts:newCounts:)`` on its own:
    /// 1. section deletes, item deletes and item updates, in old coordinates;
    /// 2. section inserts and moves, item inserts and moves (sources in the
    ///    coordinates after stage 1);
    /// 3. section updates (positions equal before and after).
    ///
    /// Only non-empty stages are emitted; the last one's data is `new`.
    ///
    /// ```swift
    /// let old = [
    ///     DiffSection(id: "a", content: "A", elements: [1, 2, 3]),
    ///     DiffSection(id: "b", content: "B", elements: [4, 5]),
    /// ]
    /// let new = [
    ///     DiffSection(id: "b", content: "B", elements: [4, 5, 1]),
    ///     DiffSection(id: "a", content: "A!", elements: [2, 3]),
    /// ]
    /// let changes = StagedChangeset(from: old, to: new)
    /// // One section move, one item move across sections, one section update.
    /// assert(changes.stages.map(\.changeset.changeCount) == [2, 1])
    /// assert(changes.finalData == new)
    /// ```
    ///
    /// - Complexity: O(*n* log *n* + *s* log *s*), *n* the number of items and *s*
    ///   the number of sections; O(*n* + *s*) expected when few items move.
    @inlinable
    public init<ID: Hashable, Content: Equatable, E: Differentiable>(
        from old: [DiffSection<ID, Content, E>], to new: [DiffSection<ID, Content, E>],
        options: DiffOptions = DiffOptions()
    ) where Data == [DiffSection<ID, Content, E>] {
        self = _sectionedDiff(old, new, options)
    }
}

/// The sectioned diff; see `StagedChangeset.init(from:to:options:)`.
@inlinable
internal func _sectionedDiff<ID: Hashable, Content: Equatable, E: Differentiable>(
    _ old: [DiffSection<ID, Content, E>], _ new: [DiffSection<ID, Content, E>], _ options: DiffOptions
) -> StagedChangeset<[DiffSection<ID, Content, E>]> {
    if old.count == 1 && new.count == 1 && old[0].id == new[0].id && old[0].content == new[0].content {
        return _oneSectionDiff(old[0], new, options)
    }
    return _multiSectionDiff(old, new, options)
}

/// The sectioned diff of one section that keeps its identity and content (the
/// usual one-section list): the flat diff of its elements, with the same
/// changesets, duplicates and stage data as ``_multiSectionDiff`` gives, at the
/// flat diff's cost (no per-item section bookkeeping, stage data built in one
/// pass). Identical ends are not trimmed, so every duplicate is reported, as
/// the sectioned diff always does.
@inlinable
internal func _oneSectionDiff<ID: Hashable, Content: Equatable, E: Differentiable>(
    _ old: DiffSection<ID, Content, E>, _ new: [DiffSection<ID, Content, E>], _ options: DiffOptions
) -> StagedChangeset<[DiffSection<ID, Content, E>]> {
    var flatOptions = options
    flatOptions.trimsIdenticalEnds = false
    let flat = _flatDiff(old.elements, new[0].elements, flatOptions)
    let last = flat.stages.count &- 1
    var stages: [Stage<[DiffSection<ID, Content, E>]>] = []
    stages.reserveCapacity(flat.stages.count)
    for (k, stage) in flat.stages.enumerated() {
        let data = k == last ? new : [DiffSection(id: old.id, content: old.content, elements: stage.data)]
        stages.append(Stage(changeset: stage.changeset, data: data))
    }
    return StagedChangeset(stages: stages, duplicates: flat.duplicates, isReload: flat.isReload, finalData: new)
}

/// The sectioned diff of any sections; see `StagedChangeset.init(from:to:options:)`.
@inlinable
internal func _multiSectionDiff<ID: Hashable, Content: Equatable, E: Differentiable>(
    _ old: [DiffSection<ID, Content, E>], _ new: [DiffSection<ID, Content, E>], _ options: DiffOptions
) -> StagedChangeset<[DiffSection<ID, Content, E>]> {
    typealias Section = DiffSection<ID, Content, E>
    let oldS = old.count
    let newS = new.count

    // 1. Sections: match by id, keep an LIS in place.
    let oldSectionIDs = ContiguousArray(old.lazy.map { _Identified($0.id) })
    let newSectionIDs = ContiguousArray(new.lazy.map { _Identified($0.id) })
    var duplicates: [DuplicateIdentifier] = []
    let sectionMatching: _Matching = oldSectionIDs.withUnsafeBufferPointer { o in
        newSectionIDs.withUnsafeBufferPointer { n in
            let m = _matchIdentifiers(o, n)
            duplicates += _duplicateDiagnostics(
                m.duplicates, kind: .section, old: o, new: n,
                oldPath: { ItemPath(item: -1, section: $0) }, newPath: { ItemPath(item: -1, section: $0) }
            )
            return m
        }
    }
    let secO2N = sectionMatching.oldToNew
    let secN2O = sectionMatching.newToOld
    var sectionStays = [Bool](repeating: false, count: newS)
    secN2O.withUnsafeBufferPointer { n2o in
        sectionStays.withUnsafeMutableBufferPointer { _ = _markLongestIncreasingSubsequence(n2o, $0) }
    }
    // Section index after stage 1 (deleted sections removed).
    var sectionAfterDeletes = [Int](repeating: -1, count: oldS)
    var sectionDeletes: [Int] = []
    for i in 0..<oldS {
        if secO2N[i] < 0 {
            sectionDeletes.append(i)
        } else {
            sectionAfterDeletes[i] = i - sectionDeletes.count
        }
    }
    // Sections reloaded in stage 3 (new indices).
    var reloaded = [Bool](repeating: false, count: newS)
    var sectionUpdates: [Int] = []
    for j in 0..<newS where secN2O[j] >= 0 && old[Int(secN2O[j])].content != new[j].content {
        reloaded[j] = true
        sectionUpdates.append(j)
    }

    // 2. Items: global indices in section order, then item order. The matcher reads
    // the identifiers alone, copied into one array per side (no copy of the rows:
    // the passes below read them in their sections' own storage).
    var oldStart = [Int](repeating: 0, count: oldS + 1)
    for i in 0..<oldS { oldStart[i + 1] = oldStart[i] + old[i].elements.count }
    var newStart = [Int](repeating: 0, count: newS + 1)
    for j in 0..<newS { newStart[j + 1] = newStart[j] + new[j].elements.count }
    let nOld = oldStart[oldS]
    let nNew = newStart[newS]
    // Written once each, without being zeroed first; the old side's section of each row
    // in the same pass.
    var oldSectionOf: [Int32] = []
    let oldIDs: [_Identified<E.DifferenceIdentifier>] = _exactArray(count: nOld) { ids in
        oldSectionOf = _exactArray(count: nOld) { so in
            for i in 0..<oldS {
                let base = oldStart[i]
                old[i].elements.withUnsafeBufferPointer { elements in
                    for r in 0..<elements.count {
                        ids.initializeElement(at: base &+ r, to: _Identified(elements[r].differenceIdentifier))
                        so.initializeElement(at: base &+ r, to: Int32(truncatingIfNeeded: i))
                    }
                }
            }
            return nOld
        }
        return nOld
    }
    let newIDs: [_Identified<E.DifferenceIdentifier>] = _exactArray(count: nNew) { ids in
        for j in 0..<newS {
            let base = newStart[j]
            new[j].elements.withUnsafeBufferPointer { elements in
                for r in 0..<elements.count {
                    ids.initializeElement(at: base &+ r, to: _Identified(elements[r].differenceIdentifier))
                }
            }
        }
        return nNew
    }

    var o2nArray: [Int32]
    var n2oArray: [Int32]
    do {
        let m: _Matching = oldIDs.withUnsafeBufferPointer { o in
            newIDs.withUnsafeBufferPointer { n in
                let m = _matchIdentifiers(o, n)
                duplicates += _duplicateDiagnostics(
                    m.duplicates, kind: .item, old: o, new: n,
                    oldPath: { g in
                        let s = Int(oldSectionOf[g])
                        return ItemPath(item: g - oldStart[s], section: s)
                    },
                    newPath: { g in
                        let s = _section(of: g, starts: newStart)
                        return ItemPath(item: g - newStart[s], section: s)
                    }
                )
                return m
            }
        }
        o2nArray = m.oldToNew
        n2oArray = m.newToOld
    }
    // The old row at global index `g`, in its section's storage.
    @inline(__always)
    func oldItem(_ g: Int) -> E {
        let s = Int(oldSectionOf[g])
        return old[s].elements[g &- oldStart[s]]
    }

    // Per matched pair: 1 = content differs (update), 2 = update carried by a section reload.
    var contentChange = [UInt8](repeating: 0, count: nOld)
    // Rows of each old section left after stage 1, the position of its first item
    // delete in `itemDeletes` and its updates' range in `itemUpdates` (deleted
    // sections: unused).
    var keptRows = [Int](repeating: 0, count: oldS)
    var firstDelete = [Int](repeating: 0, count: oldS)
    var firstUpdate = [Int](repeating: 0, count: oldS)
    var endUpdate = [Int](repeating: 0, count: oldS)
    var itemDeletes: [ItemPath] = []
    var itemUpdates: [ItemPath] = []
    var itemInserts: [ItemPath] = []
    var itemMoves: [Move<ItemPath>] = []
    var sectionInserts: [Int] = []
    var sectionMoves: [Move<Int>] = []

    o2nArray.withUnsafeMutableBufferPointer { o2n in
    n2oArray.withUnsafeMutableBufferPointer { n2o in
    oldSectionOf.withUnsafeBufferPointer { oldSectionOf in
    contentChange.withUnsafeMutableBufferPointer { contentChange in
        // A pair counts only when both sections survive. Per item of a new section: -1,
        // or the old index of a pair within one section, marked as staying in place
        // (`-2 - value`) by a longest increasing subsequence of the section's pairs:
        // from then on, an entry of -1 or more is a pair that moves. Written as staying
        // at first; a section whose pairs kept their order needs no subsequence.
        let pairValues = UnsafeMutableBufferPointer<Int32>.allocate(capacity: nNew)
        defer { pairValues.deallocate() }
        for j in 0..<newS {
            let base = newStart[j]
            let end = newStart[j + 1]
            let newSection = secN2O[j]
            if newSection < 0 {
                // An inserted section: its items come with it.
                for g in base..<end {
                    pairValues[g] = -1
                    let go = Int(n2o[g])
                    if go < 0 { continue }
                    n2o[g] = -1
                    o2n[go] = -1
                }
                continue
            }
            let change: UInt8 = reloaded[j] ? 2 : 1
            let inOrder = new[j].elements.withUnsafeBufferPointer { newItems in
                var last: Int32 = -1
                var inOrder = true
                for g in base..<end {
                    let go = Int(n2o[g])
                    pairValues[g] = -1
                    if go < 0 { continue }
                    let oldSection = oldSectionOf[go]
                    if secO2N[Int(oldSection)] < 0 {
                        n2o[g] = -1
                        o2n[go] = -1
                        continue
                    }
                    if newSection == oldSection {
                        let value = Int32(truncatingIfNeeded: go)
                        inOrder = inOrder && value > last
                        last = value
                        pairValues[g] = -2 &- value
                    }
                    let s = Int(oldSection)
                    if !old[s].elements[go &- oldStart[s]].isContentEqual(to: newItems[g &- base]) {
                        contentChange[go] = change
                    }
                }
                return inOrder
            }
            // 3. Otherwise, keep a longest increasing subsequence of its pairs in place.
            if !inOrder {
                for g in base..<end where pairValues[g] <= -2 { pairValues[g] = -2 &- pairValues[g] }
                _markLongestIncreasingSubsequenceInPlace(UnsafeMutableBufferPointer(rebasing: pairValues[base..<end]))
            }
        }

        // 4. Changes: stage 1 in old coordinates.
        for i in 0..<oldS where secO2N[i] >= 0 {
            let deletesBefore = itemDeletes.count
            firstDelete[i] = deletesBefore
            firstUpdate[i] = itemUpdates.count
            let base = oldStart[i]
            for r in 0..<(oldStart[i + 1] &- base) {
                let g = base &+ r
                if o2n[g] < 0 {
                    itemDeletes.append(ItemPath(item: r, section: i))
                } else if contentChange[g] == 1 {
                    itemUpdates.append(ItemPath(item: r, section: i))
                }
            }
            keptRows[i] = oldStart[i + 1] &- base &- (itemDeletes.count &- deletesBefore)
            endUpdate[i] = itemUpdates.count
        }
        // The row after stage 1 of the old item at global index `g` (in a surviving
        // section, not deleted): its row less the section's deletes before it.
        func rowAfterDeletes(_ g: Int) -> Int {
            let s = Int(oldSectionOf[g])
            let row = g &- oldStart[s]
            // Deletes of section `s` at rows below `row`: itemDeletes[firstDelete[s] ..< hi].
            var lo = firstDelete[s]
            var hi = lo &+ (oldStart[s &+ 1] &- oldStart[s] &- keptRows[s])
            let first = lo
            while lo < hi {
                let mid = (lo &+ hi) &>> 1
                if itemDeletes[mid].item < row { lo = mid &+ 1 } else { hi = mid }
            }
            return row &- (lo &- first)
        }
        // Stage 2: inserts in new coordinates, move sources after stage 1.
        for j in 0..<newS {
            let i = Int(secN2O[j])
            if i < 0 {
                sectionInserts.append(j)
                continue
            }
            if !sectionStays[j] {
                sectionMoves.append(Move(from: sectionAfterDeletes[i], to: j))
            }
            let base = newStart[j]
            for g in base..<newStart[j + 1] {
                let go = Int(n2o[g])
                if go < 0 {
                    itemInserts.append(ItemPath(item: g &- base, section: j))
                } else if pairValues[g] >= -1 {
                    let from = ItemPath(item: rowAfterDeletes(go), section: sectionAfterDeletes[Int(oldSectionOf[go])])
                    itemMoves.append(Move(from: from, to: ItemPath(item: g &- base, section: j)))
                }
            }
        }
    }}}}

    let first = Changeset(sectionDeletes: sectionDeletes, itemDeletes: itemDeletes, itemUpdates: itemUpdates)
    let second = Changeset(
        sectionInserts: sectionInserts, sectionMoves: sectionMoves, itemInserts: itemInserts, itemMoves: itemMoves
    )
    let third = Changeset(sectionUpdates: sectionUpdates)
    if let threshold = options.reloadThreshold,
       first.changeCount + second.changeCount + third.changeCount > threshold {
        return StagedChangeset(stages: [], duplicates: duplicates, isReload: true, finalData: new)
    }

    // 5. Stages, each with the data to show after it; the last one shows `new`.
    var stages: [Stage<[Section]>] = []
    let hasSecond = !second.isEmpty
    let hasThird = !third.isEmpty
    if !first.isEmpty {
        var data: [Section]
        if hasSecond || hasThird {
            // Old order without the deleted; updated items already show the new version.
            data = []
            data.reserveCapacity(oldS - sectionDeletes.count)
            for i in 0..<oldS where secO2N[i] >= 0 {
                // The rows between two deletes or updates are copied as one run.
                let base = oldStart[i]
                let rowCount = oldStart[i + 1] &- base
                var d = firstDelete[i]
                let dEnd = d &+ (rowCount &- keptRows[i])
                var u = firstUpdate[i]
                let uEnd = endUpdate[i]
                let elements: [E] = _exactArray(count: keptRows[i]) { buffer in
                    old[i].elements.withUnsafeBufferPointer { oldItems in
                        var k = 0
                        var r = 0
                        while true {
                            let nextDelete = d < dEnd ? itemDeletes[d].item : rowCount
                            let nextUpdate = u < uEnd ? itemUpdates[u].item : rowCount
                            let next = Swift.min(nextDelete, nextUpdate)
                            if next > r {
                                (buffer.baseAddress! + k).initialize(from: oldItems.baseAddress! + r, count: next &- r)
                                k &+= next &- r
                            }
                            if next == rowCount { break }
                            if next == nextDelete {
                                d &+= 1
                            } else {
                                let gn = Int(o2nArray[base &+ next])
                                let s = _section(of: gn, starts: newStart)
                                buffer.initializeElement(at: k, to: new[s].elements[gn &- newStart[s]])
                                k &+= 1
                                u &+= 1
                            }
                            r = next &+ 1
                        }
                        return k
                    }
                }
                data.append(DiffSection(id: old[i].id, content: old[i].content, elements: elements))
            }
        } else {
            data = new
        }
        stages.append(Stage(changeset: first, data: data))
    }
    if hasSecond {
        var data = new
        if hasThird {
            // Reloaded sections still show their old content and the old version
            // of the items whose update the reload carries.
            for j in sectionUpdates {
                let i = Int(secN2O[j])
                data[j].content = old[i].content
                for g in newStart[j]..<newStart[j + 1] {
                    let go = Int(n2oArray[g])
                    if go >= 0 && contentChange[go] == 2 {
                        data[j].elements[g - newStart[j]] = oldItem(go)
                    }
                }
            }
        }
        stages.append(Stage(changeset: second, data: data))
    }
    if hasThird {
        stages.append(Stage(changeset: third, data: new))
    }
    return StagedChangeset(stages: stages, duplicates: duplicates, finalData: new)
}

/// The section of global row `g`, given each section's first global row
/// (`starts`, with the total row count last): the last section starting at or
/// before `g` (empty sections are skipped).
@inlinable
internal func _section(of g: Int, starts: [Int]) -> Int {
    var lo = 0
    var hi = starts.count &- 1  // starts[hi] > g
    while hi &- lo > 1 {
        let mid = (lo &+ hi) &>> 1
        if starts[mid] <= g { lo = mid } else { hi = mid }
    }
    return lo
}
