import CellKit
import CellKitTesting
import Testing

/// `edit(_:)` re-entered from its own closure: reading the source inside it, and an
/// edit nested in an edit (a screen's helper that reads or edits the source, called
/// from an edit). Before the fix, reading `items` inside the closure of a paged or
/// remote source, and any nested edit on them, trapped with an exclusivity violation
/// (release builds too); a nested edit on a simple or sectioned source was lost
/// without a word.
@MainActor
@Suite("Data sources: edit re-entered from its own closure")
struct EditReentryTests {
    private func bound(_ source: any ListDataSource) -> (ListController, DiagnosticLog) {
        let log = DiagnosticLog()
        let controller = ListController(diagnostics: log.handler)
        controller.attach(to: HeadlessListView())
        controller.bind(to: source)
        return (controller, log)
    }

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

    @Test func aNestedEditIsNotAppliedAndSaysSoNamingTheSourceType() async {
        let paged = PaginatedDataSource<Post>(prefetchDistance: 0) { _ in Page(posts(0..<2), hasMore: false) }
        let remote = RemoteDataSource { posts(0..<2) }
        let simple = SimpleDataSource(posts(0..<2))
        let sectioned = SectionedDataSource(posts(0..<2), sectionBy: { _ in 0 })
        let (pagedController, pagedLog) = bound(paged)
        let (remoteController, remoteLog) = bound(remote)
        let (simpleController, simpleLog) = bound(simple)
        let (sectionedController, sectionedLog) = bound(sectioned)
        await paged.load().value
        await remote.load().value

        // The inner closure runs (on the content from before the outer edit) and its
        // result comes back; its change is not applied; the outer one is.
        let pagedInner = paged.edit { items -> [Int] in
            items.append(Post(5))
            return paged.edit { inner -> [Int] in inner.append(Post(6)); return inner.map(\.id) }
        }
        #expect(pagedInner == [0, 1, 6])
        #expect(paged.items.map(\.id) == [0, 1, 5])

        let remoteInner = remote.edit { items -> [Int] in
            items.append(Post(5))
            return remote.edit { inner -> [Int] in inner.append(Post(6)); return inner.map(\.id) }
        }
        #expect(remoteInner == [0, 1, 6])
        #expect(remote.items.map(\.id) == [0, 1, 5])

        let simpleInner = simple.edit { model -> Int in
            _ = model.append(posts([5]))
            simple.set(posts([7]))
            return simple.edit { inner -> Int in _ = inner.append(posts([6])); return inner.itemCount }
        }
        #expect(simpleInner == 3)
        #expect(simple.model.sections[0].items.compactMap { $0.model(as: Post.self)?.id } == [0, 1, 5])

        let sectionedInner = sectioned.edit { items -> Int in
            items.append(Post(5))
            sectioned.set(posts([7]))
            return sectioned.edit { inner -> Int in inner.append(Post(6)); return inner.count }
        }
        #expect(sectionedInner == 3)
        #expect(sectioned.items.map(\.id) == [0, 1, 5])

        for (log, type, count) in [(pagedLog, "PaginatedDataSource<Post>", 1), (remoteLog, "RemoteDataSource<Post>", 1),
                                   (simpleLog, "SimpleDataSource", 2), (sectionedLog, "SectionedDataSource<Post, Int>", 2)] {
            let nested = log.all.filter { $0.kind == .nestedEdit }
            #expect(nested.count == count, "\(type): \(log.all)")
            #expect(nested.allSatisfy { $0.message.hasPrefix(type + ":") }, "\(nested)")
        }
        #expect(simpleLog.all.first { $0.kind == .nestedEdit }?.message.contains("set(model:)") == true)

        // What shows is what the sources hold.
        for controller in [pagedController, remoteController, simpleController, sectionedController] {
            await controller.settle()
            #expect(controller.model.itemCount == 3)
        }
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
