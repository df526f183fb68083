import CellKit
import CellKitTesting
import Testing

/// The rows the controller diffs (`ListItem`, homogeneous or of several model
/// types) give exactly the changesets of the bare diff of the same ids and
/// contents, which the diff oracle (CellKitDiffTests) checks against UIKit's rules.
/// Covers the one-section list, whose rows the diff shares instead of copying.
@Suite("Row diff equivalence")
struct RowDiffEquivalenceTests {
    struct Bare: Differentiable, Equatable, Sendable {
        var id: Int
        var content: Int
        var differenceIdentifier: Int { id }
    }
    struct Post: Identifiable, Equatable, Sendable { var id: Int; var content: Int }
    struct Ad: Identifiable, Equatable, Sendable { var id: Int; var content: Int }
    struct Note: Identifiable, Equatable, Sendable { var id: Int; var content: Int }
    final class Story: Identifiable, Equatable, @unchecked Sendable {
        let id: Int
        let content: Int
        init(id: Int, content: Int) { self.id = id; self.content = content }
        static func == (a: Story, b: Story) -> Bool { a.id == b.id && a.content == b.content }
    }

    typealias BareSection = DiffSection<Int, Int, Bare>
    typealias RowSection = DiffSection<Int, Int, ListItem>

    /// The row of `item`: one model type, or one of four chosen by the id (so the
    /// identity `(type, id)` is equal exactly when the bare id is).
    static func row(_ item: Bare, heterogeneous: Bool) -> ListItem {
        guard heterogeneous else { return ListItem(Post(id: item.id, content: item.content)) }
        switch item.id % 4 {
        case 0: return ListItem(Post(id: item.id, content: item.content))
        case 1: return ListItem(Ad(id: item.id, content: item.content))
        case 2: return ListItem(Note(id: item.id, content: item.content))
        default: return ListItem(Story(id: item.id, content: item.content))
        }
    }

    static func randomPair(seed: UInt64) -> (old: [BareSection], new: [BareSection]) {
        var rng = SplitMix64(seed: seed)
        let sectionCount = seed % 3 == 0 ? 1 : Int.random(in: 0...4, using: &rng)
        let idRange = seed % 5 == 0 ? 12 : 1_000  // small ranges give duplicates
        func sections() -> [BareSection] {
            (0..<sectionCount).map { s in
                BareSection(id: s, content: Int.random(in: 0..<2, using: &rng), elements: (0..<Int.random(in: 0...10, using: &rng)).map { _ in
                    Bare(id: Int.random(in: 0..<idRange, using: &rng), content: Int.random(in: 0..<2, using: &rng))
                })
            }
        }
        var old = sections()
        var new = old
        // Derive `new` from `old` (moves, updates, deletes, inserts), so most ids are shared.
        for _ in 0..<Int.random(in: 0...6, using: &rng) where !new.isEmpty {
            let s = Int.random(in: 0..<new.count, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0 where !new[s].elements.isEmpty:
                let item = new[s].elements.remove(at: Int.random(in: 0..<new[s].elements.count, using: &rng))
                let t = Int.random(in: 0..<new.count, using: &rng)
                new[t].elements.insert(item, at: Int.random(in: 0...new[t].elements.count, using: &rng))
            case 1 where !new[s].elements.isEmpty:
                new[s].elements[Int.random(in: 0..<new[s].elements.count, using: &rng)].content += 1
            case 2 where !new[s].elements.isEmpty:
                new[s].elements.remove(at: Int.random(in: 0..<new[s].elements.count, using: &rng))
            default:
                new[s].elements.insert(Bare(id: Int.random(in: 0..<idRange, using: &rng), content: 0),
                                       at: Int.random(in: 0...new[s].elements.count, using: &rng))
            }
        }
        if seed % 7 == 0 { old.reverse() }
        return (old, new)
    }

    static func rows(_ sections: [BareSection], heterogeneous: Bool) -> [RowSection] {
        sections.map { RowSection(id: $0.id, content: $0.content, elements: $0.elements.map { row($0, heterogeneous: heterogeneous) }) }
    }

    /// What a row shows, as the bare element it was made from.
    static func bare(_ item: ListItem) -> Bare {
        switch item.model {
        case let post as Post: Bare(id: post.id, content: post.content)
        case let ad as Ad: Bare(id: ad.id, content: ad.content)
        case let note as Note: Bare(id: note.id, content: note.content)
        case let story as Story: Bare(id: story.id, content: story.content)
        default: Bare(id: -1, content: -1)
        }
    }

    @Test("ListItem rows, one model type or four, diff exactly as the bare elements", arguments: [false, true])
    func sameChangesets(heterogeneous: Bool) {
        let seeds: Range<UInt64> = 0..<3_000
        print("RowDiffEquivalenceTests: seeds \(seeds), heterogeneous \(heterogeneous)")
        for seed in seeds {
            let (old, new) = Self.randomPair(seed: seed)
            let expected = StagedChangeset(from: old, to: new)
            let actual = StagedChangeset(from: Self.rows(old, heterogeneous: heterogeneous), to: Self.rows(new, heterogeneous: heterogeneous))
            let same = actual.stages.map(\.changeset) == expected.stages.map(\.changeset)
                && actual.isReload == expected.isReload
                && actual.duplicates.count == expected.duplicates.count
                && actual.stages.map { $0.data.map { $0.elements.map(Self.bare) } } == expected.stages.map { $0.data.map(\.elements) }
            if !same {
                Issue.record("seed \(seed), heterogeneous \(heterogeneous): \(actual.stages.map(\.changeset)) != \(expected.stages.map(\.changeset))\nold: \(old)\nnew: \(new)")
                return
            }
        }
    }
}
