import CellKit
import CellKitTesting
import Testing

@MainActor
@Suite("Data sources: local edits")
struct LocalEditTests {
    @Test func simpleSourceEditsWithTheTableModelMutations() async throws {
        let screen = PostScreen()
        let source = SimpleDataSource(posts(0..<5))
        screen.controller.bind(to: source)
        await screen.controller.settle()
        let removed = source.edit { $0.remove(at: ItemPath(item: 1, section: 0)) }
        #expect(removed == Changeset(itemDeletes: [ItemPath(item: 1, section: 0)]))
        source.edit { model in
            _ = model.insert([Post(9)], at: ItemPath(item: 0, section: 0))
            _ = model.move(from: ItemPath(item: 4, section: 0), to: ItemPath(item: 1, section: 0))
            _ = model.replace(at: ItemPath(item: 2, section: 0), with: ListItem(Post(0, "liked")))
        }
        #expect(screen.controller.isApplying, "published at once")
        await screen.controller.settle()
        #expect(screen.shownIDs == [9, 4, 0, 2, 3])
        #expect(screen.listView.visibleTexts[2] == "liked")
        try screen.expectConsistent()
    }

    @Test func aRowRemovedLocallyDoesNotComeBackFromALaterPageOrARefresh() async throws {
        let (gate, source, screen) = await loadedPagedScreen(prefetchDistance: 0, firstPage: posts(0..<10), hasMore: true)
        await screen.controller.settle()

        // Swipe to delete post 9, like post 0, move post 5 to the top, insert a draft: all shown at once.
        source.edit { items in
            items.removeAll { $0.id == 9 }
            items[0].text = "liked"
            items.insert(items.remove(at: 5), at: 0)
            items.insert(Post(50, "draft"), at: 1)
        }
        await screen.controller.settle()
        #expect(screen.shownIDs == [5, 50, 0, 1, 2, 3, 4, 6, 7, 8])
        #expect(screen.listView.visibleTexts.prefix(3) == ["post 5", "draft", "liked"])

        // The server has not seen the delete: page 1 overlaps and still holds post 9 (and post 5 again).
        let more = try #require(source.loadNextPage())
        await gate.waitForCalls(2)
        await gate.resume(1, returning: Page(posts([5, 8, 9, 10, 11]), hasMore: true))
        await more.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [5, 50, 0, 1, 2, 3, 4, 6, 7, 8, 10, 11], "no post 9; edits kept")
        #expect(screen.listView.visibleTexts[2] == "liked", "a page does not replace a loaded row")

        // A refresh: the server's versions of what it returns, but still no post 9, and the draft stays.
        let refresh = source.refresh()
        await gate.waitForCalls(3)
        await gate.resume(2, returning: Page(posts(0..<12), hasMore: false))
        await refresh.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 50, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11])
        #expect(!source.items.contains { $0.id == 9 })
        try screen.expectConsistent()
    }

    @Test func anEditDuringARefreshIsRespectedByItsResult() async throws {
        let gate = FetchGate<[Post]>()
        let (source, screen) = await loadedRemoteScreen(gate: gate, initial: posts(0..<5))
        let refresh = source.refresh()
        source.edit { $0.remove(at: 2) }
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 1, 3, 4])
        #expect(screen.controller.activity == .refreshing, "the refresh still runs")
        await gate.waitForCalls(2)
        await gate.resume(1, returning: posts(0..<6))
        await refresh.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 1, 3, 4, 5])

        // Inserting the id again brings it back.
        source.edit { $0.insert(Post(2), at: 2) }
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 1, 2, 3, 4, 5])
        try screen.expectConsistent()
    }

    @Test func sectionedSourceRegroupsAfterAnEdit() {
        struct Contact: Identifiable, Equatable, Sendable { let id: Int; var name: String }
        let source = SectionedDataSource.alphabetical([Contact(id: 1, name: "Ada"), Contact(id: 2, name: "Bob")], name: \.name)
        source.edit { $0[1].name = "Alan" }
        #expect(source.model.sections.map(\.header) == ["A"])
        #expect(source.model.sections[0].items.count == 2)
    }
}
