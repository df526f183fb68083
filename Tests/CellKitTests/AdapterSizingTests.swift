import CellKit
import CellKitTesting
import Testing

/// UIKit review 14: the decisions the UIKit adapters replay for a flow layout's sizes, a
/// refresh started from code, the section index of an empty list and the swipe's delete
/// title. The adapters' UIKit calls are type-checked only (Scripts/ios-typecheck).
@Suite("UIKit adapters' sizing decisions (review 14)")
@MainActor
struct AdapterSizingTests {
    /// Finding 1: a flow layout lays a self-sizing cell out at its estimate; the height its
    /// content needs is recorded (not the estimate) and the item is sized again.
    @Test func aFlowLayoutRecordsTheFittedHeightNotTheEstimate() {
        #expect(SelfSizingStep.forRow(needsMeasuring: true, laidOutHeight: 50, fittedHeight: 120) == .recordAndResize(120))
        #expect(SelfSizingStep.forRow(needsMeasuring: true, laidOutHeight: 44, fittedHeight: 20.5) == .recordAndResize(20.5))
        #expect(SelfSizingStep.forRow(needsMeasuring: true, laidOutHeight: 120, fittedHeight: 120.2) == .record(120.2),
                "within half a point of the size laid out: recorded, no second layout")
        // A cell with no Auto Layout height keeps its estimate: nothing recorded, so it is not frozen at 0.
        #expect(SelfSizingStep.forRow(needsMeasuring: true, laidOutHeight: 50, fittedHeight: 0) == .none)
        #expect(SelfSizingStep.forRow(needsMeasuring: true, laidOutHeight: 50, fittedHeight: .nan) == .none)
        #expect(SelfSizingStep.forRow(needsMeasuring: true, laidOutHeight: 50, fittedHeight: .infinity) == .recordAndResize(RowHeights.maximumHeight))
        #expect(SelfSizingStep.forRow(needsMeasuring: false, laidOutHeight: 50, fittedHeight: 120) == .none)
    }

    /// A table and list layouts size the cell themselves: the height laid out is the real one.
    @Test func aViewThatSizesItsCellsRecordsTheHeightLaidOut() {
        #expect(SelfSizingStep.forRow(needsMeasuring: true, laidOutHeight: 88, fittedHeight: nil) == .record(88))
        #expect(SelfSizingStep.forRow(needsMeasuring: true, laidOutHeight: 0, fittedHeight: nil) == .none)
        #expect(SelfSizingStep.forRow(needsMeasuring: false, laidOutHeight: 88, fittedHeight: nil) == .none)
    }

    /// Finding 1, through the controller: once the fitted height is recorded, the flow
    /// layout's next `sizeForItemAt` (the delegate's height of a self-sizing row) is it.
    @Test func theRecordedHeightIsWhatTheNextSizeQuestionGets() {
        struct Comment: Identifiable, Equatable, Sendable { let id: Int; var text: String }
        let controller = ListController(diagnostics: .ignore)
        controller.rowHeights.set(Comment.self, .estimated(50))
        let listView = HeadlessListView()
        controller.attach(to: listView)
        controller.apply(TableModel([Comment(id: 1, text: "a long comment")]))
        let path = ItemPath(item: 0, section: 0)
        let step = SelfSizingStep.forRow(needsMeasuring: controller.listView(listView, needsMeasuringItemAt: path),
                                         laidOutHeight: 50, fittedHeight: 120)
        guard case .recordAndResize(let height) = step else {
            Issue.record("expected a resize, got \(step)")
            return
        }
        controller.listView(listView, didMeasureHeight: height, forItemAt: path)
        #expect(controller.listView(listView, heightForItemAt: path) == 120)
        #expect(!controller.listView(listView, needsMeasuringItemAt: path))
    }

    /// Finding 2: a flow layout's reference size gives every section its header or footer
    /// (so a supplementary view provider is asked for untitled sections and for footers);
    /// without one, a titled section gets 28 points and an untitled one none.
    @Test func headersAndFootersFollowTheLayoutsReferenceSizeAndTitles() {
        #expect(AdapterSizing.supplementaryHeight(hasTitle: false, referenceHeight: 40) == 40)
        #expect(AdapterSizing.supplementaryHeight(hasTitle: true, referenceHeight: 40) == 40)
        #expect(AdapterSizing.supplementaryHeight(hasTitle: true, referenceHeight: 0) == 28)
        #expect(AdapterSizing.supplementaryHeight(hasTitle: false, referenceHeight: 0) == 0)
        #expect(AdapterSizing.supplementaryHeight(hasTitle: true, referenceHeight: .nan) == 28)
    }

    /// Finding 5: a refresh started from code moves the view up by the control's height
    /// when the list is at its top and in a window, and leaves a scrolled list alone.
    @Test func aRefreshFromCodeRevealsTheSpinnerOnlyAtTheTop() {
        #expect(AdapterSizing.refreshRevealOffset(hasWindow: true, contentOffsetY: -91, topInset: 91, controlHeight: 60) == -151)
        #expect(AdapterSizing.refreshRevealOffset(hasWindow: true, contentOffsetY: 0, topInset: 0, controlHeight: 60) == -60)
        #expect(AdapterSizing.refreshRevealOffset(hasWindow: true, contentOffsetY: 400, topInset: 91, controlHeight: 60) == nil)
        #expect(AdapterSizing.refreshRevealOffset(hasWindow: false, contentOffsetY: -91, topInset: 91, controlHeight: 60) == nil)
        #expect(AdapterSizing.refreshRevealOffset(hasWindow: true, contentOffsetY: -91, topInset: 91, controlHeight: .nan) == nil)
    }

    /// Review 15, item 4: after a refresh has ended the hidden control's frame shrinks
    /// towards 0 (0.5 point), and that stale height is all the adapter can read before
    /// `beginRefreshing()`. Two refreshes from code in a row must both reveal the spinner.
    @Test func aSecondRefreshFromCodeRevealsTheSpinnerDespiteTheShrunkControl() {
        let first = AdapterSizing.refreshRevealOffset(hasWindow: true, contentOffsetY: -91, topInset: 91, controlHeight: 60)
        let second = AdapterSizing.refreshRevealOffset(hasWindow: true, contentOffsetY: -91, topInset: 91, controlHeight: 0.5)
        #expect(first == -151)
        #expect(second == -151)
        #expect(AdapterSizing.refreshRevealOffset(hasWindow: true, contentOffsetY: -91, topInset: 91, controlHeight: 0) == -151)
        // A taller control (with a title) moves the view by its own height.
        #expect(AdapterSizing.refreshRevealOffset(hasWindow: true, contentOffsetY: -91, topInset: 91, controlHeight: 80) == -171)
    }

    /// Finding 9: a collection view's index must jump to an item that exists; a list with
    /// no item shows no index there. A table scrolls to sections and keeps it.
    @Test func anEmptyListShowsNoIndexWhereTheIndexJumpsToItems() {
        let listView = UIKitLikeBackend()
        let source = TableModelDataSource(TableModel(sections: [TableSection(id: 0, items: []), TableSection(id: 1, items: [])]))
        listView.dataSource = source
        listView.reloadData()
        #expect(listView.core.indexTitles(["A", "B"], sectionTops: false) == nil)
        #expect(listView.core.indexTitles(["A", "B"], sectionTops: true) == ["A", "B"])
        source.model = TableModel(sections: [TableSection(id: 0, items: []), TableSection(id: 1, items: [ListItem("b")])])
        listView.reloadData()
        #expect(listView.core.indexTitles(["A", "B"], sectionTops: false) == ["A", "B"])
        #expect(listView.core.indexTitles([], sectionTops: true) == nil)
    }

    /// Review 15, item 3: a row sized again above the viewport moves the content offset by
    /// its growth, so the rows on screen stay put; a row on screen or below moves nothing.
    @Test func aRowResizedAboveTheViewportKeepsTheRowsOnScreenInPlace() {
        #expect(AdapterSizing.contentOffsetAdjustment(oldMinY: 100, oldHeight: 44, newHeight: 120, viewportTop: 400) == 76)
        #expect(AdapterSizing.contentOffsetAdjustment(oldMinY: 100, oldHeight: 120, newHeight: 44, viewportTop: 400) == -76)
        // The first row on screen, its top hidden: the rows below it stay put.
        #expect(AdapterSizing.contentOffsetAdjustment(oldMinY: 380, oldHeight: 44, newHeight: 120, viewportTop: 400) == 76)
        #expect(AdapterSizing.contentOffsetAdjustment(oldMinY: 400, oldHeight: 44, newHeight: 120, viewportTop: 400) == 0)
        #expect(AdapterSizing.contentOffsetAdjustment(oldMinY: 900, oldHeight: 44, newHeight: 120, viewportTop: 400) == 0)
        #expect(AdapterSizing.contentOffsetAdjustment(oldMinY: 100, oldHeight: 44, newHeight: .nan, viewportTop: 400) == 0)
    }

    /// Review 16, item 3: the summed adjustment is clamped so the offset stays between the
    /// content's top (-topInset) and its end; it never moves against the adjustment, nor
    /// further than it.
    @Test func theOffsetAdjustmentStaysWithinTheContent() {
        // 30 points below the top, a row above shrinks by 76: only 30, no gap above row 0.
        #expect(AdapterSizing.contentOffsetAdjustment(-76, contentOffsetY: -70, topInset: 100, maxOffsetY: 2000) == -30)
        // Far from both ends: the whole adjustment.
        #expect(AdapterSizing.contentOffsetAdjustment(-76, contentOffsetY: 500, topInset: 100, maxOffsetY: 2000) == -76)
        #expect(AdapterSizing.contentOffsetAdjustment(76, contentOffsetY: 500, topInset: 100, maxOffsetY: 2000) == 76)
        // 20 points from the end, a row above grows by 76: only 20.
        #expect(AdapterSizing.contentOffsetAdjustment(76, contentOffsetY: 1980, topInset: 100, maxOffsetY: 2000) == 20)
        // Content shorter than the view: the end is the top.
        #expect(AdapterSizing.contentOffsetAdjustment(76, contentOffsetY: -100, topInset: 100, maxOffsetY: -300) == 0)
        // Already pulled past the top (a refresh pull): left where it is, not pushed back.
        #expect(AdapterSizing.contentOffsetAdjustment(-76, contentOffsetY: -160, topInset: 100, maxOffsetY: 2000) == 0)
        #expect(AdapterSizing.contentOffsetAdjustment(0, contentOffsetY: -160, topInset: 100, maxOffsetY: 2000) == 0)
        #expect(AdapterSizing.contentOffsetAdjustment(.nan, contentOffsetY: 0, topInset: 100, maxOffsetY: 2000) == 0)
    }

    /// Finding 3: the delete a deletable row offers is titled from CellKit's strings table.
    @Test func theSwipeDeleteTitleComesFromTheStringsTable() {
        struct Note: Sendable { let id: Int }
        let german = EditingTable(localization: "de")
        german.onDelete(Note.self) { _, _ in }
        #expect(german.deleteTitle == "Löschen")
        #expect(german.trailingActions(for: Note(id: 1), at: ItemPath(item: 0, section: 0)).map(\.title) == ["Löschen"])
        #expect(german.trailingActions(for: Note(id: 1), at: ItemPath(item: 0, section: 0), deleteTitle: "Weg").map(\.title) == ["Weg"])
        let english = EditingTable()
        english.onDelete(Note.self) { _, _ in }
        #expect(english.trailingActions(for: Note(id: 1), at: ItemPath(item: 0, section: 0)).map(\.title) == ["Delete"])
        english.deleteTitle = "Remove"
        #expect(english.trailingActions(for: Note(id: 1), at: ItemPath(item: 0, section: 0)).map(\.title) == ["Remove"])
        #expect(EditingTable(localization: "xx").deleteTitle == "Delete", "no table for the language: English")
    }
}
