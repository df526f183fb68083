/// Where each row goes under one batch: old path → new path, with UIKit's batch
/// semantics (deletes and move sources in old coordinates, inserts and move
/// destinations in new ones; surviving rows keep their order and fill the free
/// slots).
///
/// Adapters use it to reconfigure updated rows by their new paths and to keep
/// the first visible row in place when rows are inserted above it.
///
/// ```swift
/// let prepend = Changeset(itemInserts: [ItemPath(item: 0, section: 0), ItemPath(item: 1, section: 0)])
/// let mapping = PathMapping(prepend, oldCounts: [3], newCounts: [5])
/// assert(mapping.newPath(of: ItemPath(item: 0, section: 0)) == ItemPath(item: 2, section: 0))
/// ```
///
/// The changeset is expected to be valid (``/CellKitDiff/Changeset/validate(oldCounts:newCounts:)``).
public struct PathMapping: Sendable {
    /// For each old section: its new index, or `nil` when it is deleted.
    public let newSections: [Int?]
    private let reloadedSections: Set<Int>
    private let removedRows: [Int: [Int]]
    private let takenSlots: [Int: [Int]]
    private let moved: [ItemPath: ItemPath]
    private let deleted: Set<ItemPath>

    /// Builds the mapping of `changeset` between lists with `oldCounts` and `newCounts` rows per section.
    ///
    /// - Complexity: O(*c* log *c* + *s*), *c* the number of changes, *s* the number of sections.
    public init(_ changeset: Changeset, oldCounts: [Int], newCounts: [Int]) {
        let deletedSections = Set(changeset.sectionDeletes)
        var sections = [Int?](repeating: nil, count: oldCounts.count)
        var takenSections = Set(changeset.sectionInserts)
        var movedSections = Set<Int>()
        for move in changeset.sectionMoves where sections.indices.contains(move.from) {
            sections[move.from] = move.to
            takenSections.insert(move.to)
            movedSections.insert(move.from)
        }
        var next = 0
        for old in oldCounts.indices where !deletedSections.contains(old) && !movedSections.contains(old) {
            while takenSections.contains(next) { next += 1 }
            sections[old] = next
            next += 1
        }
        newSections = sections
        reloadedSections = Set(changeset.sectionUpdates)

        var removed: [Int: [Int]] = [:]
        for path in changeset.itemDeletes { removed[path.section, default: []].append(path.item) }
        var taken: [Int: [Int]] = [:]
        for path in changeset.itemInserts { taken[path.section, default: []].append(path.item) }
        var moves: [ItemPath: ItemPath] = [:]
        for move in changeset.itemMoves {
            removed[move.from.section, default: []].append(move.from.item)
            taken[move.to.section, default: []].append(move.to.item)
            moves[move.from] = move.to
        }
        removedRows = removed.mapValues { $0.sorted() }
        takenSlots = taken.mapValues { $0.sorted() }
        moved = moves
        deleted = Set(changeset.itemDeletes)
    }

    /// The new path of the row at `old`; `nil` when the row is deleted, or its
    /// section is deleted or reloaded (its rows are replaced).
    ///
    /// - Complexity: O(log *c* + *k*), *k* the rows inserted or moved into the row's new section.
    public func newPath(of old: ItemPath) -> ItemPath? {
        guard newSections.indices.contains(old.section), let section = newSections[old.section],
              !reloadedSections.contains(old.section), old.item >= 0 else { return nil }
        if let destination = moved[old] { return destination }
        if deleted.contains(old) { return nil }
        let rank = old.item - Self.countBelow(old.item, in: removedRows[old.section] ?? [])
        var item = rank
        for slot in takenSlots[section] ?? [] {
            guard slot <= item else { break }
            item += 1
        }
        return ItemPath(item: item, section: section)
    }

    /// How many values of the ascending `sorted` are below `value`.
    private static func countBelow(_ value: Int, in sorted: [Int]) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
