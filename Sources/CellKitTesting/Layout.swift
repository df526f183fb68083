import CellKit

/// Row positions of a headless list: prefix sums over row and header heights.
struct Layout {
    private(set) var sectionStarts: [Int] = [0]
    private var tops: [Double] = []
    private var heights: [Double] = []
    private(set) var contentHeight: Double = 0

    init() {}

    init(counts: [Int], rowHeights: [Double], headerHeights: [Double]) {
        heights = rowHeights
        tops.reserveCapacity(rowHeights.count)
        sectionStarts = [0]
        var y = 0.0
        var flat = 0
        for (section, count) in counts.enumerated() {
            y += headerHeights[section]
            for _ in 0..<count {
                tops.append(y)
                y += rowHeights[flat]
                flat += 1
            }
            sectionStarts.append(flat)
        }
        contentHeight = y
    }

    var rowCount: Int { tops.count }

    func top(ofRow flat: Int) -> Double { tops[flat] }

    /// The rows that intersect `[from, to)`. - Complexity: O(log n).
    func rows(from: Double, to: Double) -> Range<Int> {
        // First row whose bottom is below `from`.
        var lo = 0, hi = tops.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if tops[mid] + heights[mid] <= from { lo = mid + 1 } else { hi = mid }
        }
        let first = lo
        // First row whose top is at or below `to`.
        hi = tops.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if tops[mid] < to { lo = mid + 1 } else { hi = mid }
        }
        return first..<max(first, lo)
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

    func flatIndex(of path: ItemPath) -> Int? {
        guard path.section >= 0, path.section + 1 < sectionStarts.count else { return nil }
        let flat = sectionStarts[path.section] + path.item
        return path.item >= 0 && flat < sectionStarts[path.section + 1] ? flat : nil
    }
}
