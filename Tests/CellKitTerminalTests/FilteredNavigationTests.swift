@testable import cellkit_demo
import CellKit
@testable import CellKitTerminal
import Foundation
import Testing

/// The "N/M" at the status line's end.
private func position(_ status: String) -> (row: Int, of: Int)? {
    guard let last = status.split(separator: " ").last else { return nil }
    let parts = last.split(separator: "/")
    guard parts.count == 2, let row = Int(parts[0]), let of = Int(parts[1]) else { return nil }
    return (row, of)
}

extension AppSession {
    /// The rows the list shows, without the paging rows at its end ("Loading more…", "search the rest").
    var shownContent: [ListItem] {
        screen.controller.displayed.sections.flatMap(\.items).filter { !($0.model is LoadMorePlaceholder) && !($0.model is SearchRest) }
    }

    /// The place of the selected row among ``shownContent`` (nil: a paging row, or none).
    var selectedContentIndex: Int? {
        guard let path = list.selectedPath, let item = screen.controller.displayed.item(at: path) else { return nil }
        return shownContent.firstIndex { $0.id == item.id }
    }

    /// Whether the selection is on a paging row at the list's end.
    var pagingRowSelected: Bool { selected is LoadMorePlaceholder || selected is SearchRest }

    /// Selects the last of ``shownContent``.
    func selectLastShown() throws {
        let last = try #require(shownContent.last)
        let path = try #require(screen.controller.displayed.indexPath(of: last.id))
        list.select(path)
    }
}

/// cellkit-demo fixdemo15, defect A: under a filter, one `j` on the last loaded match selected the
/// paging row at the list's end ("Loading more…", the history's "search the rest"), which the end
/// on screen keeps loading pages for: it rode that row while every page loaded, as End does.
@Suite("cellkit-demo: under a filter, a move past the last loaded match waits for the next")
@MainActor
struct FilteredMovePastTheLastMatchTests {
    @Test("git: `j` on the last loaded match lands on the next match once its page is in; no more pages are read",
          .enabled(if: GitFixture.isAvailable))
    func gitOneDown() async throws {
        let repository = try await ScratchRepository.emptyCommits("filter-j-last", 200)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 20))
        try await session.waitFor("the first page") { $0.contains("20+ commits") }
        // Every commit matches ("c 200" … "c 1").
        session.type("/c \n")
        try await session.waitFor("the filter") { $0.contains("20 commits match in the 20 loaded") }
        try session.selectLastShown()
        #expect(session.selectedSubject == "c 181")
        session.type("j")
        // It waits on the last match (the "search the rest" row is not selected meanwhile).
        #expect(session.selectedSubject == "c 181", "\(session.statusLine)")
        var pagingRowSelected = false
        try await session.waitFor("the next page") { _ in
            pagingRowSelected = pagingRowSelected || session.pagingRowSelected
            return session.screen.loadedSnapshot.model.itemCount >= 40 && session.screen.loadedSnapshot.activity == .idle
        }
        let status = try await session.settled()
        #expect(!pagingRowSelected, "a paging row was selected")
        #expect(session.selectedSubject == "c 180", "\(status)")
        #expect(position(status)?.row == 21, "\(status)")
        // The selection is not on the list's end: no more pages are read.
        let loaded = session.screen.loadedSnapshot
        #expect(loaded.activity == .idle && loaded.hasMore && loaded.model.itemCount < 200, "\(status)")
    }

    @Test("git: `j` on the only loaded match reads on to the next one, far down; then, with none left, stays and says so",
          .enabled(if: GitFixture.isAvailable))
    func gitToTheNextMatchThenTheEnd() async throws {
        let repository = try await ScratchRepository.emptyCommits("filter-j-far", 100)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 10))
        try await session.waitFor("the first page") { $0.contains("+ commits") }
        // "c 100" (the first row) and "c 10" (the tenth page) match.
        session.type("/c 10\n")
        try await session.waitFor("the filter") { $0.contains(" loaded") }
        _ = try await session.settled()
        try session.selectLastShown()
        #expect(session.selectedSubject == "c 100")
        session.type("j")
        #expect(session.selectedSubject == "c 100", "\(session.statusLine)")
        try await session.waitFor("the move") { _ in session.selectedSubject == "c 10" || session.pagingRowSelected }
        var status = try await session.settled()
        #expect(session.selectedSubject == "c 10", "\(status)")
        #expect(position(status)?.row == 2, "\(status)")
        // No more matches: the key reads the rest of the history and stays on the last match.
        session.type("j")
        try await session.waitFor("the end of the history") { $0.contains("in all 100 commits") }
        status = try await session.settled()
        #expect(session.selectedSubject == "c 10", "\(status)")
        #expect(status.contains(" 2 commits match in all 100 commits ") && status.hasSuffix(" 2/2"), "\(status)")
    }

    @Test("feed: `j` on the last loaded match, its page loading, lands on the next match once the page is in")
    func feedOneDown() async throws {
        // Pages that take a while: the key comes while the page the end on screen asked for loads.
        let feed = FeedScreen(seed: 1, failRate: 0, timing: FeedServer.Timing(firstPage: 0, page: 1_000), avatarDelay: 0)
        let session = await AppSession(feed)
        try await session.waitFor("the first page") { $0.hasPrefix(" 20 tweets") }
        // Most rows match.
        session.type("/e\n")
        try await session.waitFor("the filter") { $0.contains(" match in the 20 loaded tweets") }
        let matches = session.shownContent.count
        try session.selectLastShown()
        try await session.waitFor("the next page loading") { _ in session.screen.controller.displayed.sections.last?.items.last?.model is LoadMorePlaceholder }
        session.type("j")
        // It waits on the last match (the "Loading more…" row is not selected meanwhile).
        var pagingRowSelected = false
        try await session.waitFor("the next page") { _ in
            pagingRowSelected = pagingRowSelected || session.pagingRowSelected
            return session.screen.loadedSnapshot.model.itemCount >= 40 && session.screen.loadedSnapshot.activity == .idle
        }
        let status = try await session.settled()
        #expect(!pagingRowSelected, "the “Loading more…” row was selected")
        #expect(session.selectedContentIndex == matches, "\(status)")
        // The selection is not on the list's end: no more pages are read.
        #expect(session.screen.loadedSnapshot.activity == .idle && session.screen.loadedSnapshot.model.itemCount == 40, "\(status)")
    }
}

/// cellkit-demo fixdemo15, defect B: under a filter, the moves of a burst of `j` past the loaded
/// rows were lost (23/43 after 30 × j); without a filter they wait for the pages and land right.
@Suite("cellkit-demo: under a filter, keys typed in a burst past the loaded rows")
@MainActor
struct FilteredBurstTests {
    static func feedSession() async throws -> AppSession {
        let feed = FeedScreen(seed: 1, failRate: 0, timing: FeedServer.Timing(firstPage: 0, page: 30), avatarDelay: 0)
        let session = await AppSession(feed)
        try await session.waitFor("the first page") { $0.hasPrefix(" 20 tweets") }
        return session
    }

    @Test("feed: 30 × j under a filter lands on the 31st match")
    func feedBurst() async throws {
        let session = try await Self.feedSession()
        session.type("/e\n")
        try await session.waitFor("the filter") { $0.contains(" match in the 20 loaded tweets") }
        session.type("g" + String(repeating: "j", count: 30))
        try await session.waitFor("the moves") { _ in (session.selectedContentIndex ?? 0) >= 30 || session.screen.loadedSnapshot.model.itemCount >= 60 }
        let status = try await session.settled()
        #expect(session.selectedContentIndex == 30, "\(status)")
        #expect(position(status)?.row == 31, "\(status)")
    }

    @Test("feed: the filter and 30 × j typed in one burst: the keys wait for the filtered rows, then for the pages")
    func feedFilterAndBurst() async throws {
        let session = try await Self.feedSession()
        session.type("/e\ng" + String(repeating: "j", count: 30))
        try await session.waitFor("the moves") { _ in (session.selectedContentIndex ?? 0) >= 30 || session.screen.loadedSnapshot.model.itemCount >= 60 }
        let status = try await session.settled()
        #expect(session.selectedContentIndex == 30, "\(status)")
        #expect(position(status)?.row == 31, "\(status)")
    }

    @Test("git: 50 × j under a filter lands on the 51st match", .enabled(if: GitFixture.isAvailable))
    func gitBurst() async throws {
        let repository = try await ScratchRepository.emptyCommits("filter-j-burst", 200)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 20))
        try await session.waitFor("the first page") { $0.contains("20+ commits") }
        session.type("/c \ng" + String(repeating: "j", count: 50))
        try await session.waitFor("the moves") { _ in (session.selectedContentIndex ?? 0) >= 50 || session.screen.loadedSnapshot.model.itemCount >= 100 }
        let status = try await session.settled()
        #expect(session.selectedSubject == "c 150", "\(status)")
        #expect(position(status)?.row == 51, "\(status)")
    }
}

/// fixdemo15, the race behind the flaky burst test: keys typed before a filter that waited for a
/// page were handled after the filter applied (it applied at once), through the filtered rows: the
/// place they waited on, counted among all the rows, was taken among the matches, and the keys
/// then read page after page for matches. They move through the rows they were typed on now, then
/// the filter applies (as `r` typed after them refreshes once they moved).
@Suite("cellkit-demo: keys typed before a filter move before it applies")
@MainActor
struct KeysBeforeAFilterTests {
    @Test("feed: `30×j /perlman⏎` lands on the tweet 30×j lands on, then filters")
    func feed() async throws {
        func session() async throws -> AppSession {
            let feed = FeedScreen(seed: 1, failRate: 0, timing: FeedServer.Timing(firstPage: 0, page: 50), avatarDelay: 0)
            let session = await AppSession(feed)
            try await session.waitFor("the first page") { $0.hasPrefix(" 20 tweets") }
            return session
        }
        let down = String(repeating: "j", count: 30)
        let plain = try await session()
        plain.type(down)
        try await plain.waitFor("the moves") { _ in (plain.selectedContentIndex ?? 0) >= 30 }
        let target = try #require(plain.selected as? Tweet)
        // The tweet 30×j lands on matches the filter.
        #expect(target.author.handle == "perlman")
        let filtered = try await session()
        filtered.type(down + "/perlman\n")
        try await filtered.waitFor("the moves and the filter") { $0.contains(" match in the ") }
        let status = try await filtered.settled()
        #expect((filtered.selected as? Tweet)?.id == target.id, "\(status)")
    }

    @Test("git: `60×j /c 1⏎` lands on the commit 60×j lands on, then filters", .enabled(if: GitFixture.isAvailable))
    func git() async throws {
        let repository = try await ScratchRepository.emptyCommits("keys-then-filter", 200)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 20))
        try await session.waitFor("the first page") { $0.contains("20+ commits") }
        session.type(String(repeating: "j", count: 60) + "/c 1\n")
        try await session.waitFor("the moves and the filter") { $0.contains(" match in the ") }
        let status = try await session.settled()
        #expect(session.selectedSubject == "c 140", "\(status)")
        #expect(session.screen.loadedSnapshot.hasMore, "\(status)")
    }
}

/// A history whose oldest commit and newest one match "needle", with `count` commits between them.
private func needleRepository(_ name: String, _ count: Int) async throws -> ScratchRepository {
    try await ScratchRepository(name, script: """
        git config user.name T; git config user.email t@example.com
        git commit -q --allow-empty -m "needle first"
        for i in $(seq 1 \(count)); do git commit -q --allow-empty -m "c $i"; done
        git commit -q --allow-empty -m "needle top"
        """)
}

/// fixdemo15: a key past the last match may read far for the next one (a filter few rows match).
@Suite("cellkit-demo git: a key past the last match, with the next one far down", .enabled(if: GitFixture.isAvailable))
@MainActor
struct FilteredSearchFarDownTests {
    /// The screen on a needle history, filtered with "needle", the newest needle selected.
    static func filtered(_ repository: ScratchRepository, pageSize: Int) async throws -> AppSession {
        let session = await AppSession(GitScreen(path: repository.path, pageSize: pageSize))
        try await session.waitFor("the first page") { $0.contains("+ commits") }
        session.type("/needle\n")
        try await session.waitFor("the filter") { $0.contains(" loaded") }
        _ = try await session.settled()
        try session.selectLastShown()
        #expect(session.selectedSubject == "needle top")
        return session
    }

    @Test("it reads in pages that grow, as End does: a few pages, not one per 2 commits")
    func growingPages() async throws {
        let repository = try await needleRepository("filter-far-grow", 200)
        defer { repository.remove() }
        let session = try await Self.filtered(repository, pageSize: 2)
        let passes = session.screen.filterPasses
        session.type("j")
        try await session.waitFor("the next match") { _ in session.selectedSubject == "needle first" || session.pagingRowSelected }
        let status = try await session.settled()
        #expect(session.selectedSubject == "needle first", "\(status)")
        // Each page read is a filter pass (2 commits a page: over 100 passes).
        #expect(session.screen.filterPasses - passes < 40, "\(session.screen.filterPasses - passes) filter passes")
    }

    @Test("Esc while it reads stops it: the filter goes at once, the selection stays on the last match")
    func escapeStopsIt() async throws {
        let repository = try await needleRepository("filter-far-esc", 300)
        defer { repository.remove() }
        let session = try await Self.filtered(repository, pageSize: 10)
        session.app.handle([.character("j"), .escape])
        try await session.waitFor("the whole list") { !$0.contains("filter:") && $0.contains(" commits") }
        let status = try await session.settled()
        #expect(session.selectedSubject == "needle top", "\(status)")
        #expect(session.screen.loadedSnapshot.hasMore, "\(status)")
    }
}


/// fixdemo16 (demouser14 defect 1): Esc, or a new filter, while keys under a filter waited for a
/// page cancelled that page: the list ended with a "Couldn't load more" row and the status said
/// "Could not load more …", though nothing failed. The page under way now arrives; nothing fails.
@Suite("cellkit-demo: stopping a filtered move that waits for a page is no failure")
@MainActor
struct StoppedFilteredSearchTests {
    /// Whether the list or the status says a page failed.
    static func showsFailure(_ session: AppSession) -> Bool {
        let failedRow = session.screen.controller.displayed.sections.flatMap(\.items).contains {
            ($0.model as? LoadMorePlaceholder)?.isFailed == true
        }
        return failedRow || session.screen.loadedSnapshot.nextPageError != nil || session.statusLine.contains("Could not")
    }

    /// Waits until the keys under the filter read pages (one came, the next loads), then types `stop` at once.
    static func stopWhileAPageLoads(_ session: AppSession, after loaded: Int, _ stop: [Key]) async throws {
        let deadline = Date().addingTimeInterval(90)
        while !(session.screen.loadedSnapshot.model.itemCount >= loaded && session.screen.loadedSnapshot.activity == .loadingMore) {
            guard Date() < deadline, session.screen.loadedSnapshot.hasMore else {
                throw TestFailure("no page loaded while the keys waited; status “\(session.statusLine)”")
            }
            await Task.yield()
        }
        // Same main-actor turn: the page is still under way.
        session.app.handle(stop)
    }

    static func feedSession() async throws -> AppSession {
        let feed = FeedScreen(seed: 1, failRate: 0, timing: FeedServer.Timing(firstPage: 0, page: 200), avatarDelay: 0)
        let session = await AppSession(feed)
        try await session.waitFor("the first page") { $0.hasPrefix(" 20 tweets") }
        session.type("/Knuth\n")
        try await session.waitFor("the filter") { $0.contains(" match in the ") }
        session.type("g" + String(repeating: "j", count: 30))
        return session
    }

    @Test("feed: Esc while 30 × j under a filter waits for a page: the whole list, no “Couldn't load more”")
    func feedEscape() async throws {
        let session = try await Self.feedSession()
        try await Self.stopWhileAPageLoads(session, after: 40, [.escape])
        try await session.waitFor("the page under way") { _ in session.screen.loadedSnapshot.activity == .idle }
        let status = try await session.settled()
        #expect(!Self.showsFailure(session), "\(status)\n\(session.rows().joined(separator: "\n"))")
        #expect(!status.contains("filter:") && status.hasPrefix(" "), "\(status)")
    }

    @Test("feed: a new filter while 30 × j under a filter waits for a page: it applies, no “Couldn't load more”")
    func feedNewFilter() async throws {
        let session = try await Self.feedSession()
        try await Self.stopWhileAPageLoads(session, after: 40, [.character("/")] + Array(repeating: Key.backspace, count: 5)
            + [.character("A"), .character("d"), .character("a"), .enter])
        try await session.waitFor("the page under way") { _ in session.screen.loadedSnapshot.activity == .idle }
        let status = try await session.settled()
        #expect(!Self.showsFailure(session), "\(status)\n\(session.rows().joined(separator: "\n"))")
        #expect(status.contains("filter: Ada"), "\(status)")
    }

    @Test("git: Esc while `j` under a filter reads pages for a far match: no “Couldn't load more”",
          .enabled(if: GitFixture.isAvailable))
    func gitEscape() async throws {
        let repository = try await needleRepository("filter-stop-esc", 300)
        defer { repository.remove() }
        let session = try await FilteredSearchFarDownTests.filtered(repository, pageSize: 10)
        session.type("j")
        // Pages grow (10, 20, 40 …): one past the first two came, the next loads.
        try await Self.stopWhileAPageLoads(session, after: 30, [.escape])
        try await session.waitFor("the page under way") { _ in session.screen.loadedSnapshot.activity == .idle }
        let status = try await session.settled()
        #expect(!Self.showsFailure(session), "\(status)\n\(session.rows().joined(separator: "\n"))")
        #expect(session.selectedSubject == "needle top", "\(status)")
        #expect(!status.contains("filter:"), "\(status)")
    }
}
