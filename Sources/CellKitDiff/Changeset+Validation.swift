/// A batch of list changes that UIKit's `performBatchUpdates` would reject.
///
/// The error names the broken ``Rule``, the section and row involved (in the
/// coordinate space the rule speaks about), and the numbers that disagree:
///
/// ```text
/// invalid update: section 2 has 5 rows after the update, but 4 were expected
/// (6 before, 1 inserted, 3 deleted, 0 moved in, 0 moved out) [itemCountMismatch]
/// ```
public struct BatchUpdateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The batch-update rule that a changeset broke.
    public enum Rule: String, Hashable, Sendable, CaseIterable {
        /// Sections after ≠ sections before − deleted + inserted.
        case sectionCountMismatch
        /// Rows in a surviving section after ≠ rows before − deleted − moved out + inserted + moved in.
        case itemCountMismatch
        /// A section index outside its coordinate space (old for deletes, updates and
        /// move sources; new for inserts and move destinations).
        case sectionOutOfRange
        /// A row index outside its section, in its coordinate space.
        case itemOutOfRange
        /// The same section or row deleted twice.
        case duplicateDelete
        /// The same section or row inserted twice.
        case duplicateInsert
        /// The same section or row updated (reloaded) twice.
        case duplicateUpdate
        /// A section or row both deleted and updated.
        case deleteAndUpdate
        /// A section or row both deleted and moved.
        case deleteAndMove
        /// A section or row both updated and moved.
        case updateAndMove
        /// A section or row inserted at the destination of a move.
        case insertAndMoveToSameIndex
        /// Two moves from the same section or row.
        case duplicateMoveSource
        /// Two moves to the same section or row.
        case duplicateMoveDestination
        /// A row deleted, updated or moved out of a section that is deleted.
        case itemChangeInDeletedSection
        /// A row inserted or moved into a section that is inserted.
        case itemChangeInInsertedSection
        /// A row changed inside a section that is updated (reloaded): a section
        /// reload replaces all of its rows, so row changes there are ambiguous.
        case itemChangeInUpdatedSection
    }

    /// The rule that was broken.
    public var rule: Rule
    /// The section involved, if any (old or new coordinates, as the message says).
    public var section: Int?
    /// The row involved, if any.
    public var item: Int?
    /// A human-readable explanation naming the rule, the section, the row and the numbers.
    public var message: String

    /// Creates an error; `detail` becomes the message, prefixed and suffixed with the rule.
    public init(_ rule: Rule, section: Int? = nil, item: Int? = nil, detail: String) {
        self.rule = rule
        self.section = section
        self.item = item
        self.message = "invalid update: \(detail) [\(rule.rawValue)]"
    }

    public var description: String { message }
}

/// How old sections map to new sections under a batch, computed while validating.
@usableFromInline
internal struct _SectionMapping: Sendable {
    /// For each old section: its new index, or -1 when it is deleted.
    var newOfOld: [Int]
    /// For each new section: its old index, or -1 when it is inserted.
    var oldOfNew: [Int]
    /// For each old section: whether it is deleted.
    var deleted: [Bool]
    /// For each old section: whether it is updated (reloaded).
    var updatedOld: [Bool]
    /// For each new section: whether it is the new position of an updated section.
    var updatedNew: [Bool]
    /// For each new section: whether it is inserted.
    var inserted: [Bool]
}

extension Changeset {
    /// Checks this batch against UIKit's batch-update rules.
    ///
    /// Deletes, updates and move sources are read in old coordinates; inserts and
    /// move destinations in new coordinates; section changes apply before item
    /// changes. `oldCounts[s]` is the number of rows in section `s` before the
    /// batch, `newCounts[s]` after it (what the data source reports).
    ///
    /// ```swift
    /// let batch = Changeset(itemDeletes: [ItemPath(item: 0, section: 0)])
    /// assert(batch.validationError(oldCounts: [3], newCounts: [2]) == nil)
    /// assert(batch.validationError(oldCounts: [3], newCounts: [3])?.rule == .itemCountMismatch)
    /// ```
    ///
    /// Returns the error instead of throwing it, so list views can branch on it
    /// without a typed `throw` (which the iOS 16 standard library cannot run).
    ///
    /// - Returns: ``BatchUpdateError`` naming the first rule broken, or `nil` when the batch is valid.
    /// - Complexity: O(*c* + *s*), where *c* is ``changeCount`` and *s* the number of sections.
    public func validationError(oldCounts: [Int], newCounts: [Int]) -> BatchUpdateError? {
        do {
            _ = try _validate(oldCounts: oldCounts, newCounts: newCounts)
            return nil
        } catch {
            return error as? BatchUpdateError
        }
    }

    /// Checks this batch against UIKit's batch-update rules, throwing the first rule broken:
    /// a thin forward to ``validationError(oldCounts:newCounts:)``.
    ///
    /// ```swift
    /// let batch = Changeset(itemDeletes: [ItemPath(item: 0, section: 0)])
    /// try batch.validate(oldCounts: [3], newCounts: [2])   // passes
    /// ```
    ///
    /// - Throws: ``BatchUpdateError`` (the only error thrown).
    public func validate(oldCounts: [Int], newCounts: [Int]) throws {
        if let error = validationError(oldCounts: oldCounts, newCounts: newCounts) { throw error }
    }

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    @usableFromInline
    internal func _validate(oldCounts: [Int], newCounts: [Int]) throws -> _SectionMapping {
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
        // The verb is only spelled out when a check fails: valid batches build no strings.
        func checkOld(_ p: ItemPath, _ verb: @autoclosure () -> String) throws {
            guard p.section >= 0 && p.section < oldS else {
                throw BatchUpdateError(.sectionOutOfRange, section: p.section, item: p.item, detail: "attempt to \(verb()) row \(p.item) of section \(p.section), but there \(_only(oldS, "section")) before the update")
            }
            guard p.item >= 0 && p.item < oldCounts[p.section] else {
                throw BatchUpdateError(.itemOutOfRange, section: p.section, item: p.item, detail: "attempt to \(verb()) row \(p.item) of section \(p.section), which has only \(_count(oldCounts[p.section], "row")) before the update")
            }
            guard !deleted[p.section] else {
                throw BatchUpdateError(.itemChangeInDeletedSection, section: p.section, item: p.item, detail: "attempt to \(verb()) row \(p.item) of section \(p.section), which is deleted")
            }
            guard !updatedOld[p.section] else {
                throw BatchUpdateError(.itemChangeInUpdatedSection, section: p.section, item: p.item, detail: "attempt to \(verb()) row \(p.item) of section \(p.section), which is reloaded")
            }
        }
        func checkNew(_ p: ItemPath, _ verb: @autoclosure () -> String) throws {
            guard p.section >= 0 && p.section < newS else {
                throw BatchUpdateError(.sectionOutOfRange, section: p.section, item: p.item, detail: "attempt to \(verb()) row \(p.item) of section \(p.section), but there \(_only(newS, "section")) after the update")
            }
            guard p.item >= 0 && p.item < newCounts[p.section] else {
                throw BatchUpdateError(.itemOutOfRange, section: p.section, item: p.item, detail: "attempt to \(verb()) row \(p.item) of section \(p.section), which has only \(_count(newCounts[p.section], "row")) after the update")
            }
            guard !inserted[p.section] else {
                throw BatchUpdateError(.itemChangeInInsertedSection, section: p.section, item: p.item, detail: "attempt to \(verb()) row \(p.item) of section \(p.section), which is inserted")
            }
            guard !updatedNew[p.section] else {
                throw BatchUpdateError(.itemChangeInUpdatedSection, section: p.section, item: p.item, detail: "attempt to \(verb()) row \(p.item) of section \(p.section) (new index), which is reloaded")
            }
        }

        // Per-section numbers in one scratch block, read and written without bounds
        // checks: every index below is a section that isOpenOld / isOpenNew (or the
        // count check, over 0..<newS and its old sections) has put in range.
        let scratch = UnsafeMutablePointer<Int>.allocate(capacity: 3 &* (oldS &+ newS))
        defer { scratch.deallocate() }
        scratch.initialize(repeating: 0, count: 3 &* (oldS &+ newS))
        // The rows a change may name, per section: none in a deleted, inserted or
        // reloaded section. A path outside them breaks a rule that checkOld or
        // checkNew names; paths inside need one comparison.
        let oldLimit = scratch, deletedRows = scratch + oldS, movedOutRows = scratch + 2 &* oldS
        let newLimit = scratch + 3 &* oldS, insertedRows = newLimit + newS, movedInRows = newLimit + 2 &* newS
        for s in 0..<oldS where !deleted[s] && !updatedOld[s] { oldLimit[s] = max(0, oldCounts[s]) }
        for s in 0..<newS where !inserted[s] && !updatedNew[s] { newLimit[s] = max(0, newCounts[s]) }
        func isOpenOld(_ p: ItemPath) -> Bool {
            UInt(bitPattern: p.section) < UInt(bitPattern: oldS) && UInt(bitPattern: p.item) < UInt(bitPattern: oldLimit[p.section])
        }
        func isOpenNew(_ p: ItemPath) -> Bool {
            UInt(bitPattern: p.section) < UInt(bitPattern: newS) && UInt(bitPattern: p.item) < UInt(bitPattern: newLimit[p.section])
        }

        // Rows are checked for duplicates in bitmaps over each section's rows (or
        // hashed sets when the list dwarfs the batch); every path is range-checked first.
        let changes = changeCount
        var deletedItems = _PathMarks(counts: itemDeletes.isEmpty ? [] : oldCounts, changes: changes)
        for p in itemDeletes {
            if !isOpenOld(p) { try checkOld(p, "delete") }
            guard deletedItems.insert(p) else {
                throw BatchUpdateError(.duplicateDelete, section: p.section, item: p.item, detail: "row \(p.item) of section \(p.section) is deleted twice")
            }
            deletedRows[p.section] &+= 1
        }
        var updatedItems = _PathMarks(counts: itemUpdates.isEmpty ? [] : oldCounts, changes: changes)
        for p in itemUpdates {
            if !isOpenOld(p) { try checkOld(p, "reload") }
            guard !deletedItems.contains(p) else {
                throw BatchUpdateError(.deleteAndUpdate, section: p.section, item: p.item, detail: "row \(p.item) of section \(p.section) is both deleted and reloaded")
            }
            guard updatedItems.insert(p) else {
                throw BatchUpdateError(.duplicateUpdate, section: p.section, item: p.item, detail: "row \(p.item) of section \(p.section) is reloaded twice")
            }
        }
        var moveSources = _PathMarks(counts: itemMoves.isEmpty ? [] : oldCounts, changes: changes)
        var moveDestinations = _PathMarks(counts: itemMoves.isEmpty ? [] : newCounts, changes: changes)
        for m in itemMoves {
            let p = m.from
            if !isOpenOld(p) { try checkOld(p, "move") }
            guard !deletedItems.contains(p) else {
                throw BatchUpdateError(.deleteAndMove, section: p.section, item: p.item, detail: "row \(p.item) of section \(p.section) is both deleted and moved (to \(_spelled(m.to)))")
            }
            guard !updatedItems.contains(p) else {
                throw BatchUpdateError(.updateAndMove, section: p.section, item: p.item, detail: "row \(p.item) of section \(p.section) is both reloaded and moved (to \(_spelled(m.to)))")
            }
            guard moveSources.insert(p) else {
                throw BatchUpdateError(.duplicateMoveSource, section: p.section, item: p.item, detail: "row \(p.item) of section \(p.section) is moved twice (the second time to \(_spelled(m.to)))")
            }
            let q = m.to
            if !isOpenNew(q) { try checkNew(q, "move row \(p.item) of section \(p.section) to") }
            guard moveDestinations.insert(q) else {
                throw BatchUpdateError(.duplicateMoveDestination, section: q.section, item: q.item, detail: "two rows are moved to row \(q.item) of section \(q.section) (the second from row \(p.item) of section \(p.section))")
            }
            movedOutRows[p.section] &+= 1
            movedInRows[q.section] &+= 1
        }
        var insertedItems = _PathMarks(counts: itemInserts.isEmpty ? [] : newCounts, changes: changes)
        for q in itemInserts {
            if !isOpenNew(q) { try checkNew(q, "insert") }
            guard insertedItems.insert(q) else {
                throw BatchUpdateError(.duplicateInsert, section: q.section, item: q.item, detail: "row \(q.item) of section \(q.section) is inserted twice")
            }
            guard !moveDestinations.contains(q) else {
                throw BatchUpdateError(.insertAndMoveToSameIndex, section: q.section, item: q.item, detail: "row \(q.item) of section \(q.section) is inserted and is also the destination of a move")
            }
            insertedRows[q.section] &+= 1
        }
        for j in 0..<newS where !inserted[j] && !updatedNew[j] {
            let i = oldOfNew[j]
            // The rows that stay, counted from both sides: neither side can overflow (the
            // rows removed are distinct rows below the old count, those added distinct rows
            // below the new count), where old + added could (counts near Int.max).
            let kept = oldCounts[i] - deletedRows[i] - movedOutRows[i]
            guard newCounts[j] - insertedRows[j] - movedInRows[j] == kept else {
                let origin = i == j ? "" : " (section \(i) before the update)"
                let (expected, overflow) = kept.addingReportingOverflow(insertedRows[j] &+ movedInRows[j])
                throw BatchUpdateError(
                    .itemCountMismatch, section: j,
                    detail: "section \(j)\(origin) has \(_count(newCounts[j], "row")) after the update, but \(overflow ? "more than \(Int.max) were" : _were(expected)) expected (\(oldCounts[i]) before, \(insertedRows[j]) inserted, \(deletedRows[i]) deleted, \(movedInRows[j]) moved in, \(movedOutRows[i]) moved out)"
                )
            }
        }
        return _SectionMapping(
            newOfOld: newOfOld, oldOfNew: oldOfNew, deleted: deleted,
            updatedOld: updatedOld, updatedNew: updatedNew, inserted: inserted
        )
    }
}

extension Changeset {
    /// Replays this batch on sectioned data with UIKit's semantics: the reference
    /// applier that tests use as their oracle.
    ///
    /// Rows that survive keep their old value; inserted rows, reloaded rows and
    /// reloaded or inserted sections are read from `new` at their new position, as
    /// a list view asks its data source for them. Moved rows keep their old value.
    /// The result equals `new` exactly when the batch describes the change from
    /// `old` to `new` faithfully.
    ///
    /// ```swift
    /// let batch = Changeset(itemInserts: [ItemPath(item: 0, section: 0)])
    /// let result = try batch.apply(to: [[1, 2]], reading: [[0, 1, 2]], items: \.self)
    /// assert(result == [[0, 1, 2]])
    /// ```
    ///
    /// - Parameters:
    ///   - old: The sections before the batch.
    ///   - new: The sections the data source reports after the batch.
    ///   - items: Where a section keeps its rows.
    /// - Throws: ``BatchUpdateError`` when the batch breaks a rule (it is validated first).
    /// - Complexity: O(*n* + *c*), *n* the number of rows, *c* the number of changes.
    public func apply<Section, Item>(
        to old: [Section], reading new: [Section], items: WritableKeyPath<Section, [Item]>
    ) throws -> [Section] {
        let oldCounts = old.map { $0[keyPath: items].count }
        let newCounts = new.map { $0[keyPath: items].count }
        let map = try _validate(oldCounts: oldCounts, newCounts: newCounts)

        var deleted = Set(itemDeletes)
        var reloaded = Set(itemUpdates)
        var movesIn = [Int: [(to: Int, from: ItemPath)]]()
        for m in itemMoves {
            deleted.insert(m.from)  // leaves its old place
            movesIn[m.to.section, default: []].append((m.to.item, m.from))
        }
        var insertsIn = [Int: [Int]]()
        for p in itemInserts { insertsIn[p.section, default: []].append(p.item) }

        var result = [Section]()
        result.reserveCapacity(new.count)
        for j in new.indices {
            if map.inserted[j] || map.updatedNew[j] {
                result.append(new[j])
                continue
            }
            let i = map.oldOfNew[j]
            var section = old[i]
            let oldRows = section[keyPath: items]
            let newRows = new[j][keyPath: items]
            var slots = [Item?](repeating: nil, count: newRows.count)
            for k in insertsIn[j] ?? [] { slots[k] = newRows[k] }
            for (k, from) in movesIn[j] ?? [] { slots[k] = old[from.section][keyPath: items][from.item] }
            var k = 0
            for r in oldRows.indices {
                let p = ItemPath(item: r, section: i)
                if deleted.contains(p) { continue }
                while slots[k] != nil { k += 1 }
                slots[k] = reloaded.contains(p) ? newRows[k] : oldRows[r]
                reloaded.remove(p)
                k += 1
            }
            section[keyPath: items] = slots.map { $0! }
            result.append(section)
        }
        return result
    }
}

// Wording of the batch errors: counts with their noun in the right number, and positions
// spelled out (`row 2 of section 3`), never printed as `[3, 2]`.

/// "1 row", "2 rows".
func _count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
/// "is only 1 section", "are only 2 sections".
func _only(_ n: Int, _ noun: String) -> String { n == 1 ? "is only 1 \(noun)" : "are only \(n) \(noun)s" }
/// "is 1 section", "are 2 sections".
func _are(_ n: Int, _ noun: String) -> String { n == 1 ? "is 1 \(noun)" : "are \(n) \(noun)s" }
/// "1 was", "2 were".
func _were(_ n: Int) -> String { n == 1 ? "1 was" : "\(n) were" }
/// "section 3".
func _spelled(_ section: Int) -> String { "section \(section)" }
/// "row 2 of section 3".
func _spelled(_ path: ItemPath) -> String { "row \(path.item) of section \(path.section)" }
