@_spi(Adapters) import CellKitDiff

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
    /// For each old section: whether it is reloaded (its rows are replaced).
    private let reloadedSections: [Bool]
    /// The rows that leave their place (deleted or moved away), old paths, ascending.
    private let removed: [ItemPath]
    /// The slots given to rows inserted or moved in, new paths, ascending.
    private let taken: [ItemPath]
    /// The sources of the moves, ascending, and each one's destination at the same index.
    private let moveSources: [ItemPath]
    private let moveDestinations: [ItemPath]

    /// Builds the mapping of `changeset` between lists with `oldCounts` and `newCounts` rows per section.
    ///
    /// Nothing is mapped yet: the changes are only sorted, so that each
    /// ``newPath(of:)`` is a few binary searches. Lists already in order (as the
    /// diff makes them) are kept; others are sorted through a bitmap of the
    /// section's rows when it is small next to the batch, by comparison otherwise.
    ///
    /// - Complexity: O(*c* log *c* + *s*), *c* the number of changes, *s* the number of sections;
    ///   O(*c* + *s*) when the changes are in order or the rows number at most a few hundred per change.
    public init(_ changeset: Changeset, oldCounts: [Int], newCounts: [Int]) {
        var sections = [Int?](repeating: nil, count: oldCounts.count)
        var reloaded = [Bool](repeating: false, count: oldCounts.count)
        if changeset.sectionDeletes.isEmpty, changeset.sectionInserts.isEmpty, changeset.sectionMoves.isEmpty {
            for old in oldCounts.indices { sections[old] = old }
        } else {
            let deletedSections = Set(changeset.sectionDeletes)
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
        }
        for section in changeset.sectionUpdates where reloaded.indices.contains(section) { reloaded[section] = true }
        newSections = sections
        reloadedSections = reloaded

        let moves = _PathSorting.bySource(changeset.itemMoves, counts: oldCounts)
        moveSources = moves.sources
        moveDestinations = moves.destinations
        removed = _PathSorting.ascending(changeset.itemDeletes, moves.sources, secondAscends: true, counts: oldCounts)
        taken = _PathSorting.ascending(changeset.itemInserts, changeset.itemMoves.map(\.to), counts: newCounts)
    }

    /// The new path of the row at `old`; `nil` when the row is deleted, or its
    /// section is deleted or reloaded (its rows are replaced).
    ///
    /// - Complexity: O(log *c*), *c* the number of changes.
    public func newPath(of old: ItemPath) -> ItemPath? {
        var cursor = Cursor()
        return newPath(of: old, cursor: &cursor)
    }

    /// The new paths of the rows at `paths` that stay (where ``newPath(of:)`` is not `nil`), in order.
    ///
    /// - Complexity: O(*k* + *c*) when `paths` ascend (one sweep); O(*k* log *c*) otherwise.
    func survivingNewPaths(of paths: [ItemPath]) -> [ItemPath] {
        var ascending = true
        for index in paths.indices.dropFirst() where !(paths[index - 1] < paths[index]) {
            ascending = false
            break
        }
        guard ascending, paths.count &* 4 >= removed.count &+ moveSources.count else {
            var cursor = Cursor()
            return paths.compactMap { newPath(of: $0, cursor: &cursor) }
        }
        return moveSources.withUnsafeBufferPointer { sources in
            removed.withUnsafeBufferPointer { removed in
                taken.withUnsafeBufferPointer { taken in
                    sweep(paths, sources: sources, removed: removed, taken: taken)
                }
            }
        }
    }

    /// ``survivingNewPaths(of:)`` of ascending `paths`: the cursors only move forward
    /// (the one in `taken` restarts with each section).
    private func sweep(
        _ paths: [ItemPath], sources: UnsafeBufferPointer<ItemPath>,
        removed: UnsafeBufferPointer<ItemPath>, taken: UnsafeBufferPointer<ItemPath>
    ) -> [ItemPath] {
        // Never `unsafeUninitializedCapacity: 0`: it writes the standard library's shared
        // empty array, which Thread Sanitizer reports as a race with every other thread.
        guard !paths.isEmpty else { return [] }
        return [ItemPath](unsafeUninitializedCapacity: paths.count) { result, initialized in
            var count = 0, move = 0, gone = 0, slot = 0
            var section = -1, newSection: Int?, removedFirst = 0, takenFirst = 0, takenEnd = 0
            for old in paths {
                if old.section != section {
                    section = old.section
                    newSection = newSections.indices.contains(section) && !reloadedSections[section] ? newSections[section] : nil
                    if let mapped = newSection {
                        let start = ItemPath(item: Int.min, section: section)
                        removedFirst = Self.partitionPoint(removed.count, from: gone) { removed[$0] < start }
                        let newStart = ItemPath(item: Int.min, section: mapped), newEnd = ItemPath(item: Int.min, section: mapped + 1)
                        takenFirst = Self.partitionPoint(taken.count, from: 0) { taken[$0] < newStart }
                        takenEnd = Self.partitionPoint(taken.count, from: takenFirst) { taken[$0] < newEnd }
                        slot = takenFirst
                    }
                }
                guard let mapped = newSection, old.item >= 0 else { continue }
                while move < sources.count, sources[move] < old { move &+= 1 }
                if move < sources.count, sources[move] == old {
                    result.initializeElement(at: count, to: moveDestinations[move])
                    count &+= 1
                    continue
                }
                while gone < removed.count, removed[gone] < old { gone &+= 1 }
                if gone < removed.count, removed[gone] == old { continue }
                let rank = old.item &- (gone &- removedFirst)
                while slot < takenEnd, taken[slot].item &- (slot &- takenFirst) <= rank { slot &+= 1 }
                result.initializeElement(at: count, to: ItemPath(item: rank &+ (slot &- takenFirst), section: mapped))
                count &+= 1
            }
            initialized = count
        }
    }

    /// Where the previous lookup ended, so that ascending lookups resume there.
    private struct Cursor {
        var moves = 0, removed = 0, taken = 0
        /// The old section of the previous lookup, and its ranges in `removed` and `taken`.
        var section = -1, removedFirst = 0, takenFirst = 0, takenEnd = 0
    }

    private func newPath(of old: ItemPath, cursor: inout Cursor) -> ItemPath? {
        guard newSections.indices.contains(old.section), let section = newSections[old.section],
              !reloadedSections[old.section], old.item >= 0 else { return nil }
        if !moveSources.isEmpty {
            let index = Self.partitionPoint(moveSources.count, from: cursor.moves) { moveSources[$0] < old }
            cursor.moves = index
            if index < moveSources.count, moveSources[index] == old { return moveDestinations[index] }
        }
        let index = Self.partitionPoint(removed.count, from: cursor.removed) { removed[$0] < old }
        cursor.removed = index
        if index < removed.count, removed[index] == old { return nil }
        if cursor.section != old.section {
            let start = ItemPath(item: Int.min, section: old.section)
            cursor.removedFirst = Self.partitionPoint(removed.count, from: index) { removed[$0] < start }
            let newStart = ItemPath(item: Int.min, section: section), newEnd = ItemPath(item: Int.min, section: section + 1)
            cursor.takenFirst = Self.partitionPoint(taken.count, from: cursor.taken) { taken[$0] < newStart }
            cursor.takenEnd = Self.partitionPoint(taken.count, from: cursor.takenFirst) { taken[$0] < newEnd }
            cursor.taken = cursor.takenFirst
            cursor.section = old.section
        }
        // The row's rank among the rows that stay, then the free slot of that rank:
        // the first k taken slots lie at or before it when slot[i] - i <= rank for each i < k.
        let rank = old.item - (index - cursor.removedFirst)
        let first = cursor.takenFirst
        let below = Self.partitionPoint(cursor.takenEnd - first, from: cursor.taken - first) { taken[first + $0].item - $0 <= rank }
        cursor.taken = first + below
        return ItemPath(item: rank + below, section: section)
    }

    /// The first index in `0..<count` where `isBelow` turns false (it is true
    /// before, false after), searched outwards from `hint` and then by halves.
    ///
    /// - Complexity: O(log *d*), *d* the distance between `hint` and the answer.
    @inline(__always)
    private static func partitionPoint(_ count: Int, from hint: Int, _ isBelow: (Int) -> Bool) -> Int {
        let hint = min(max(hint, 0), count)
        var low = 0, high = count
        if hint < count, isBelow(hint) {
            low = hint + 1
            var step = 1
            while hint + step < count {
                if isBelow(hint + step) { low = hint + step + 1; step <<= 1 } else { high = hint + step; break }
            }
        } else {
            high = hint
            var step = 1
            while hint - step >= 0 {
                if isBelow(hint - step) { low = hint - step + 1; break } else { high = hint - step; step <<= 1 }
            }
        }
        while low < high {
            let mid = (low + high) / 2
            if isBelow(mid) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
