import Testing
@testable import CellKitDiff

private func p(_ section: Int, _ item: Int) -> ItemPath { ItemPath(item: item, section: section) }

/// A deliberately wrong batch, the rule it must break, and where.
struct BadBatch: Sendable, CustomTestStringConvertible {
    var rule: BatchUpdateError.Rule
    var batch: Changeset
    var old: [Int]
    var new: [Int]
    var section: Int?
    var item: Int?
    var testDescription: String { rule.rawValue }
}

let badBatches: [BadBatch] = [
    BadBatch(rule: .sectionCountMismatch, batch: Changeset(sectionDeletes: [0]), old: [1, 1], new: [1, 1], section: nil, item: nil),
    BadBatch(rule: .itemCountMismatch, batch: Changeset(itemDeletes: [p(2, 0), p(2, 1), p(2, 2)], itemInserts: [p(2, 0)]),
             old: [1, 1, 6], new: [1, 1, 5], section: 2, item: nil),
    BadBatch(rule: .sectionOutOfRange, batch: Changeset(sectionDeletes: [3]), old: [1, 1], new: [1], section: 3, item: nil),
    BadBatch(rule: .sectionOutOfRange, batch: Changeset(itemInserts: [p(4, 0)]), old: [1], new: [2], section: 4, item: 0),
    BadBatch(rule: .itemOutOfRange, batch: Changeset(itemDeletes: [p(1, 7)]), old: [1, 3], new: [1, 2], section: 1, item: 7),
    BadBatch(rule: .itemOutOfRange, batch: Changeset(itemInserts: [p(0, 5)]), old: [1], new: [2], section: 0, item: 5),
    BadBatch(rule: .duplicateDelete, batch: Changeset(itemDeletes: [p(0, 1), p(0, 1)]), old: [3], new: [1], section: 0, item: 1),
    BadBatch(rule: .duplicateDelete, batch: Changeset(sectionDeletes: [1, 1]), old: [1, 1, 1], new: [1], section: 1, item: nil),
    BadBatch(rule: .duplicateInsert, batch: Changeset(itemInserts: [p(0, 2), p(0, 2)]), old: [3], new: [5], section: 0, item: 2),
    BadBatch(rule: .duplicateInsert, batch: Changeset(sectionInserts: [0, 0]), old: [], new: [0, 0], section: 0, item: nil),
    BadBatch(rule: .duplicateUpdate, batch: Changeset(itemUpdates: [p(0, 2), p(0, 2)]), old: [3], new: [3], section: 0, item: 2),
    BadBatch(rule: .deleteAndUpdate, batch: Changeset(itemDeletes: [p(0, 1)], itemUpdates: [p(0, 1)]), old: [3], new: [2], section: 0, item: 1),
    BadBatch(rule: .deleteAndUpdate, batch: Changeset(sectionDeletes: [0], sectionUpdates: [0]), old: [3, 1], new: [1], section: 0, item: nil),
    BadBatch(rule: .deleteAndMove, batch: Changeset(itemDeletes: [p(0, 1)], itemMoves: [Move(from: p(0, 1), to: p(0, 0))]), old: [3], new: [2], section: 0, item: 1),
    BadBatch(rule: .deleteAndMove, batch: Changeset(sectionDeletes: [0], sectionMoves: [Move(from: 0, to: 1)]), old: [1, 1, 1], new: [1, 1], section: 0, item: nil),
    BadBatch(rule: .updateAndMove, batch: Changeset(itemUpdates: [p(0, 1)], itemMoves: [Move(from: p(0, 1), to: p(0, 0))]), old: [3], new: [3], section: 0, item: 1),
    BadBatch(rule: .updateAndMove, batch: Changeset(sectionUpdates: [1], sectionMoves: [Move(from: 1, to: 0)]), old: [1, 1], new: [1, 1], section: 1, item: nil),
    BadBatch(rule: .insertAndMoveToSameIndex, batch: Changeset(itemInserts: [p(0, 0)], itemMoves: [Move(from: p(0, 2), to: p(0, 0))]), old: [3], new: [4], section: 0, item: 0),
    BadBatch(rule: .insertAndMoveToSameIndex, batch: Changeset(sectionInserts: [0], sectionMoves: [Move(from: 1, to: 0)]), old: [1, 1], new: [0, 1, 1], section: 0, item: nil),
    BadBatch(rule: .duplicateMoveSource, batch: Changeset(itemMoves: [Move(from: p(0, 1), to: p(0, 0)), Move(from: p(0, 1), to: p(0, 2))]), old: [3], new: [3], section: 0, item: 1),
    BadBatch(rule: .duplicateMoveSource, batch: Changeset(sectionMoves: [Move(from: 1, to: 0), Move(from: 1, to: 2)]), old: [1, 1, 1], new: [1, 1, 1], section: 1, item: nil),
    BadBatch(rule: .duplicateMoveDestination, batch: Changeset(itemMoves: [Move(from: p(0, 1), to: p(0, 0)), Move(from: p(0, 2), to: p(0, 0))]), old: [3], new: [3], section: 0, item: 0),
    BadBatch(rule: .duplicateMoveDestination, batch: Changeset(sectionMoves: [Move(from: 1, to: 0), Move(from: 2, to: 0)]), old: [1, 1, 1], new: [1, 1, 1], section: 0, item: nil),
    BadBatch(rule: .itemChangeInDeletedSection, batch: Changeset(sectionDeletes: [1], itemDeletes: [p(1, 0)]), old: [1, 2], new: [1], section: 1, item: 0),
    BadBatch(rule: .itemChangeInDeletedSection, batch: Changeset(sectionDeletes: [1], itemMoves: [Move(from: p(1, 0), to: p(0, 0))]), old: [1, 2], new: [2], section: 1, item: 0),
    BadBatch(rule: .itemChangeInInsertedSection, batch: Changeset(sectionInserts: [1], itemInserts: [p(1, 0)]), old: [1], new: [1, 1], section: 1, item: 0),
    BadBatch(rule: .itemChangeInInsertedSection, batch: Changeset(sectionInserts: [1], itemMoves: [Move(from: p(0, 0), to: p(1, 0))]), old: [1], new: [0, 1], section: 1, item: 0),
    BadBatch(rule: .itemChangeInUpdatedSection, batch: Changeset(sectionUpdates: [0], itemUpdates: [p(0, 0)]), old: [1], new: [1], section: 0, item: 0),
]

@Suite("Batch-update validation")
struct ValidationTests {
    @Test("every rule is exercised")
    func everyRuleCovered() {
        let covered = Set(badBatches.map(\.rule))
        #expect(covered == Set(BatchUpdateError.Rule.allCases))
    }

    @Test("a wrong batch throws its rule, naming the section and row", arguments: badBatches)
    func wrongBatchThrows(_ bad: BadBatch) {
        guard let error = bad.batch.validationError(oldCounts: bad.old, newCounts: bad.new) else {
            Issue.record("expected \(bad.rule), but the batch passed")
            return
        }
        #expect(error.rule == bad.rule, "\(error)")
        #expect(error.section == bad.section)
        #expect(error.item == bad.item)
        #expect(error.message.contains("[\(bad.rule.rawValue)]"))
        if let s = bad.section { #expect(error.message.contains("section \(s)"), "\(error)") }
        if let r = bad.item { #expect(error.message.contains("row \(r)"), "\(error)") }
    }

    @Test("the count mismatch message carries every number")
    func countMessage() {
        let batch = Changeset(itemDeletes: [p(2, 0), p(2, 1), p(2, 2)], itemInserts: [p(2, 0)])
        guard let error = batch.validationError(oldCounts: [1, 1, 6], newCounts: [1, 1, 5]) else {
            Issue.record("expected itemCountMismatch")
            return
        }
        #expect(error.description == "invalid update: section 2 has 5 rows after the update, but 4 were expected (6 before, 1 inserted, 3 deleted, 0 moved in, 0 moved out) [itemCountMismatch]")
    }


    // Outside check 14b: a move's other end printed as `[3, 2]`, and "only 1 sections".
    @Test("messages spell a move's other end out and put counts in the right number")
    func spelledOutMessages() {
        let move = Move(from: p(0, 1), to: p(3, 2))
        let cases: [(Changeset, [Int], [Int], String)] = [
            (Changeset(itemDeletes: [p(0, 1)], itemMoves: [move]), [2, 0, 0, 0], [1, 0, 0, 3],
             "row 1 of section 0 is both deleted and moved (to row 2 of section 3)"),
            (Changeset(itemUpdates: [p(0, 1)], itemMoves: [move]), [2, 0, 0, 0], [1, 0, 0, 3],
             "row 1 of section 0 is both reloaded and moved (to row 2 of section 3)"),
            (Changeset(itemMoves: [move, Move(from: p(0, 1), to: p(0, 0))]), [2, 0, 0, 0], [1, 0, 0, 3],
             "row 1 of section 0 is moved twice (the second time to row 0 of section 0)"),
            (Changeset(sectionDeletes: [0], sectionMoves: [Move(from: 0, to: 1)]), [1, 1], [1, 1],
             "section 0 is both deleted and moved (to section 1)"),
            (Changeset(sectionDeletes: [1]), [1], [], "attempt to delete section 1, but there is only 1 section before the update"),
            (Changeset(itemInserts: [p(0, 2)]), [1], [2], "attempt to insert row 2 of section 0, which has only 2 rows after the update"),
            (Changeset(itemDeletes: [p(0, 1)]), [1], [0], "attempt to delete row 1 of section 0, which has only 1 row before the update"),
            (Changeset(), [1, 1], [1], "there is 1 section after the update, but 2 were expected"),
            (Changeset(sectionInserts: [0]), [], [0, 0], "there are 2 sections after the update, but 1 was expected"),
            (Changeset(), [0], [1], "section 0 has 1 row after the update, but 0 were expected"),
        ]
        for (batch, old, new, expected) in cases {
            let message = batch.validationError(oldCounts: old, newCounts: new)?.description ?? "no error"
            #expect(message.contains(expected), "\(message)")
            // The rule's name in brackets is the only bracket: no position printed as `[s, r]`.
            #expect(message.filter { $0 == "[" }.count == 1, "\(message)")
        }
    }
    // Failed before the fix (outside check 8, d2): old + inserted overflowed and trapped.
    @Test("counts near Int.max give an error or pass, never an overflow")
    func countsNearIntMax() {
        let insert = Changeset(itemInserts: [p(0, 0)])
        let error = insert.validationError(oldCounts: [Int.max], newCounts: [Int.max])
        #expect(error?.rule == .itemCountMismatch)
        #expect(error?.description == "invalid update: section 0 has \(Int.max) rows after the update, but more than \(Int.max) were expected (\(Int.max) before, 1 inserted, 0 deleted, 0 moved in, 0 moved out) [itemCountMismatch]")
        #expect(insert.validationError(oldCounts: [Int.max - 1], newCounts: [Int.max]) == nil)
        let moveIn = Changeset(itemMoves: [Move(from: p(1, 0), to: p(0, 0))])
        #expect(moveIn.validationError(oldCounts: [Int.max, 1], newCounts: [Int.max, 0])?.rule == .itemCountMismatch)
        #expect(moveIn.validationError(oldCounts: [Int.max - 1, 1], newCounts: [Int.max, 0]) == nil)
        #expect(Changeset(itemDeletes: [p(0, 0)]).validationError(oldCounts: [Int.max], newCounts: [Int.max - 1]) == nil)
    }

    @Test("valid batches pass and apply as UIKit would")
    func validBatches() throws {
        // Doc-comment examples.
        let deleteFirst = Changeset(itemDeletes: [ItemPath(item: 0, section: 0)])
        try deleteFirst.validate(oldCounts: [3], newCounts: [2])
        let insertFront = Changeset(itemInserts: [ItemPath(item: 0, section: 0)])
        let result = try insertFront.apply(to: [[1, 2]], reading: [[0, 1, 2]], items: \.self)
        #expect(result == [[0, 1, 2]])

        // Everything at once: delete section 0, move section 2 to the front, insert a
        // section at the end; inside: insert, reload, two cross-section moves.
        let old = [["x"], ["a", "b", "c"], ["p", "q"]]
        let new = [["q", "p", "c"], ["a", "B", "n"], ["z"]]
        let batch = Changeset(
            sectionDeletes: [0], sectionInserts: [2], sectionMoves: [Move(from: 2, to: 0)],
            itemDeletes: [], itemInserts: [p(1, 2)], itemUpdates: [p(1, 1)],
            itemMoves: [Move(from: p(2, 1), to: p(0, 0)), Move(from: p(1, 2), to: p(0, 2))]
        )
        #expect(try batch.apply(to: old, reading: new, items: \.self) == new)

        // Empty batch, empty data.
        try Changeset().validate(oldCounts: [], newCounts: [])
        #expect(try Changeset().apply(to: [[Int]](), reading: [], items: \.self) == [])
        // A section reload reads the new rows, whatever their count.
        #expect(try Changeset(sectionUpdates: [0]).apply(to: [[1]], reading: [[7, 8]], items: \.self) == [[7, 8]])
    }
}
