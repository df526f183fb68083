@testable import CellKitDiff // the real validator's wording (`_count`, `_spelled`, …)

// The batch-update validator as it was before rows were checked in bitmaps
// (`Set<ItemPath>` for every duplicate check), kept as the reference that
// `ValidationEquivalenceTests` holds the real one to: same verdict, same error.

/// The first rule `batch` breaks between `oldCounts` and `newCounts`, by the reference rules.
func referenceValidationError(_ batch: Changeset, oldCounts: [Int], newCounts: [Int]) -> BatchUpdateError? {
    do {
        try referenceValidate(batch, oldCounts: oldCounts, newCounts: newCounts)
        return nil
    } catch {
        return error as? BatchUpdateError
    }
}

// swiftlint:disable:next cyclomatic_complexity function_body_length
private func referenceValidate(_ batch: Changeset, oldCounts: [Int], newCounts: [Int]) throws {
    let sectionDeletes = batch.sectionDeletes, sectionInserts = batch.sectionInserts
    let sectionUpdates = batch.sectionUpdates, sectionMoves = batch.sectionMoves
    let itemDeletes = batch.itemDeletes, itemInserts = batch.itemInserts
    let itemUpdates = batch.itemUpdates, itemMoves = batch.itemMoves
    let oldS = oldCounts.count
    let newS = newCounts.count

    // MARK: Sections
    var deleted = [Bool](repeating: false, count: oldS)
    for s in sectionDeletes {
        guard s >= 0 && s < oldS else {
            throw BatchUpdateError(.sectionOutOfRange, section: s, detail: "attempt to delete section \(s), but there \(_only(oldS, "section")) before the update")
        }
        guard !deleted[s] else {
            throw BatchUpdateError(.duplicateDelete, section: s, detail: "section \(s) is deleted twice")
        }
        deleted[s] = true
    }
    var updatedOld = [Bool](repeating: false, count: oldS)
    for s in sectionUpdates {
        guard s >= 0 && s < oldS else {
            throw BatchUpdateError(.sectionOutOfRange, section: s, detail: "attempt to reload section \(s), but there \(_only(oldS, "section")) before the update")
        }
        guard !deleted[s] else {
            throw BatchUpdateError(.deleteAndUpdate, section: s, detail: "section \(s) is both deleted and reloaded")
        }
        guard !updatedOld[s] else {
            throw BatchUpdateError(.duplicateUpdate, section: s, detail: "section \(s) is reloaded twice")
        }
        updatedOld[s] = true
    }
    var newOfOld = [Int](repeating: -1, count: oldS)
    var oldOfNew = [Int](repeating: -1, count: newS)
    var movedOut = [Bool](repeating: false, count: oldS)
    for m in sectionMoves {
        guard m.from >= 0 && m.from < oldS else {
            throw BatchUpdateError(.sectionOutOfRange, section: m.from, detail: "attempt to move section \(m.from) to \(m.to), but there \(_only(oldS, "section")) before the update")
        }
        guard m.to >= 0 && m.to < newS else {
            throw BatchUpdateError(.sectionOutOfRange, section: m.to, detail: "attempt to move section \(m.from) to \(m.to), but there \(_only(newS, "section")) after the update")
        }
        guard !deleted[m.from] else {
            throw BatchUpdateError(.deleteAndMove, section: m.from, detail: "section \(m.from) is both deleted and moved (to \(_spelled(m.to)))")
        }
        guard !updatedOld[m.from] else {
            throw BatchUpdateError(.updateAndMove, section: m.from, detail: "section \(m.from) is both reloaded and moved (to \(_spelled(m.to)))")
        }
        guard !movedOut[m.from] else {
            throw BatchUpdateError(.duplicateMoveSource, section: m.from, detail: "section \(m.from) is moved twice (the second time to \(_spelled(m.to)))")
        }
        guard oldOfNew[m.to] < 0 else {
            throw BatchUpdateError(.duplicateMoveDestination, section: m.to, detail: "two sections are moved to section \(m.to): \(oldOfNew[m.to]) and \(m.from)")
        }
        movedOut[m.from] = true
        newOfOld[m.from] = m.to
        oldOfNew[m.to] = m.from
    }
    var inserted = [Bool](repeating: false, count: newS)
    for s in sectionInserts {
        guard s >= 0 && s < newS else {
            throw BatchUpdateError(.sectionOutOfRange, section: s, detail: "attempt to insert section \(s), but there \(_only(newS, "section")) after the update")
        }
        guard !inserted[s] else {
            throw BatchUpdateError(.duplicateInsert, section: s, detail: "section \(s) is inserted twice")
        }
        guard oldOfNew[s] < 0 else {
            throw BatchUpdateError(.insertAndMoveToSameIndex, section: s, detail: "section \(s) is inserted and is also the destination of a move from section \(oldOfNew[s])")
        }
        inserted[s] = true
    }
    let deletedCount = sectionDeletes.count
    let insertedCount = sectionInserts.count
    guard newS == oldS - deletedCount + insertedCount else {
        throw BatchUpdateError(.sectionCountMismatch, detail: "there \(_are(newS, "section")) after the update, but \(_were(oldS - deletedCount + insertedCount)) expected (\(oldS) before, \(insertedCount) inserted, \(deletedCount) deleted)")
    }
    // The sections that neither move nor go keep their order and fill the free slots.
    var j = 0
    for i in 0..<oldS where !deleted[i] && !movedOut[i] {
        while j < newS && (inserted[j] || oldOfNew[j] >= 0) { j += 1 }
        newOfOld[i] = j
        oldOfNew[j] = i
        j += 1
    }
    var updatedNew = [Bool](repeating: false, count: newS)
    for s in sectionUpdates { updatedNew[newOfOld[s]] = true }

    // MARK: Items
    func checkOld(_ p: ItemPath, _ verb: String) throws {
        guard p.section >= 0 && p.section < oldS else {
            throw BatchUpdateError(.sectionOutOfRange, section: p.section, item: p.item, detail: "attempt to \(verb) row \(p.item) of section \(p.section), but there \(_only(oldS, "section")) before the update")
        }
        guard p.item >= 0 && p.item < oldCounts[p.section] else {
            throw BatchUpdateError(.itemOutOfRange, section: p.section, item: p.item, detail: "attempt to \(verb) row \(p.item) of section \(p.section), which has only \(_count(oldCounts[p.section], "row")) before the update")
        }
        guard !deleted[p.section] else {
            throw BatchUpdateError(.itemChangeInDeletedSection, section: p.section, item: p.item, detail: "attempt to \(verb) row \(p.item) of section \(p.section), which is deleted")
        }
        guard !updatedOld[p.section] else {
            throw BatchUpdateError(.itemChangeInUpdatedSection, section: p.section, item: p.item, detail: "attempt to \(verb) row \(p.item) of section \(p.section), which is reloaded")
        }
    }
    func checkNew(_ p: ItemPath, _ verb: String) throws {
        guard p.section >= 0 && p.section < newS else {
            throw BatchUpdateError(.sectionOutOfRange, section: p.section, item: p.item, detail: "attempt to \(verb) row \(p.item) of section \(p.section), but there \(_only(newS, "section")) after the update")
        }
        guard p.item >= 0 && p.item < newCounts[p.section] else {
            throw BatchUpdateError(.itemOutOfRange, section: p.section, item: p.item, detail: "attempt to \(verb) row \(p.item) of section \(p.section), which has only \(_count(newCounts[p.section], "row")) after the update")
        }
        guard !inserted[p.section] else {
            throw BatchUpdateError(.itemChangeInInsertedSection, section: p.section, item: p.item, detail: "attempt to \(verb) row \(p.item) of section \(p.section), which is inserted")
        }
        guard !updatedNew[p.section] else {
            throw BatchUpdateError(.itemChangeInUpdatedSection, section: p.section, item: p.item, detail: "attempt to \(verb) row \(p.item) of section \(p.section) (new index), which is reloaded")
        }
    }

    var deltaOld = [Int](repeating: 0, count: oldS)   // deleted + moved out, per old section
    var deletedRows = [Int](repeating: 0, count: oldS)
    var movedOutRows = [Int](repeating: 0, count: oldS)
    var insertedRows = [Int](repeating: 0, count: newS)
    var movedInRows = [Int](repeating: 0, count: newS)

    var deletedItems = Set<ItemPath>(minimumCapacity: itemDeletes.count)
    for p in itemDeletes {
        try checkOld(p, "delete")
        guard deletedItems.insert(p).inserted else {
            throw BatchUpdateError(.duplicateDelete, section: p.section, item: p.item, detail: "row \(p.item) of section \(p.section) is deleted twice")
        }
        deletedRows[p.section] += 1
        deltaOld[p.section] += 1
    }
    var updatedItems = Set<ItemPath>(minimumCapacity: itemUpdates.count)
    for p in itemUpdates {
        try checkOld(p, "reload")
        guard !deletedItems.contains(p) else {
            throw BatchUpdateError(.deleteAndUpdate, section: p.section, item: p.item, detail: "row \(p.item) of section \(p.section) is both deleted and reloaded")
        }
        guard updatedItems.insert(p).inserted else {
            throw BatchUpdateError(.duplicateUpdate, section: p.section, item: p.item, detail: "row \(p.item) of section \(p.section) is reloaded twice")
        }
    }
    var moveSources = Set<ItemPath>(minimumCapacity: itemMoves.count)
    var moveDestinations = Set<ItemPath>(minimumCapacity: itemMoves.count)
    for m in itemMoves {
        let p = m.from
        try checkOld(p, "move")
        guard !deletedItems.contains(p) else {
            throw BatchUpdateError(.deleteAndMove, section: p.section, item: p.item, detail: "row \(p.item) of section \(p.section) is both deleted and moved (to \(_spelled(m.to)))")
        }
        guard !updatedItems.contains(p) else {
            throw BatchUpdateError(.updateAndMove, section: p.section, item: p.item, detail: "row \(p.item) of section \(p.section) is both reloaded and moved (to \(_spelled(m.to)))")
        }
        guard moveSources.insert(p).inserted else {
            throw BatchUpdateError(.duplicateMoveSource, section: p.section, item: p.item, detail: "row \(p.item) of section \(p.section) is moved twice (the second time to \(_spelled(m.to)))")
        }
        let q = m.to
        try checkNew(q, "move row \(p.item) of section \(p.section) to")
        guard moveDestinations.insert(q).inserted else {
            throw BatchUpdateError(.duplicateMoveDestination, section: q.section, item: q.item, detail: "two rows are moved to row \(q.item) of section \(q.section) (the second from row \(p.item) of section \(p.section))")
        }
        movedOutRows[p.section] += 1
        deltaOld[p.section] += 1
        movedInRows[q.section] += 1
    }
    var insertedItems = Set<ItemPath>(minimumCapacity: itemInserts.count)
    for q in itemInserts {
        try checkNew(q, "insert")
        guard insertedItems.insert(q).inserted else {
            throw BatchUpdateError(.duplicateInsert, section: q.section, item: q.item, detail: "row \(q.item) of section \(q.section) is inserted twice")
        }
        guard !moveDestinations.contains(q) else {
            throw BatchUpdateError(.insertAndMoveToSameIndex, section: q.section, item: q.item, detail: "row \(q.item) of section \(q.section) is inserted and is also the destination of a move")
        }
        insertedRows[q.section] += 1
    }
    for j in 0..<newS where !inserted[j] && !updatedNew[j] {
        let i = oldOfNew[j]
        let expected = oldCounts[i] - deltaOld[i] + insertedRows[j] + movedInRows[j]
        guard newCounts[j] == expected else {
            let origin = i == j ? "" : " (section \(i) before the update)"
            throw BatchUpdateError(
                .itemCountMismatch, section: j,
                detail: "section \(j)\(origin) has \(_count(newCounts[j], "row")) after the update, but \(_were(expected)) expected (\(oldCounts[i]) before, \(insertedRows[j]) inserted, \(deletedRows[i]) deleted, \(movedInRows[j]) moved in, \(movedOutRows[i]) moved out)"
            )
        }
    }
}

