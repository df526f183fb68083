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
/// A row or range outside the index traps, naming the method, the row or range, and the
/// rows there are, as an array index out of range does.
///
/// Every height is clamped as a list view lays it out (``RowHeights/clamped(_:)``): a NaN or
/// negative height counts as 0, one above ``RowHeights/maximumHeight`` (+infinity
/// included) as that maximum, and ``height(ofRow:)`` reads back the clamped height. So
/// `RowOffsetIndex(heights: [10, -5, 10]).totalHeight` is 20, and no offset is ever NaN.
///
/// Offsets are exact: the index adds heights in fixed point (to 2^-64 of a point, finer than
/// any fraction a height of 0.0005 or more carries) and rounds each offset to a `Double`
/// once, however the heights were set. So the answers agree to the last bit, fractional
/// heights included, and do not drift after many ``setHeight(_:ofRow:)``: a row's top,
/// ``offset(ofRow:)``, lies in that row for ``row(atOffset:)`` and ``rows(from:to:)``, and
/// offsets never decrease from one row to the next.
///
/// A row of height 0 covers no offset: ``row(atOffset:)`` gives the row after it, and
/// ``rows(from:to:)`` includes it only when it lies after `top` and before `bottom`,
/// strictly inside, as the headless list view shows such a row only strictly inside its
/// viewport. (So does a row too short to move its offset's last bit: under 10⁻⁷ of a point
/// at an offset of a billion.)
///
/// - Complexity: memory is 24 bytes per row.
public struct RowOffsetIndex: Sendable {
    private var heights: [Double]
    /// `tree[i]` holds the sum of the heights of rows `i - lowbit(i) ..< i` (1-based), exactly.
    private var tree: [ExactSum]

    /// Creates an index over `heights`, row 0 first (each clamped: see the type's
    /// discussion). - Complexity: O(n).
    public init(heights: [Double] = []) {
        let heights = heights.map(RowHeights.clamped)
        self.heights = heights
        tree = [.zero] + heights.map(ExactSum.init)
        let n = heights.count
        var i = 1
        while i <= n {
            let parent = i + (i & -i)
            if parent <= n { tree[parent] = tree[parent] + tree[i] }
            i += 1
        }
    }

    /// Creates an index of `count` rows of `height` each (clamped: see the type's
    /// discussion). `count` must not be negative. - Complexity: O(n).
    public init(count: Int, height: Double) {
        precondition(count >= 0, "RowOffsetIndex.init(count:height:): count \(count) is negative")
        self.init(heights: Array(repeating: height, count: count))
    }

    /// The number of rows.
    public var count: Int { heights.count }

    /// The height of all rows (0 for an empty index). - Complexity: O(log n).
    public var totalHeight: Double { offset(ofRow: heights.count) }

    /// The height of `row`, as clamped; `row` must be in `0..<count`. - Complexity: O(1).
    public func height(ofRow row: Int) -> Double {
        precondition(row >= 0 && row < heights.count, "RowOffsetIndex.height(ofRow:): row \(row) is out of range 0..<\(heights.count)")
        return heights[row]
    }

    /// Changes the height of `row` (clamped: see the type's discussion); `row` must be in
    /// `0..<count`. - Complexity: O(log n).
    public mutating func setHeight(_ height: Double, ofRow row: Int) {
        precondition(heights.indices.contains(row), "RowOffsetIndex.setHeight(_:ofRow:): row \(row) is out of range 0..<\(heights.count)")
        let height = RowHeights.clamped(height)
        guard height != heights[row] else { return }
        let old = ExactSum(heights[row]), new = ExactSum(height)
        heights[row] = height
        var i = row + 1
        while i < tree.count {
            tree[i] = tree[i] - old + new     // exact: no drift however often a height changes
            i += i & -i
        }
    }

    /// The distance from the top of row 0 to the top of `row` (`count` gives the total height);
    /// `row` must be in `0...count`. - Complexity: O(log n).
    public func offset(ofRow row: Int) -> Double {
        precondition(row >= 0 && row <= heights.count, "RowOffsetIndex.offset(ofRow:): row \(row) is out of range 0...\(heights.count)")
        var sum = ExactSum.zero
        var i = row
        while i > 0 {
            sum = sum + tree[i]
            i -= i & -i
        }
        return sum.double
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
    /// it, when `orAt`); 0 when there is none. Binary lifting down the tree: the sums are
    /// exact and each is rounded as ``offset(ofRow:)`` rounds it, so the offsets it compares
    /// are the ones ``offset(ofRow:)`` gives, and they never decrease.
    private func prefix(below limit: Double, orAt: Bool) -> Int {
        guard limit >= 0 else { return 0 }   // NaN and negative: no top is at or below it
        // The limit's whole points: a sum two points or more away from it is decided by its
        // whole points alone; only one near it is rounded to a `Double` and compared.
        // (Past 2^52 points every sum is rounded and compared: neither test below decides.)
        let isSmall = limit < 0x1p52
        let points: UInt64 = isSmall ? UInt64(limit) : 0
        let above: UInt64 = isSmall ? points + 1 : .max
        var position = 0
        var sum = ExactSum.zero
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next < tree.count {
                let candidate = sum + tree[next]
                let isBelow: Bool
                if candidate.whole &+ 1 < points {
                    isBelow = true
                } else if candidate.whole > above {
                    isBelow = false
                } else {
                    let top = candidate.double
                    isBelow = orAt ? top <= limit : top < limit
                }
                if isBelow {
                    position = next
                    sum = candidate
                }
            }
            step /= 2
        }
        return position
    }

    /// Replaces `rows` with rows of `newHeights` (clamped); `rows` must lie in `0...count`.
    /// - Complexity: O(n).
    public mutating func replaceRows(_ rows: Range<Int>, with newHeights: [Double]) {
        precondition(rows.lowerBound >= 0 && rows.upperBound <= heights.count,
                     "RowOffsetIndex.replaceRows(_:with:): rows \(rows) are out of range 0..<\(heights.count)")
        var all = heights
        all.replaceSubrange(rows, with: newHeights)
        self = RowOffsetIndex(heights: all)
    }
}

/// A sum of heights in fixed point, exactly: 64 bits of whole points and 64 bits of fractions
/// of a point (2^-64). Sums of up to 2^63 points; a difference wraps as two's complement, so
/// a node's sum after adding and taking away heights is exact again.
private struct ExactSum: Sendable {
    var whole: UInt64
    var fraction: UInt64

    static let zero = ExactSum(whole: 0, fraction: 0)

    init(whole: UInt64, fraction: UInt64) {
        self.whole = whole
        self.fraction = fraction
    }

    /// `height`, in 0...``RowHeights/maximumHeight``, to 2^-64 of a point (every bit of a
    /// height of 2^-11 or more).
    init(_ height: Double) {
        let points = height.rounded(.down)
        whole = UInt64(points)
        fraction = UInt64((height - points) * 0x1p64)   // below 2^64: height - points < 1
    }

    static func + (a: ExactSum, b: ExactSum) -> ExactSum {
        let (fraction, carry) = a.fraction.addingReportingOverflow(b.fraction)
        return ExactSum(whole: a.whole &+ b.whole &+ (carry ? 1 : 0), fraction: fraction)
    }

    static func - (a: ExactSum, b: ExactSum) -> ExactSum {
        let (fraction, borrow) = a.fraction.subtractingReportingOverflow(b.fraction)
        return ExactSum(whole: a.whole &- b.whole &- (borrow ? 1 : 0), fraction: fraction)
    }

    /// The sum as a `Double`; a larger sum never gives a smaller `Double` (below 2^53 points).
    var double: Double { Double(whole) + Double(fraction) * 0x1p-64 }
}
