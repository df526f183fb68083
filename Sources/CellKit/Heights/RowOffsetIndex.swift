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
/// Every height is clamped as a list view lays it out (``RowHeights/clamped(_:)``): a NaN or
/// negative height counts as 0, one above ``RowHeights/maximumHeight`` (+infinity
/// included) as that maximum, and ``height(ofRow:)`` reads back the clamped height. So
/// `RowOffsetIndex(heights: [10, -5, 10]).totalHeight` is 20, and no offset is ever NaN.
///
/// The answers agree with each other to the last bit, fractional heights included: a
/// row's top, ``offset(ofRow:)``, lies in that row for ``row(atOffset:)`` and
/// ``rows(from:to:)`` (both add the same sums in the same order).
///
/// A row of height 0 covers no offset: ``row(atOffset:)`` gives the row after it, and
/// ``rows(from:to:)`` includes it only when it lies after `top` and before `bottom`,
/// strictly inside, as the headless list view shows such a row only strictly inside its
/// viewport.
///
/// - Complexity: memory is two `Double`s per row.
public struct RowOffsetIndex: Sendable {
    private var heights: [Double]
    /// `tree[i]` holds the sum of the heights of rows `i - lowbit(i) ..< i` (1-based).
    private var tree: [Double]

    /// Creates an index over `heights`, row 0 first (each clamped: see the type's
    /// discussion). - Complexity: O(n).
    public init(heights: [Double] = []) {
        let heights = heights.map(RowHeights.clamped)
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

    /// Creates an index of `count` rows of `height` each (clamped: see the type's
    /// discussion). - Complexity: O(n).
    public init(count: Int, height: Double) {
        self.init(heights: Array(repeating: height, count: count))
    }

    /// The number of rows.
    public var count: Int { heights.count }

    /// The height of all rows (0 for an empty index). - Complexity: O(log n).
    public var totalHeight: Double { offset(ofRow: heights.count) }

    /// The height of `row`, as clamped. - Complexity: O(1).
    public func height(ofRow row: Int) -> Double { heights[row] }

    /// Changes the height of `row` (clamped: see the type's discussion). - Complexity: O(log n).
    public mutating func setHeight(_ height: Double, ofRow row: Int) {
        precondition(heights.indices.contains(row), "RowOffsetIndex.setHeight: row \(row) is out of range 0..<\(heights.count)")
        let height = RowHeights.clamped(height)
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
        // The tree's nodes from the widest to the narrowest, as `prefix(below:orAt:)` adds
        // them: the same sums, rounded the same way, so the two agree on fractional heights.
        var sum = 0.0
        var position = 0
        var rest = row
        while rest != 0 {
            let step = 1 << (Int.bitWidth - 1 - rest.leadingZeroBitCount)
            position += step
            sum += tree[position]
            rest -= step
        }
        return sum
    }

    /// The row that covers `offset`: the row that starts at or before `offset` and ends
    /// after it; the last row for offsets past the end, row 0 for offsets before
    /// the start (NaN included); `nil` when the index has no rows.
    /// - Complexity: O(log n).
    public func row(atOffset offset: Double) -> Int? {
        guard !heights.isEmpty else { return nil }
        return min(prefix(below: offset, orAt: true), heights.count - 1)
    }

    /// The rows that intersect `[top, bottom)`: those that end after `top` and start before
    /// `bottom` (none when `bottom` is not greater than `top`, NaN included).
    /// - Complexity: O(log n).
    public func rows(from top: Double, to bottom: Double) -> Range<Int> {
        guard !heights.isEmpty, bottom > top else { return 0..<0 }
        // The first row whose bottom is below `top`: after the rows whose tops are at or above it.
        let first = prefix(below: top, orAt: true)
        guard first < heights.count else { return heights.count..<heights.count }
        // The rows whose tops are above `bottom` (none when it is at or above row 0's top).
        let end = bottom > 0 ? min(prefix(below: bottom, orAt: false) + 1, heights.count) : 0
        return first..<max(first, end)
    }

    /// The largest `p` in `0...count` whose top, ``offset(ofRow:)``, is below `limit` (or at
    /// it, when `orAt`); 0 when there is none. Binary lifting down the tree, adding the nodes
    /// in the order ``offset(ofRow:)`` adds them.
    private func prefix(below limit: Double, orAt: Bool) -> Int {
        var position = 0
        var sum = 0.0
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next < tree.count {
                let candidate = sum + tree[next]
                if orAt ? candidate <= limit : candidate < limit {
                    position = next
                    sum = candidate
                }
            }
            step /= 2
        }
        return position
    }

    /// Replaces `rows` with rows of `newHeights` (clamped). - Complexity: O(n).
    public mutating func replaceRows(_ rows: Range<Int>, with newHeights: [Double]) {
        var all = heights
        all.replaceSubrange(rows, with: newHeights)
        self = RowOffsetIndex(heights: all)
    }
}
