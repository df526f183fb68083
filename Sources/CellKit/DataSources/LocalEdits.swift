/// What a data source remembers of its local edits so that later loads respect
/// them (see ``PaginatedDataSource/edit(_:)`` and ``RemoteDataSource/edit(_:)``).
///
/// Rows are told apart by their identity (``ItemID``: the model's runtime type and
/// id), so removing a `Dog` 1 does not hide a `Cat` 1.
///
/// - A removed row is skipped by every later fetch, until it is inserted again.
/// - An inserted row stays where it was put until a fetch returns it; then the
///   server's copy counts.
///
/// Rows that share an identity (duplicates) are told apart by content, then by order
/// (``RowMatching``): an edit that leaves rows of an identity removed the rows it did
/// not leave, and a fetch skips, of the rows of that identity it brings, the ones that
/// take the place of those (see ``admitted(_:shown:)``). Only lists with duplicates pay
/// for that.
struct LocalEdits<Item: Identifiable & Sendable> where Item.ID: Sendable {
    /// Identities with no row left after local edits: every row of them is skipped.
    private(set) var removed: Set<ItemID> = []
    /// Rows inserted locally that no fetch returned yet.
    private(set) var inserted: Set<ItemID> = []
    /// The rows removed locally of identities that had more than one row (duplicates), in
    /// the order removed: a fetch skips the rows of that identity that take their places.
    private var removedRows: [ItemID: [Item]] = [:]

    /// Records an edit that turned the rows `before` into `after` (their identities
    /// `beforeIDs` and `afterIDs`); returns the identities of `after`.
    @discardableResult
    mutating func record(before: [Item], beforeIDs: [ItemID], after: [Item], afterIDs: [ItemID]) -> Set<ItemID> {
        let old = Set(beforeIDs)
        let new = Set(afterIDs)
        guard removedRows.isEmpty && old.count == beforeIDs.count && new.count == afterIDs.count else {
            recordCounting(before: before, beforeIDs: beforeIDs, after: after, afterIDs: afterIDs)
            return new
        }
        // One row per identity on both sides: an identity is removed or inserted as a whole.
        for id in old where !new.contains(id) {
            removed.insert(id)
            inserted.remove(id)
        }
        for id in new where !old.contains(id) {
            removed.remove(id)
            inserted.insert(id)
        }
        return new
    }

    /// ``record(before:beforeIDs:after:afterIDs:)`` for lists with duplicates: each
    /// identity whose number of rows changed, its rows matched by ``RowMatching``.
    private mutating func recordCounting(before: [Item], beforeIDs: [ItemID], after: [Item], afterIDs: [ItemID]) {
        var counts: [ItemID: Int] = [:]
        for id in beforeIDs { counts[id, default: 0] += 1 }
        for id in afterIDs { counts[id, default: 0] -= 1 }
        let changed = Set(counts.lazy.filter { $0.value != 0 }.map(\.key))
        guard !changed.isEmpty else { return }
        var beforeRows: [ItemID: [Item]] = [:]
        for (id, item) in zip(beforeIDs, before) where changed.contains(id) { beforeRows[id, default: []].append(item) }
        var afterRows: [ItemID: [Item]] = [:]
        for (id, item) in zip(afterIDs, after) where changed.contains(id) { afterRows[id, default: []].append(item) }
        for id in changed {
            let old = beforeRows[id] ?? []
            let new = afterRows[id] ?? []
            if new.isEmpty {
                // No row of it left: every row of it is skipped from now on.
                removed.insert(id)
                inserted.remove(id)
                if old.count > 1 || removedRows[id] != nil { removedRows[id, default: []] += old }
            } else if old.isEmpty {
                removed.remove(id)
                inserted.insert(id)
                lift(new, id)
            } else {
                let matched = Self.match(old, new)
                var taken = [Bool](repeating: false, count: old.count)
                for case let place? in matched { taken[place] = true }
                let gone = old.indices.filter { !taken[$0] }.map { old[$0] }
                if !gone.isEmpty { removedRows[id, default: []] += gone }
                lift(new.indices.filter { matched[$0] == nil }.map { new[$0] }, id)
            }
        }
    }

    /// Rows `rows` of identity `id` inserted: each lifts the removal of the removed row of that
    /// identity with equal content, else of the one removed last.
    private mutating func lift(_ rows: [Item], _ id: ItemID) {
        guard var gone = removedRows[id] else { return }
        for row in rows where !gone.isEmpty {
            gone.remove(at: gone.firstIndex { Self.isContentEqual($0, row) } ?? gone.count - 1)
        }
        removedRows[id] = gone.isEmpty ? nil : gone
    }

    private static func isContentEqual(_ a: Item, _ b: Item) -> Bool { ListItem(a).isContentEqual(to: ListItem(b)) }

    /// ``RowMatching/match(_:_:isContentEqual:)`` of items, their content compared as rows'.
    private static func match(_ base: [Item], _ rows: [Item]) -> [Int?] {
        RowMatching.match(base.map { ListItem($0) }, rows.map { ListItem($0) }) { $0.isContentEqual(to: $1) }
    }

    /// Whether row `id` was inserted locally and no fetch returned it yet.
    func isInserted(_ id: ItemID) -> Bool { inserted.contains(id) }

    /// `fetched` without the removed items; the inserted items it lacks are put
    /// back at their positions in `previous` (a refresh does not undo an insert
    /// the server does not know yet).
    mutating func merge(_ fetched: [Item], previous: [Item]) -> [Item] {
        restoringInserts(admitted(fetched, shown: previous), previous: previous)
    }

    /// `fetched` without the removed items; an inserted item it holds is known to the
    /// server from now on.
    ///
    /// Of the rows of an identity some of whose rows were removed while others stay (rows
    /// that share an identity), it skips the ones that take the places of the removed rows:
    /// each fetched row of that identity takes the place of a row of it in `shown` (the rows
    /// shown now) or of a removed one, by ``RowMatching``, the rows shown first: equal
    /// content first, then in order; rows beyond them are new and show.
    mutating func admitted(_ fetched: [Item], shown: [Item]) -> [Item] {
        guard !removed.isEmpty || !inserted.isEmpty || !removedRows.isEmpty else { return fetched }
        guard !removedRows.isEmpty else { return fetched.filter { admits(ItemID($0)) } }
        let ids = fetched.map { ItemID($0) }
        let skipped = removedCopies(in: fetched, ids: ids, shown: shown)
        var admitted: [Item] = []
        admitted.reserveCapacity(fetched.count)
        for (index, item) in fetched.enumerated() where admits(ids[index]) && !skipped.contains(index) {
            admitted.append(item)
        }
        return admitted
    }

    /// Whether a fetched row `id` may show (its identity was not removed locally);
    /// a locally inserted row that a fetch returns is known to the server from now on.
    private mutating func admits(_ id: ItemID) -> Bool {
        inserted.remove(id)
        return !removed.contains(id)
    }

    /// The indices in `fetched` of the rows that take the places of rows in ``removedRows``
    /// (see ``admitted(_:shown:)``).
    private func removedCopies(in fetched: [Item], ids: [ItemID], shown: [Item]) -> Set<Int> {
        var groups: [ItemID: [Int]] = [:]
        for (index, id) in ids.enumerated() where removedRows[id] != nil && !removed.contains(id) {
            groups[id, default: []].append(index)
        }
        guard !groups.isEmpty else { return [] }
        var stay: [ItemID: [Item]] = [:]
        for item in shown {
            let id = ItemID(item)
            if groups[id] != nil { stay[id, default: []].append(item) }
        }
        var skipped = Set<Int>()
        for (id, indices) in groups {
            let shownRows = stay[id] ?? []
            let places = Self.match(shownRows + (removedRows[id] ?? []), indices.map { fetched[$0] })
            for (index, place) in zip(indices, places) where (place ?? -1) >= shownRows.count { skipped.insert(index) }
        }
        return skipped
    }

    /// `merged` with the inserted items it lacks put back at their positions in `previous`.
    func restoringInserts(_ merged: [Item], previous: [Item]) -> [Item] {
        guard !inserted.isEmpty else { return merged }
        var merged = merged
        let present = Set(merged.map { ItemID($0) })
        for (index, item) in previous.enumerated() {
            let id = ItemID(item)
            if inserted.contains(id) && !present.contains(id) {
                merged.insert(item, at: min(index, merged.count))
            }
        }
        return merged
    }
}
