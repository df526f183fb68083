import CellKitTesting
import Testing
@testable import CellKitDiff

/// A sectioned diff of one section that keeps its id and content takes the flat
/// diff's path (`_oneSectionDiff`); it must give exactly what the general
/// sectioned diff (`_multiSectionDiff`) gives: stages, changesets, stage data,
/// duplicates (every one: no trimming) and reloads.
@Suite("One-section diff")
struct OneSectionDiffTests {
    func expectSame(_ old: [TItem], _ new: [TItem], options: DiffOptions, seed: UInt64) {
        let oldSections = [TSection(id: 7, content: 1, elements: old)]
        let newSections = [TSection(id: 7, content: 1, elements: new)]
        let fast = _sectionedDiff(oldSections, newSections, options)
        let general = _multiSectionDiff(oldSections, newSections, options)
        #expect(fast.stages == general.stages, "seed \(seed): stages\n\(fast.stages)\n\(general.stages)")
        #expect(fast.duplicates == general.duplicates, "seed \(seed): duplicates")
        #expect(fast.isReload == general.isReload, "seed \(seed): isReload")
        #expect(fast.finalData == general.finalData, "seed \(seed): finalData")
    }

    @Test("random one-section pairs, with and without duplicates and reload thresholds")
    func randomPairs() {
        for seed in UInt64(0)..<20_000 {
            let (old, new) = randomFlatPair(seed: seed)
            let threshold: Int? = seed % 3 == 0 ? Int(seed % 7) : nil
            // Trimming asked for or not: the sectioned diff never trims.
            let options = DiffOptions(reloadThreshold: threshold, trimsIdenticalEnds: seed % 2 == 0)
            expectSame(old, new, options: options, seed: seed)
        }
    }

    @Test("a duplicate inside identical ends is still reported")
    func duplicatesAtTheEnds() {
        let old = [TItem(id: 1, content: 0), TItem(id: 1, content: 0), TItem(id: 2, content: 0)]
        let new = old + [TItem(id: 3, content: 0)]
        expectSame(old, new, options: DiffOptions(), seed: 0)
        let result = StagedChangeset(from: [TSection(id: 0, content: 0, elements: old)],
                                     to: [TSection(id: 0, content: 0, elements: new)])
        #expect(result.duplicates.count == 2)
    }

    @Test("the path is taken only when the one section keeps its id and content")
    func otherShapesTakeTheGeneralPath() throws {
        let items = (0..<5).map { TItem(id: $0, content: 0) }
        let renamed = StagedChangeset(from: [TSection(id: 0, content: 0, elements: items)],
                                      to: [TSection(id: 0, content: 1, elements: Array(items.reversed()))])
        #expect(renamed.stages.last?.changeset.sectionUpdates == [0])
        try checkSectioned(old: [TSection(id: 0, content: 0, elements: items)],
                           new: [TSection(id: 0, content: 1, elements: Array(items.reversed()))])
        try checkSectioned(old: [TSection(id: 0, content: 0, elements: items)],
                           new: [TSection(id: 1, content: 0, elements: items)])
    }
}

/// The multi-section diff copies the rows of several sections into one buffer of
/// its own: every copy must be released, and the stage data must hold its own.
@Suite("Sectioned diff buffers")
struct SectionedDiffBufferTests {
    final class Census: @unchecked Sendable { var alive = 0 }
    final class Token {
        let census: Census
        init(_ census: Census) { self.census = census; census.alive += 1 }
        deinit { census.alive -= 1 }
    }
    struct Row: Differentiable {
        let id: Int
        let content: Int
        let token: Token
        var differenceIdentifier: Int { id }
        func isContentEqual(to other: Row) -> Bool { content == other.content }
    }

    @Test func flattenedRowsAreReleased() {
        let census = Census()
        do {
            let old = (0..<3).map { s in
                DiffSection(id: s, content: 0, elements: (0..<20).map { Row(id: s * 100 + $0, content: 0, token: Token(census)) })
            }
            var new = old
            new[0].elements.removeFirst(2)
            new[1].elements.append(Row(id: 999, content: 0, token: Token(census)))
            new[2].elements[3] = Row(id: new[2].elements[3].id, content: 1, token: Token(census))
            new.swapAt(0, 2)
            let changes = StagedChangeset(from: old, to: new)
            #expect(changes.stages.count == 2)
            #expect(changes.stages[0].data.map(\.elements.count) == [18, 20, 20])
            #expect(census.alive == 62)
        }
        #expect(census.alive == 0)
    }
}
