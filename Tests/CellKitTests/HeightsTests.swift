import CellKit
import CellKitTesting
import Testing

@Suite("Heights: row offset index, height cache, scroll anchor")
struct HeightsIndexTests {
    @Test func rowOffsetIndexDocExample() {
        var index = RowOffsetIndex(heights: [44, 88, 44, 20])
        #expect(index.offset(ofRow: 2) == 132)
        #expect(index.row(atOffset: 100) == 1)
        index.setHeight(10, ofRow: 1)
        #expect(index.offset(ofRow: 2) == 54 && index.totalHeight == 118)
    }

    @Test(arguments: 0..<20)
    func rowOffsetIndexAgreesWithPrefixSums(round: Int) {
        let seed = UInt64.random(in: 0...UInt64.max)
        var rng = SplitMix64(seed: seed)
        let n = Int(rng.next() % 300)
        var heights = (0..<n).map { _ in Double(rng.next() % 5) * 11 }  // zero heights included
        var index = RowOffsetIndex(heights: heights)
        for _ in 0..<50 {
            if n > 0, rng.next() % 2 == 0 {
                let row = Int(rng.next() % UInt64(n))
                heights[row] = Double(rng.next() % 100)
                index.setHeight(heights[row], ofRow: row)
            }
            var top = 0.0
            for row in 0..<n {
                #expect(index.offset(ofRow: row) == top, "seed \(seed), row \(row)")
                if heights[row] > 0 {
                    #expect(index.row(atOffset: top) == row, "seed \(seed): the row at its own top")
                    #expect(index.row(atOffset: top + heights[row] - 0.5) == row, "seed \(seed)")
                }
                top += heights[row]
            }
            #expect(index.totalHeight == top, "seed \(seed)")
        }
    }

    @Test func visibleRangeOfAnIndex() {
        let index = RowOffsetIndex(count: 1000, height: 44)
        #expect(index.rows(from: 440, to: 880) == 10..<20)
        #expect(index.rows(from: 450, to: 890) == 10..<21)
        #expect(index.row(atOffset: 1e9) == 999)
    }

    @Test func heightCacheDocExample() {
        struct Message: Identifiable, Equatable, Sendable { let id: Int; var text: String }
        var cache = HeightCache()
        let row = ListItem(Message(id: 1, text: "hi"))
        cache.store(60, for: row, width: 320)
        #expect(cache.height(for: row, width: 320) == 60)
        #expect(cache.height(for: row, width: 400) == nil)
        #expect(cache.height(for: ListItem(Message(id: 1, text: "hello, longer")), width: 320) == nil)
        cache.invalidate(row.id)
        #expect(cache.height(for: row, width: 320) == nil)
    }

    @Test func newPathDocExample() {
        let batch = Changeset(itemDeletes: [ItemPath(item: 0, section: 0)],
                              itemInserts: [ItemPath(item: 0, section: 0), ItemPath(item: 1, section: 0)])
        #expect(batch.newPath(ofOld: ItemPath(item: 2, section: 0), oldCounts: [5], newCounts: [6]) == ItemPath(item: 3, section: 0))
        #expect(batch.newPath(ofOld: ItemPath(item: 0, section: 0), oldCounts: [5], newCounts: [6]) == nil)
    }

    @Test(arguments: 0..<10)
    func newPathAgreesWithTheReferenceApplier(round: Int) throws {
        // Random sectioned snapshots, diffed by CellKitDiff; each stage's mapping of every
        // old row is checked against replaying the stage with UIKit's rules.
        let seed = UInt64.random(in: 0...UInt64.max)
        var rng = SplitMix64(seed: seed)
        func snapshot() -> [DiffSection<Int, Int, Int>] {
            var ids = Array(0..<60).shuffled(using: &rng).prefix(Int(rng.next() % 60))
            return (0..<Int(rng.next() % 5 + 1)).shuffled(using: &rng).map { s in
                let take = min(ids.count, Int(rng.next() % 20))
                defer { ids.removeFirst(take) }
                return DiffSection(id: s, content: 0, elements: Array(ids.prefix(take)))
            }
        }
        let first = snapshot()
        let staged = StagedChangeset(from: first, to: snapshot())
        // Walk the stages, each from the previous stage's data.
        var prev = first.map(\.elements)
        for stage in staged.stages {
            let after = stage.data.map(\.elements)
            do {
                let oldCounts = prev.map(\.count), newCounts = after.map(\.count)
                var positional = stage.changeset
                positional.itemUpdates = []
                positional.sectionUpdates = []
                let olds: [[ItemPath?]] = prev.enumerated().map { s, rows in rows.indices.map { ItemPath(item: $0, section: s) } }
                let news: [[ItemPath?]] = newCounts.map { Array(repeating: nil, count: $0) }
                let replayed = try positional.apply(to: olds, reading: news, items: \.self)
                var expected: [ItemPath: ItemPath] = [:]
                for (s, column) in replayed.enumerated() { for (i, o) in column.enumerated() { if let o { expected[o] = ItemPath(item: i, section: s) } } }
                for (s, rows) in prev.enumerated() {
                    for i in rows.indices {
                        let path = ItemPath(item: i, section: s)
                        #expect(stage.changeset.newPath(ofOld: path, oldCounts: oldCounts, newCounts: newCounts) == expected[path], "seed \(seed) at \(path)")
                    }
                }
            }
            prev = after
        }
    }

    @Test func scrollAnchorDocExample() {
        let batch = Changeset(itemInserts: (0..<3).map { ItemPath(item: $0, section: 0) })
        let offset = ScrollAnchor.contentOffset(
            after: batch, oldCounts: [100], newCounts: [103],
            visibleRows: (10..<20).map { ItemPath(item: $0, section: 0) }, oldContentOffset: 440,
            oldTop: { Double($0.item) * 44 }, newTop: { Double($0.item) * 44 })
        #expect(offset == 572)
    }
}

@MainActor
@Suite("Heights: per-type rules, measured heights, the first visible row stays put")
struct HeightsControllerTests {
    struct Header: Identifiable, Equatable, Sendable { let id: Int }

    @Test func rowHeightsDocExample() {
        struct Message: Identifiable, Equatable, Sendable { let id: Int; var text: String }
        let controller = ListController(diagnostics: .ignore)
        controller.rowHeights.width = 320
        controller.rowHeights.set(Header.self, .fixed(28))
        controller.rowHeights.set(Message.self, .measured { message, width in
            20 + 18 * Double(message.text.count * 8 / Int(width) + 1)
        })
        #expect(controller.rowHeights.height(for: ListItem(Header(id: 1))) == 28)
        #expect(controller.rowHeights.height(for: ListItem(Message(id: 1, text: String(repeating: "x", count: 50)))) == 56)
    }

    @Test func fixedEstimatedAndMeasuredHeightsPerType() throws {
        let screen = PostScreen(viewportHeight: 400)
        let measured = Box(0)
        screen.controller.register(TextCell.self, for: Header.self) { cell, header in cell.text = "header \(header.id)" }
        screen.controller.rowHeights.set(Header.self, .fixed(30))
        screen.controller.rowHeights.set(Post.self, .measured { post, _ in
            measured.value += 1
            return 20 + Double(post.text.count)
        })
        var model = TableModel()
        model.append([ListItem(Header(id: 0))] + posts(0..<3).map { ListItem($0) })
        screen.controller.apply(model)
        // "post 0" is 6 characters: 26 points.
        let offset = screen.listView.offset(ofItemAt: ItemPath(row: 2, section: 0))
        #expect(offset == 56.0, "\(String(describing: offset))")
        #expect(screen.listView.contentHeight == 30 + 3 * 26)
        let afterFirst = measured.value
        screen.listView.reloadData()
        #expect(measured.value == afterFirst, "measured heights come from the cache")

        // An update of one post's content measures that row again, and only it.
        model.replace(at: ItemPath(row: 1, section: 0), with: ListItem(Post(0, "a longer text")))
        screen.controller.apply(model)
        #expect(measured.value == afterFirst + 1)
        #expect(screen.listView.contentHeight == 30 + 33 + 2 * 26)

        // A new width measures again.
        screen.controller.rowHeights.width = 200
        screen.listView.reloadData()
        #expect(measured.value == afterFirst + 1 + 3)
        try screen.expectConsistent()
    }

    @Test func estimatedHeightsGiveWayToMeasuredOnes() {
        let heights = RowHeights()
        heights.set(Post.self, .estimated(50))
        let row = ListItem(Post(1))
        #expect(heights.height(for: row) == 50)
        heights.didMeasure(row, height: 72)
        #expect(heights.height(for: row) == 72)
        #expect(heights.height(for: ListItem(Post(1, "changed"))) == 50)
    }

    @Test func rowsInsertedAboveTheFirstVisibleRowDoNotMoveIt() async throws {
        let screen = PostScreen(viewportHeight: 440)
        screen.listView.keepsFirstVisibleRowInPlace = true
        screen.controller.rowHeights.set(Post.self, .measured { post, _ in 30 + Double(post.id % 4) * 10 })
        let source = SimpleDataSource(posts(0..<200))
        screen.controller.bind(to: source)
        await screen.controller.settle()
        let top = try #require(screen.listView.offset(ofItemAt: ItemPath(row: 50, section: 0)))
        screen.listView.scroll(to: top + 12)  // row 50, its top 12 points above the viewport
        let visibleBefore = screen.listView.visibleTexts
        #expect(visibleBefore.first == "post 50")

        // New messages arrive on top, and one row above the viewport goes.
        source.set(posts(1000..<1007) + posts((0..<200).filter { $0 != 3 }))
        await screen.controller.settle()
        let newTop = try #require(screen.listView.offset(ofItemAt: ItemPath(row: 56, section: 0)))
        #expect(screen.listView.contentOffset == newTop + 12)
        #expect(screen.listView.visibleTexts == visibleBefore)
        #expect(screen.listView.log.contains { if case .batch = $0 { true } else { false } })
        try screen.expectConsistent()
    }

    /// Rows that size themselves (`.estimated`), some measured taller than the estimate,
    /// and new ones arriving above the viewport with only the estimate: the first visible row
    /// stays put, because the offset that keeps it is read from the layout after the batch
    /// (the rows above at their estimates), not computed from heights before it, as the UIKit
    /// adapters read `rectForRow(at:)` after the batch (UIKit review 10).
    @Test func rowsInsertedAboveWithEstimatedHeightsDoNotMoveTheFirstVisibleRow() async throws {
        let screen = PostScreen(viewportHeight: 440)
        screen.listView.keepsFirstVisibleRowInPlace = true
        screen.controller.rowHeights.set(Post.self, .estimated(44))
        let source = SimpleDataSource(posts(0..<200))
        screen.controller.bind(to: source)
        await screen.controller.settle()
        for id in 0..<60 where id % 3 == 0 { screen.controller.rowHeights.didMeasure(ListItem(Post(id)), height: 90) }
        screen.listView.reloadData()
        let top = try #require(screen.listView.offset(ofItemAt: ItemPath(row: 50, section: 0)))
        screen.listView.scroll(to: top + 12)
        let visibleBefore = screen.listView.visibleTexts
        #expect(visibleBefore.first == "post 50")

        source.set(posts(1000..<1007) + posts(0..<200))
        await screen.controller.settle()
        let newTop = try #require(screen.listView.offset(ofItemAt: ItemPath(row: 57, section: 0)))
        #expect(screen.listView.contentOffset == newTop + 12)
        #expect(screen.listView.visibleTexts == visibleBefore)
        try screen.expectConsistent()
    }

    @Test func withoutAnchoringTheOffsetStaysAsInUITableView() async throws {
        let screen = PostScreen(viewportHeight: 440)
        let source = SimpleDataSource(posts(0..<100))
        screen.controller.bind(to: source)
        await screen.controller.settle()
        screen.listView.scroll(to: 440)
        source.set(posts(1000..<1003) + posts(0..<100))
        await screen.controller.settle()
        #expect(screen.listView.contentOffset == 440)
        #expect(screen.listView.visibleTexts.first == "post 7")
        try screen.expectConsistent()
    }
}

@MainActor
@Suite("Self-sizing: estimated heights until measured")
struct SelfSizingTests {
    private struct Note: Identifiable, Equatable, Sendable { let id: Int; var text: String }

    @Test func aMeasuredHeightReplacesTheEstimateUntilTheContentChanges() {
        let controller = ListController(diagnostics: .ignore)
        controller.rowHeights.set(Note.self, .estimated(44))
        let listView = HeadlessListView()
        controller.attach(to: listView)
        controller.apply(TableModel([Note(id: 1, text: "short"), Note(id: 2, text: "long")]))
        let second = ItemPath(row: 1, section: 0)
        #expect(controller.listView(listView, needsMeasuringItemAt: second))
        #expect(controller.listView(listView, heightForItemAt: second) == 44)
        // A self-sizing list view (UIKit's adapters) measures the cell and reports it.
        controller.listView(listView, didMeasureHeight: 120, forItemAt: second)
        #expect(!controller.listView(listView, needsMeasuringItemAt: second))
        #expect(controller.listView(listView, heightForItemAt: second) == 120)
        // New content: the cached height no longer applies.
        controller.apply(TableModel([Note(id: 1, text: "short"), Note(id: 2, text: "longer still")]))
        #expect(controller.listView(listView, needsMeasuringItemAt: second))
        #expect(controller.listView(listView, heightForItemAt: second) == 44)
    }
}
