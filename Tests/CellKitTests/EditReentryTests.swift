@testable import CellKit
import CellKitTesting
import Testing

/// `edit(_:)` re-entered from its own closure: reading the source inside it, and an
/// edit nested in an edit (a screen's helper that reads or edits the source, called
/// from an edit). Before the fix, reading `items` inside the closure of a paged or
/// remote source, and any nested edit on them, trapped with an exclusivity violation
/// (release builds too); a nested edit on a simple or sectioned source was lost
/// without a word. Now a nested edit applies after the outer one.
@MainActor
@Suite("Data sources: edit re-entered from its own closure")
struct EditReentryTests {
    @Test func readingAPagedSourceInsideItsEditSeesTheItemsFromBeforeTheEdit() async {
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { _ in Page(posts(0..<2), hasMore: false) }
        await source.load().value
        let seen = source.edit { items -> [Int] in
            items.append(Post(9))
            return source.items.map(\.id) + [source.snapshot.model.itemCount]
        }
        #expect(seen == [0, 1, 2])
        #expect(source.items.map(\.id) == [0, 1, 9])
        #expect(source.snapshot.model.itemCount == 3)
    }

    @Test func readingARemoteSourceInsideItsEditSeesTheItemsFromBeforeTheEdit() async {
        let source = RemoteDataSource { posts(0..<2) }
        await source.load().value
        let seen = source.edit { items -> [Int] in
            items.append(Post(9))
            return source.items.map(\.id) + [source.snapshot.model.itemCount]
        }
        #expect(seen == [0, 1, 2])
        #expect(source.items.map(\.id) == [0, 1, 9])
    }

    @Test func readingASimpleOrSectionedSourceInsideItsEditSeesTheContentFromBeforeTheEdit() {
        let simple = SimpleDataSource(posts(0..<2))
        let simpleSeen = simple.edit { model -> Int in
            _ = model.append(posts([9]))
            return simple.model.itemCount
        }
        #expect(simpleSeen == 2 && simple.model.itemCount == 3)

        let sectioned = SectionedDataSource(posts(0..<2), sectionBy: { $0.id % 2 })
        let sectionedSeen = sectioned.edit { items -> Int in
            items.append(Post(9))
            return sectioned.items.count + sectioned.model.itemCount
        }
        #expect(sectionedSeen == 4 && sectioned.items.count == 3)
    }

    @Test func aNestedEditIsAppliedAfterTheOuterOneInEverySource() async {
        let paged = PaginatedDataSource<Post>(prefetchDistance: 0) { _ in Page(posts(0..<4), hasMore: false) }
        let remote = RemoteDataSource { posts(0..<4) }
        let simple = SimpleDataSource(posts(0..<4))
        let sectioned = SectionedDataSource(posts(0..<4), sectionBy: { _ in 0 })
        let controllers = ([paged, remote, simple, sectioned] as [any ListDataSource]).map { source -> ListController in
            let controller = ListController(diagnostics: .ignore)
            controller.attach(to: HeadlessListView())
            controller.bind(to: source)
            return controller
        }
        await paged.load().value
        await remote.load().value

        // The outer edit appends 5 and removes 1; a helper called from it appends 6,
        // marks post 2 read and removes post 3, working on the content from before the
        // outer edit (what reading the source shows), and its result comes back.
        func outer(_ items: inout [Post], nested: () -> [Int]) -> [Int] {
            items.append(Post(5))
            items.removeAll { $0.id == 1 }
            return nested()
        }
        func helper(_ items: inout [Post]) -> [Int] {
            items.append(Post(6))
            items[2].text = "read"
            items.removeAll { $0.id == 3 }
            return items.map(\.id)
        }
        let pagedSeen = paged.edit { items in outer(&items) { paged.edit(helper) } }
        let remoteSeen = remote.edit { items in outer(&items) { remote.edit(helper) } }
        let sectionedSeen = sectioned.edit { items in outer(&items) { sectioned.edit(helper) } }
        let simpleSeen = simple.edit { model -> [Int] in
            _ = model.append(posts([5]))
            _ = model.remove(at: ItemPath(item: 1, section: 0))
            return simple.edit { inner -> [Int] in
                _ = inner.append(posts([6]))
                _ = inner.replace(at: ItemPath(item: 2, section: 0), with: ListItem(Post(2, "read")))
                _ = inner.remove(at: ItemPath(item: 3, section: 0))
                return inner.sections[0].items.compactMap { $0.model(as: Post.self)?.id }
            }
        }
        for seen in [pagedSeen, remoteSeen, sectionedSeen, simpleSeen] { #expect(seen == [0, 1, 2, 6]) }

        let expected = [Post(0), Post(2, "read"), Post(5), Post(6)]
        #expect(paged.items == expected)
        #expect(remote.items == expected)
        #expect(sectioned.items == expected)
        #expect(simple.model.sections[0].items.compactMap { $0.model(as: Post.self) } == expected)

        // One publication each, shown as the sources hold them.
        for controller in controllers {
            await controller.settle()
            #expect(controller.model.sections.flatMap { Array($0.items) }.compactMap { $0.model(as: Post.self) } == expected)
        }

        // A later refresh respects the nested removal too.
        await paged.refresh().value
        await remote.refresh().value
        #expect(!paged.items.contains { $0.id == 3 } && !remote.items.contains { $0.id == 3 })
    }

    /// The article's rule (outside check 12c): a row the inner edit moved goes after the nearest row
    /// before it that is still there; with the outer edit having removed every row before it, to the top.
    @Test func aMovedRowWhoseRowBeforeTheOuterEditRemovedGoesAfterTheNearestOneLeft() async {
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { _ in Page(posts(0..<6), hasMore: false) }
        await source.load().value
        source.edit { items in
            source.edit { inner in let moved = inner.remove(at: 4); inner.insert(moved, at: 1) }   // 0, 4, 1, 2, 3, 5
            items.removeFirst()                                                                     // 1, 2, 3, 4, 5
        }
        #expect(source.items.map(\.id) == [4, 1, 2, 3, 5])
        source.edit { items in
            source.edit { inner in let moved = inner.remove(at: 4); inner.insert(moved, at: 2) }   // 4, 1, 5, 2, 3
            items.remove(at: 1)                                                                     // 4, 2, 3, 5
        }
        #expect(source.items.map(\.id) == [4, 5, 2, 3])                                            // after 4, the row before 1
    }

    @Test func aSetInsideAnEditReplacesTheContentAfterIt() {
        let simple = SimpleDataSource(posts(0..<2))
        simple.edit { model in
            _ = model.append(posts([5]))
            simple.set(posts([7]))
        }
        #expect(simple.model.sections[0].items.compactMap { $0.model(as: Post.self)?.id } == [7])

        let sectioned = SectionedDataSource(posts(0..<2), sectionBy: { $0.id % 2 })
        sectioned.edit { items in
            items.append(Post(5))
            sectioned.set(posts([7, 8]))
            sectioned.edit { $0.insert(Post(9), at: 0) }       // on the items from before the outer edit
        }
        #expect(sectioned.items.map(\.id) == [9, 7, 8], "after the outer edit, the set, then the nested edit")
    }

    @Test func replayPutsInsertedAndMovedRowsWhereTheNestedEditPutThem() {
        func replay(_ before: [Int], _ after: [Int], onto: [Int]) -> [Int] {
            EditReplay.replay(before, after, onto: onto, id: { $0 }, isContentEqual: { $0 == $1 })
        }
        #expect(replay([1, 2, 3], [0, 1, 2, 3], onto: [1, 2, 3, 4]) == [0, 1, 2, 3, 4], "inserted at the top")
        #expect(replay([1, 2, 3], [1, 2, 3, 9], onto: [1, 2, 3, 4]) == [1, 2, 3, 4, 9], "appended: after the outer's rows")
        #expect(replay([1, 2, 3], [1, 9, 2, 3], onto: [0, 1, 2, 3]) == [0, 1, 9, 2, 3], "after the row before it")
        #expect(replay([1, 2, 3], [3, 1, 2], onto: [1, 2, 3, 4]) == [3, 1, 2, 4], "moved to the top")
        #expect(replay([1, 2, 3], [2, 3, 1], onto: [1, 2, 3]) == [2, 3, 1], "moved to the end")
        // The end wins over the row before (PagingAndEdits; outside check 10c, e16): nothing
        // follows the moved row, so it goes after the outer's appended row 50, not before it.
        #expect(replay([1, 2, 3, 4], [2, 3, 4, 60, 1], onto: [1, 2, 3, 4, 50]) == [2, 3, 4, 60, 50, 1], "moved to the end, after the outer's rows")
        #expect(replay([1, 2, 3], [1, 3, 2], onto: [2, 3]) == [3, 2], "a row the outer removed stays removed")
        #expect(replay([1, 2, 3], [1, 2], onto: [3, 2, 1]) == [2, 1], "removed")
    }

    @Test func anEditFromASnapshotObserverAfterTheEditIsNotNested() {
        let source = SimpleDataSource(posts(0..<1))
        var published = 0
        source.onSnapshot = { _ in
            published += 1
            if published == 1 { source.edit { _ = $0.append(posts([2])) } }
        }
        source.edit { _ = $0.append(posts([1])) }
        #expect(source.model.itemCount == 3)
        #expect(published == 2)
    }
}
