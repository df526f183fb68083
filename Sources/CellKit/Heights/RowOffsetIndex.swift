/// Row heights with their running offsets in a Fenwick tree: the offset of a
/// row, the row at an offset, and a height change, each in O(log n).
///
/// A list of a million rows of varying height scrolls with O(log n) work per
/// frame: finding the first visible row is ``row(atOffset:)``, and a row whose
/// measured height differs from its estimate costs one ``setHeight(_:ofRow:)``.
/// Inserting or removing rows rebuilds the index in O(n).
///
/// ```swift
/// var index = RowOffsetIndex(heights: [44, 88, 44, 20])
/// assert(index.offset(ofRow: 2) == 132)
/// assert(index.row(atOffset: 100) == 1)
/// index.setHeight(10, ofRow: 1)
/// assert(index.offset(ofRow: 2) == 54 && index.totalHeight == 118)
/// ```
///
/// - Complexity: memory is two `Double`s per row.
public struct RowOffsetIndex: Sendable {
    private var heights: [Double]
    /// `tree[i]` holds the sum of the heights of rows `i - lowbit(i) ..< i` (1-based).
    private var tree: [Double]

    /// Creates an index over `heights`, row 0 first. - Complexity: O(n).
    public init(heights: [Double] = []) {
        self.heights = heights
        tree = [0] + heights
        let n = heights.count
        var i = 1
        while i <= n {
            let parent = i + (i & -i)
            if parent <= n { tree[parent] += tree[i] }
            i += 1
        }
    }

    /// Creates an index of `count` rows of `height` each. - Complexity: O(n).
    public init(count: Int, height: Double) {
        self.init(heights: Array(repeating: height, count: count))
    }

    /// The number of rows.
    public var count: Int { heights.count }

    /// The height of all rows. - Complexity: O(log n).
    public var totalHeight: Double { offset(ofRow: heights.count) }

    /// The height of `row`. - Complexity: O(1).
    public func height(ofRow row: Int) -> Double { heights[row] }

    /// Changes the height of `row`. - Complexity: O(log n).
    public mutating func setHeight(_ height: Double, ofRow row: Int) {
        precondition(heights.indices.contains(row), "RowOffsetIndex.setHeight: row \(row) is out of range 0..<\(heights.count)")
        let delta = height - heights[row]
        guard delta != 0 else { return }
        heights[row] = height
        var i = row + 1
        while i < tree.count {
            tree[i] += delta
            i += i & -i
        }
    }

    /// The distance from the top of row 0 to the top of `row` (`count` gives the total height).
    /// - Complexity: O(log n).
    public func offset(ofRow row: Int) -> Double {
        precondition(row >= 0 && row <= heights.count, "RowOffsetIndex.offset: row \(row) is out of range 0...\(heights.count)")
        var sum = 0.0
        var i = row
        while i > 0 {
            sum += tree[i]
            i -= i & -i
        }
        return sum
    }

    /// The row that covers `offset` (the last row for offsets past the end, 0 before the start).
    /// - Complexity: O(log n).
    public func row(atOffset offset: Double) -> Int {
        guard !heights.isEmpty else { return 0 }
        guard offset >= 0 else { return 0 }
        // Binary lifting: the largest prefix of rows whose total height is <= offset.
        var position = 0
        var remaining = offset
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next < tree.count, tree[next] <= remaining {
                position = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return min(position, heights.count - 1)
    }

    /// The rows that intersect `[top, bottom)`. - Complexity: O(log n).
    public func rows(from top: Double, to bottom: Double) -> Range<Int> {
        guard !heights.isEmpty, bottom > top else { return 0..<0 }
        let first = row(atOffset: top)
        var last = row(atOffset: bottom)
        if last > first, offset(ofRow: last) >= bottom { last -= 1 }
        return first..<(last + 1)
    }

    /// Replaces `rows` with rows of `newHeights`. - Complexity: O(n).
    public mutating func replaceRows(_ rows: Range<Int>, with newHeights: [Double]) {
        var all = heights
        all.replaceSubrange(rows, with: newHeights)
        self = RowOffsetIndex(heights: all)
    }
}
