import CellKit
import CellKitTesting
import Testing

private struct Tile: Identifiable, Equatable, Sendable { let id: Int; var caption: String }

/// Heights per tile id that a test changes by hand.
@MainActor private final class TileSizes { var byID: [Int: Double] = [:] }

/// When a reconfigure an app asks for measures its rows again, and when it must not: the
/// UIKit adapters measure with an empty `performBatchUpdates` (a table) or an invalidation
/// of the flow layout's sizes at the rows' index paths (a collection view). UIKit review 9.
@MainActor
@Suite("Reconfigure: measuring the rows again where UIKit allows it")
struct ReconfigureMeasureTests {
    /// An empty `performBatchUpdates` checks the counts as any batch does: with the data
    /// changed outside a batch (or the data source gone) UIKit raises "Invalid update"
    /// (AsyncDisplayKit #2248, cashapp/redwood #1866). The core reloads instead, as a batch does.
    @Test func dataChangedOutsideABatchIsReloadedNotMeasured() throws {
        let source = HandCountedSource([3])
        let table = UIKitLikeBackend()
        table.dataSource = source
        table.reloadData()
        source.counts = [5]
        table.appReconfigures([ItemPath(item: 0, section: 0)])
        #expect(table.crashes == [])
        #expect(!table.calls.contains { if case .measure = $0 { true } else { false } })
        #expect(table.calls.contains(.reload))
        #expect(table.core.violations.contains { $0.contains("changed outside a batch") })
        #expect(table.core.counts == [5])
    }

    /// The same on the headless list view, which refuses what UIKit refuses.
    @Test func headlessRefusesAMeasureOverChangedData() {
        let source = HandCountedSource([3])
        let listView = HeadlessListView(viewportHeight: 200, rowHeight: 44)
        listView.dataSource = source
        listView.reloadData()
        source.counts = [1]
        listView.clearLog()
        listView.reconfigureItems(at: [ItemPath(item: 2, section: 0)])
        #expect(listView.log.contains { if case .refused(let message) = $0 { message.contains("changed outside a batch") } else { false } })
        #expect(listView.log.contains(.reloaded))
        #expect(listView.visibleItemPaths == [ItemPath(item: 0, section: 0)])
        #expect(throws: HeadlessListViewInconsistency.self) { try listView.checkConsistency() }
    }

    /// A measure asked during a pass runs once it is over, after the apply asked before it:
    /// it gets the row where that apply put it (a collection view invalidates those index
    /// paths), and nothing for a row the apply deleted.
    @Test func aDeferredMeasureGetsTheRowsWhereTheBatchesPutThem() throws {
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Tile.self) { cell, tile in cell.text = tile.caption }
        let table = UIKitLikeBackend()
        controller.attach(to: table)
        controller.apply(TableModel((1...5).map { Tile(id: $0, caption: "\($0)") }))
        table.core.layingOut {
            // A display hook applies a tile on top, then reconfigures rows 2 (tile 3) and 3 (tile 4, deleted by that apply).
            controller.apply(TableModel([Tile(id: 0, caption: "0")] + [1, 2, 3, 5].map { Tile(id: $0, caption: "\($0)") }))
            table.appReconfigures([ItemPath(item: 2, section: 0), ItemPath(item: 3, section: 0)])
        }
        let measures = table.calls.compactMap { if case .measure(let rows) = $0 { rows } else { nil } }
        #expect(measures == [[ItemPath(item: 3, section: 0)]])
        #expect(table.crashes == [])
    }

    /// A configure handler that, while the core reconfigures a changed row after a batch,
    /// reconfigures another row whose height it changed: that row is measured too (only the
    /// core's own reconfigure is measured by its batch's layout), once the core's reconfigure is over.
    @Test func aReconfigureAskedDuringTheCoresOwnReconfigureIsMeasured() throws {
        let sizes = TileSizes()
        let controller = ListController(diagnostics: .ignore)
        let table = UIKitLikeBackend()
        controller.rowHeights.set(Tile.self, .measured { tile, _ in MainActor.assumeIsolated { sizes.byID[tile.id] } ?? 100 })
        controller.register(TextCell.self, for: Tile.self) { [unowned controller, unowned table] cell, tile in
            cell.text = tile.caption
            guard tile.caption == "1 liked", sizes.byID[2] == nil else { return }
            // Liking tile 1 shows a taller banner on tile 2.
            sizes.byID[2] = 250
            controller.rowHeights.invalidate(ItemID(Tile(id: 2, caption: "2")))
            table.appReconfigures([ItemPath(item: 1, section: 0)])
        }
        controller.attach(to: table)
        var tiles = (1...5).map { Tile(id: $0, caption: "\($0)") }
        controller.apply(TableModel(tiles))
        tiles[0].caption = "1 liked"
        controller.apply(TableModel(tiles))
        #expect(sizes.byID[2] == 250)
        let measures = table.calls.compactMap { if case .measure(let rows) = $0 { rows } else { nil } }
        #expect(measures == [[ItemPath(item: 1, section: 0)]])
        #expect(table.crashes == [])
    }

    /// A configure handler that reconfigures another row while UIKit asks for a cell
    /// (`cellForRowAt`, a pass of the core): `reconfigureRows(at:)` there would have UIKit ask
    /// for cells inside its own request ("Expected dequeued view to be returned to the
    /// collection view … Avoid dequeuing views without a request from the collection view").
    /// The configure waits for the end of the pass with the measure, at the row's path then
    /// (UIKit review 10).
    @Test func aReconfigureFromAConfigureHandlerWaitsForTheEndOfUIKitsPass() throws {
        let controller = ListController(diagnostics: .ignore)
        let table = UIKitLikeBackend()
        var asked = false
        controller.register(TextCell.self, for: Tile.self) { [unowned table] cell, tile in
            cell.text = tile.caption
            guard tile.id == 3, !asked else { return }
            asked = true
            table.appReconfigures([ItemPath(item: 0, section: 0)])
        }
        controller.attach(to: table)
        controller.apply(TableModel((1...5).map { Tile(id: $0, caption: "\($0)") }))
        #expect(asked)
        #expect(table.crashes == [])
        let configured = table.calls.compactMap { if case .reconfigure(let rows) = $0 { rows } else { nil } }
        let measures = table.calls.compactMap { if case .measure(let rows) = $0 { rows } else { nil } }
        #expect(configured == [[ItemPath(item: 0, section: 0)]])
        #expect(measures == [[ItemPath(item: 0, section: 0)]])
    }

    /// While a reload's layout is pending, a reconfigure does nothing: that layout
    /// configures and measures every row it shows.
    @Test func aReconfigureWhileAReloadIsPendingWaitsForTheReload() throws {
        let source = HandCountedSource([3])
        let listView = HeadlessListView(viewportHeight: 200, rowHeight: 44)
        listView.defersLayoutAfterReload = true
        listView.dataSource = source
        listView.reloadData()
        listView.layoutIfNeeded()
        source.counts = [2]
        listView.reloadData()
        listView.clearLog()
        listView.reconfigureItems(at: [ItemPath(item: 2, section: 0)])
        #expect(listView.log.isEmpty)
        listView.layoutIfNeeded()
        #expect(listView.visibleItemPaths.count == 2)
        try listView.checkConsistency()
    }
}
