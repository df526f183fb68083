extension StagedChangeset {
    /// Computes the staged changeset that takes a flat list from `old` to `new`.
    ///
    /// Items are matched by ``Differentiable/differenceIdentifier``; a matched
    /// item whose content differs (``Differentiable/isContentEqual(to:)``) is an
    /// update. Only the matched items outside a longest increasing subsequence
    /// are moves, so moving one item far is one move. Paths use section 0.
    ///
    /// The result has at most two stages, each of which passes
    /// ``Changeset/validate(oldCounts:newCounts:)`` on its own:
    /// 1. deletes and updates, in old coordinates;
    /// 2. inserts and moves (move sources in the coordinates after stage 1).
    ///
    /// Only non-empty stages are emitted; the last one's data is `new`. Duplicate
    /// identifiers follow ``DuplicateIdentifier``'s policy and are reported in
    /// ``duplicates``.
    ///
    /// ```swift
    /// struct Item: Differentiable, Equatable {
    ///     let id: Int
    ///     var content: String
    ///     var differenceIdentifier: Int { id }
    /// }
    /// let old = [Item(id: 1, content: "a"), Item(id: 2, content: "b"), Item(id: 3, content: "c")]
    /// let new = [Item(id: 3, content: "c"), Item(id: 1, content: "A"), Item(id: 4, content: "d")]
    /// let changes = StagedChangeset(from: old, to: new)
    /// // Stage 1 deletes item 2 and updates item 1; stage 2 moves item 3 and inserts item 4.
    /// assert(changes.stages.count == 2)
    /// assert(changes.stages[1].changeset.itemMoves.count == 1)
    /// assert(changes.finalData == new)
    /// ```
    ///
    /// - Parameters:
    ///   - old: The list as shown now.
    ///   - new: The list to show.
    ///   - options: Reload threshold and trimming; see ``DiffOptions``.
    /// - Complexity: O(*p* + *n* log *n*) where *p* is the length of the identical
    ///   runs at both ends (one comparison each, no hashing) and *n* the length of
    ///   the rest; O(*n*) expected when few items move.
    @inlinable
    public init<E: Differentiable>(from old: [E], to new: [E], options: DiffOptions = DiffOptions())
    where Data == [E] {
        self = _flatDiff(old, new, options)
    }
}

/// The flat diff; see `StagedChangeset.init(from:to:options:)`.
@inlinable
internal func _flatDiff<E: Differentiable>(_ old: [E], _ new: [E], _ options: DiffOptions) -> StagedChangeset<[E]> {
    let oldCount = old.count
    let newCount = new.count

    // 1. Identical runs at both ends: one comparison each, no hashing.
    var lo = 0
    var oldHi = oldCount
    var newHi = newCount
    if options.trimsIdenticalEnds {
        old.withUnsafeBufferPointer { o in
            new.withUnsafeBufferPointer { n in
                let shorter = Swift.min(oldCount, newCount)
                while lo < shorter && o[lo].differenceIdentifier == n[lo].differenceIdentifier
                    && o[lo].isContentEqual(to: n[lo]) {
                    lo &+= 1
                }
                while oldHi > lo && newHi > lo
                    && o[oldHi &- 1].differenceIdentifier == n[newHi &- 1].differenceIdentifier
                    && o[oldHi &- 1].isContentEqual(to: n[newHi &- 1]) {
                    oldHi &-= 1
                    newHi &-= 1
                }
            }
        }
    }
    let nOld = oldHi &- lo
    let nNew = newHi &- lo
    if nOld == 0 && nNew == 0 {
        return StagedChangeset(stages: [], finalData: new)
    }

    // 2. Match identifiers in the window; 3. keep a longest increasing subsequence in place.
    var matching: _Matching
    var duplicates: [DuplicateIdentifier] = []
    (matching, duplicates) = old.withUnsafeBufferPointer { o in
        new.withUnsafeBufferPointer { n in
            let oldWindow = UnsafeBufferPointer(rebasing: o[lo..<oldHi])
            let newWindow = UnsafeBufferPointer(rebasing: n[lo..<newHi])
            let m = _matchIdentifiers(oldWindow, newWindow)
            let d = _duplicateDiagnostics(
                m.duplicates, kind: .item, old: oldWindow, new: newWindow,
                oldPath: { ItemPath(item: lo &+ $0, section: 0) },
                newPath: { ItemPath(item: lo &+ $0, section: 0) }
            )
            return (m, d)
        }
    }
    var stays = [Bool](repeating: false, count: nNew)
    matching.newToOld.withUnsafeBufferPointer { n2o in
        stays.withUnsafeMutableBufferPointer { _markLongestIncreasingSubsequence(n2o, $0) }
    }

    // 4. Changes.
    var deletes: [ItemPath] = []
    var updates: [ItemPath] = []
    var inserts: [ItemPath] = []
    var moves: [Move<ItemPath>] = []
    // Position of each old window element after stage 1 (deletes removed), absolute.
    var afterDeletes = [Int32](repeating: -1, count: nOld)
    old.withUnsafeBufferPointer { o in
        new.withUnsafeBufferPointer { n in
            matching.oldToNew.withUnsafeBufferPointer { o2n in
                afterDeletes.withUnsafeMutableBufferPointer { ad in
                    var deleted = 0
                    for i in 0..<nOld {
                        let j = Int(o2n[i])
                        if j < 0 {
                            deletes.append(ItemPath(item: lo &+ i, section: 0))
                            deleted &+= 1
                        } else {
                            ad[i] = Int32(truncatingIfNeeded: lo &+ i &- deleted)
                            if !o[lo &+ i].isContentEqual(to: n[lo &+ j]) {
                                updates.append(ItemPath(item: lo &+ i, section: 0))
                            }
                        }
                    }
                }
            }
        }
    }
    matching.newToOld.withUnsafeBufferPointer { n2o in
        afterDeletes.withUnsafeBufferPointer { ad in
            stays.withUnsafeBufferPointer { st in
                for j in 0..<nNew {
                    let i = Int(n2o[j])
                    if i < 0 {
                        inserts.append(ItemPath(item: lo &+ j, section: 0))
                    } else if !st[j] {
                        moves.append(Move(
                            from: ItemPath(item: Int(ad[i]), section: 0),
                            to: ItemPath(item: lo &+ j, section: 0)
                        ))
                    }
                }
            }
        }
    }

    let total = deletes.count &+ updates.count &+ inserts.count &+ moves.count
    if let threshold = options.reloadThreshold, total > threshold {
        return StagedChangeset(stages: [], duplicates: duplicates, isReload: true, finalData: new)
    }

    // 5. Stages, each with the data to show after it.
    let hasFirst = !deletes.isEmpty || !updates.isEmpty
    let hasSecond = !inserts.isEmpty || !moves.isEmpty
    var stages: [Stage<[E]>] = []
    if hasFirst {
        let data: [E]
        if hasSecond {
            var afterFirst = [E]()
            afterFirst.reserveCapacity(oldCount &- deletes.count)
            old.withUnsafeBufferPointer { o in
                new.withUnsafeBufferPointer { n in
                    matching.oldToNew.withUnsafeBufferPointer { o2n in
                        afterFirst.append(contentsOf: o[0..<lo])
                        var nextUpdate = 0  // `updates` is in old order
                        for i in 0..<nOld {
                            let j = Int(o2n[i])
                            if j < 0 { continue }
                            if nextUpdate < updates.count && updates[nextUpdate].item == lo &+ i {
                                afterFirst.append(n[lo &+ j])
                                nextUpdate &+= 1
                            } else {
                                afterFirst.append(o[lo &+ i])
                            }
                        }
                        afterFirst.append(contentsOf: o[oldHi..<oldCount])
                    }
                }
            }
            data = afterFirst
        } else {
            data = new
        }
        stages.append(Stage(changeset: Changeset(itemDeletes: deletes, itemUpdates: updates), data: data))
    }
    if hasSecond {
        stages.append(Stage(changeset: Changeset(itemInserts: inserts, itemMoves: moves), data: new))
    }
    return StagedChangeset(stages: stages, duplicates: duplicates, finalData: new)
}
