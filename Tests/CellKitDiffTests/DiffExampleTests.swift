import Testing
@testable import CellKitDiff

/// The examples from the doc comments, verbatim, plus the documented behaviours
/// that the random oracle does not single out.
@Suite("Diff examples and behaviours")
struct DiffExampleTests {
    @Test("flat entry point example")
    func flatExample() throws {
        struct Item: Differentiable, Equatable {
            let id: Int
            var content: String
            var differenceIdentifier: Int { id }
        }
        let old = [Item(id: 1, content: "a"), Item(id: 2, content: "b"), Item(id: 3, content: "c")]
        let new = [Item(id: 3, content: "c"), Item(id: 1, content: "A"), Item(id: 4, content: "d")]
        let changes = StagedChangeset(from: old, to: new)
        // Stage 1 deletes item 2 and updates item 1; stage 2 moves item 3 and inserts item 4.
        #expect(changes.stages.count == 2)
        #expect(changes.stages[1].changeset.itemMoves.count == 1)
        #expect(changes.finalData == new)
        // The landing page's loop.
        var shown = old.count
        for stage in changes.stages {
            try stage.changeset.validate(oldCounts: [shown], newCounts: [stage.data.count])
            shown = stage.data.count
        }
        #expect(changes.stages[0].changeset == Changeset(itemDeletes: [ItemPath(item: 1, section: 0)], itemUpdates: [ItemPath(item: 0, section: 0)]))
        #expect(changes.stages[1].changeset == Changeset(
            itemInserts: [ItemPath(item: 2, section: 0)],
            itemMoves: [Move(from: ItemPath(item: 1, section: 0), to: ItemPath(item: 0, section: 0))]
        ))
    }

    @Test("sectioned entry point example")
    func sectionedExample() {
        let old = [
            DiffSection(id: "a", content: "A", elements: [1, 2, 3]),
            DiffSection(id: "b", content: "B", elements: [4, 5]),
        ]
        let new = [
            DiffSection(id: "b", content: "B", elements: [4, 5, 1]),
            DiffSection(id: "a", content: "A!", elements: [2, 3]),
        ]
        let changes = StagedChangeset(from: old, to: new)
        // One section move, one item move across sections, one section update.
        #expect(changes.stages.map(\.changeset.changeCount) == [2, 1])
        #expect(changes.finalData == new)
        #expect(changes.stages[0].changeset.sectionMoves.count == 1)
        #expect(changes.stages[0].changeset.itemMoves.count == 1)
        #expect(changes.stages[1].changeset.sectionUpdates == [1])
    }

    /// The article's qualifier (outside check 10c): "an item that changes section is one move
    /// when both sections are in both snapshots".
    @Test("an item that changes section is one move only when both sections are in both snapshots")
    func crossSectionMoveNeedsBothSections() throws {
        let old = [DiffSection(id: "a", content: "A", elements: [1, 2]), DiffSection(id: "b", content: "B", elements: [3])]
        func moves(_ changes: StagedChangeset<[DiffSection<String, String, Int>]>) -> Int { changes.stages.map(\.changeset.itemMoves.count).reduce(0, +) }
        func inserts(_ changes: StagedChangeset<[DiffSection<String, String, Int>]>) -> Int { changes.stages.map(\.changeset.itemInserts.count).reduce(0, +) }
        // Both sections stay: one move.
        let kept = StagedChangeset(from: old, to: [DiffSection(id: "a", content: "A", elements: [2]), DiffSection(id: "b", content: "B", elements: [3, 1])])
        #expect(moves(kept) == 1 && inserts(kept) == 0)
        // Its old section is deleted: it goes with it, and is inserted where it lands.
        let deleted = StagedChangeset(from: old, to: [DiffSection(id: "b", content: "B", elements: [3, 1])])
        #expect(moves(deleted) == 0 && inserts(deleted) == 1)
        #expect(deleted.stages.flatMap(\.changeset.sectionDeletes) == [0])
        // Its new section is inserted: it comes with it, deleted where it was.
        let inserted = StagedChangeset(from: old, to: [
            DiffSection(id: "a", content: "A", elements: [2]), DiffSection(id: "b", content: "B", elements: [3]),
            DiffSection(id: "c", content: "C", elements: [1]),
        ])
        #expect(moves(inserted) == 0 && inserts(inserted) == 0)
        #expect(inserted.stages.flatMap(\.changeset.itemDeletes) == [ItemPath(item: 0, section: 0)])
        #expect(inserted.stages.flatMap(\.changeset.sectionInserts) == [2])
    }

    @Test("DiffSection and ItemPath examples")
    func smallExamples() {
        let section = DiffSection(id: "today", content: "Today", elements: [1, 2, 3])
        #expect(section.elements.count == 3)
        let path = ItemPath(item: 3, section: 1)
        #expect(path.row == 3)
        var batch = Changeset()
        batch.itemInserts = [ItemPath(item: 0, section: 0)]
        #expect(batch.changeCount == 1)
    }

    @Test("an object mutated in place is an update when its content is captured")
    func contentSnapshotExample() {
        final class Tweet: Differentiable {
            let id: Int
            var text: String
            init(id: Int, text: String) { self.id = id; self.text = text }
            var differenceIdentifier: Int { id }
            func isContentEqual(to other: Tweet) -> Bool { text == other.text }
        }
        let tweet = Tweet(id: 1, text: "hello")
        let old = [ContentSnapshot(tweet, content: tweet.text)]
        tweet.text = "hello, world"
        let new = [ContentSnapshot(tweet, content: tweet.text)]
        let changes = StagedChangeset(from: old, to: new)
        #expect(changes.stages.first?.changeset.itemUpdates == [ItemPath(item: 0, section: 0)])
        // Without the captured content, the object equals itself: nothing to see.
        #expect(StagedChangeset(from: [tweet], to: [tweet]).isEmpty)
    }

    @Test("one insert at the top of a long list touches nothing else")
    func insertAtTop() {
        let old = (0..<10_000).map { TItem(id: $0, content: 0) }
        let new = [TItem(id: -1, content: 0)] + old
        let changes = StagedChangeset(from: old, to: new)
        #expect(changes.stages.count == 1)
        #expect(changes.stages[0].changeset == Changeset(itemInserts: [ItemPath(item: 0, section: 0)]))
    }

    @Test("moving one item far is one move")
    func oneFarMove() {
        var new = (0..<1_000).map { TItem(id: $0, content: 0) }
        let old = new
        let item = new.remove(at: 3)
        new.insert(item, at: 900)
        let changes = StagedChangeset(from: old, to: new)
        #expect(changes.stages.count == 1)
        #expect(changes.stages[0].changeset.itemMoves == [Move(from: ItemPath(item: 3, section: 0), to: ItemPath(item: 900, section: 0))])
    }

    @Test("duplicates are reported with the identifier and every position")
    func duplicateDiagnostics() throws {
        let old = [TItem(id: 7, content: 0), TItem(id: 8, content: 0), TItem(id: 7, content: 1)]
        let new = [TItem(id: 8, content: 0), TItem(id: 7, content: 0), TItem(id: 7, content: 0), TItem(id: 7, content: 2)]
        let changes = StagedChangeset(from: old, to: new)
        #expect(Set(changes.duplicates) == [
            DuplicateIdentifier(side: .old, identifier: "7", positions: [ItemPath(item: 0, section: 0), ItemPath(item: 2, section: 0)]),
            DuplicateIdentifier(side: .new, identifier: "7", positions: [ItemPath(item: 1, section: 0), ItemPath(item: 2, section: 0), ItemPath(item: 3, section: 0)]),
        ])
        let text = changes.duplicates.first { $0.side == .new }!.description
        #expect(text == "duplicate identifier 7 in new snapshot at rows 1, 2, 3 of section 0; the first occurrence keeps the identity, later ones are distinct items")
        try checkFlat(old: old, new: new)
    }

    // Outside check 8 (d1) read the docs as reporting these; the docs now say what the
    // trimmed diff does (it reads the runs at both ends only to compare them in place).
    @Test("with identical ends trimmed, duplicates are looked for between the runs only; untrimmed, everywhere")
    func duplicatesAndTrimmedEnds() throws {
        func items(_ ids: [Int], changed: Int? = nil) -> [TItem] {
            ids.enumerated().map { TItem(id: $1, content: $0 == changed ? 1 : 0) }
        }
        let p = { (item: Int) in ItemPath(item: item, section: 0) }
        // "a, b, a" → "c, b, a": the runs "b, a" are set aside; "a" occurs once between them.
        var changes = StagedChangeset(from: items([1, 2, 1]), to: items([3, 2, 1]))
        #expect(changes.duplicates.isEmpty)
        #expect(changes.stages.first?.changeset.itemDeletes == [p(0)])   // the row in the run stays
        changes = StagedChangeset(from: items([1, 2, 1]), to: items([3, 2, 1]), options: DiffOptions(trimsIdenticalEnds: false))
        #expect(changes.duplicates == [DuplicateIdentifier(side: .old, identifier: "1", positions: [p(0), p(2)])])
        #expect(changes.stages.first?.changeset.itemDeletes == [p(2)])   // the first occurrence keeps the identity
        // Twice between the runs: reported, at its positions between them.
        changes = StagedChangeset(from: items([4, 2, 4, 4]), to: items([4, 2, 4, 7, 4], changed: 0))
        #expect(changes.duplicates.filter { $0.side == .old } == [DuplicateIdentifier(side: .old, identifier: "4", positions: [p(0), p(2)])])
        changes = StagedChangeset(from: items([4, 2, 4, 4]), to: items([4, 2, 4, 7, 4], changed: 0), options: DiffOptions(trimsIdenticalEnds: false))
        #expect(changes.duplicates.filter { $0.side == .old } == [DuplicateIdentifier(side: .old, identifier: "4", positions: [p(0), p(2), p(3)])])
        // Twice between the runs and once inside one (outside check 10c): reported at its
        // positions between them only; "the first occurrence" is the first of those, and the
        // row in the run stays as it is.
        changes = StagedChangeset(from: items([1, 2]), to: items([1, 5, 1, 1, 2]))
        #expect(changes.duplicates == [DuplicateIdentifier(side: .new, identifier: "1", positions: [p(2), p(3)])])
        #expect(changes.stages.first?.changeset.itemInserts == [p(1), p(2), p(3)])
        try checkFlat(old: items([1, 2, 1]), new: items([3, 2, 1]))
        try checkFlat(old: items([4, 2, 4, 4]), new: items([4, 2, 4, 7, 4], changed: 0))
        try checkFlat(old: items([1, 2]), new: items([1, 5, 1, 1, 2]))
    }

    @Test("an item changed inside an updated section is shown anew by the section's reload, not an item update")
    func itemChangeInUpdatedSection() throws {
        let old = [TSection(id: 1, content: 0, elements: [TItem(id: 5, content: 0), TItem(id: 6, content: 0)])]
        let new = [TSection(id: 1, content: 1, elements: [TItem(id: 5, content: 1), TItem(id: 6, content: 0)])]
        let changes = StagedChangeset(from: old, to: new)
        #expect(changes.stages.allSatisfy { $0.changeset.itemUpdates.isEmpty })
        #expect(changes.stages.last?.changeset.sectionUpdates == [0])
        try checkSectioned(old: old, new: new)
    }

    @Test("duplicate section identifiers are reported as sections")
    func duplicateSections() throws {
        let old = [TSection(id: 1, content: 0, elements: []), TSection(id: 1, content: 0, elements: [TItem(id: 5, content: 0)])]
        let new = [TSection(id: 1, content: 0, elements: [TItem(id: 5, content: 0)])]
        let changes = StagedChangeset(from: old, to: new)
        #expect(changes.duplicates == [
            DuplicateIdentifier(side: .old, kind: .section, identifier: "1", positions: [ItemPath(item: -1, section: 0), ItemPath(item: -1, section: 1)]),
        ])
        #expect(changes.duplicates[0].description.contains("section identifier 1 in old snapshot at sections 0, 1"))
        // What it says of the later ones (outside check 13c: it said "distinct items"): the
        // later section is deleted whole, with its row; row 5 is inserted into the first.
        #expect(changes.duplicates[0].description.hasSuffix(
            "the first occurrence keeps the identity, later ones are distinct sections (each deleted or inserted whole, with its rows)"))
        #expect(changes.stages.flatMap(\.changeset.sectionDeletes) == [1])
        #expect(changes.stages.flatMap(\.changeset.itemInserts) == [ItemPath(item: 0, section: 0)])
        try checkSectioned(old: old, new: new)
    }

    @Test("a change larger than the threshold asks for a reload")
    func reloadThreshold() {
        let old = (0..<100).map { TItem(id: $0, content: 0) }
        let new = Array(old.reversed())
        let reload = StagedChangeset(from: old, to: new, options: DiffOptions(reloadThreshold: 10))
        #expect(reload.isReload)
        #expect(reload.stages.isEmpty)
        #expect(reload.finalData == new)
        #expect(!reload.isEmpty)
        let small = StagedChangeset(from: old, to: new, options: DiffOptions(reloadThreshold: 1_000))
        #expect(!small.isReload)
        #expect(small.stages[0].changeset.itemMoves.count == 99)
        let sections = [TSection(id: 0, content: 0, elements: old)]
        let sectionsReload = StagedChangeset(from: sections, to: [TSection(id: 0, content: 0, elements: new)], options: DiffOptions(reloadThreshold: 10))
        #expect(sectionsReload.isReload)
    }

    @Test("nothing changed: no stages")
    func unchanged() {
        let old = (0..<50).map { TItem(id: $0, content: $0) }
        #expect(StagedChangeset(from: old, to: old).stages.isEmpty)
        #expect(StagedChangeset(from: old, to: old, options: DiffOptions(trimsIdenticalEnds: false)).stages.isEmpty)
        let sections = [TSection(id: 0, content: 0, elements: old)]
        #expect(StagedChangeset(from: sections, to: sections).isEmpty)
    }

    @Test("diffing runs off the main actor")
    func offMainActor() async {
        let old = (0..<1_000).map { TItem(id: $0, content: 0) }
        let new = old.filter { $0.id % 3 != 0 }
        let changes = await Task.detached { StagedChangeset(from: old, to: new) }.value
        #expect(changes.stages[0].changeset.itemDeletes.count == 334)
    }
}
