@testable import cellkit_demo
import CellKit
@testable import CellKitTerminal
import Foundation
import Testing

extension ScratchRepository {
    /// "needle first" (the root), "c 1" … "c `count`", "needle top": a filter "needle" shows one
    /// match until the whole history is read.
    static func needles(_ name: String, _ count: Int) async throws -> ScratchRepository {
        try await ScratchRepository(name, script: """
            git config user.name T; git config user.email t@example.com
            {
              printf 'commit refs/heads/main\\ncommitter T <t@example.com> 1700000000 +0000\\ndata <<EOF\\nneedle first\\nEOF\\n\\n'
              for i in $(seq 1 \(count)); do
                printf 'commit refs/heads/main\\ncommitter T <t@example.com> %d +0000\\ndata <<EOF\\nc %d\\nEOF\\n\\n' $((1700000000 + i)) $i
              done
              printf 'commit refs/heads/main\\ncommitter T <t@example.com> 1800000000 +0000\\ndata <<EOF\\nneedle top\\nEOF\\n\\n'
            } | git fast-import --quiet
            git reset -q --hard main
            """)
    }
}

/// cellkit-demo report demouser15, D1: `r` typed while "search the rest" read, after a rewrite
/// (an amend), threw the finished search away: the refresh it waited for started before the list
/// showed the search's last page, took the "search the rest" row for the selection (no commit),
/// and read only the first page of the new history.
@Suite("cellkit-demo demouser15: r during “search the rest” after a rewrite", .enabled(if: GitFixture.isAvailable))
@MainActor
struct RefreshAfterSearchRestTests {
    @Test("the refresh that waited for the search keeps its match selected, read on to it")
    func keepsTheMatch() async throws {
        let repository = try await ScratchRepository.needles("search-rest-refresh", 300)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 10))
        try await session.waitFor("the first page") { $0.contains("+ commits") }
        session.type("/needle\n")
        try await session.waitFor("the filter") { $0.contains("1 commit matches in the") }
        session.app.handle([.end])
        _ = try await session.settled()
        try #require(session.selected is SearchRest, "\(session.statusLine)")
        try await repository.run("git commit -q --amend --allow-empty -m 'needle top amended'")
        // Enter starts the search; `r` comes while it reads.
        session.app.handle([.enter, .character("r")])
        #expect(session.app.statusMessage?.contains("refresh after") == true, "\(session.app.statusMessage ?? "")")
        let screen = try #require(session.screen as? GitScreen)
        try await session.waitFor("the refresh") { status in
            !screen.refreshing && status.contains("The history was rewritten: 1 commit gone, 1 new commit")
                && screen.loadedSnapshot.activity == .idle
        }
        let status = try await session.settled()
        #expect(session.selectedSubject == "needle first", "\(status)")
        #expect(screen.loadedCount == 302, "\(status)")
        #expect(!session.rows().contains { $0.contains("Enter searches the rest") }, "\(session.rows())")
    }
}

/// cellkit-demo report demouser15, D5: `cellkit-demo git g --seed 3` said "a repository path that
/// starts with '-' goes after '--'", as if `--seed` were a path: a long option is named as an
/// option now (the feed's, here), with git's options.
@Suite("cellkit-demo demouser15: an unknown option of git is named as one")
struct UnknownGitOptionTests {
    private func message(_ arguments: [String]) -> String? {
        guard case .failure(let error) = GitCommand.arguments(arguments) else { return nil }
        return error.message
    }

    @Test("a feed option given to git names it as the feed's, and says which options git takes")
    func feedOption() throws {
        let seed = try #require(message(["git", "g", "--seed", "3"]))
        #expect(seed == "unknown option ‘--seed’ for git (‘--seed’ is an option of the feed, not of git; git takes -C, --page-size, --pages, --width, --interactive, --plain, --verbose)")
        let other = try #require(message(["git", "g", "--colour=always"]))
        #expect(other == "unknown option ‘--colour=always’ for git (git takes -C, --page-size, --pages, --width, --interactive, --plain, --verbose)")
        // A single dash may be a path that starts with '-': the hint stays.
        let dash = try #require(message(["git", "-no-such-repo"]))
        #expect(dash.contains("goes after '--' or -C: cellkit-demo git -- -no-such-repo"))
    }
}

/// cellkit-demo report demouser15, D4: after `r`, End's failed load said "could not load page 4
/// of the feed" with 9 pages shown: a refresh reads the pages after the first again (the source
/// confirms the rows it kept), and the error did not say that page 4 was a page read again.
@Suite("cellkit-demo demouser15: a page read again after r says so when it fails")
@MainActor
struct FeedRereadFailureTests {
    @Test("--fail-rate 0.5 --seed 7: 9 pages, r, then the first failure names a page read again as one")
    func rereadFailureSaysSo() async throws {
        let feed = FeedScreen(seed: 7, failRate: 0.5, timing: FeedServer.Timing(firstPage: 0, page: 0), avatarDelay: 0)
        let session = await AppSession(feed) { ($0.screen as? FeedScreen)?.loadPagesOnlyWhenAsked() }
        _ = session
        // The first page (retried while it fails), then pages until 9 are in (failed ones asked again).
        for _ in 0..<50 where feed.loadedSnapshot.model.itemCount == 0 {
            feed.refresh()
            try await waitIdle(feed)
        }
        for _ in 0..<100 where feed.loadedSnapshot.model.itemCount < 180 {
            await feed.loadNextPage()?.value
        }
        try #require(feed.loadedSnapshot.model.itemCount == 180)
        // r, until it brings the new tweets (it fails at the same rate).
        for _ in 0..<50 {
            feed.refresh()
            try await waitIdle(feed)
            if feed.loadedSnapshot.model.itemCount > 180 { break }
        }
        try #require(feed.loadedSnapshot.model.itemCount > 180)
        var failure: String?
        for _ in 0..<9 where failure == nil {
            await feed.loadNextPage()?.value
            failure = feed.loadedSnapshot.nextPageError.map { "\($0)" }
        }
        let message = try #require(failure, "no page failed")
        // The first failure is a page the refresh reads again (2 to 9 were loaded; page 3 with this
        // seed and these steps): the error says so.
        #expect((2...9).contains { message.hasPrefix("could not load page \($0) of the feed again (a refresh reads pages 2–9 again):") }, "\(message)")
    }

    private func waitIdle(_ feed: FeedScreen) async throws {
        let deadline = Date().addingTimeInterval(60)
        while feed.loadedSnapshot.activity != .idle || feed.loadedSnapshot.state.isLoading {
            guard Date() < deadline else { throw TestFailure("the feed did not settle") }
            try await Task.sleep(for: .milliseconds(5))
        }
        await feed.controller.settle()
    }
}
