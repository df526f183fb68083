import CellKit

/// Sections laid out as one flat list of GTK rows: each section's header (when it
/// has a title: GTK 4.8 has no section headers) followed by its rows.
struct FlatLayout: Equatable {
    /// What a flat position shows.
    enum Entry: Hashable {
        case header(section: Int)
        case row(ItemPath)
    }

    /// Rows per section.
    private(set) var counts: [Int] = []
    /// Whether each section starts with a header row.
    private(set) var hasHeader: [Bool] = []
    /// The flat position of each section's first entry, plus the total at the end.
    private var starts: [Int] = [0]

    init() {}

    init(counts: [Int], hasHeader: [Bool]) {
        self.counts = counts
        self.hasHeader = hasHeader
        starts.reserveCapacity(counts.count + 1)
        for section in counts.indices { starts.append(starts[section] + (hasHeader[section] ? 1 : 0) + counts[section]) }
    }

    /// The number of flat entries.
    var total: Int { starts[starts.count - 1] }

    /// The flat positions of `section`, header included.
    func block(_ section: Int) -> Range<Int> { starts[section]..<starts[section + 1] }

    /// The flat position of the row at `path`.
    func position(of path: ItemPath) -> Int { starts[path.section] + (hasHeader[path.section] ? 1 : 0) + path.item }

    /// What the flat `position` shows, or `nil` past the end.
    ///
    /// - Complexity: O(log *s*), *s* the number of sections.
    func entry(at position: Int) -> Entry? {
        guard position >= 0, position < total else { return nil }
        // The last section whose start is at or before `position`, skipping empty ones.
        var low = 0, high = counts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= position { low = mid } else { high = mid - 1 }
        }
        let offset = position - starts[low]
        if hasHeader[low] { return offset == 0 ? .header(section: low) : .row(ItemPath(item: offset - 1, section: low)) }
        return .row(ItemPath(item: offset, section: low))
    }

    /// One `items-changed`: `removed` entries at `position` replaced by `added`.
    struct Splice: Hashable {
        var position: Int
        var removed: Int
        var added: Int
    }

    /// The splices that take `old` to `new` under `steps`, in the order to apply
    /// them: removals from the back, then insertions from the front (UIKit's batch
    /// semantics), then the reconfigured rows replaced in place, runs coalesced.
    ///
    /// A section whose header row appears or disappears is replaced as a whole.
    /// Returns `nil` if the splices would not add up to `new` (then reload).
    static func splices(_ steps: BatchPlan.Steps, from old: FlatLayout, to new: FlatLayout, newSections: [Int?]) -> [Splice]? {
        let change = steps.structural
        var oldBlocks = Set(change.sectionDeletes).union(change.sectionUpdates).union(change.sectionMoves.map(\.from))
        var newBlocks = Set(change.sectionInserts).union(change.sectionMoves.map(\.to))
        for section in change.sectionUpdates where newSections.indices.contains(section) {
            if let target = newSections[section] { newBlocks.insert(target) }
        }
        for section in old.counts.indices where !oldBlocks.contains(section) {
            guard let target = newSections[section], new.hasHeader.indices.contains(target) else { continue }
            if old.hasHeader[section] != new.hasHeader[target] {
                oldBlocks.insert(section)
                newBlocks.insert(target)
            }
        }
        var removed = oldBlocks.flatMap { old.block($0) }
        for path in change.itemDeletes + change.itemMoves.map(\.from) where !oldBlocks.contains(path.section) {
            removed.append(old.position(of: path))
        }
        var added = newBlocks.flatMap { new.block($0) }
        for path in change.itemInserts + change.itemMoves.map(\.to) where !newBlocks.contains(path.section) {
            added.append(new.position(of: path))
        }
        guard old.total - removed.count + added.count == new.total else { return nil }

        var splices: [Splice] = []
        for run in runs(removed.sorted(by: >), descending: true) { splices.append(Splice(position: run.lowerBound, removed: run.count, added: 0)) }
        for run in runs(added.sorted(), descending: false) { splices.append(Splice(position: run.lowerBound, removed: 0, added: run.count)) }
        let reconfigured = steps.reconfigure.map { new.position(of: $0) }.sorted()
        for run in runs(reconfigured, descending: false) { splices.append(Splice(position: run.lowerBound, removed: run.count, added: run.count)) }
        return splices
    }

    /// Consecutive positions grouped into ranges, in the order given.
    private static func runs(_ positions: [Int], descending: Bool) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for position in positions {
            if let last = result.last {
                if descending, position == last.lowerBound - 1 { result[result.count - 1] = position..<last.upperBound; continue }
                if !descending, position == last.upperBound { result[result.count - 1] = last.lowerBound..<(position + 1); continue }
            }
            result.append(position..<(position + 1))
        }
        return result
    }
}
