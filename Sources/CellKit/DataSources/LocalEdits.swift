/// What a data source remembers of its local edits so that later loads respect
/// them (see ``PaginatedDataSource/edit(_:)`` and ``RemoteDataSource/edit(_:)``).
///
/// Rows are told apart by their identity (``ItemID``: the model's runtime type
/// and id), so removing a `Dog` 1 does not hide a `Cat` 1.
///
/// - A removed row is skipped by every later fetch, until it is inserted again.
/// - An inserted row stays where it was put until a fetch returns it; then the
///   server's copy counts.
struct LocalEdits {
    /// Rows removed locally: never shown again from a fetch.
    private(set) var removed: Set<ItemID> = []
    /// Rows inserted locally that no fetch returned yet.
    private(set) var inserted: Set<ItemID> = []

    /// Records an edit that turned the rows `before` into `after`.
    mutating func record(before: [ItemID], after: [ItemID]) {
        let old = Set(before)
        let new = Set(after)
        for id in old where !new.contains(id) {
            removed.insert(id)
            inserted.remove(id)
        }
        for id in new where !old.contains(id) {
            removed.remove(id)
            inserted.insert(id)
        }
    }

    /// Whether a fetched row `id` may show (it was not removed locally);
    /// a locally inserted row that a fetch returns is known to the server from now on.
    mutating func admits(_ id: ItemID) -> Bool {
        guard !removed.isEmpty || !inserted.isEmpty else { return true }
        inserted.remove(id)
        return !removed.contains(id)
    }

    /// Whether row `id` was inserted locally and no fetch returned it yet.
    func isInserted(_ id: ItemID) -> Bool { inserted.contains(id) }

    /// `fetched` without the removed items; the inserted items it lacks are put
    /// back at their positions in `previous` (a refresh does not undo an insert
    /// the server does not know yet).
    mutating func merge<Item: Identifiable>(_ fetched: [Item], previous: [Item]) -> [Item] where Item.ID: Sendable {
        restoringInserts(admitted(fetched), previous: previous)
    }

    /// `fetched` without the removed items; an inserted item it holds is known to the
    /// server from now on.
    mutating func admitted<Item: Identifiable>(_ fetched: [Item]) -> [Item] where Item.ID: Sendable {
        guard !removed.isEmpty || !inserted.isEmpty else { return fetched }
        return fetched.filter { admits(ItemID($0)) }
    }

    /// `merged` with the inserted items it lacks put back at their positions in `previous`.
    func restoringInserts<Item: Identifiable>(_ merged: [Item], previous: [Item]) -> [Item] where Item.ID: Sendable {
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
