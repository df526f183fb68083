import CellKit
import CellKitTesting
import Testing

// An outside user's report (outside9a, D2): a scroll, a resize or a scroll to a row asked
// from a configure handler while the list view laid out the rows of a scroll, a resize or
// a scroll to a row ran inside that pass, which then went on with its old rows: cells left
// outside the viewport (4 cells in a 2-row viewport) and checkConsistency() throwing. It now
// runs once the pass is over (ListViewCore.performViewportChange), the newest position winning.

private struct Line: Identifiable, Equatable, Sendable { let id: Int; var text: String }

private func lines(_ ids: some Sequence<Int>) -> TableModel {
    TableModel(ids.map { Line(id: $0, text: "r\($0)") })
}

private func texts(_ ids: some Sequence<Int>) -> [String] { ids.map { "r\($0)" } }

/// A controller and a headless view of `viewport` points (rows of 44) whose configure
/// handler runs `hook` for each row it configures.
@MainActor
private func screen(viewport: Double = 88, hook: @escaping (HeadlessListView, Line) -> Void) -> (ListController, HeadlessListView) {
    let controller = ListController(diagnostics: .ignore)
    let listView = HeadlessListView(viewportHeight: viewport, rowHeight: 44)
    controller.register(TextCell.self, for: Line.self) { [unowned listView] cell, line in
        cell.text = line.text
        hook(listView, line)
    }
    controller.attach(to: listView)
    return (controller, listView)
}

@MainActor
private func expectConsistent(_ listView: HeadlessListView, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!listView.isUpdating, "\(context)", sourceLocation: sourceLocation)
    #expect(throws: Never.self, "\(context)", sourceLocation: sourceLocation) { try listView.checkConsistency() }
}

extension HeadlessListViewTests {
    @Test func aScrollFromAConfigureHandlerDuringAScrollRunsAfterIt() throws {
        var armed = false
        let (controller, listView) = screen { listView, line in
            if armed && line.id == 30 { armed = false; listView.scroll(to: 44 * 60) }   // "keep the selection in view"
        }
        controller.apply(lines(0..<100))
        armed = true
        listView.scroll(to: 44 * 30)
        #expect(listView.visibleTexts == texts([60, 61]))
        #expect(listView.contentOffset == 44 * 60)
        expectConsistent(listView, "after the scroll")
    }

    @Test func aResizeFromAConfigureHandlerDuringAScrollRunsAfterIt() throws {
        var armed = false
        var heightSeenInside: Double?
        var offsetSeenInside: Double?
        let (controller, listView) = screen { listView, line in
            guard armed && line.id == 30 else { return }
            armed = false
            listView.viewportHeight = 44
            // The property takes the value at once; the viewport changes after the pass.
            heightSeenInside = listView.viewportHeight
            offsetSeenInside = listView.contentOffset
        }
        controller.apply(lines(0..<100))
        armed = true
        listView.scroll(to: 44 * 30)
        #expect(heightSeenInside == 44)
        #expect(offsetSeenInside == Double(44 * 30))
        #expect(listView.visibleTexts == texts([30]))
        expectConsistent(listView, "after the scroll")
    }

    @Test func aScrollToARowOrByADistanceFromAConfigureHandlerDuringAScrollRunsAfterIt() throws {
        for byDistance in [false, true] {
            var armed = false
            var offsetSeenInside: Double?
            let (controller, listView) = screen { listView, line in
                guard armed && line.id == 30 else { return }
                armed = false
                if byDistance { listView.scroll(by: 44 * 10) } else { listView.scrollToItem(at: ItemPath(item: 50, section: 0)) }
                offsetSeenInside = listView.contentOffset   // not moved yet: the scroll waits
            }
            controller.apply(lines(0..<100))
            armed = true
            listView.scroll(to: 44 * 30)
            #expect(offsetSeenInside == Double(44 * 30))
            #expect(listView.visibleTexts == (byDistance ? texts([40, 41]) : texts([50, 51])), "by distance: \(byDistance)")
            expectConsistent(listView, "by distance: \(byDistance)")
        }
    }

    @Test func aScrollFromAConfigureHandlerDuringAResizeRunsAfterIt() throws {
        var armed = false
        let (controller, listView) = screen { listView, line in
            if armed && line.id == 3 { armed = false; listView.scroll(to: 44 * 60) }
        }
        controller.apply(lines(0..<100))
        armed = true
        listView.viewportHeight = 44 * 5   // rows 2, 3, 4 come on screen; row 3 scrolls
        #expect(listView.visibleTexts == texts(60..<65))
        expectConsistent(listView, "after the resize")
    }

    @Test func aScrollFromAConfigureHandlerDuringAScrollToARowRunsAfterIt() throws {
        var armed = false
        let (controller, listView) = screen { listView, line in
            if armed && line.id == 20 { armed = false; listView.scroll(to: 44 * 70) }
        }
        controller.apply(lines(0..<100))
        armed = true
        listView.scrollToItem(at: ItemPath(item: 20, section: 0))
        #expect(listView.visibleTexts == texts([70, 71]))
        expectConsistent(listView, "after the scroll to a row")
    }

    /// UIKit lays out only the last content offset set before its next layout pass: of two
    /// scrolls asked in one pass, only the newest one's rows are made.
    @Test func theNewestOfTwoScrollsFromOnePassWinsAndOnlyItsRowsAreMade() throws {
        var armed = false
        let (controller, listView) = screen { listView, line in
            guard armed && line.id == 30 else { return }
            armed = false
            listView.scroll(to: 44 * 50)
            listView.scrollToItem(at: ItemPath(item: 80, section: 0))
        }
        controller.apply(lines(0..<100))
        armed = true
        listView.clearLog()
        listView.scroll(to: 44 * 30)
        #expect(listView.visibleTexts == texts([80, 81]))
        #expect(!listView.log.contains(.displayed(ItemPath(item: 50, section: 0))), "\(listView.log)")
        expectConsistent(listView, "after the scrolls")
    }

    /// Scrolls by a distance add up, after a scroll to a position asked before them.
    @Test func scrollsByADistanceFromOnePassAddUp() throws {
        var armed = false
        let (controller, listView) = screen { listView, line in
            guard armed && line.id == 30 else { return }
            armed = false
            listView.scroll(to: 44 * 50)
            listView.scroll(by: 44)
            listView.scroll(by: 44 * 2)
        }
        controller.apply(lines(0..<100))
        armed = true
        listView.scroll(to: 44 * 30)
        #expect(listView.visibleTexts == texts([53, 54]))
        expectConsistent(listView, "after the scrolls")
    }

    /// The waiting calls run in the order asked: an apply, then a scroll to a row of the new model.
    @Test func aScrollToARowAfterAnApplyFromOnePassFindsTheRowOfTheNewModel() throws {
        var armed = false
        var controller: ListController?
        let (c, listView) = screen { listView, line in
            guard armed && line.id == 30 else { return }
            armed = false
            controller?.apply(lines(200..<400))
            listView.scrollToItem(at: ItemPath(item: 150, section: 0))   // a row only the new model has
        }
        controller = c
        c.apply(lines(0..<100))
        armed = true
        listView.scroll(to: 44 * 30)
        #expect(listView.visibleTexts == texts([350, 351]))
        #expect(!listView.log.contains { if case .refused = $0 { true } else { false } }, "\(listView.log)")
        expectConsistent(listView, "after the apply and the scroll")
    }

    /// A scroll from a configure handler during a batch's reconfigure runs after the batch.
    @Test func aScrollFromAConfigureHandlerDuringABatchRunsAfterIt() throws {
        var armed = false
        var wasUpdating = false
        let (controller, listView) = screen { listView, line in
            guard armed && line.id == 0 else { return }
            armed = false
            wasUpdating = listView.isUpdating
            listView.scroll(to: 44 * 40)
        }
        var model = lines(0..<100)
        controller.apply(model)
        armed = true
        model = TableModel([Line(id: 0, text: "r0 changed")] + (1..<100).map { Line(id: $0, text: "r\($0)") })
        controller.apply(model)   // row 0 is reconfigured: its configure handler scrolls
        #expect(wasUpdating)
        #expect(listView.visibleTexts == texts([40, 41]))
        expectConsistent(listView, "after the batch")
    }

    /// Outside check 10c, D2: a hook inside the controller's own apply (the reconfigure of a
    /// changed row) that applies a model, then scrolls to a row of it, got its scroll run
    /// first, against the old 3-row model (refused), and the apply after it.
    @Test func aScrollToARowAfterAnApplyFromAHookInTheControllersOwnApplyFindsTheRowOfTheNewModel() throws {
        var armed = false
        var controller: ListController?
        let (c, listView) = screen { listView, line in
            guard armed && line.text == "changed" else { return }
            armed = false
            controller?.apply(lines(0..<200))                                 // asked first
            listView.scrollToItem(at: ItemPath(item: 150, section: 0))        // a row of that model
        }
        controller = c
        c.apply(lines(0..<3))
        armed = true
        c.apply(TableModel([Line(id: 0, text: "changed"), Line(id: 1, text: "r1"), Line(id: 2, text: "r2")]))
        #expect(c.displayed.itemCount == 200)
        #expect(!listView.log.contains { if case .refused = $0 { true } else { false } }, "\(listView.log)")
        #expect(listView.visibleTexts == texts([150, 151]))
        expectConsistent(listView, "after the apply and the scroll")
    }

    /// Outside check 10c, D2: the same from a display hook during the controller's first apply,
    /// with a scroll to an offset (it was clamped to the old 3-row model).
    @Test func aScrollAfterAnApplyFromADisplayHookDuringTheFirstApplyScrollsTheNewModel() throws {
        let (controller, listView) = screen { _, _ in }
        var once = true
        controller.onWillDisplay { [unowned controller, unowned listView] _, _ in
            guard once else { return }
            once = false
            controller.apply(lines(0..<200))
            listView.scroll(to: 44 * 150)
        }
        controller.apply(lines(0..<3))
        #expect(controller.displayed.itemCount == 200)
        #expect(listView.contentOffset == 44 * 150)
        #expect(listView.visibleTexts == texts([150, 151]))
        expectConsistent(listView, "after the apply and the scroll")
    }

    /// In the order asked, both ways: a scroll a hook asks before its apply runs before it,
    /// against the model shown (row 150 of 3 rows is refused, naming it).
    @Test func aScrollBeforeAnApplyFromAHookInTheControllersOwnApplyRunsFirst() throws {
        var armed = false
        var controller: ListController?
        let (c, listView) = screen { listView, line in
            guard armed && line.text == "changed" else { return }
            armed = false
            listView.scrollToItem(at: ItemPath(item: 150, section: 0))        // asked first
            controller?.apply(lines(0..<200))
        }
        controller = c
        c.apply(lines(0..<3))
        armed = true
        listView.clearLog()
        c.apply(TableModel([Line(id: 0, text: "changed"), Line(id: 1, text: "r1"), Line(id: 2, text: "r2")]))
        #expect(c.displayed.itemCount == 200)
        let refusals = listView.log.compactMap { if case .refused(let message) = $0 { message } else { nil } }
        #expect(refusals.count == 1 && refusals.first?.contains("row 150") == true, "\(refusals)")
        #expect(listView.visibleTexts == texts([0, 1]))
        // Row 150 was missing when asked: a violation (UITableView raises for it).
        #expect(throws: HeadlessListViewInconsistency.self) { try listView.checkConsistency() }
        #expect(!listView.isUpdating)
    }

    /// A scroll asked when nothing is under way runs at once, as before.
    @Test func aScrollOutsideAPassRunsAtOnce() {
        let (controller, listView) = screen { _, _ in }
        controller.apply(lines(0..<100))
        listView.scroll(to: 44 * 10)
        #expect(listView.contentOffset == 44 * 10)
        listView.viewportHeight = 44
        #expect(listView.visibleTexts == texts([10]))
        listView.scrollToItem(at: ItemPath(item: 99, section: 0))
        #expect(listView.visibleTexts == texts([99]))
    }
}
