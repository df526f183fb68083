@testable import CellKitGTK
import CellKit
import CellKitTesting
import Testing

/// The batch → `items-changed` translation, without a display: replaying the splices
/// on the old flat rows must give the new flat rows (Swift Testing: no GTK involved).
@Suite struct FlatLayoutTests {
    struct Element: Differentiable, Hashable {
        var id: Int
        var value: Int
        var differenceIdentifier: Int { id }
        func isContentEqual(to other: Element) -> Bool { value == other.value }
    }
    typealias Section = DiffSection<Int, String?, Element>

    /// What a flat row shows, as identities: a header of a section, or a row.
    enum Shown: Hashable { case header(Int, String?), row(Int, Int), fresh }

    static func flat(_ sections: [Section]) -> [Shown] {
        sections.flatMap { section in
            (section.content.map { [Shown.header(section.id, $0)] } ?? []) + section.elements.map { .row($0.id, $0.value) }
        }
    }

    static func layout(_ sections: [Section]) -> FlatLayout {
        FlatLayout(counts: sections.map(\.elements.count), hasHeader: sections.map { $0.content != nil })
    }

    static func randomSections(_ rng: inout SplitMix64, ids: inout Int) -> [Section] {
        (0..<Int.random(in: 0...5, using: &rng)).map { _ in
            ids += 1
            let header: String? = Bool.random(using: &rng) ? "H\(Int.random(in: 0...2, using: &rng))" : nil
            let rows = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
                ids += 1
                return Element(id: ids, value: 0)
            }
            return Section(id: ids, content: header, elements: rows)
        }
    }

    static func mutate(_ old: [Section], _ rng: inout SplitMix64, ids: inout Int) -> [Section] {
        var sections = old.filter { _ in Int.random(in: 0..<6, using: &rng) != 0 }
        var pool: [Element] = []
        for index in sections.indices {
            if Int.random(in: 0..<4, using: &rng) == 0 { sections[index].content = sections[index].content == nil ? "New" : nil }
            sections[index].elements = sections[index].elements.compactMap { element in
                switch Int.random(in: 0..<8, using: &rng) {
                case 0: return nil
                case 1: pool.append(element); return nil
                case 2: return Element(id: element.id, value: element.value + 1)
                default: return element
                }
            }
        }
        if Int.random(in: 0..<3, using: &rng) == 0 { sections += randomSections(&rng, ids: &ids).prefix(1) }
        if sections.count > 1, Bool.random(using: &rng) { sections.swapAt(0, sections.count - 1) }
        for element in pool where !sections.isEmpty {
            let target = Int.random(in: 0..<sections.count, using: &rng)
            sections[target].elements.insert(element, at: Int.random(in: 0...sections[target].elements.count, using: &rng))
        }
        for index in sections.indices where Bool.random(using: &rng) {
            ids += 1
            sections[index].elements.insert(Element(id: ids, value: 0), at: Int.random(in: 0...sections[index].elements.count, using: &rng))
        }
        return sections
    }

    @Test func splicesReplayEveryStage() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("FlatLayoutTests seed \(seed)")
        var rng = SplitMix64(seed: seed)
        var ids = 0
        for round in 0..<400 {
            let old = Self.randomSections(&rng, ids: &ids)
            let new = Self.mutate(old, &rng, ids: &ids)
            let staged = StagedChangeset(from: old, to: new)
            var current = old
            for stage in staged.stages {
                let before = Self.layout(current), after = Self.layout(stage.data)
                let plan = BatchPlan.decide(stage.changeset, oldCounts: before.counts, newCounts: after.counts, hasWindow: true)
                guard case .animate(let steps) = plan else {
                    Issue.record("seed \(seed) round \(round): the diff's stage was refused: \(plan)")
                    return
                }
                let mapping = PathMapping(stage.changeset, oldCounts: before.counts, newCounts: after.counts)
                guard let splices = FlatLayout.splices(steps, from: before, to: after, newSections: mapping.newSections) else {
                    Issue.record("seed \(seed) round \(round): no splices for \(stage.changeset)")
                    return
                }
                var rows = Self.flat(current)
                for splice in splices {
                    guard splice.position >= 0, splice.position + splice.removed <= rows.count else {
                        Issue.record("seed \(seed) round \(round): \(splice) is outside \(rows.count) rows")
                        return
                    }
                    rows.replaceSubrange(splice.position..<(splice.position + splice.removed), with: repeatElement(Shown.fresh, count: splice.added))
                }
                let expected = Self.flat(stage.data)
                #expect(rows.count == expected.count, "seed \(seed) round \(round)")
                // Rows that GTK kept must show what the new data has there; the rest are rebound.
                for (got, want) in zip(rows, expected) where got != .fresh {
                    #expect(got == want, "seed \(seed) round \(round): \(splices) took \(Self.flat(current)) to \(rows), want \(expected)")
                }
                current = stage.data
            }
        }
    }

    @Test func entriesAndPositionsAgree() {
        let layout = FlatLayout(counts: [2, 0, 3], hasHeader: [true, true, false])
        #expect(layout.total == 7)
        #expect((0..<layout.total).map { layout.entry(at: $0) } == [
            .header(section: 0), .row(ItemPath(item: 0, section: 0)), .row(ItemPath(item: 1, section: 0)),
            .header(section: 1),
            .row(ItemPath(item: 0, section: 2)), .row(ItemPath(item: 1, section: 2)), .row(ItemPath(item: 2, section: 2)),
        ])
        #expect(layout.entry(at: 7) == nil)
        #expect(layout.position(of: ItemPath(item: 1, section: 2)) == 5)
        #expect(layout.block(1) == 3..<4)
    }
}
