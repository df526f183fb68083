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
    ///   runs at both ends (an identifier comparison and a content comparison a row, no
    ///   hashing) and *n* the length of the rest; O(*n*) expected when few items move.
    ///   The diff is synchronous: it runs to its end on the calling thread and has no
    ///   cancellation point (run it in a task you can stop waiting for, or let
    ///   `ListController/bind(to:)` run it off the main actor).
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

    // 1. Identical runs at both ends: one comparison each, no hashing. (The bounds
    // are constants from here on: the closures below capture them by value.)
    let (lo, oldHi, newHi): (Int, Int, Int) = options.trimsIdenticalEnds
        ? old.withUnsafeBufferPointer { o in
            new.withUnsafeBufferPointer { n in
                var lo = 0
                var oldHi = oldCount
                var newHi = newCount
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
                return (lo, oldHi, newHi)
            }
        }
        : (0, oldCount, newCount)
    let nOld = oldHi &- lo
    let nNew = newHi &- lo
    if nOld == 0 && nNew == 0 {
        return StagedChangeset(stages: [], finalData: new)
    }

    // 2. Match identifiers in the window; 3. one longest increasing subsequence stays.
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
    // The items that stay: one longest increasing subsequence of `newToOld`, as
    // links from each member to the one before it (walked back from the last
    // member when the inserts and moves are written, below, and freed then, before
    // the first stage's rows are allocated).
    var newToOld: [Int32] = []
    swap(&newToOld, &matching.newToOld)  // written below: unshared
    let stays = newToOld.withUnsafeBufferPointer { _LongestIncreasingSubsequence($0) }
    let kept = stays.length

    // 4. Changes. Every count but the updates' is known now, so each list is
    // written once into storage of its exact size.
    let matched = matching.matchedCount
    let deleteCount = nOld &- matched
    let insertCount = nNew &- matched
    let moveCount = matched &- kept
    let threshold = options.reloadThreshold
    if let threshold, deleteCount &+ insertCount &+ moveCount > threshold {
        stays.deallocate()
        return StagedChangeset(stages: [], duplicates: duplicates, isReload: true, finalData: new)
    }
    let hasSecond = insertCount > 0 || moveCount > 0
    // Inserts and moves in one walk back over new, from the last item that stays
    // to the first along the subsequence's links: the rows between two items that
    // stay are the inserts (-1) and moves (their old row, non-negative) among them.
    // Both lists are written from their ends.
    var moves: [Move<ItemPath>] = []
    let inserts: [ItemPath] = _exactArray(count: insertCount) { insertBuffer in
        moves = _exactArray(count: moveCount) { moveBuffer in
            newToOld.withUnsafeBufferPointer { n2o in
                var moved = moveCount
                var inserted = insertCount
                var stay = stays.last
                var j = nNew &- 1
                while true {
                    while j > stay {
                        let i = Int(n2o[j])
                        if i >= 0 {
                            moved &-= 1
                            moveBuffer.initializeElement(at: moved, to: Move(
                                from: ItemPath(item: lo &+ i, section: 0),
                                to: ItemPath(item: lo &+ j, section: 0)
                            ))
                        } else {
                            inserted &-= 1
                            insertBuffer.initializeElement(at: inserted, to: ItemPath(item: lo &+ j, section: 0))
                        }
                        j &-= 1
                    }
                    if stay < 0 { break }
                    // A run of rows that stay (each linked to the row before it; at
                    // row 0 the run ends at `previous[-1]`, which is -1).
                    while Int(stays.previous[stay]) == stay &- 1 { stay &-= 1 }
                    j = stay &- 1
                    stay = Int(stays.previous[stay])
                }
                precondition(moved == 0 && inserted == 0, "CellKitDiff: inserts and moves miscounted")
                return moveCount
            }
        }
        return insertCount
    }
    stays.deallocate()
    // A move's source is its old row's position after stage 1: the row minus the
    // deletes before it. The pass over old writes that position over the old row
    // in `newToOld` (no longer read for the subsequence), and the moves' sources
    // (their old rows, so far) are set from it after that pass.
    var deletes: [ItemPath] = []
    var updateCount = 0
    // The updated old window indices, in order, written by the pass over old.
    let updated = UnsafeMutablePointer<Int32>.allocate(capacity: matched)
    defer { updated.deallocate() }
    // One pass over the old window: deletes, updates, move sources (see above) and,
    // when `start` is given, stage 1's data (old order without the deleted, updated
    // items in their new version), written there.
    func passOverOld(_ start: UnsafeMutablePointer<E>?) {
        deletes = _exactArray(count: deleteCount) { deleteBuffer in
            old.withUnsafeBufferPointer { o in
                new.withUnsafeBufferPointer { n in
                    matching.oldToNew.withUnsafeBufferPointer { o2n in
                      newToOld.withUnsafeMutableBufferPointer { n2o in
                        var out = start
                        if let first = out, lo > 0 {
                            first.initialize(from: o.baseAddress!, count: lo)
                            out = first + lo
                        }
                        var deleted = 0
                        var updatedCount = 0
                        for i in 0..<nOld {
                            let j = Int(o2n[i])
                            if j < 0 {
                                deleteBuffer.initializeElement(at: deleted, to: ItemPath(item: lo &+ i, section: 0))
                                deleted &+= 1
                                continue
                            }
                            n2o[j] = Int32(truncatingIfNeeded: i &- deleted)
                            // Each element is read once: the copies compared are the
                            // ones stored (for reference-holding elements, one retain
                            // each instead of one for the comparison and one for the store).
                            let oldElement = o[lo &+ i]
                            let newElement = n[lo &+ j]
                            if oldElement.isContentEqual(to: newElement) {
                                if let next = out {
                                    next.initialize(to: oldElement)
                                    out = next + 1
                                }
                            } else {
                                updated[updatedCount] = Int32(truncatingIfNeeded: i)
                                updatedCount &+= 1
                                if let next = out {
                                    next.initialize(to: newElement)
                                    out = next + 1
                                }
                            }
                        }
                        if let next = out, oldHi < oldCount {
                            next.initialize(from: o.baseAddress! + oldHi, count: oldCount &- oldHi)
                        }
                        updateCount = updatedCount
                        return deleted
                      }
                    }
                }
            }
        }
    }
    // Stage 1's data is written during that pass when stage 1 is certain to exist
    // and to be followed by stage 2; otherwise after it, if needed.
    let afterFirstCount = oldCount &- deleteCount
    var afterFirst: [E]? = nil
    if deleteCount > 0 && hasSecond && threshold == nil && afterFirstCount > 0 {
        afterFirst = _exactArray(count: afterFirstCount) { buffer in
            passOverOld(buffer.baseAddress!)
            return afterFirstCount
        }
    } else {
        passOverOld(nil)
    }
    if deleteCount > 0 && moveCount > 0 {
        newToOld.withUnsafeBufferPointer { n2o in
            moves.withUnsafeMutableBufferPointer { moveBuffer in
                for k in 0..<moveCount {
                    let j = moveBuffer[k].to.item &- lo
                    moveBuffer[k].from = ItemPath(item: lo &+ Int(n2o[j]), section: 0)
                }
            }
        }
    }
    let updates: [ItemPath] = _exactArray(count: updateCount) { buffer in
        for k in 0..<updateCount {
            buffer.initializeElement(at: k, to: ItemPath(item: lo &+ Int(updated[k]), section: 0))
        }
        return updateCount
    }
    if let threshold, deleteCount &+ updateCount &+ insertCount &+ moveCount > threshold {
        return StagedChangeset(stages: [], duplicates: duplicates, isReload: true, finalData: new)
    }

    // 5. Stages, each with the data to show after it.
    let hasFirst = deleteCount > 0 || updateCount > 0
    var stages: [Stage<[E]>] = []
    stages.reserveCapacity((hasFirst ? 1 : 0) &+ (hasSecond ? 1 : 0))
    if hasFirst {
        let data: [E]
        if afterFirstCount == 0 {
            data = []
        } else if let afterFirst {
            data = afterFirst
        } else if hasSecond {
            data = _exactArray(count: afterFirstCount) { buffer in
                old.withUnsafeBufferPointer { o in
                    new.withUnsafeBufferPointer { n in
                        matching.oldToNew.withUnsafeBufferPointer { o2n in
                            var out = buffer.baseAddress!
                            if lo > 0 {
                                out.initialize(from: o.baseAddress!, count: lo)
                                out += lo
                            }
                            var nextUpdate = 0  // into `updated`, which is in old order
                            for i in 0..<nOld {
                                let j = Int(o2n[i])
                                if j < 0 { continue }
                                if nextUpdate < updateCount && Int(updated[nextUpdate]) == i {
                                    out.initialize(to: n[lo &+ j])
                                    nextUpdate &+= 1
                                } else {
                                    out.initialize(to: o[lo &+ i])
                                }
                                out += 1
                            }
                            if oldHi < oldCount {
                                out.initialize(from: o.baseAddress! + oldHi, count: oldCount &- oldHi)
                            }
                        }
                    }
                }
                return afterFirstCount
            }
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
