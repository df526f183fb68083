import CellKit
import CellKitTesting
import Testing

/// A photo whose height is known once its image arrives.
private struct Photo: Identifiable, Equatable, Sendable { let id: Int; var caption: String }
private final class PhotoCell: TextCell { var image: String? }

/// Heights per photo id that a test changes by hand (the image's height once it arrived).
@MainActor private final class Sizes { var byID: [Int: Double] = [:] }

@MainActor
@Suite("Heights: a row's height changes without a content change")
struct RowHeightChangeTests {
    private func makeScreen(_ sizes: Sizes, viewport: Double = 400) -> (ListController, HeadlessListView) {
        let controller = ListController(diagnostics: .ignore)
        controller.register(PhotoCell.self, for: Photo.self) { cell, photo in cell.text = photo.caption }
        controller.rowHeights.set(Photo.self, .measured { photo, _ in MainActor.assumeIsolated { sizes.byID[photo.id] } ?? 100 })
        let listView = HeadlessListView(viewportHeight: viewport, rowHeight: 100)
        controller.attach(to: listView)
        controller.apply(TableModel((1...10).map { Photo(id: $0, caption: "photo \($0)") }))
        return (controller, listView)
    }

    /// d1 (outside check 10a): `reconfigureItems(at:)` measures the row again, as UIKit re-sizes a reconfigured row.
    @Test func reconfigureMeasuresTheRowAgain() throws {
        let sizes = Sizes()
        let (controller, listView) = makeScreen(sizes)
        let first = ItemPath(item: 0, section: 0)
        #expect(listView.offset(ofItemAt: ItemPath(item: 1, section: 0)) == 100)
        sizes.byID[1] = 250
        controller.rowHeights.invalidate(ItemID(Photo(id: 1, caption: "photo 1")))
        let asked = listView.heightRequestCount
        listView.clearLog()
        listView.reconfigureItems(at: [first])
        #expect(listView.log.contains(.reconfigured(first)))
        #expect(listView.heightRequestCount > asked)
        #expect(listView.offset(ofItemAt: ItemPath(item: 1, section: 0)) == 250)
        // Rows pushed below the viewport end display: 250 + 100 fill 400 with a third row.
        #expect(listView.visibleItemPaths.count == 3)
        try listView.checkConsistency()
    }

    /// The way the articles give: the image arrives, the handler records its height,
    /// invalidates the row's height and reconfigures the row once; the reconfigure (whose
    /// configure handler clears the image) hands the image again, and the row is taller.
    @Test func resourceHandlerThatReconfiguresItsRowMakesItTaller() async throws {
        let sizes = Sizes()
        let (controller, listView) = makeScreen(sizes)
        controller.register(PhotoCell.self, for: Photo.self) { cell, photo in
            cell.text = photo.caption
            cell.image = nil
        }
        let deliveries = Box(0)
        controller.dispatch.onResource(Photo.self) { [unowned controller, unowned listView] (cell: PhotoCell, photo, update) in
            deliveries.value += 1
            cell.image = update.value as? String
            guard sizes.byID[photo.id] != 250 else { return }   // once: the reconfigure hands the image again
            sizes.byID[photo.id] = 250
            controller.rowHeights.invalidate(ItemID(photo))
            if let path = controller.model.indexPath(of: photo) { listView.reconfigureItems(at: [path]) }
        }
        controller.provideResource(Photo(id: 1, caption: "photo 1"), key: "image", value: "tall.jpg")
        #expect(deliveries.value == 2)
        #expect((listView.visibleCells.first as? PhotoCell)?.image == "tall.jpg")
        #expect(listView.offset(ofItemAt: ItemPath(item: 1, section: 0)) == 250)
        #expect(listView.visibleTexts == ["photo 1", "photo 2", "photo 3"])
        try listView.checkConsistency()
    }

    /// A handler that reconfigures its row on every delivery does not call itself until the
    /// stack overflows (it crashed with signal 11): the reconfigure asked from the second
    /// delivery hands nothing again.
    @Test func resourceHandlerThatAlwaysReconfiguresItsRowStops() async throws {
        let sizes = Sizes()
        let (controller, listView) = makeScreen(sizes)
        let deliveries = Box(0)
        controller.dispatch.onResource(Photo.self) { [unowned controller, unowned listView] (cell: PhotoCell, photo, update) in
            deliveries.value += 1
            cell.image = update.value as? String
            sizes.byID[photo.id] = 250
            controller.rowHeights.invalidate(ItemID(photo))
            if let path = controller.model.indexPath(of: photo) { listView.reconfigureItems(at: [path]) }
        }
        controller.provideResource(Photo(id: 1, caption: "photo 1"), key: "image", value: "tall.jpg")
        #expect(deliveries.value == 2)
        #expect((listView.visibleCells.first as? PhotoCell)?.image == "tall.jpg")
        #expect(listView.offset(ofItemAt: ItemPath(item: 1, section: 0)) == 250)
        try listView.checkConsistency()

        // A reconfigure from outside a delivery hands the resource again, as before (and stops the same way).
        listView.reconfigureItems(at: [ItemPath(item: 0, section: 0)])
        #expect(deliveries.value == 4)
    }

    /// d3 (outside check 10a): a negative or NaN estimate is reported once, as an unusable estimate.
    @Test(arguments: [-3.0, .nan, 0])
    func unusableEstimateIsReportedOnce(estimate: Double) {
        let collected = CollectedDiagnostics()
        let controller = ListController(diagnostics: collected.handler)
        controller.rowHeights.set(Photo.self, .estimated(estimate))
        let listView = HeadlessListView(viewportHeight: 600, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel([Photo(id: 1, caption: ""), Photo(id: 2, caption: "")]))
        #expect(controller.listView(listView, heightForItemAt: ItemPath(item: 0, section: 0)) == nil)
        let reports = collected.all.filter { $0.kind == .invalidHeight }.map(\.message)
        #expect(reports.count == 1, "\(reports)")
        #expect(reports.allSatisfy { $0.contains("estimate") && $0.contains("Photo") && !$0.contains("using 0.0") }, "\(reports)")
    }

    /// A width that is NaN, infinite or not positive is refused: the width stays, and the
    /// height cache keeps one entry per row however often heights are asked.
    @Test(arguments: [Double.nan, -10, 0, .infinity, -.infinity])
    func unusableWidthIsRefused(width: Double) {
        let sizes = Sizes()
        let (controller, listView) = makeScreen(sizes)
        let collected = CollectedDiagnostics()
        controller.diagnostics = collected.handler
        let before = controller.rowHeights.cache.count
        controller.rowHeights.width = width
        #expect(controller.rowHeights.width == 320)
        #expect(collected.all.map(\.message) == ["RowHeights.width \(width) is not a width rows can be measured at (a finite number above 0); the width stays 320.0"])
        listView.reloadData()
        listView.reloadData()
        #expect(controller.rowHeights.cache.count == before)
    }

    /// Doc gap of outside check 12a: the photo shows three times (the row, a duplicate on
    /// screen, a row with an explicit id below the screen). The article's handler invalidates
    /// `ItemID(photo)` and reconfigures `displayed.indexPaths(of:)`: every row grows, the
    /// off-screen one included (its height measured before was forgotten too).
    @Test func everyRowOfAPhotoGrowsDuplicateAndExplicitIDIncluded() throws {
        let sizes = Sizes()
        let (controller, listView) = makeScreen(sizes, viewport: 600)
        let one = Photo(id: 1, caption: "photo 1")
        var rows = TableModel([one, Photo(id: 2, caption: "photo 2"), one])
        _ = rows.append([ListItem(one, id: "pinned")] + (3...10).map { ListItem(Photo(id: $0, caption: "photo \($0)")) })
        controller.apply(rows)
        let path = { (item: Int) in ItemPath(item: item, section: 0) }
        listView.scroll(to: 400)                                    // the pinned row (300...400) is measured at 100
        listView.scroll(to: 0)
        #expect(listView.offset(ofItemAt: path(4)) == 400)
        controller.dispatch.onResource(Photo.self) { [unowned controller, unowned listView] (cell: PhotoCell, photo, update) in
            cell.image = update.value as? String
            guard sizes.byID[photo.id] != 250 else { return }
            sizes.byID[photo.id] = 250
            controller.rowHeights.invalidate(ItemID(photo))
            listView.reconfigureItems(at: controller.displayed.indexPaths(of: ItemID(photo)))
        }
        #expect(controller.displayed.indexPaths(of: ItemID(one)) == [path(0), path(2), path(3)])
        controller.provideResource(one, key: "image", value: "tall.jpg")
        #expect(listView.offset(ofItemAt: path(1)) == 250)
        #expect(listView.offset(ofItemAt: path(2)) == 350)
        #expect(listView.offset(ofItemAt: path(3)) == 600)
        #expect(listView.offset(ofItemAt: path(4)) == 850, "the pinned row grows too")
        listView.scroll(to: 600)
        #expect(listView.offset(ofItemAt: path(4)) == 850)
        #expect((listView.cell(at: path(3)) as? PhotoCell)?.image == "tall.jpg")
        try listView.checkConsistency()
    }
}
