import CellKit

/// Row positions of a headless list with estimated heights, as `UITableView`
/// keeps them: every row counts as the estimate until its real height was
/// asked (rows near the viewport only); only heights that differ from the
/// estimate are stored, so a list of fixed heights costs O(sections), not O(rows).
@MainActor
final class Layout {
    /// The height of a row whose height was not asked yet.
    var estimate: Double { didSet { if estimate != oldValue { isDirty = true } } }
    private(set) var counts: [Int] = []
    private var sectionStarts: [Int] = [0]
    private var headerPrefix: [Double] = [0]
    /// Heights asked since the last reload (or batch, for the estimate-sized ones).
    private(set) var known: [ItemPath: Double] = [:]
    /// The rows whose height differs from the estimate, sorted, with their differences.
    private var deltaFlat: [Int] = []
    private var deltaValues: [Double] = []
    /// `deltaPrefix[i]`: the sum of the first `i` differences; valid up to `prefixValid`.
    private var deltaPrefix: [Double] = [0]
    private var prefixValid = 0
    /// The row structure changed (a reset, a forgotten row): everything is rebuilt from `known`.
    private var isDirty = false

    init(estimate: Double) { self.estimate = estimate }

    /// Starts over with `counts` and `headerHeights`, keeping the `known` heights given.
    func reset(counts: [Int], headerHeights: [Double], known: [ItemPath: Double] = [:]) {
        self.counts = counts
        sectionStarts = [0]
        headerPrefix = [0]
        sectionStarts.reserveCapacity(counts.count + 1)
        headerPrefix.reserveCapacity(counts.count + 1)
        for (section, count) in counts.enumerated() {
            sectionStarts.append(sectionStarts[section] + count)
            headerPrefix.append(headerPrefix[section] + headerHeights[section])
        }
        self.known = known
        isDirty = true
    }

    /// Records the real height of the row at `path`.
    func setHeight(_ height: Double, at path: ItemPath) {
        let previous = known.updateValue(height, forKey: path) ?? estimate
        if previous != height { update(path, difference: height - estimate) }
    }

    /// Forgets the height of the row at `path` (its content changed): it is asked again when shown.
    func forget(_ path: ItemPath) {
        if let height = known.removeValue(forKey: path), height != estimate { update(path, difference: 0) }
    }

    /// Records one row's difference from the estimate in place: scrolling asks a few
    /// heights a frame, and a frame must not cost the number of heights asked so far.
    /// Only the sums after the row are recomputed, when next read (rows asked while
    /// scrolling down come last, so that is a few).
    private func update(_ path: ItemPath, difference: Double) {
        guard !isDirty else { return }
        guard let flat = flatIndex(of: path) else { isDirty = true; return }
        let i = Self.countBelow(flat, in: deltaFlat)
        if i < deltaFlat.count, deltaFlat[i] == flat {
            if difference == 0 {
                deltaFlat.remove(at: i)
                deltaValues.remove(at: i)
                deltaPrefix.removeLast()
            } else {
                deltaValues[i] = difference
            }
        } else if difference != 0 {
            deltaFlat.insert(flat, at: i)
            deltaValues.insert(difference, at: i)
            deltaPrefix.append(0)
        } else {
            return
        }
        prefixValid = min(prefixValid, i)
    }

    /// Forgets the row's height if it equals the estimate (it changes no offset):
    /// rows that leave the screen then cost nothing. It is asked again when the row shows.
    func forgetIfEstimate(_ path: ItemPath) {
        if known[path] == estimate { known[path] = nil }
    }

    /// Whether the row's real height was asked.
    func isKnown(_ path: ItemPath) -> Bool { known[path] != nil }

    var rowCount: Int { sectionStarts[sectionStarts.count - 1] }

    var contentHeight: Double {
        rebuildIfNeeded()
        return headerPrefix[headerPrefix.count - 1] + Double(rowCount) * estimate + deltaPrefix[deltaPrefix.count - 1]
    }

    func height(ofRow flat: Int) -> Double {
        rebuildIfNeeded()
        let i = Self.countBelow(flat, in: deltaFlat)
        return estimate + (i < deltaFlat.count && deltaFlat[i] == flat ? deltaValues[i] : 0)
    }

    func top(ofRow flat: Int) -> Double {
        rebuildIfNeeded()
        let section = path(ofRow: flat).section
        return headerPrefix[section + 1] + Double(flat) * estimate + deltaPrefix[Self.countBelow(flat, in: deltaFlat)]
    }

    /// The rows that intersect `[from, to)`; none when the range is empty (UIKit:
    /// an empty rectangle intersects nothing). - Complexity: O(log n · log k).
    func rows(from: Double, to: Double) -> Range<Int> {
        guard to > from, rowCount > 0 else { return 0..<0 }
        let first = lowerBound(0) { self.top(ofRow: $0) + self.height(ofRow: $0) > from }
        let end = lowerBound(first) { self.top(ofRow: $0) >= to }
        return first..<max(first, end)
    }

    /// The first row in `start..<rowCount` for which the monotonic `test` holds (rowCount if none).
    private func lowerBound(_ start: Int, _ test: (Int) -> Bool) -> Int {
        var lo = start, hi = rowCount
        while lo < hi {
            let mid = (lo + hi) / 2
            if test(mid) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// The section and item of a flat row index. - Complexity: O(log s).
    func path(ofRow flat: Int) -> ItemPath {
        var lo = 0, hi = sectionStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if sectionStarts[mid] <= flat { lo = mid } else { hi = mid - 1 }
        }
        // Skip empty sections that start at the same flat index.
        var section = lo
        while section + 1 < sectionStarts.count - 1, sectionStarts[section + 1] <= flat { section += 1 }
        return ItemPath(item: flat - sectionStarts[section], section: section)
    }

    /// The flat row index of `path`; `nil` for a path the list does not have,
    /// whatever its values (no arithmetic on them can overflow).
    func flatIndex(of path: ItemPath) -> Int? {
        guard path.section >= 0, path.section < counts.count,
              path.item >= 0, path.item < counts[path.section] else { return nil }
        return sectionStarts[path.section] + path.item
    }

    private func rebuildIfNeeded() {
        if isDirty {
            isDirty = false
            var differences: [(flat: Int, difference: Double)] = []
            for (path, height) in known where height != estimate {
                if let flat = flatIndex(of: path) { differences.append((flat, height - estimate)) }
            }
            differences.sort { $0.flat < $1.flat }
            deltaFlat = differences.map(\.flat)
            deltaValues = differences.map(\.difference)
            deltaPrefix = Array(repeating: 0, count: deltaFlat.count + 1)
            prefixValid = 0
        }
        // deltaPrefix[0...prefixValid] holds; the sums after it are recomputed.
        guard prefixValid < deltaFlat.count else { return }
        for i in prefixValid..<deltaFlat.count { deltaPrefix[i + 1] = deltaPrefix[i] + deltaValues[i] }
        prefixValid = deltaFlat.count
    }

    private static func countBelow(_ value: Int, in sorted: [Int]) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
