/// Which row of one version of a list is which row of another, for local edits: rows are
/// matched by identity, and rows that share an identity (duplicates) by content, then by
/// order. A row takes the place of a row of its identity with equal content where one is
/// left (the first such one), else of the first row of its identity left; rows beyond those
/// are new. So removing one of two rows of id 1 removes that one (not the second because it
/// is the second), also when the other was moved or the two were swapped; rows of one
/// identity and equal content cannot be told apart, and it does not matter which is which.
///
/// Rows of an identity that occurs once on both sides match whatever their content (an
/// update), as everywhere in CellKit; only duplicates pay for comparing content.
enum RowMatching {
    /// A row's key: its identity, and which row of that identity it is.
    struct Key<ID: Hashable>: Hashable {
        var id: ID
        /// Which row of the identity: its place among the rows of that identity in the
        /// list the keys are counted in (0 for the first), or a number past them for a row
        /// that is not there (added).
        var occurrence: Int
    }

    /// For each of `rows` (all of one identity), the index in `base` (rows of that identity
    /// too, in order) of the row it takes the place of, or `nil` for a row beyond them: equal
    /// content first (the first row of `base` left with equal content), then the rows left
    /// in order.
    /// - Complexity: about O(*n* + *m*) content comparisons when the rows keep their content
    ///   (rows removed or moved), O(*n* × *m*) at most (many rows of one identity whose content
    ///   changed).
    static func match<Row>(_ base: [Row], _ rows: [Row], isContentEqual: (Row, Row) -> Bool) -> [Int?] {
        var matched = [Int?](repeating: nil, count: rows.count)
        // free[i]: a row of `base` at or after i that may be untaken (the first untaken one once
        // followed to its end): taken rows are skipped without comparing them again.
        var free = Array(0...base.count)
        func firstFree(from index: Int) -> Int {
            var root = index
            while free[root] != root { root = free[root] }
            var step = index
            while free[step] != root { (step, free[step]) = (free[step], root) }
            return root
        }
        for (index, row) in rows.enumerated() {
            var candidate = firstFree(from: 0)
            while candidate < base.count && !isContentEqual(base[candidate], row) { candidate = firstFree(from: candidate + 1) }
            guard candidate < base.count else { continue }
            matched[index] = candidate
            free[candidate] = candidate + 1
        }
        for index in rows.indices where matched[index] == nil {
            let candidate = firstFree(from: 0)
            guard candidate < base.count else { break }
            matched[index] = candidate
            free[candidate] = candidate + 1
        }
        return matched
    }

    /// The keys of the rows of `before` (each row's identity and its place among the rows of
    /// that identity), and of the rows of each of `versions` (lists made from `before`): the
    /// key of the row of `before` it takes the place of (see ``match(_:_:isContentEqual:)``),
    /// or a new occurrence past those of `before` (rows added, numbered in order, so that two
    /// versions that both added rows of one identity agree on the first of them).
    static func keys<Row, ID: Hashable>(
        _ before: [Row], _ versions: [[Row]], id: (Row) -> ID, isContentEqual: (Row, Row) -> Bool
    ) -> (before: [Key<ID>], versions: [[Key<ID>]]) {
        let (beforeKeys, beforeCounts, beforeRepeats) = occurrences(before, id: id)
        let versionKeys = versions.map { rows -> [Key<ID>] in
            let (counted, counts, repeats) = occurrences(rows, id: id)
            var keys = counted
            guard repeats || beforeRepeats else { return keys }
            // Only identities with more than one row on either side are matched by content.
            var groups: [ID: [Int]] = [:]
            for (index, key) in keys.enumerated() where counts[key.id, default: 0] > 1 || beforeCounts[key.id, default: 0] > 1 {
                groups[key.id, default: []].append(index)
            }
            var baseGroups: [ID: [Int]] = [:]
            for (index, key) in beforeKeys.enumerated() where groups[key.id] != nil { baseGroups[key.id, default: []].append(index) }
            for (groupID, indices) in groups {
                let base = baseGroups[groupID] ?? []
                var added = base.count
                let matched = match(base.map { before[$0] }, indices.map { rows[$0] }, isContentEqual: isContentEqual)
                for (index, place) in zip(indices, matched) {
                    if let place {
                        keys[index].occurrence = place
                    } else {
                        keys[index].occurrence = added
                        added += 1
                    }
                }
            }
            return keys
        }
        return (beforeKeys, versionKeys)
    }

    /// Each row's identity and its place among the rows of that identity, how many rows each
    /// identity has, and whether one has more than one.
    private static func occurrences<Row, ID: Hashable>(_ rows: [Row], id: (Row) -> ID) -> (keys: [Key<ID>], counts: [ID: Int], repeats: Bool) {
        var counts: [ID: Int] = [:]
        var keys: [Key<ID>] = []
        keys.reserveCapacity(rows.count)
        var repeats = false
        for row in rows {
            let rowID = id(row)
            let occurrence = counts[rowID, default: 0]
            counts[rowID] = occurrence + 1
            repeats = repeats || occurrence > 0
            keys.append(Key(id: rowID, occurrence: occurrence))
        }
        return (keys, counts, repeats)
    }
}
