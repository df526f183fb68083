import Testing
@testable import CellKitDiff

/// 100,000 flat and 100,000 sectioned seeded random pairs, replayed with UIKit's
/// rules; split in ranges so the runner spreads them over the cores.
@Suite("Diff oracle")
struct DiffOracleTests {
    static let rangeSize: UInt64 = 10_000
    static let ranges: [UInt64] = Array(0..<10)

    @Test("flat pairs: stages valid, data reproduced, moves minimal", arguments: ranges)
    func flat(range: UInt64) {
        for seed in range * Self.rangeSize..<(range + 1) * Self.rangeSize {
            let (old, new) = randomFlatPair(seed: seed)
            let options = DiffOptions(trimsIdenticalEnds: seed % 2 == 0)
            do {
                try checkFlat(old: old, new: new, options: options)
            } catch {
                Issue.record("seed \(seed) (trimming \(options.trimsIdenticalEnds)): \(error)\nold: \(old)\nnew: \(new)")
                return
            }
        }
    }

    @Test("sectioned pairs: stages valid, data reproduced, moves minimal", arguments: ranges)
    func sectioned(range: UInt64) {
        for seed in range * Self.rangeSize..<(range + 1) * Self.rangeSize {
            let (old, new) = randomSectionedPair(seed: seed)
            do {
                try checkSectioned(old: old, new: new)
            } catch {
                Issue.record("seed \(seed): \(error)\nold: \(old)\nnew: \(new)")
                return
            }
        }
    }

    @Test("larger sectioned pairs (up to 10 sections × 40 rows, 30 edits): stages valid, data reproduced, moves minimal")
    func largerSectioned() {
        for seed: UInt64 in 0..<20_000 {
            let (old, new) = randomSectionedPair(seed: seed, large: true)
            do {
                try checkSectioned(old: old, new: new)
            } catch {
                Issue.record("seed \(seed) (large): \(error)\nold: \(old)\nnew: \(new)")
                return
            }
        }
    }
}
