import CellKit
import CellKitTesting
import Foundation
import Testing

// Issue 13: a change of what the list shows (loading → loaded, failed, empty) is
// announced to assistive technologies; the controller decides, the list view posts.

private struct Offline: LocalizedError {
    var errorDescription: String? { "You are offline." }
}

@MainActor
@Suite("Announcements of state changes")
struct AnnouncementTests {
    @Test func aFirstLoadThatFailsThenSucceedsOnRetryIsAnnouncedStepByStep() async throws {
        let gate = FetchGate<[Post]>()
        let (source, screen, first) = await loadingRemoteScreen(gate: gate)
        await screen.controller.settle()
        #expect(screen.listView.announcements.isEmpty, "the loading row that shows from the start is not announced")

        await gate.resume(0, throwing: Offline())
        await first.value
        await screen.controller.settle()
        #expect(screen.listView.announcements == [ListAnnouncement(kind: .failed, message: "You are offline.")])

        screen.listView.selectItem(at: ItemPath(item: 0, section: 0))  // retry
        await screen.controller.settle()
        await gate.waitForCalls(2)
        await gate.resume(1, returning: posts(0..<3))
        while source.isFetching { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.listView.announcements.map(\.kind) == [.failed, .loading, .loaded])
        #expect(screen.listView.announcements.last?.message == "Content loaded")
        #expect(screen.listView.log.contains(.announced(ListAnnouncement(kind: .loaded, message: "Content loaded"))))
        try screen.expectConsistent()
    }

    @Test func aRefreshThatKeepsContentSaysNothingButAFailedOneIsAnnounced() async throws {
        let gate = FetchGate<[Post]>()
        let (source, screen) = await loadedRemoteScreen(gate: gate, initial: posts(0..<3))
        await screen.controller.settle()
        #expect(screen.listView.announcements.map(\.kind) == [.loaded])

        let refresh = source.refresh()
        await gate.waitForCalls(2)
        await gate.resume(1, returning: posts(0..<4))
        await refresh.value
        await screen.controller.settle()
        #expect(screen.listView.announcements.map(\.kind) == [.loaded], "more rows in a list that had rows: nothing to say")

        let failing = source.refresh()
        await gate.waitForCalls(3)
        await gate.resume(2, throwing: Offline())
        await failing.value
        await screen.controller.settle()
        #expect(screen.listView.announcements.last == ListAnnouncement(kind: .failed, message: "You are offline."))
        #expect(screen.shownIDs == [0, 1, 2, 3], "the content stays")

        let again = source.refresh()   // the failure turns back into .loaded while the content stays
        await gate.waitForCalls(4)
        await screen.controller.settle()
        #expect(screen.listView.announcements.map(\.kind) == [.loaded, .failed])
        await gate.resume(3, returning: posts(0..<4))
        await again.value
        await screen.controller.settle()
        #expect(screen.listView.announcements.map(\.kind) == [.loaded, .failed])
    }

    @Test func anEmptyResultIsAnnouncedOnce() {
        let listView = HeadlessListView()
        let controller = ListController(diagnostics: .ignore)
        controller.attach(to: listView)
        controller.apply(TableModel(), state: .empty)
        controller.apply(TableModel(), state: .loaded)
        #expect(listView.announcements == [ListAnnouncement(kind: .empty, message: "No results")])
    }

    @Test func theAnnouncementsUseTheAppsTexts() {
        let listView = HeadlessListView()
        let controller = ListController(diagnostics: .ignore)
        controller.placeholders.loadedAnnouncement = "Users loaded"
        controller.placeholders.loading.message = "Loading users…"
        controller.attach(to: listView)
        controller.apply(TableModel([Post(1)]))
        controller.apply(TableModel(), state: .loading)
        #expect(listView.announcements.map(\.message) == ["Users loaded", "Loading users…"])
    }

    @Test func theRulesAsATable() {
        let p = ListController.Placeholders()
        func said(_ a: ContentState, _ aEmpty: Bool, _ b: ContentState, _ bEmpty: Bool) -> ListAnnouncement.Kind? {
            ListAnnouncement.between(.init(state: a, isEmpty: aEmpty), .init(state: b, isEmpty: bEmpty), placeholders: p)?.kind
        }
        #expect(said(.loading, true, .loading, true) == nil)
        #expect(said(.loaded, false, .loading, false) == nil, "a reload that keeps content")
        #expect(said(.loaded, false, .loading, true) == .loading)
        #expect(said(.loading, true, .loaded, false) == .loaded)
        #expect(said(.loading, true, .empty, true) == .empty)
        #expect(said(.empty, true, .loaded, true) == nil)
        #expect(said(.empty, true, .loaded, false) == .loaded)
        #expect(said(.loaded, false, .loaded, false) == nil)
        #expect(said(.loaded, false, .failed(Offline()), false) == .failed)
        #expect(said(.failed(Offline()), false, .failed(Offline()), false) == nil, "the same failure twice in a row")
        #expect(said(.failed(Offline()), true, .loaded, false) == .loaded)
        #expect(said(.failed(Offline()), false, .loaded, false) == nil)
    }
}
