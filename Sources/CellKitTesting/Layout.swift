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
    /// Rows whose heights are all in `known`, as ``markAsked(_:)`` last said: a scroll
    /// checks only the rows it brings, not every row on screen again. Emptied by
    /// whatever forgets a height in it or moves rows.
    private(set) var askedRows: Range<Int> = 0..<0

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
        askedRows = 0..<0
    }

    /// Records the real height of the row at `path`.
    func setHeight(_ height: Double, at path: ItemPath) {
        let previous = known.updateValue(height, forKey: path) ?? estimate
        if previous != height { update(path, difference: height - estimate) }
    }

    /// Forgets the height of the row at `path` (its content changed): it is asked again when shown.
    func forget(_ path: ItemPath) {
        guard let height = known.removeValue(forKey: path) else { return }
        if flatIndex(of: path).map(askedRows.contains) ?? false { askedRows = 0..<0 }
        if height != estimate { update(path, difference: 0) }
    }

    /// Notes that every row in `rows` has its height in `known`.
    func markAsked(_ rows: Range<Int>) { askedRows = rows }

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
        guard known[path] == estimate else { return }
        known[path] = nil
        if flatIndex(of: path).map(askedRows.contains) ?? false { askedRows = 0..<0 }
    }

    /// Whether the row's real height was asked.
    func isKnown(_ path: ItemPath) -> Bool { known[path] != nil }

    var rowCount: Int { sectionStarts[sectionStarts.count - 1] }

    var contentHeight: Double {
        rebuildIfNeeded()
        return headerPrefix[headerPrefix.count - 1] + Double(rowCount) * estimate + deltaPrefix[deltaPrefix.count - 1]
    }

    func height(ofRow flat: Int) -> Double { offsets.height(ofRow: flat) }

    func top(ofRow flat: Int) -> Double { offsets.top(ofRow: flat) }

    /// The top of `section` (of its header), which must exist. - Complexity: O(log k).
    func top(ofSection section: Int) -> Double {
        let offsets = offsets
        let flat = offsets.sectionStarts[section]
        return offsets.headerPrefix[section] + Double(flat) * estimate + offsets.deltaPrefix[Layout.countBelow(flat, in: offsets.deltaFlat)]
    }

    /// The rows that intersect `[from, to)`; none when the range is empty (UIKit:
    /// an empty rectangle intersects nothing). - Complexity: O(log n · log k).
    func rows(from: Double, to: Double) -> Range<Int> {
        let count = rowCount
        guard to > from, count > 0 else { return 0..<0 }
        // Read from one copy: every read of the layout's own storage is an access the
        // runtime checks, and the searches read it some hundred times a frame.
        let offsets = offsets
        // Searched outward from the first row found last time (a frame scrolls a few
        // rows) and from the first row (a screen holds a few): O(log distance) probes.
        let first = Self.lowerBound(0, count, near: min(lastFirst, count - 1)) { offsets.bottom(ofRow: $0) > from }
        let end = Self.lowerBound(first, count, near: first) { offsets.top(ofRow: $0) >= to }
        lastFirst = first
        return first..<max(first, end)
    }

    /// The first row found by the last ``rows(from:to:)``: where the next one starts looking.
    private var lastFirst = 0

    /// The first row in `start..<end` for which the monotonic `test` holds (`end` if
    /// none), found by galloping outward from `hint` (in `start..<end`), then halving.
    private static func lowerBound(_ start: Int, _ end: Int, near hint: Int, _ test: (Int) -> Bool) -> Int {
        guard start < end else { return end }
        let hint = max(start, min(hint, end - 1))
        var lo: Int, hi: Int
        if test(hint) {
            // The answer is at or before `hint`: gallop down.
            hi = hint
            var step = 1
            while true {
                let probe = hi - step
                if probe < start { lo = start; break }
                if test(probe) { hi = probe; step &*= 2 } else { lo = probe + 1; break }
            }
        } else {
            // The answer is after `hint`: gallop up.
            lo = hint + 1
            var step = 1
            while true {
                let probe = lo - 1 + step
                if probe >= end { hi = end; break }
                if test(probe) { hi = probe; break } else { lo = probe + 1; step &*= 2 }
            }
        }
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if test(mid) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// The section and item of a flat row index. - Complexity: O(log s).
    func path(ofRow flat: Int) -> ItemPath {
        let starts = sectionStarts
        let section = Self.section(ofRow: flat, in: starts)
        return ItemPath(item: flat - starts[section], section: section)
    }

    /// The section of flat row `flat`, given each section's first flat row (and the row count last).
    fileprivate nonisolated static func section(ofRow flat: Int, in starts: [Int]) -> Int {
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= flat { lo = mid } else { hi = mid - 1 }
        }
        // Skip empty sections that start at the same flat index.
        var section = lo
        while section + 1 < starts.count - 1, starts[section + 1] <= flat { section += 1 }
        return section
    }

    /// The row offsets as they stand, as plain values.
    private var offsets: Offsets {
        rebuildIfNeeded()
        return Offsets(estimate: estimate, sectionStarts: sectionStarts, headerPrefix: headerPrefix,
                       deltaFlat: deltaFlat, deltaValues: deltaValues, deltaPrefix: deltaPrefix)
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

    fileprivate nonisolated static func countBelow(_ value: Int, in sorted: [Int]) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

/// A copy of a ``Layout``'s row offsets (its sums up to date), for reading many times.
private struct Offsets {
    let estimate: Double
    let sectionStarts: [Int]
    let headerPrefix: [Double]
    let deltaFlat: [Int]
    let deltaValues: [Double]
    let deltaPrefix: [Double]

    func top(ofRow flat: Int) -> Double {
        top(ofRow: flat, differencesBefore: Layout.countBelow(flat, in: deltaFlat))
    }

    func height(ofRow flat: Int) -> Double {
        let i = Layout.countBelow(flat, in: deltaFlat)
        return estimate + (i < deltaFlat.count && deltaFlat[i] == flat ? deltaValues[i] : 0)
    }

    /// `top + height` with one search of the differences.
    func bottom(ofRow flat: Int) -> Double {
        let i = Layout.countBelow(flat, in: deltaFlat)
        return top(ofRow: flat, differencesBefore: i) + estimate + (i < deltaFlat.count && deltaFlat[i] == flat ? deltaValues[i] : 0)
    }

    private func top(ofRow flat: Int, differencesBefore i: Int) -> Double {
        headerPrefix[Layout.section(ofRow: flat, in: sectionStarts) + 1] + Double(flat) * estimate + deltaPrefix[i]
    }
}
