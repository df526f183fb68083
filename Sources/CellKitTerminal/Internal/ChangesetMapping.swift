import CellKit

/// Checks a batch against UIKit's rules and maps old paths to new ones.
struct ChangesetMapping {
    let changeset: Changeset
    let oldCounts: [Int]
    let newCounts: [Int]
    /// New section of each old section; nil where deleted.
    private(set) var sectionMap: [Int?] = []
    private var removedBySection: [Int: [Int]] = [:]
    private var insertedBySection: [Int: [Int]] = [:]
    private var deleted: Set<ItemPath> = []
    private var moved: [ItemPath: ItemPath] = [:]

    init(_ changeset: Changeset, oldCounts: [Int], newCounts: [Int]) {
        self.changeset = changeset
        self.oldCounts = oldCounts
        self.newCounts = newCounts
    }

    /// Validates the batch; on success, prepares the path mapping.
    mutating func validate() throws(TerminalBatchUpdateError) {
        let c = changeset
        func fail(_ message: String) -> TerminalBatchUpdateError { TerminalBatchUpdateError(message: message) }
        let oldSections = oldCounts.count
        let newSections = newCounts.count

        // Sections.
        var removedSections = Set<Int>()
        for s in c.sectionDeletes {
            guard (0..<oldSections).contains(s) else { throw fail("deleted section \(s) does not exist (\(oldSections) sections before the update)") }
            guard removedSections.insert(s).inserted else { throw fail("section \(s) is deleted twice") }
        }
        var fixedNew = Set<Int>()
        for s in c.sectionInserts {
            guard (0..<newSections).contains(s) else { throw fail("inserted section \(s) is out of range (\(newSections) sections after the update)") }
            guard fixedNew.insert(s).inserted else { throw fail("section \(s) is inserted twice") }
        }
        for m in c.sectionMoves {
            guard (0..<oldSections).contains(m.from), (0..<newSections).contains(m.to) else {
                throw fail("section move \(m) is out of range (\(oldSections) sections before, \(newSections) after)")
            }
            guard removedSections.insert(m.from).inserted else { throw fail("section \(m.from) is both moved and deleted, or moved twice") }
            guard fixedNew.insert(m.to).inserted else { throw fail("section \(m.to) is the destination of two changes") }
        }
        for s in c.sectionUpdates where !(0..<oldSections).contains(s) {
            throw fail("updated section \(s) does not exist (\(oldSections) sections before the update)")
        }
        let expectedSections = oldSections - c.sectionDeletes.count + c.sectionInserts.count
        guard expectedSections == newSections else {
            throw fail("the data source reports \(newSections) sections after the update, but \(oldSections) before − \(c.sectionDeletes.count) deleted + \(c.sectionInserts.count) inserted = \(expectedSections)")
        }
        var map = [Int?](repeating: nil, count: oldSections)
        var remaining = (0..<oldSections).filter { !removedSections.contains($0) }.makeIterator()
        for n in 0..<newSections where !fixedNew.contains(n) {
            if let o = remaining.next() { map[o] = n }
        }
        for m in c.sectionMoves { map[m.from] = m.to }
        sectionMap = map

        // Items.
        func checkOld(_ p: ItemPath, _ what: String) throws(TerminalBatchUpdateError) {
            guard (0..<oldSections).contains(p.section) else { throw fail("\(what) row \(p.item) of section \(p.section): that section does not exist before the update") }
            guard (0..<oldCounts[p.section]).contains(p.item) else {
                throw fail("\(what) row \(p.item) of section \(p.section) is out of range (\(oldCounts[p.section]) rows before the update)")
            }
        }
        func checkNew(_ p: ItemPath, _ what: String) throws(TerminalBatchUpdateError) {
            guard (0..<newSections).contains(p.section) else { throw fail("\(what) row \(p.item) of section \(p.section): that section does not exist after the update") }
            guard (0..<newCounts[p.section]).contains(p.item) else {
                throw fail("\(what) row \(p.item) of section \(p.section) is out of range (\(newCounts[p.section]) rows after the update)")
            }
        }
        for p in c.itemDeletes {
            try checkOld(p, "deleted")
            guard deleted.insert(p).inserted else { throw fail("row \(p.item) of section \(p.section) is deleted twice") }
            removedBySection[p.section, default: []].append(p.item)
        }
        var updated = Set<ItemPath>()
        for p in c.itemUpdates {
            try checkOld(p, "updated")
            guard !deleted.contains(p) else { throw fail("row \(p.item) of section \(p.section) is both deleted and updated") }
            guard updated.insert(p).inserted else { throw fail("row \(p.item) of section \(p.section) is updated twice") }
        }
        var insertedPaths = Set<ItemPath>()
        for p in c.itemInserts {
            try checkNew(p, "inserted")
            guard insertedPaths.insert(p).inserted else { throw fail("row \(p.item) of section \(p.section) is inserted twice") }
            insertedBySection[p.section, default: []].append(p.item)
        }
        for m in c.itemMoves {
            try checkOld(m.from, "moved")
            try checkNew(m.to, "moved")
            guard !deleted.contains(m.from), moved[m.from] == nil else {
                throw fail("row \(m.from.item) of section \(m.from.section) is moved and also deleted or moved again")
            }
            guard insertedPaths.insert(m.to).inserted else {
                throw fail("row \(m.to.item) of section \(m.to.section) is the destination of two changes")
            }
            moved[m.from] = m.to
            removedBySection[m.from.section, default: []].append(m.from.item)
            insertedBySection[m.to.section, default: []].append(m.to.item)
        }
        for key in removedBySection.keys { removedBySection[key]!.sort() }
        for key in insertedBySection.keys { insertedBySection[key]!.sort() }

        // Counts per surviving section.
        for (old, new) in map.enumerated() {
            guard let new else { continue }
            let expected = oldCounts[old] - (removedBySection[old]?.count ?? 0) + (insertedBySection[new]?.count ?? 0)
            guard expected == newCounts[new] else {
                throw fail("section \(new) has \(newCounts[new]) rows after the update, but \(oldCounts[old]) before − \(removedBySection[old]?.count ?? 0) deleted or moved out + \(insertedBySection[new]?.count ?? 0) inserted or moved in = \(expected)")
            }
        }
    }

    /// Where the row at old `path` is after the batch; nil when it was deleted.
    func newPath(forOld path: ItemPath) -> ItemPath? {
        if deleted.contains(path) { return nil }
        if let to = moved[path] { return to }
        guard sectionMap.indices.contains(path.section), let section = sectionMap[path.section] else { return nil }
        var item = path.item
        if let removed = removedBySection[path.section] {
            item -= Self.countLess(than: path.item, in: removed)
        }
        if let inserted = insertedBySection[section] {
            for position in inserted {
                if position <= item { item += 1 } else { break }
            }
        }
        return ItemPath(item: item, section: section)
    }

    /// The new index of old `section`; nil when it was deleted.
    func newSection(forOld section: Int) -> Int? {
        sectionMap.indices.contains(section) ? sectionMap[section] : nil
    }

    private static func countLess(than value: Int, in sorted: [Int]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

/// A batch that the path mapping could not follow; names the sections and rows.
struct TerminalBatchUpdateError: Error, Hashable, Sendable, CustomStringConvertible {
    let message: String
    public var description: String { "invalid batch update: \(message)" }
}
