import CellKit
import CellKitTesting
import Testing

private struct Tweet: Identifiable, Equatable, Sendable { let id: Int; var text: String }

@MainActor
private func feedScreen(viewport: Double = 440, log: DiagnosticLog? = nil) -> (ListController, HeadlessListView) {
    let controller = ListController(diagnostics: log?.handler ?? .ignore)
    controller.register(TextCell.self, for: Tweet.self) { cell, tweet in cell.text = tweet.text }
    let listView = HeadlessListView(viewportHeight: viewport, rowHeight: 44)
    controller.attach(to: listView)
    return (controller, listView)
}

private func tweets(_ ids: some Sequence<Int>, prefix: String = "t") -> [Tweet] { ids.map { Tweet(id: $0, text: "\(prefix)\($0)") } }


@MainActor
@Suite("List controller: snapshots applied through the diff")
struct ListControllerDiffTests {
    @Test func aNewTweetAtTheTopIsOneInsert() {
        let (controller, listView) = feedScreen()
        controller.apply(TableModel(tweets(1...50)))
        listView.clearLog()
        controller.apply(TableModel(tweets([0]) + tweets(1...50)))
        let batches = listView.log.compactMap { if case .batch(let c) = $0 { c } else { nil } }
        #expect(batches.count == 1)
        #expect(batches.first?.itemInserts == [ItemPath(row: 0, section: 0)])
        #expect(batches.first?.changeCount == 1)
        #expect(listView.visibleTexts.first == "t0")
    }

    @Test func anEditedTweetIsReconfiguredInTheSameCell() {
        let (controller, listView) = feedScreen()
        controller.apply(TableModel(tweets(1...20)))
        let cell = listView.cell(at: ItemPath(row: 2, section: 0))
        listView.clearLog()
        var edited = tweets(1...20)
        edited[2].text = "edited"
        controller.apply(TableModel(edited))
        #expect(listView.cell(at: ItemPath(row: 2, section: 0)) === cell)
        #expect((cell as? TextCell)?.text == "edited")
        #expect(listView.log.contains(.reconfigured(ItemPath(row: 2, section: 0))))
        #expect(!listView.log.contains { if case .created = $0 { true } else { false } })
    }

    @Test func oneItemMovedFarIsOneMove() {
        let (controller, listView) = feedScreen()
        controller.apply(TableModel(tweets(0..<100)))
        listView.clearLog()
        var moved = tweets(0..<100)
        moved.insert(moved.remove(at: 90), at: 3)
        controller.apply(TableModel(moved))
        let batches = listView.log.compactMap { if case .batch(let c) = $0 { c } else { nil } }
        #expect(batches.reduce(0) { $0 + $1.itemMoves.count } == 1)
        #expect(batches.reduce(0) { $0 + $1.changeCount } == 1)
    }

    @Test func duplicateIDsAreReportedAndTheListKeepsWorking() {
        let log = DiagnosticLog()
        let (controller, listView) = feedScreen(log: log)
        controller.apply(TableModel(tweets([1, 2, 2, 3])))
        #expect(listView.visibleTexts == ["t1", "t2", "t2", "t3"])
        controller.apply(TableModel(tweets([2, 1, 3, 3])))
        #expect(listView.visibleTexts == ["t2", "t1", "t3", "t3"])
        let duplicates = log.all.filter { $0.kind == .duplicateIdentifier }
        #expect(!duplicates.isEmpty)
        #expect(duplicates.allSatisfy { $0.message.contains("Tweet(") })
        #expect(!log.all.contains { $0.kind == .invalidBatchUpdate })
    }

    /// An outside user found a duplicate added next to unchanged rows went unreported (and
    /// the later copy kept the identity) once one-section models took the flat diff with
    /// identical ends set aside: every duplicate is reported, the first occurrence keeps it.
    @Test func aDuplicateBesideUnchangedRowsIsReportedAndTheFirstOccurrenceKeepsTheIdentity() {
        let log = DiagnosticLog()
        let (controller, listView) = feedScreen(log: log)
        controller.apply(TableModel(tweets(0..<6)))
        controller.apply(TableModel(tweets(Array(0..<6) + [0])))
        #expect(log.all.contains { $0.kind == .duplicateIdentifier && $0.message.contains("Tweet(0)") && $0.message.contains("rows 0, 6 of section 0") })
        // A copy of row 5 put on top takes row 5's identity (it comes first): the old row 5
        // moves to the top and the later copy is a new row at the end.
        controller.apply(TableModel(tweets(0..<6)))
        listView.clearLog()
        controller.apply(TableModel(tweets([5] + Array(0..<6))))
        let batches = listView.log.compactMap { if case .batch(let c) = $0 { c } else { nil } }
        #expect(batches.flatMap(\.itemMoves) == [Move(from: ItemPath(item: 5, section: 0), to: ItemPath(item: 0, section: 0))])
        #expect(batches.flatMap(\.itemInserts) == [ItemPath(item: 6, section: 0)])
    }

    @Test func pastTheThresholdTheListReloads() {
        let (controller, listView) = feedScreen()
        controller.reloadThreshold = 10
        controller.apply(TableModel(tweets(0..<100)))
        listView.clearLog()
        controller.apply(TableModel(tweets(50..<150)))
        #expect(listView.log.contains(.reloaded))
        #expect(!listView.log.contains { if case .batch = $0 { true } else { false } })
        #expect(listView.visibleTexts.first == "t50")
    }

    @Test(arguments: 0..<20)
    func randomSequencesOfSnapshotsAlwaysApplyCleanly(seed: Int) throws {
        print("randomSequencesOfSnapshotsAlwaysApplyCleanly seed \(seed)")
        var rng = SplitMix64(seed: UInt64(seed))
        let log = DiagnosticLog()
        let (controller, listView) = feedScreen(viewport: 44 * 8, log: log)
        for _ in 0..<25 {
            var sections: [TableSection] = []
            for s in 0..<Int.random(in: 0...4, using: &rng) {
                let ids = (0..<Int.random(in: 0...12, using: &rng)).map { _ in Int.random(in: 0..<30, using: &rng) }
                let items = ids.map { ListItem(Tweet(id: $0, text: "t\($0)v\(Int.random(in: 0..<2, using: &rng))")) }
                sections.append(TableSection(id: SectionID(Int.random(in: 0..<6, using: &rng)), header: "s\(s)", items: items))
            }
            let model = TableModel(sections: sections)
            controller.apply(model, state: .loaded)
            listView.scroll(to: Double.random(in: 0...400, using: &rng))
            try listView.checkConsistency()
            #expect(!log.all.contains { $0.kind == .invalidBatchUpdate }, "seed \(seed)")
            // Visible cells show exactly what the model holds at their rows.
            for path in listView.visibleItemPaths where !model.isEmpty {
                let expected = (model.model(at: path) as? Tweet)?.text
                #expect((listView.cell(at: path) as? TextCell)?.text == expected, "seed \(seed) at \(path)")
            }
        }
    }
}
