import CellKit
import CellKitTesting
import Testing

private struct Story: Identifiable, Equatable, Sendable { let id: Int; var text: String }

/// The heights a `.measured` rule was asked for, by row id.
@MainActor private final class Asked { var ids: [Int] = [] }

/// A screen of `rows` posts on a headless list view, rows measured by `height` (each ask recorded).
@MainActor
private func screen(rows: Int, viewport: Double, estimate: Double, asked: Asked? = nil, height: @escaping @MainActor @Sendable (Int) -> Double) -> (ListController, HeadlessListView) {
    let controller = ListController(diagnostics: .ignore)
    controller.register(TextCell.self, for: Story.self) { cell, post in cell.text = post.text }
    controller.rowHeights.set(Story.self, .measured { post, _ in
        asked?.ids.append(post.id)
        return height(post.id)
    })
    let list = HeadlessListView(viewportHeight: viewport, rowHeight: estimate)
    controller.attach(to: list)
    controller.apply(TableModel((0..<rows).map { Story(id: $0, text: "p\($0)") }))
    return (controller, list)
}

/// Estimates far off the real heights (outside user's report 13c, defects 1 to 3): every row in
/// the viewport has its height asked, and a scroll to a row lands on it.
@MainActor
@Suite("Headless list view: estimates far off the real heights")
struct EstimateFarOffTests {
    @Test("rows far shorter than the estimate: every row shown had its height asked", arguments: [1.0, 2.0])
    func rowsFarShorterThanTheEstimateAreAllAsked(height: Double) throws {
        let asked = Asked()
        let (controller, list) = screen(rows: 500, viewport: 88, estimate: 44, asked: asked) { _ in height }
        defer { withExtendedLifetime(controller) {} }
        let shown = list.visibleItemPaths.map(\.item)
        #expect(shown.allSatisfy(asked.ids.contains), "shown at the estimate, never asked: \(shown.filter { !asked.ids.contains($0) })")
        #expect(shown == Array(0..<Int(88 / height)))               // was rows 0...17: 16 and 17 at 44
        try list.checkConsistency()
    }

    @Test func rowsOfHeightZeroAreAllAskedAndTakeNoSpace() throws {
        let asked = Asked()
        let (controller, list) = screen(rows: 500, viewport: 88, estimate: 44, asked: asked) { _ in 0 }
        defer { withExtendedLifetime(controller) {} }
        #expect(Set(asked.ids) == Set(0..<500))
        #expect(list.offset(ofItemAt: ItemPath(item: 17, section: 0)) == 0)     // was 44: row 16 at its estimate
        #expect(list.contentHeight == 0)
        // All on the viewport's top edge: none shows (see the next suite).
        #expect(list.visibleItemPaths.isEmpty)
        try list.checkConsistency()
    }

    @Test("a scroll to the end over rows far shorter than the estimate ends the viewport at the last row")
    func scrollToTheEndOverTinyRows() throws {
        let (controller, list) = screen(rows: 500, viewport: 88, estimate: 44) { _ in 1 }
        defer { withExtendedLifetime(controller) {} }
        list.scroll(to: .greatestFiniteMagnitude)
        #expect(list.contentOffset == list.contentHeight - 88)
        #expect(list.visibleTexts.count == 88 && list.visibleTexts.last == "p499", "\(list.visibleTexts.count) rows, last \(list.visibleTexts.last ?? "none")")
        try list.checkConsistency()
    }

    @Test("scrollToItem(at:) near the end over rows taller than the estimate lands on the row", arguments: [990, 995, 998, 999])
    func scrollToARowNearTheEndOverTallRows(row: Int) throws {
        let (controller, list) = screen(rows: 1000, viewport: 440, estimate: 44) { _ in 1000 }
        defer { withExtendedLifetime(controller) {} }
        let path = ItemPath(item: row, section: 0)
        list.scrollToItem(at: path)
        #expect(list.visibleTexts == ["p\(row)"])                  // was p990
        #expect(list.viewportOffset(ofItemAt: path) == 0)
        try list.checkConsistency()
    }

    @Test func scrollToARowNearTheEndOverShortRowsEndsTheContentAtTheBottom() throws {
        let (controller, list) = screen(rows: 1000, viewport: 440, estimate: 44) { _ in 11 }
        defer { withExtendedLifetime(controller) {} }
        list.scrollToItem(at: ItemPath(item: 990, section: 0))
        #expect(list.contentOffset == list.contentHeight - 440)
        #expect(list.visibleTexts.last == "p999" && list.visibleTexts.count == 40)
        try list.checkConsistency()
    }

    @Test func scrollItemToAViewportOffsetLaysOutItsRows() throws {
        let (controller, list) = screen(rows: 100, viewport: 88, estimate: 44) { _ in 44 }
        defer { withExtendedLifetime(controller) {} }
        list.scrollItem(at: ItemPath(item: 50, section: 0), toViewportOffset: 0)
        #expect(list.visibleTexts == ["p50", "p51"])                // was p0, p1 at offset 2200
        try list.checkConsistency()
        list.scrollItem(at: ItemPath(item: 60, section: 0), toViewportOffset: 22)
        #expect(list.viewportOffset(ofItemAt: ItemPath(item: 60, section: 0)) == 22)
        #expect(list.visibleTexts == ["p59", "p60", "p61"])
        try list.checkConsistency()
        list.scrollItem(at: ItemPath(item: 1, section: 0), toViewportOffset: .nan)    // NaN: 0
        #expect(list.visibleTexts == ["p1", "p2"])
        list.scrollItem(at: ItemPath(item: 99, section: 0), toViewportOffset: 0)      // clamped to the end
        #expect(list.visibleTexts == ["p98", "p99"])
        list.scrollItem(at: ItemPath(item: 100, section: 0), toViewportOffset: 0)     // no such row: nothing
        #expect(list.visibleTexts == ["p98", "p99"])
        try list.checkConsistency()
    }

    @Test("scrollItem(at:toViewportOffset:) from a configure handler runs once the layout pass is over")
    func scrollItemFromAConfigureHandlerWaitsForThePass() throws {
        let controller = ListController(diagnostics: .ignore)
        let list = HeadlessListView(viewportHeight: 88, rowHeight: 44)
        let scrolled = Asked()
        controller.register(TextCell.self, for: Story.self) { [unowned list] cell, post in
            cell.text = post.text
            if post.id == 2, scrolled.ids.isEmpty {
                scrolled.ids.append(post.id)
                list.scrollItem(at: ItemPath(item: 40, section: 0), toViewportOffset: 0)
            }
        }
        controller.attach(to: list)
        controller.apply(TableModel((0..<100).map { Story(id: $0, text: "p\($0)") }))
        list.scroll(to: 44)
        #expect(scrolled.ids == [2])
        #expect(list.visibleTexts == ["p40", "p41"])
        try list.checkConsistency()
    }
}

/// Rows of height 0: the rule of the headless list view (documented in its type and in the
/// article “Testing with the headless list view”).
@MainActor
@Suite("Headless list view: rows of height 0")
struct ZeroHeightRowTests {
    @Test func aRowOfHeightZeroStrictlyInsideTheViewportGetsACell() throws {
        // Rows 0 and 2 are 40 tall, row 1 is 0 tall at offset 40: inside a viewport of 88.
        let (controller, list) = screen(rows: 10, viewport: 88, estimate: 44) { $0 == 1 ? 0 : 40 }
        defer { withExtendedLifetime(controller) {} }
        #expect(list.visibleTexts == ["p0", "p1", "p2", "p3"])
        try list.checkConsistency()
    }

    @Test func aRowOfHeightZeroOnTheTopEdgeGetsNone() throws {
        let (controller, list) = screen(rows: 10, viewport: 88, estimate: 44) { $0 == 2 ? 0 : 40 }
        defer { withExtendedLifetime(controller) {} }
        list.scroll(to: 80)                                          // row 2 (0 tall) at the top edge
        #expect(list.visibleTexts == ["p3", "p4", "p5"])
        list.scroll(to: 79)                                          // one point lower: inside
        #expect(list.visibleTexts == ["p1", "p2", "p3", "p4", "p5"])
        try list.checkConsistency()
    }
}

/// The height properties read back the heights the view lays out with (report 13c, doc gaps).
@MainActor
@Suite("Headless list view: height properties read back what is used")
struct HeadlessHeightReadBackTests {
    @Test(arguments: [(.nan, 0), (-5, 0), (-.infinity, 0), (.infinity, RowHeights.maximumHeight), (88, 88)] as [(Double, Double)])
    func heightsReadBackClamped(set: Double, used: Double) {
        let list = HeadlessListView(viewportHeight: set, rowHeight: set, sectionHeaderHeight: set)
        #expect(list.viewportHeight == used && list.rowHeight == used && list.sectionHeaderHeight == used)
        let other = HeadlessListView()
        other.viewportHeight = set
        other.rowHeight = set
        other.sectionHeaderHeight = set
        #expect(other.viewportHeight == used && other.rowHeight == used && other.sectionHeaderHeight == used)
        let refused = other.log.filter { if case .refused = $0 { true } else { false } }
        #expect(refused.count == (set == used ? 0 : 3))
    }
}

/// Data changed outside a batch: the message names the section that differs, not every count.
@MainActor
@Suite("Headless list view: counts that disagree name their section")
struct CountMismatchMessageTests {
    @Test func checkConsistencyNamesTheSectionThatDiffers() {
        let source = HandCountedSource(Array(repeating: 3, count: 40))
        let list = HeadlessListView()
        list.dataSource = source
        list.reloadData()
        source.counts[27] = 4
        source.counts[31] = 0
        #expect {
            try list.checkConsistency()
        } throws: { error in
            let message = "\(error)"
            return message.contains("the list view has 3 rows in section 27 where its data source reports 4")
                && message.contains("1 more section differs") && !message.contains("[3, 3")
        }
        source.counts.append(1)
        #expect {
            try list.checkConsistency()
        } throws: { error in
            "\(error)".contains("the list view has 40 sections where its data source reports 41")
        }
    }

    @Test func aBatchRefusedForDataChangedOutsideItNamesTheSection() {
        let source = HandCountedSource([2, 2, 2])
        let list = HeadlessListView()
        list.dataSource = source
        list.reloadData()
        source.counts[1] = 3
        let outcome = list.performBatchUpdates(Changeset(itemInserts: [ItemPath(item: 0, section: 1)])) {}
        #expect(outcome == .reloaded(.dataChangedOutsideBatch(cached: [2, 2, 2], reported: [2, 3, 2])))
        let refused = list.log.compactMap { if case .refused(let message) = $0 { message } else { nil } }
        #expect(refused.contains { $0.contains("the list view has 2 rows in section 1 where its data source reports 3")
            && $0.contains("[2, 2, 2] in the list view, [2, 3, 2] in its data source") }, "\(refused)")   // few sections: whole too
        #expect("\(BatchPlan.ReloadReason.dataChangedOutsideBatch(cached: [2, 2, 2], reported: [2, 3, 2]))".contains("section 1"))
    }
}

/// `RowOffsetIndex` with fractional, bad and zero heights, and no rows (report 13c, defect 4
/// and doc gaps).
@Suite("RowOffsetIndex: fractional, bad and zero heights, and no rows")
struct RowOffsetIndexEdgeTests {
    @Test func aRowsTopIsInThatRowWithFractionalHeights() {
        let index = RowOffsetIndex(heights: [17.17, 20.3, 44.1, 44.1])
        let top = index.offset(ofRow: 3)
        #expect(index.row(atOffset: top) == 3, "row(atOffset: \(top))")        // was 2
        #expect(index.rows(from: top, to: top + 10) == 3..<4)                  // was 2..<4
    }

    @Test(arguments: 0..<20)
    func offsetsAndRowsAgreeOnFractionalHeights(round: Int) {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("RowOffsetIndex fractional heights, seed \(seed)")
        var rng = SplitMix64(seed: seed)
        let n = 1 + Int(rng.next() % 400)
        func randomHeight() -> Double {
            // Fractions of every kind, and some rows of height 0.
            rng.next() % 8 == 0 ? 0 : Double(rng.next() % 100_000) / Double(1 + rng.next() % 997)
        }
        var index = RowOffsetIndex(heights: (0..<n).map { _ in randomHeight() })
        for step in 0..<4 {
            if step > 0 {
                for _ in 0..<20 { index.setHeight(randomHeight(), ofRow: Int(rng.next() % UInt64(n))) }
            }
            // Exact sums: the same offsets as an index built afresh from the heights as they
            // are now (no drift from the changes), never decreasing from row to row.
            let fresh = RowOffsetIndex(heights: (0..<n).map(index.height(ofRow:)))
            for row in 0...n {
                #expect(index.offset(ofRow: row) == fresh.offset(ofRow: row), "seed \(seed), step \(step), row \(row)")
                if row > 0 { #expect(index.offset(ofRow: row) >= index.offset(ofRow: row - 1), "seed \(seed), step \(step), row \(row)") }
            }
            for row in 0..<n where index.height(ofRow: row) > 0 {
                let top = index.offset(ofRow: row)
                #expect(index.row(atOffset: top) == row, "seed \(seed), step \(step), row \(row) at \(top)")
                #expect(index.rows(from: top, to: top + index.height(ofRow: row) / 2).lowerBound == row, "seed \(seed), step \(step), row \(row)")
                #expect(index.rows(from: 0, to: top).upperBound <= row, "seed \(seed), step \(step): row \(row) starts at the end")
            }
        }
    }

    @Test func negativeNaNAndInfiniteHeightsAreClamped() {
        var index = RowOffsetIndex(heights: [10, -5, 10])
        #expect(index.totalHeight == 20 && index.height(ofRow: 1) == 0)        // was 15
        index.setHeight(.nan, ofRow: 0)
        #expect(index.totalHeight == 10 && index.height(ofRow: 0) == 0)        // was NaN
        #expect(index.row(atOffset: 7) == 2)                                   // was 0
        index.setHeight(.infinity, ofRow: 1)
        #expect(index.height(ofRow: 1) == RowHeights.maximumHeight)
        #expect(index.totalHeight == RowHeights.maximumHeight + 10)
        #expect(RowOffsetIndex(count: 3, height: -1).totalHeight == 0)
    }

    @Test func anEmptyIndexHasNoRowAtAnyOffset() {
        let empty = RowOffsetIndex()
        #expect(empty.row(atOffset: 0) == nil && empty.row(atOffset: 100) == nil)   // was row 0
        #expect(empty.rows(from: 0, to: 100).isEmpty && empty.totalHeight == 0)
    }

    @Test func offsetsOutsideTheRows() {
        let index = RowOffsetIndex(heights: [44, 0, 0, 44])
        #expect(index.row(atOffset: -1) == 0 && index.row(atOffset: .nan) == 0 && index.row(atOffset: 1000) == 3)
        #expect(index.row(atOffset: 44) == 3)                                    // rows 1 and 2 cover nothing
        // Rows of height 0 on an edge are outside, strictly inside they are in.
        #expect(index.rows(from: 0, to: 44) == 0..<1)                           // was 0..<3
        #expect(index.rows(from: 44, to: 88) == 3..<4)
        #expect(index.rows(from: 10, to: 50) == 0..<4)
        #expect(index.rows(from: 88, to: 100).isEmpty && index.rows(from: 100, to: 200).isEmpty)   // was 3..<4
        #expect(index.rows(from: -50, to: 0).isEmpty && index.rows(from: .nan, to: 10).isEmpty)
        #expect(index.rows(from: -50, to: 1) == 0..<1)
        // Limits past 2^52 points are compared as rounded offsets.
        #expect(index.row(atOffset: .infinity) == 3 && index.row(atOffset: 1e300) == 3)
        #expect(index.rows(from: 10, to: .infinity) == 0..<4 && index.rows(from: 1e17, to: 1e18).isEmpty)
    }
}

/// Rows that share an identity with different content keep their own heights (report 13c, defect 5).
@MainActor
@Suite("HeightCache: duplicates with different content")
struct HeightCacheDuplicateTests {
    @Test func duplicateRowsAreMeasuredOnce() {
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Story.self) { cell, story in cell.text = story.text }
        controller.rowHeights.set(Story.self, .measured { story, _ in Double(20 + story.text.count) })
        let list = HeadlessListView(viewportHeight: 132, rowHeight: 44)
        controller.attach(to: list)
        controller.apply(TableModel([Story(id: 1, text: "short"), Story(id: 2, text: "b"), Story(id: 1, text: "a much longer text")]))
        let before = controller.rowHeights.measurements
        for _ in 0..<5 {
            #expect(controller.listView(list, heightForItemAt: ItemPath(item: 0, section: 0)) == 25)
            #expect(controller.listView(list, heightForItemAt: ItemPath(item: 2, section: 0)) == 38)
        }
        #expect(controller.rowHeights.measurements == before)                  // was 10 more
    }

    @Test func fourContentsPerIdentityThenTheOldestGoes() {
        var cache = HeightCache()
        let rows = (0..<5).map { ListItem(Story(id: 1, text: "v\($0)")) }
        for (i, row) in rows.prefix(4).enumerated() { cache.store(Double(i), for: row, width: 320) }
        #expect(cache.count == 4)
        #expect(rows.prefix(4).map { cache.height(for: $0, width: 320) } == [0, 1, 2, 3])
        cache.store(4, for: rows[4], width: 320)
        #expect(cache.count == 4)
        #expect(rows.map { cache.height(for: $0, width: 320) } == [nil, 1, 2, 3, 4])
        cache.store(10, for: rows[2], width: 320)                               // the same content again: replaced
        #expect(cache.count == 4 && cache.height(for: rows[2], width: 320) == 10)
        cache.store(60, for: ListItem(Story(id: 2, text: "other")), width: 320)
        cache.invalidate(ItemID(type: Story.self, id: 1))
        #expect(cache.count == 1 && rows.allSatisfy { cache.height(for: $0, width: 320) == nil })
        cache.removeAll()
        #expect(cache.count == 0)
    }
}
