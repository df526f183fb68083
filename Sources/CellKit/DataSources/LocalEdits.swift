/// What a data source remembers of its local edits so that later loads respect
/// them (see ``PaginatedDataSource/edit(_:)`` and ``RemoteDataSource/edit(_:)``).
///
/// - A removed id is skipped by every later fetch, until it is inserted again.
/// - An inserted id stays where it was put until a fetch returns it.
struct LocalEdits<ID: Hashable & Sendable> {
    /// Ids removed locally: never shown again from a fetch.
    private(set) var removed: Set<ID> = []
    /// Ids inserted locally that no fetch returned yet.
    private(set) var inserted: Set<ID> = []

    /// Records an edit that turned the ids `before` into `after`.
    mutating func record(before: [ID], after: [ID]) {
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

    /// Whether a fetched item with `id` may show (it was not removed locally);
    /// a locally inserted id that a fetch returns is known to the server from now on.
    mutating func admits(_ id: ID) -> Bool {
        inserted.remove(id)
        return !removed.contains(id)
    }

    /// `fetched` without the removed items; the inserted items it lacks are put
    /// back at their positions in `previous` (a refresh does not undo an insert
    /// the server does not know yet).
    mutating func merge<Item: Identifiable>(_ fetched: [Item], previous: [Item]) -> [Item] where Item.ID == ID {
        var merged = fetched.filter { admits($0.id) }
        guard !inserted.isEmpty else { return merged }
        let present = Set(merged.map(\.id))
        for (index, item) in previous.enumerated() where inserted.contains(item.id) && !present.contains(item.id) {
            merged.insert(item, at: min(index, merged.count))
        }
        return merged
    }
}
