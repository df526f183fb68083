import CellKit
import CellKitTesting
import Testing

// An outside user's report (outside8a, d1 and d2): an apply from a display hook, a
// configure handler or a presenter while the list view laid out the rows of a scroll,
// a resize or a scroll to a row ran inside that layout, which then went on with its
// old plan of rows: cells in sections that no longer existed, more cells than the
// viewport holds, or a row showing another row's text. Such an apply now waits for the
// end of the layout pass, as it waits for an apply in progress.

private struct Tune: Identifiable, Equatable, Sendable { let id: Int; var title: String }

private func tracks(_ ids: some Sequence<Int>) -> TableModel {
    TableModel(ids.map { Tune(id: $0, title: "t\($0)") })
}

private func titles(_ ids: some Sequence<Int>) -> [String] { ids.map { "t\($0)" } }

@MainActor
private func screen(viewport: Double = 132, prefetchDistance: Int = 0) -> (ListController, HeadlessListView) {
    let controller = ListController(diagnostics: .ignore)
    controller.register(TextCell.self, for: Tune.self) { cell, track in cell.text = track.title }
    let listView = HeadlessListView(viewportHeight: viewport, rowHeight: 44, prefetchDistance: prefetchDistance)
    controller.attach(to: listView)
    return (controller, listView)
}

/// Every visible cell shows the row the controller has at its path, and the view is consistent.
@MainActor
private func expectShowsDisplayed(_ controller: ListController, _ listView: HeadlessListView, _ context: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
    for path in listView.visibleItemPaths {
        let text = (listView.cell(at: path) as? TextCell)?.text
        if let expected = (controller.displayed.item(at: path)?.model as? Tune)?.title {
            #expect(text == expected, "\(context): row \(path)", sourceLocation: sourceLocation)
        } else {
            // A placeholder row ("No results"): not a stale content row.
            #expect(text.map { !$0.hasPrefix("t") } ?? true, "\(context): row \(path) shows \(text ?? "nil")", sourceLocation: sourceLocation)
        }
    }
    #expect(throws: Never.self, "\(context)", sourceLocation: sourceLocation) { try listView.checkConsistency() }
}

/// A presenter whose `present` runs `onPresent` (an app that applies from there).
@MainActor
private final class ApplyingPresenter: Presenter {
    var onPresent: (Tune) -> Void = { _ in }
    typealias Event = Never
    func present(_ model: Tune, in cell: TextCell, style: CellStyle, context: PresentationContext<Never>) {
        cell.text = model.title
        onPresent(model)
    }
}

extension HeadlessListViewTests {
    @Test func anApplyFromOnWillDisplayDuringAScrollWaitsForTheScrollsLayout() async throws {
        let (controller, listView) = screen()
        var armed = false
        controller.onWillDisplay { _, _ in
            if armed { armed = false; controller.apply(tracks([100, 101])) }
        }
        controller.apply(tracks(0..<30))
        armed = true
        listView.scroll(to: 44 * 2)   // rows 2, 3, 4 come on screen; the first one applies
        #expect(listView.visibleTexts == titles([100, 101]), "paths \(listView.visibleItemPaths)")
        #expect(listView.visibleItemPaths.allSatisfy { $0.section == 0 })
        expectShowsDisplayed(controller, listView, "after the scroll")
    }

    @Test func aLongerModelFromOnWillDisplayDuringAScrollFillsOnlyTheViewport() async throws {
        let (controller, listView) = screen()
        var armed = false
        controller.onWillDisplay { _, _ in
            if armed { armed = false; controller.apply(tracks(100..<140)) }
        }
        controller.apply(tracks(0..<30))
        armed = true
        listView.scroll(to: 44 * 10)
        let top = Int(listView.contentOffset / 44)
        #expect(listView.visibleItemPaths == (top..<top + 3).map { ItemPath(item: $0, section: 0) })
        expectShowsDisplayed(controller, listView, "after the scroll")
    }

    @Test func anApplyFromOnWillDisplayWhileTheViewportGrowsWaitsForItsLayout() async throws {
        let (controller, listView) = screen()
        var once = true
        controller.onWillDisplay { _, item in
            if once, item.model(as: Tune.self)?.id == 4 {
                once = false
                controller.apply(tracks([100, 0, 1]))
            }
        }
        controller.apply(tracks(0..<10))
        listView.viewportHeight = 300   // rows 3…6 come on screen
        #expect(listView.visibleItemPaths == (0..<3).map { ItemPath(item: $0, section: 0) })
        #expect(listView.visibleTexts == titles([100, 0, 1]))
        expectShowsDisplayed(controller, listView, "after the resize")
    }

    @Test func anApplyFromOnWillDisplayDuringAScrollToARowWaitsForItsLayout() async throws {
        let (controller, listView) = screen()
        var armed = false
        controller.onWillDisplay { _, _ in
            if armed { armed = false; controller.apply(tracks([200, 201, 202, 203, 204, 205])) }
        }
        controller.apply(tracks(0..<30))
        armed = true
        listView.scrollToItem(at: ItemPath(item: 20, section: 0))
        #expect(controller.displayed.itemCount == 6)
        #expect(listView.visibleItemPaths.count == 3)
        expectShowsDisplayed(controller, listView, "after the scroll to a row")
    }

    @Test func anApplyFromOnPrefetchDuringAScrollWaitsForItsLayout() async throws {
        let (controller, listView) = screen(prefetchDistance: 3)
        var armed = false
        controller.onPrefetch { _ in
            if armed { armed = false; controller.apply(tracks([300, 301])) }
        }
        controller.apply(tracks(0..<30))
        listView.scroll(to: 44 * 8)
        armed = true
        // Row 8 leaves the screen for the prefetch zone: it is announced before the rows
        // below show, and the hook applies then.
        listView.scroll(by: 44)
        #expect(listView.visibleTexts == titles([300, 301]))
        expectShowsDisplayed(controller, listView, "after the scroll")
    }

    @Test func anApplyFromAConfigureHandlerDuringAScrollLeavesNoStaleCell() async throws {
        let controller = ListController(diagnostics: .ignore)
        var once = true
        controller.register(TextCell.self, for: Tune.self) { cell, track in
            cell.text = track.title
            if track.id == 6 && once { once = false; controller.apply(tracks([0, 1, 2])) }
        }
        let listView = HeadlessListView(viewportHeight: 132, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(tracks(0..<10))
        listView.scroll(to: 44 * 4)   // rows 4, 5, 6 come on screen; row 6's configure applies
        #expect(listView.visibleTexts == titles([0, 1, 2]), "shows \(listView.visibleTexts) at \(listView.visibleItemPaths)")
        expectShowsDisplayed(controller, listView, "after the scroll")
    }

    @Test func aRowInsertedAboveFromAConfigureHandlerDuringAScrollShowsTheRightRows() async throws {
        let controller = ListController(diagnostics: .ignore)
        var once = true
        controller.register(TextCell.self, for: Tune.self) { cell, track in
            cell.text = track.title
            if track.id == 6 && once { once = false; controller.apply(tracks([100] + Array(0..<10))) }
        }
        let listView = HeadlessListView(viewportHeight: 132, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(tracks(0..<10))
        listView.clearLog()
        listView.scroll(to: 44 * 4)
        #expect(controller.displayed.itemCount == 11)
        expectShowsDisplayed(controller, listView, "after the scroll")
        // No batch ran inside the row's configuration: the configured row showed before the batch.
        let log = listView.log.map(\.description)
        let batch = log.firstIndex { $0.hasPrefix("batch") }
        let shown = log.firstIndex { $0 == "displayed \(ItemPath(item: 6, section: 0))" }
        #expect(batch != nil && shown != nil && shown! < batch!, "\(log)")
    }

    @Test func anApplyFromAPresenterDuringAScrollWaitsForItsLayout() async throws {
        let controller = ListController(diagnostics: .ignore)
        let presenter = ApplyingPresenter()
        var once = true
        presenter.onPresent = { track in
            if track.id == 5 && once { once = false; controller.apply(tracks([7, 8])) }
        }
        controller.addPresenter(presenter)
        let listView = HeadlessListView(viewportHeight: 132, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(tracks(0..<10))
        listView.scroll(to: 44 * 4)
        #expect(listView.visibleTexts == titles([7, 8]))
        expectShowsDisplayed(controller, listView, "after the scroll")
    }

    /// The newest apply asked for during one layout pass wins, once.
    @Test func twoAppliesFromOneLayoutPassShowTheLast() async throws {
        let (controller, listView) = screen()
        var calls = 0
        controller.onWillDisplay { _, item in
            // Rows 5, 6 and 7 of the first model apply; the rows they bring do not.
            guard let id = item.model(as: Tune.self)?.id, (5..<30).contains(id) else { return }
            calls += 1
            controller.apply(tracks([100 + calls]))
        }
        controller.apply(tracks(0..<30))
        listView.scroll(to: 44 * 5)   // rows 5, 6, 7 come on screen: three applies
        #expect(calls == 3)
        #expect(listView.visibleTexts == titles([103]))
        expectShowsDisplayed(controller, listView, "after the scroll")
    }

    /// An app's own batch started while the list view makes the cells of a scroll is
    /// refused (UIKit asserts when asked about its cells while it updates them);
    /// `performWhenIdle` runs it after the pass.
    @Test func anAppsOwnBatchDuringALayoutPassIsRefusedAndWaitsWithPerformWhenIdle() throws {
        let listView = HeadlessListView(viewportHeight: 132, rowHeight: 44)
        let source = TableModelDataSource(TableModel(Array(0..<10)))
        listView.dataSource = source
        final class Hook: ListViewDelegate {
            var onDisplay: (ItemPath) -> Void = { _ in }
            func listView(_ listView: any ListView, willDisplay cell: AnyObject, at path: ItemPath) { onDisplay(path) }
        }
        let hook = Hook()
        listView.delegate = hook
        listView.reloadData()
        var outcome: BatchOutcome?
        var wasUpdating = false
        var ranAfter = false
        hook.onDisplay = { path in
            guard path.item == 4, outcome == nil else { return }
            wasUpdating = listView.isUpdating
            outcome = listView.performBatchUpdates(Changeset(itemDeletes: [ItemPath(item: 0, section: 0)])) {
                source.model = TableModel(Array(1..<10))
            }
            listView.performWhenIdle {
                ranAfter = !listView.isUpdating
                listView.performBatchUpdates(Changeset(itemDeletes: [ItemPath(item: 0, section: 0)])) {
                    source.model = TableModel(Array(1..<10))
                }
            }
        }
        listView.scroll(to: 44 * 3)
        #expect(wasUpdating)
        guard case .refused(let message) = outcome else {
            Issue.record("expected a refusal, got \(String(describing: outcome))")
            return
        }
        #expect(message.contains("layout pass"))
        #expect(ranAfter)
        #expect(listView.sectionCounts == [9])
        #expect(!listView.isUpdating)
        // The refused batch is what UIKit asserts on: checkConsistency() names it.
        #expect(throws: HeadlessListViewInconsistency.self) { try listView.checkConsistency() }
        #expect(listView.core.consistencyProblem() == message)
    }

    /// Hooks that apply random models during random scrolls, resizes, scrolls to a row
    /// and prefetches, and hooks that scroll, resize or scroll to a row themselves
    /// (outside9a D2: those ran inside the pass and left cells outside the viewport): the
    /// view always shows what the controller displays.
    @Test(arguments: [UInt64(1), 7, 42, 2026, 31337, 0xC0FFEE])
    func hooksApplyingDuringRandomLayoutPassesKeepTheViewRight(seed: UInt64) throws {
        print("hooksApplyingDuringRandomLayoutPassesKeepTheViewRight seed \(seed)")
        var random = SplitMix64(seed: seed)
        let (controller, listView) = screen(prefetchDistance: 2)
        var armedDisplay = false, armedPrefetch = false, armedConfigure = false
        var armedMoveInDisplay = false, armedMoveInConfigure = false
        var next = 1000
        /// A scroll, a resize or a scroll to a row, as a hook asks for one.
        func randomMove() {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: listView.scroll(to: Double.random(in: 0...max(0, listView.contentHeight), using: &random))
            case 1: listView.viewportHeight = Double(Int.random(in: 1...8, using: &random) * 44)
            case 2: listView.scroll(by: Double(Int.random(in: -3...3, using: &random) * 44))
            default:
                let counts = listView.sectionCounts
                if let section = counts.indices.filter({ counts[$0] > 0 }).randomElement(using: &random) {
                    listView.scrollToItem(at: ItemPath(item: Int.random(in: 0..<counts[section], using: &random), section: section))
                }
            }
        }
        func randomModel() -> TableModel {
            let sections = Int.random(in: 1...3, using: &random)
            return TableModel(sections: (0..<sections).map { section -> TableSection in
                let count = Int.random(in: 0...12, using: &random)
                let items = (0..<count).map { _ -> ListItem in next += 1; return ListItem(Tune(id: next, title: "t\(next)")) }
                return TableSection(id: SectionID(section), items: items)
            })
        }
        controller.onWillDisplay { _, _ in
            if armedDisplay { armedDisplay = false; controller.apply(randomModel()) }
            if armedMoveInDisplay { armedMoveInDisplay = false; randomMove() }
        }
        controller.onPrefetch { _ in
            if armedPrefetch { armedPrefetch = false; controller.apply(randomModel()) }
        }
        controller.register(TextCell.self, for: Tune.self) { (cell: TextCell, track: Tune) in
            cell.text = track.title
            if armedConfigure { armedConfigure = false; controller.apply(randomModel()) }
            if armedMoveInConfigure { armedMoveInConfigure = false; randomMove() }
        }
        controller.apply(tracks(0..<30))
        for step in 0..<60 {
            armedDisplay = Bool.random(using: &random)
            armedPrefetch = Bool.random(using: &random)
            armedConfigure = Bool.random(using: &random)
            armedMoveInDisplay = Bool.random(using: &random)
            armedMoveInConfigure = Bool.random(using: &random)
            randomMove()
            armedDisplay = false; armedPrefetch = false; armedConfigure = false
            armedMoveInDisplay = false; armedMoveInConfigure = false
            #expect(!listView.isUpdating)
            let context = "seed \(seed), step \(step)"
            expectShowsDisplayed(controller, listView, context)
            do { try listView.checkConsistency() } catch {
                Issue.record("\(context): \(error)")
                return
            }
        }
    }
}
