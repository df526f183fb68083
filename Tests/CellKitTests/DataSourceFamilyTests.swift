import CellKit
import CellKitTesting
import Testing

@MainActor
@Suite("Data sources: paginated, sectioned, multi")
struct DataSourceFamilyTests {
    @Test func paginatedDocExample() async {
        let source = PaginatedDataSource<Post> { page in
            Page((page * 20..<page * 20 + 20).map { Post($0) }, hasMore: page < 4)
        }
        await source.load().value
        await source.loadNextPage()?.value
        #expect(source.items.count == 40 && source.hasMore)
    }

    @Test func theNextPageIsAskedForOnceWhenTheLastRowsAreAboutToShow() async throws {
        let (gate, source, screen) = await loadedPagedScreen(prefetchDistance: 5, firstPage: posts(0..<20), hasMore: true)  // 10 rows on screen
        await screen.controller.settle()
        #expect(await gate.arguments == [0], "rows 0–9 are far from the end")

        // Rows 10–19 come on screen; 15–19 are within 5 of the end: one request, for page 1.
        screen.listView.scroll(to: 10 * 44)
        #expect(source.pageInFlight == 1)
        screen.listView.scroll(by: -44)
        screen.listView.scroll(by: 44)
        await gate.waitForCalls(2)
        #expect(await gate.arguments == [0, 1])
        await screen.controller.settle()
        #expect(screen.controller.activity == .loadingMore)
        #expect(screen.shownIDs == Array(0..<20), "loading more keeps the content")

        await gate.resume(1, returning: Page(posts(20..<30), hasMore: false))
        while source.pageInFlight != nil { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.shownIDs == Array(0..<30))
        #expect(!screen.controller.hasMore)

        // The last page is on screen: nothing more is asked for.
        screen.listView.scroll(to: 30 * 44)
        #expect(source.pageInFlight == nil)
        #expect(await gate.arguments == [0, 1])
        try screen.expectConsistent()
    }

    @Test func refreshPutsNewItemsOnTopAndKeepsTheLaterPages() async throws {
        let (gate, source, screen) = await loadedPagedScreen(prefetchDistance: 0, firstPage: posts(10..<20), hasMore: true)
        let more = try #require(source.loadNextPage())
        #expect(source.loadNextPage() == nil, "never the same page twice at once")
        await gate.waitForCalls(2)
        await gate.resume(1, returning: Page(posts(20..<30), hasMore: true))
        await more.value

        // Two new posts arrived; the first page now ends at 17, and post 12 was deleted.
        let refresh = source.refresh()
        await gate.waitForCalls(3)
        #expect(await gate.arguments == [0, 1, 0])
        await gate.resume(2, returning: Page([Post(31), Post(30)] + posts([10, 11, 13, 14, 15, 16, 17]), hasMore: true))
        await refresh.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [31, 30, 10, 11, 13, 14, 15, 16, 17, 18, 19] + Array(20..<30))
        #expect(source.nextPage == 1 && source.hasMore, "the pages after the first are fetched again")

        // Page 1 again: the rows after the refreshed page, as the server has them now.
        let again = try #require(source.loadNextPage())
        await gate.waitForCalls(4)
        #expect(await gate.arguments == [0, 1, 0, 1])
        await gate.resume(3, returning: Page(posts(18..<27), hasMore: true))
        await again.value
        #expect(source.items.map(\.id) == [31, 30, 10, 11, 13, 14, 15, 16, 17, 18, 19] + Array(20..<30))

        // The next page overlaps what is shown (the pages shifted): no duplicates.
        let next = try #require(source.loadNextPage())
        await gate.waitForCalls(5)
        await gate.resume(4, returning: Page(posts(26..<35), hasMore: false))
        await next.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [31, 30, 10, 11, 13, 14, 15, 16, 17, 18, 19] + Array(20..<30) + [32, 33, 34])
        try screen.expectConsistent()
    }

    @Test func aRefreshWithNewItemsOnTopInsertsThemWithoutDisturbingTheRest() async throws {
        let gate = FetchGate<[Post]>()
        let (source, screen) = await loadedRemoteScreen(gate: gate, initial: posts(0..<20))
        await screen.controller.settle()
        let kept = screen.listView.visibleCells.prefix(8).map(ObjectIdentifier.init)
        screen.listView.clearLog()

        let refresh = source.refresh()
        await gate.waitForCalls(2)
        await gate.resume(1, returning: posts([100, 101]) + posts(0..<20))
        await refresh.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [100, 101] + Array(0..<20))
        let batches = screen.listView.log.compactMap { event -> Changeset? in
            if case .batch(let changes) = event, !changes.isEmpty { changes } else { nil }
        }
        #expect(batches == [Changeset(itemInserts: [ItemPath(row: 0, section: 0), ItemPath(row: 1, section: 0)])])
        #expect(!screen.listView.log.contains(.reloaded))
        #expect(!screen.listView.log.contains { if case .reconfigured = $0 { true } else { false } })
        // Rows 0–7 kept their cells, two rows further down.
        #expect(screen.listView.visibleCells.dropFirst(2).map(ObjectIdentifier.init) == kept)
        try screen.expectConsistent()
    }

    @Test func aRefreshMakesALoadMoreInFlightStale() async throws {
        let (gate, source, screen) = await loadedPagedScreen(prefetchDistance: 5, firstPage: posts(0..<10), hasMore: true)
        let more = try #require(source.loadNextPage())
        let refresh = source.refresh()
        #expect(source.pageInFlight == nil)
        await gate.waitForCalls(3)
        await gate.resume(2, returning: Page(posts(0..<10), hasMore: true))
        await refresh.value
        await gate.resume(1, returning: Page(posts(10..<20), hasMore: true))  // late: dropped
        await more.value
        await screen.controller.settle()
        #expect(screen.shownIDs == Array(0..<10))
        try screen.expectConsistent()
    }

    @Test func aFailedNextPageKeepsTheContentAndIsNotRetriedOnEveryScroll() async throws {
        let (gate, source, screen) = await loadedPagedScreen(prefetchDistance: 3, firstPage: posts(0..<12), hasMore: true)
        await screen.controller.settle()
        screen.listView.scroll(to: 2 * 44)
        await gate.waitForCalls(2)
        await gate.resume(1, throwing: FetchFailed())
        while source.pageInFlight != nil { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.shownIDs == Array(0..<12))
        #expect(screen.errors.value == ["fetch failed: offline"])
        screen.listView.scroll(to: 0)
        screen.listView.scroll(to: 2 * 44)
        #expect(source.pageInFlight == nil)
        // An explicit retry asks again.
        #expect(source.loadNextPage() != nil)
        #expect(await gate.arguments.count <= 3)
        source.cancel()
        await screen.controller.settle()
        try screen.expectConsistent()
    }

    @Test func sectionedDocExample() {
        struct Contact: Identifiable, Equatable, Sendable { let id: Int; var name: String }
        let source = SectionedDataSource.alphabetical(
            [Contact(id: 1, name: "bob"), Contact(id: 2, name: "Alice"), Contact(id: 3, name: "42")],
            name: \.name)
        #expect(source.model.sections.map(\.header) == ["A", "B", "#"])
        #expect(source.model.sectionIndexTitles.count == 27)
    }

    @Test func sectionedGroupsByKeyInOrderAndRegroupsOnChange() async throws {
        let screen = PostScreen()
        let source = SectionedDataSource(posts([5, 12, 3, 25, 14]), sectionBy: { $0.id / 10 }, title: { "\($0 * 10)s" }, sortedBy: { $0.id < $1.id })
        screen.controller.bind(to: source)
        await screen.controller.settle()
        #expect(screen.controller.displayed.sections.map(\.header) == ["0s", "10s", "20s"])
        #expect(screen.controller.displayed.sections.map { $0.items.map { $0.model(as: Post.self)!.id } } == [[3, 5], [12, 14], [25]])
        source.set(posts([31, 5, 12]))
        await screen.controller.settle()
        #expect(screen.controller.displayed.sections.map(\.header) == ["0s", "10s", "30s"])
        try screen.expectConsistent()
    }

    @Test func alphabeticalHasAnIndexThatFindsSections() async throws {
        struct Name: Identifiable, Equatable, Sendable { var id: String }
        let screen = PostScreen()
        screen.controller.register(TextCell.self, for: Name.self) { cell, name in cell.text = name.id }
        // Accented Latin initials go under their base letter, leading spaces are skipped,
        // other initials go under "#" (an outside user found "Émile" under "#").
        let names = ["Zoe", "adam", "Bea", "Ben", "émile", "E\u{301}va", "  ørjan", "42", "ßig", "Ärger"]
        let source = SectionedDataSource.alphabetical(names.map(Name.init), name: \.id)
        screen.controller.bind(to: source)
        await screen.controller.settle()
        #expect(screen.controller.displayed.sections.map(\.header) == ["A", "B", "E", "O", "Z", "#"])
        #expect(screen.controller.displayed.sections[2].items.map { $0.model(as: Name.self)?.id } == ["émile", "E\u{301}va"])
        #expect(screen.controller.displayed.sections[5].items.count == 2)
        #expect(screen.controller.sectionIndexTitles(for: screen.listView).first == "A")
        #expect(screen.controller.listView(screen.listView, sectionForSectionIndexTitle: "C", at: 2) == 1)
        #expect(screen.listView.visibleTexts.prefix(2) == ["adam", "Ärger"])
        try screen.expectConsistent()
    }

    // Outside check 9a (doc gap): an invisible leading character (a right-to-left override,
    // a zero-width space, a byte order mark) put a name under "#".
    @Test("an initial is the first visible letter: leading bidi controls, zero-width spaces and BOMs are passed over")
    func alphabeticalSkipsInvisibleLeads() {
        #expect(AlphabeticKey("\u{202E}Mallory").letter == "M")
        #expect(AlphabeticKey("\u{200B}\u{FEFF} bob").letter == "B")
        #expect(AlphabeticKey("\u{200E}\u{1B}éva").letter == "E")
        #expect(AlphabeticKey("\u{202E}").letter == "#")
        struct Name: Identifiable, Equatable, Sendable { var id: String }
        let sorted = SectionedDataSource.alphabetical(["\u{202E}Mallory", "mark", "\u{200B}Mab"].map(Name.init), name: \.id)
        #expect(sorted.snapshot.model.sections.map(\.header) == ["M"])
        #expect(sorted.snapshot.model.sections.flatMap(\.items).compactMap { $0.model(as: Name.self)?.id } == ["\u{200B}Mab", "\u{202E}Mallory", "mark"])
    }

    @Test("one source given twice to a multi source shows twice, and the controller reports its rows as duplicates")
    func multiWithOneSourceTwice() async throws {
        let recent = SimpleDataSource([Post(1), Post(2)])
        let source = MultiDataSource([recent, recent])
        let log = DiagnosticLog()
        let screen = PostScreen()
        screen.controller.diagnostics = log.handler
        screen.controller.bind(to: source)
        await source.load().value
        await screen.controller.settle()
        #expect(screen.controller.displayed.sections.map(\.items.count) == [2, 2])
        recent.set([Post(3)])
        await screen.controller.settle()
        #expect(screen.listView.visibleTexts == ["post 3", "post 3"])
        #expect(log.all.contains { $0.kind == .duplicateIdentifier }, "\(log.all)")
        try screen.listView.checkConsistency()
    }

    @Test func multiDocExample() async {
        struct Friend: Identifiable, Equatable, Sendable { let id: Int }
        struct Suggestion: Identifiable, Equatable, Sendable { let id: Int }
        let source = MultiDataSource([
            SimpleDataSource([Friend(id: 1), Friend(id: 2)]),
            RemoteDataSource { [Suggestion(id: 1)] },
        ])
        await source.load().value
        #expect(source.snapshot.model.sections.map(\.items.count) == [2, 1])
    }

    @Test func multiShowsEachChildAsSoonAsItLoads() async throws {
        let friends = FetchGate<[Post]>()
        let suggestions = FetchGate<[Post]>()
        let first = RemoteDataSource { try await friends.fetch() }
        let second = RemoteDataSource { try await suggestions.fetch() }
        let source = MultiDataSource([first, second])
        let screen = PostScreen()
        screen.controller.bind(to: source)
        let load = source.load()
        await screen.controller.settle()
        #expect(screen.placeholder is LoadingPlaceholder)

        await suggestions.waitForCalls(1)
        await suggestions.resume(0, returning: posts(100..<102))
        while second.isFetching { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.shownIDs == [100, 101], "the second child shows before the first loads")
        #expect(screen.controller.state.description == "loaded")

        await friends.waitForCalls(1)
        await friends.resume(0, returning: posts(0..<3))
        await load.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 1, 2, 100, 101])
        #expect(screen.controller.displayed.sections.count == 2)
        try screen.expectConsistent()
    }

    // MultiDataSource's doc: a child failing while another shows rows keeps those rows,
    // announces the error and calls onError once; the failed child gets no error row.
    @Test func multiWithOneChildFailingKeepsTheOthersRowsAndReportsOnce() async throws {
        struct Offline: Error, CustomStringConvertible { var description: String { "offline" } }
        let source = MultiDataSource([SimpleDataSource(posts(0..<2)), RemoteDataSource<Post> { throw Offline() }])
        let screen = PostScreen()
        screen.controller.bind(to: source)
        await source.load().value
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 1])
        #expect(screen.placeholder == nil)
        #expect(!screen.controller.displayed.sections.flatMap(\.items).contains { $0.model is ErrorPlaceholder })
        #expect(screen.errors.value == ["offline"])
        #expect(screen.listView.announcements.map(\.kind) == [.loaded, .failed])
        try screen.expectConsistent()
    }

    /// A multi source of a child held on a gate and a child that fails at once ("offline"),
    /// bound to a screen, loaded until the failing child is done.
    private func failingBesideLoading() async -> (FetchGate<[Post]>, RemoteDataSource<Post>, MultiDataSource, PostScreen, Task<Void, Never>) {
        struct Offline: Error, CustomStringConvertible { var description: String { "offline" } }
        let gate = FetchGate<[Post]>()
        let loading = RemoteDataSource { try await gate.fetch() }
        let failing = RemoteDataSource<Post> { throw Offline() }
        let source = MultiDataSource([loading, failing])
        let screen = PostScreen()
        screen.controller.bind(to: source)
        let load = source.load()
        await gate.waitForCalls(1)
        while failing.isFetching { await Task.yield() }
        return (gate, loading, source, screen, load)
    }

    // An outside user's report (outside8a, d3): a child that failed while its sibling was
    // still loading was lost (state .loaded, no onError, no diagnostic) once the sibling
    // showed rows. Loading wins while nothing shows; the failure is reported once rows show.
    @Test func multiChildFailingBeforeItsSiblingLoadsIsReportedOnceTheSiblingShows() async throws {
        let (gate, loading, source, screen, load) = await failingBesideLoading()
        await screen.controller.settle()
        #expect(source.snapshot.state.isLoading, "loading wins while nothing shows")
        #expect(screen.placeholder is LoadingPlaceholder)
        #expect(screen.errors.value.isEmpty)

        await gate.resume(0, returning: posts(0..<2))
        await load.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 1])
        #expect(screen.errors.value == ["offline"], "the failure is reported once the sibling's rows show")
        #expect(screen.controller.state.error != nil)
        #expect(!screen.controller.displayed.sections.flatMap(\.items).contains { $0.model is ErrorPlaceholder })

        // Once: a later change of the loaded child does not report it again.
        _ = loading.refresh()
        await gate.waitForCalls(2)
        await gate.resume(1, returning: posts(0..<3))
        while loading.isFetching { await Task.yield() }
        await screen.controller.settle()
        #expect(screen.shownIDs == [0, 1, 2])
        #expect(screen.errors.value == ["offline"])
        try screen.expectConsistent()
    }

    // Same, when the loading child brings no rows: the error row shows the failure.
    @Test func multiChildFailingBeforeItsSiblingLoadsEmptyShowsTheErrorRow() async throws {
        let (gate, _, _, screen, load) = await failingBesideLoading()
        await gate.resume(0, returning: [])
        await load.value
        await screen.controller.settle()
        #expect(screen.placeholder is ErrorPlaceholder)
        #expect(screen.errors.value.isEmpty, "onError is for failures while content shows")
        try screen.expectConsistent()
    }

    // A child's failure shown in the error row is reported once: a sibling that loads again
    // and brings nothing shows the same failure again, and reports nothing new (outside check
    // 12c's helper left it: each change of a sibling reported the failure once more). The
    // child failing again is a new failure, reported.
    @Test func multiChildFailureInTheErrorRowIsReportedOnceAcrossASiblingsReloads() async throws {
        let (gate, loading, source, screen, load) = await failingBesideLoading()
        let diagnostics = CollectedDiagnostics()
        screen.controller.diagnostics = diagnostics.handler
        await gate.resume(0, returning: [])
        await load.value
        await screen.controller.settle()
        #expect(screen.placeholder is ErrorPlaceholder)
        func failures() -> Int { diagnostics.all.filter { $0.kind == .loadFailed }.count }
        #expect(failures() == 1)

        for round in 1...2 {
            _ = loading.refresh()
            await gate.waitForCalls(round + 1)
            await gate.resume(round, returning: [])
            while loading.isFetching { await Task.yield() }
            await screen.controller.settle()
            #expect(screen.placeholder is ErrorPlaceholder)
            #expect(failures() == 1, "round \(round): \(diagnostics.all.map(\.message))")
        }

        let failing = source.children[1]
        await failing.load().value                                     // fails again: a new failure
        await screen.controller.settle()
        #expect(failures() == 2)
        try screen.expectConsistent()
    }

    // An outside user's report (outside9a, doc gap): the loadFailed diagnostic of a failed
    // child named only `MultiDataSource`, not the child that failed. It now names the child
    // by position and type after the multi source, inside a nested multi source too, with
    // nothing showing (the error row) or with a sibling's rows.
    @Test(arguments: [false, true])
    func multiLoadFailedDiagnosticNamesTheFailedChild(siblingHasRows: Bool) async throws {
        struct Offline: Error, CustomStringConvertible { var description: String { "offline" } }
        let failing = RemoteDataSource<Post> { throw Offline() }
        let inner = MultiDataSource([SimpleDataSource(posts([])), failing])
        let source = MultiDataSource([SimpleDataSource(posts(siblingHasRows ? [7] : [])), inner])
        let screen = PostScreen()
        let diagnostics = CollectedDiagnostics()
        screen.controller.diagnostics = diagnostics.handler
        screen.controller.bind(to: source)
        await source.load().value
        await screen.controller.settle()
        let failures = diagnostics.all.filter { $0.kind == .loadFailed }.map(\.message)
        #expect(failures.count == 1, "\(failures)")
        let origin = "MultiDataSource (child 1: MultiDataSource (child 1: RemoteDataSource<Post>))"
        #expect(failures.first?.hasPrefix(origin + ": load failed") == true, "\(failures)")
        #expect(failures.first?.hasSuffix(": offline") == true)
        #expect(siblingHasRows ? screen.shownIDs == [7] : screen.placeholder is ErrorPlaceholder)

        // The failed source bound on its own is named as before.
        let alone = PostScreen()
        let own = CollectedDiagnostics()
        alone.controller.diagnostics = own.handler
        alone.controller.bind(to: failing)
        await failing.load().value
        await alone.controller.settle()
        #expect(own.all.map(\.message) == ["RemoteDataSource<Post>: load failed with no content to show; showing the error row: offline"])
    }

    // Outside check 10b, D1: cancelling the task a multi source's load, refresh or next page
    // returned did not cancel the children's fetches ("cancelling that task cancels the load").
    @Test func cancellingAMultiSourcesTaskCancelsTheChildrensFetches() async throws {
        let gate = FetchGate<[Post]>()
        let child = RemoteDataSource { try await gate.fetch() }
        let source = MultiDataSource([child])
        let load = source.load()
        await gate.waitForCalls(1)
        load.cancel()
        await gate.resume(0, returning: posts(0..<2))
        await load.value
        #expect(child.items.isEmpty, "the cancelled load showed what it fetched")
        #expect(!child.isFetching)

        let refreshGate = FetchGate<[Post]>()
        let refreshed = RemoteDataSource { try await refreshGate.fetch() }
        let second = MultiDataSource([refreshed])
        let first = second.load()
        await refreshGate.waitForCalls(1)
        await refreshGate.resume(0, returning: posts(0..<2))
        await first.value
        let refresh = second.refresh()
        await refreshGate.waitForCalls(2)
        refresh.cancel()
        await refreshGate.resume(1, returning: posts(5..<9))
        await refresh.value
        #expect(refreshed.items.map(\.id) == [0, 1], "the cancelled refresh showed what it fetched")
    }

    @Test func cancellingAMultiSourcesNextPageTaskCancelsThePage() async throws {
        let gate = FetchGate<Page<Post>>()
        let feed = PaginatedDataSource<Post>(prefetchDistance: 0) { try await gate.fetch($0) }
        let source = MultiDataSource([feed])
        let load = source.load()
        await gate.waitForCalls(1)
        await gate.resume(argument: 0, returning: Page(posts(0..<10), hasMore: true))
        await load.value
        let next = try #require(source.loadNextPage())
        await gate.waitForCalls(2)
        next.cancel()
        await gate.resume(argument: 1, returning: Page(posts(10..<20), hasMore: true))
        await next.value
        #expect(feed.items.count == 10, "the cancelled page was appended")
        #expect(feed.nextPageError is CancellationError)
    }

    // Outside check 10b, D2: a child's first load cancelled while a sibling showed rows made
    // the state `.failed(CancellationError())` and called onError.
    @Test func aChildCancelledBesideASiblingsRowsIsNoError() async throws {
        let gate = FetchGate<Page<Post>>()
        let feed = PaginatedDataSource<Post> { try await gate.fetch($0) }
        let source = MultiDataSource([SimpleDataSource(posts(100..<102)), feed])
        let screen = PostScreen()
        screen.controller.bind(to: source)
        let load = source.load()
        await gate.waitForCalls(1)
        feed.cancel()
        await screen.controller.settle()
        #expect(screen.errors.value.isEmpty, "\(screen.errors.value)")
        #expect(screen.controller.state.error == nil, "\(screen.controller.state)")
        #expect(screen.shownIDs == [100, 101])
        await gate.resume(argument: 0, returning: Page([], hasMore: false))
        await load.value
    }

    // Outside check 10b, doc gap: a source freed while its fetch runs is freed at once; the
    // fetch runs to its end and what it brings goes nowhere (the data-sources article).
    @Test func aSourceFreedWhileItsFetchRunsIsFreedAndItsFetchEndsUnseen() async throws {
        let gate = FetchGate<[Post]>()
        var source: RemoteDataSource<Post>? = RemoteDataSource { try await gate.fetch() }
        weak let weakSource = source
        let screen = PostScreen()
        screen.controller.bind(to: source!)
        let load = source!.load()
        await gate.waitForCalls(1)
        screen.controller.apply(TableModel(posts(7..<8)))          // the screen lets go of the source
        source = nil
        #expect(weakSource == nil, "the source outlived its last reference")
        await gate.resume(0, returning: posts(0..<3))
        await load.value
        await screen.controller.settle()
        #expect(screen.shownIDs == [7])
    }

    // Recheck 10, doc gaps: a multi source's first load cancelled with nothing showing shows
    // the cancelled row; settle() in a cancelled task still waits for what was submitted.
    @Test func aMultiSourcesCancelledFirstLoadShowsTheCancelledRow() async throws {
        let gate = FetchGate<[Post]>()
        let source = MultiDataSource([RemoteDataSource { try await gate.fetch() }])
        let screen = PostScreen()
        screen.controller.bind(to: source)
        let load = source.load()
        await gate.waitForCalls(1)
        load.cancel()
        await gate.resume(0, returning: posts(0..<2))
        await load.value
        let settling = Task { @MainActor in await screen.controller.settle() }
        settling.cancel()
        await settling.value
        #expect(screen.controller.state.error is CancellationError, "\(screen.controller.state)")
        let row = try #require(screen.placeholder as? ErrorPlaceholder)
        #expect(row.message == "Loading was cancelled.")
        #expect(screen.errors.value.isEmpty)
    }

    @Test func multiRoutesRowsAboutToShowToTheirChild() async throws {
        let gate = FetchGate<Page<Post>>()
        let paged = PaginatedDataSource<Post>(prefetchDistance: 1) { try await gate.fetch($0) }
        let source = MultiDataSource([SimpleDataSource(posts(100..<103)), paged])
        let screen = PostScreen()
        screen.controller.bind(to: source)
        let load = source.load()
        await gate.waitForCalls(1)
        await gate.resume(0, returning: Page(posts(0..<4), hasMore: true))
        await load.value
        await screen.controller.settle()
        // 7 rows fit on screen: the paged child's last row shows, so its page 1 is asked for.
        await gate.waitForCalls(2)
        #expect(await gate.arguments == [0, 1])
        paged.cancel()
        await screen.controller.settle()
        try screen.expectConsistent()
    }
}
