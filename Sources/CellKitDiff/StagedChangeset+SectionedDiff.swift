extension StagedChangeset {
    /// Computes the staged changeset that takes a sectioned list from `old` to `new`.
    ///
    /// Sections are matched by ``DiffSection/id`` and items by
    /// ``Differentiable/differenceIdentifier`` across all sections, so an item that
    /// changes section is one move. Only matched sections outside a longest
    /// increasing subsequence are section moves; within each pair of matched
    /// sections, only the items outside a longest increasing subsequence move. A
    /// section whose ``DiffSection/content`` changed is a section update (reload);
    /// an item whose content changed is an item update.
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
        sectionStays.withUnsafeMutableBufferPointer { _markLongestIncreasingSubsequence(n2o, $0) }
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

    // 2. Items: identifiers flattened in section order, then item order.
    var oldStart = [Int](repeating: 0, count: oldS + 1)
    for i in 0..<oldS { oldStart[i + 1] = oldStart[i] + old[i].elements.count }
    var newStart = [Int](repeating: 0, count: newS + 1)
    for j in 0..<newS { newStart[j + 1] = newStart[j] + new[j].elements.count }
    let nOld = oldStart[oldS]
    let nNew = newStart[newS]
    var oldSectionOf = [Int32](repeating: 0, count: nOld)
    var newSectionOf = [Int32](repeating: 0, count: nNew)
    var oldIDs = ContiguousArray<_Identified<E.DifferenceIdentifier>>()
    oldIDs.reserveCapacity(nOld)
    for i in 0..<oldS {
        old[i].elements.withUnsafeBufferPointer { es in for e in es { oldIDs.append(_Identified(e.differenceIdentifier)) } }
        for g in oldStart[i]..<oldStart[i + 1] { oldSectionOf[g] = Int32(truncatingIfNeeded: i) }
    }
    var newIDs = ContiguousArray<_Identified<E.DifferenceIdentifier>>()
    newIDs.reserveCapacity(nNew)
    for j in 0..<newS {
        new[j].elements.withUnsafeBufferPointer { es in for e in es { newIDs.append(_Identified(e.differenceIdentifier)) } }
        for g in newStart[j]..<newStart[j + 1] { newSectionOf[g] = Int32(truncatingIfNeeded: j) }
    }
    var matching: _Matching = oldIDs.withUnsafeBufferPointer { o in
        newIDs.withUnsafeBufferPointer { n in
            let m = _matchIdentifiers(o, n)
            duplicates += _duplicateDiagnostics(
                m.duplicates, kind: .item, old: o, new: n,
                oldPath: { g in
                    let s = Int(oldSectionOf[g])
                    return ItemPath(item: g - oldStart[s], section: s)
                },
                newPath: { g in
                    let s = Int(newSectionOf[g])
                    return ItemPath(item: g - newStart[s], section: s)
                }
            )
            return m
        }
    }
    oldIDs = []
    newIDs = []
    // A pair counts only when both sections survive.
    for g in 0..<nNew {
        let go = Int(matching.newToOld[g])
        if go >= 0 && (secN2O[Int(newSectionOf[g])] < 0 || secO2N[Int(oldSectionOf[go])] < 0) {
            matching.newToOld[g] = -1
            matching.oldToNew[go] = -1
        }
    }

    // 3. Within each pair of matched sections, keep an LIS in place.
    var itemStays = [Bool](repeating: false, count: nNew)
    var pairValues = [Int32](repeating: -1, count: nNew)
    for g in 0..<nNew {
        let go = matching.newToOld[g]
        if go >= 0 && secN2O[Int(newSectionOf[g])] == oldSectionOf[Int(go)] { pairValues[g] = go }
    }
    pairValues.withUnsafeBufferPointer { values in
        itemStays.withUnsafeMutableBufferPointer { stays in
            for j in 0..<newS where secN2O[j] >= 0 {
                let range = newStart[j]..<newStart[j + 1]
                _markLongestIncreasingSubsequence(
                    UnsafeBufferPointer(rebasing: values[range]), UnsafeMutableBufferPointer(rebasing: stays[range])
                )
            }
        }
    }

    // 4. Changes.
    var itemDeletes: [ItemPath] = []
    var itemUpdates: [ItemPath] = []
    var updateSkipped = [Bool](repeating: false, count: 0)  // per old item, only if some section reloads
    if !sectionUpdates.isEmpty { updateSkipped = [Bool](repeating: false, count: nOld) }
    var rowAfterDeletes = [Int32](repeating: -1, count: nOld)
    for i in 0..<oldS where secO2N[i] >= 0 {
        var deleted = 0
        let elements = old[i].elements
        for r in 0..<elements.count {
            let g = oldStart[i] + r
            let gn = Int(matching.oldToNew[g])
            if gn < 0 {
                itemDeletes.append(ItemPath(item: r, section: i))
                deleted += 1
                continue
            }
            rowAfterDeletes[g] = Int32(truncatingIfNeeded: r - deleted)
            let j = Int(newSectionOf[gn])
            if !elements[r].isContentEqual(to: new[j].elements[gn - newStart[j]]) {
                if reloaded[j] {
                    updateSkipped[g] = true
                } else {
                    itemUpdates.append(ItemPath(item: r, section: i))
                }
            }
        }
    }
    var sectionInserts: [Int] = []
    var sectionMoves: [Move<Int>] = []
    var itemInserts: [ItemPath] = []
    var itemMoves: [Move<ItemPath>] = []
    for j in 0..<newS {
        let i = Int(secN2O[j])
        if i < 0 {
            sectionInserts.append(j)
            continue
        }
        if !sectionStays[j] {
            sectionMoves.append(Move(from: sectionAfterDeletes[i], to: j))
        }
        for g in newStart[j]..<newStart[j + 1] {
            let go = Int(matching.newToOld[g])
            if go < 0 {
                itemInserts.append(ItemPath(item: g - newStart[j], section: j))
            } else if !itemStays[g] {
                let from = ItemPath(item: Int(rowAfterDeletes[go]), section: sectionAfterDeletes[Int(oldSectionOf[go])])
                itemMoves.append(Move(from: from, to: ItemPath(item: g - newStart[j], section: j)))
            }
        }
    }

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
            data = []
            data.reserveCapacity(oldS - sectionDeletes.count)
            for i in 0..<oldS where secO2N[i] >= 0 {
                var elements: [E] = []
                elements.reserveCapacity(old[i].elements.count)
                for (r, element) in old[i].elements.enumerated() {
                    let g = oldStart[i] + r
                    let gn = Int(matching.oldToNew[g])
                    if gn < 0 { continue }
                    let j = Int(newSectionOf[gn])
                    let newElement = new[j].elements[gn - newStart[j]]
                    let keepOld = element.isContentEqual(to: newElement) || (!updateSkipped.isEmpty && updateSkipped[g])
                    elements.append(keepOld ? element : newElement)
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
                    let go = Int(matching.newToOld[g])
                    if go >= 0 && updateSkipped[go] {
                        let s = Int(oldSectionOf[go])
                        data[j].elements[g - newStart[j]] = old[s].elements[go - oldStart[s]]
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
