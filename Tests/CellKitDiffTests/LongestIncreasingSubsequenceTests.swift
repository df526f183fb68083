import CellKitTesting
import Testing
@testable import CellKitDiff

/// The longest increasing subsequence the flat diff keeps: its length against a
/// quadratic reference, and its links (each member's predecessor, `previous[-1]` = -1)
/// against the values, on seeded sequences with skipped (negative) entries, runs, far
/// moves and descending stretches.
@Suite("Longest increasing subsequence")
struct LongestIncreasingSubsequenceTests {
    /// The length of a longest strictly increasing subsequence of the non-negative values.
    static func referenceLength(_ values: [Int32]) -> Int {
        var best = [Int](repeating: 0, count: values.count)
        var longest = 0
        for x in values.indices where values[x] >= 0 {
            best[x] = 1
            for y in 0..<x where values[y] >= 0 && values[y] < values[x] { best[x] = max(best[x], best[y] + 1) }
            longest = max(longest, best[x])
        }
        return longest
    }

    /// Values as the diff passes them: mostly rows that kept their order, some moved far,
    /// some runs reversed, and -1 for rows with no partner.
    static func values(_ rng: inout SplitMix64) -> [Int32] {
        let n = Int.random(in: 0...120, using: &rng)
        var values = (0..<n).map { Int32($0) }
        for _ in 0..<Int.random(in: 0...4, using: &rng) where n > 1 {
            let from = Int.random(in: 0..<n, using: &rng)
            let v = values.remove(at: from)
            values.insert(v, at: Int.random(in: 0..<n, using: &rng))
        }
        if n > 4 && Bool.random(using: &rng) {
            let start = Int.random(in: 0..<(n - 4), using: &rng)
            values[start..<(start + 4)].reverse()
        }
        if Int.random(in: 0..<4, using: &rng) == 0 { values.shuffle(using: &rng) }
        for x in values.indices where Int.random(in: 0..<6, using: &rng) == 0 { values[x] = -1 }
        return values
    }

    @Test("length and links are those of a longest strictly increasing subsequence (seeded)")
    func seeded() {
        let seed: UInt64 = 0x115
        print("LongestIncreasingSubsequenceTests seed \(seed)")
        var rng = SplitMix64(seed: seed)
        for round in 0..<3_000 {
            let values = Self.values(&rng)
            let links = values.withUnsafeBufferPointer { _LongestIncreasingSubsequence($0) }
            defer { links.deallocate() }
            #expect(links.length == Self.referenceLength(values), "round \(round): \(values)")
            #expect(links.previous[-1] == -1)
            // Walk back from the last member: strictly decreasing positions and values.
            var members: [Int] = []
            var k = links.last
            while k >= 0 {
                members.append(k)
                k = Int(links.previous[k])
            }
            #expect(members.count == links.length, "round \(round): \(values)")
            for (later, earlier) in zip(members, members.dropFirst()) {
                #expect(earlier < later && values[earlier] >= 0 && values[earlier] < values[later], "round \(round): \(values)")
            }
            if let first = members.last { #expect(values[first] >= 0) }
        }
    }
}
