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

/// Demo report 13, defect 1: `r` pressed while End read the history, with the refresh finding
/// new or rewritten commits, left the selection where the "Loading more…" row was when the
/// refresh started (End's last move came before it and was undone; after a rewrite the history
/// was read again only as far as that row).
@Suite("cellkit-demo git: report 13, `r` while End reads", .enabled(if: GitFixture.isAvailable))
@MainActor
struct DemoReport13EndThenRefreshTests {
    @Test("End then `r` with a new commit: the last row selected, the new commit counted")
    func newCommit() async throws {
        let repository = try await ScratchRepository.emptyCommits("end-r-new", 60)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 5)) { $0.screen.loadPagesOnlyWhenAsked() }
        try await session.waitFor("the first page") { $0.contains("+ commits") }
        try await repository.run("git commit -q --allow-empty -m 'new top'")
        #expect(session.screen.loadedSnapshot.hasMore)
        session.app.handle([.end, .character("r")])
        try await session.waitFor("End and the refresh") { $0.hasPrefix(" 1 new commit") && $0.hasSuffix(" 61/61") }
        #expect(session.selectedSubject == "c 1")
    }

    @Test("End then `r` after a rewrite: the history read to its end, the last row selected")
    func rewritten() async throws {
        let repository = try await ScratchRepository.emptyCommits("end-r-rewrite", 60)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 5)) { $0.screen.loadPagesOnlyWhenAsked() }
        try await session.waitFor("the first page") { $0.contains("+ commits") }
        try await repository.run("git reset -q --hard HEAD~2; git commit -q --allow-empty -m 'new top'")
        #expect(session.screen.loadedSnapshot.hasMore)
        session.app.handle([.end, .character("r")])
        try await session.waitFor("End and the refresh") {
            $0.hasPrefix(" The history was rewritten: 2 commits gone, 1 new commit") && $0.hasSuffix(" 59/59")
        }
        #expect(session.selectedSubject == "c 1")
    }
}

/// Demo report 13, defect 3: Home (↑, PgUp) typed ahead after End, before the first screen, did
/// not stop End: End read every page first, then the keys moved.
@Suite("cellkit-demo: report 13, End then Home typed ahead")
@MainActor
struct DemoReport13TypedAheadEndTests {
    @Test("git: `End Home j` typed while the first page loads: second row, End stopped", .enabled(if: GitFixture.isAvailable),
          arguments: [Key.home, .up, .pageUp])
    func gitEndThenUp(_ up: Key) async throws {
        let repository = try await ScratchRepository.emptyCommits("typeahead-end-home", 200)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 10)) {
            $0.app.handle([.end, up, .character("j")])
        }
        let status = try await session.settled()
        #expect(session.selectedSubject == "c 199", "\(status)")
        let at = try #require(position(status), "\(status)")
        #expect(at.row == 2 && at.of < 200, "\(status)")
    }

    @Test("git: `25×j End Home` typed ahead: End starts after the moves and Home stops it", .enabled(if: GitFixture.isAvailable))
    func gitMovesThenEndThenHome() async throws {
        let repository = try await ScratchRepository.emptyCommits("typeahead-j-end-home", 200)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 10)) {
            $0.app.handle(Array(repeating: Key.character("j"), count: 25) + [.end, .home, .character("j")])
        }
        try await session.waitFor("the moves") { position($0)?.row == 2 }
        let status = try await session.settled()
        #expect(session.selectedSubject == "c 199", "\(status)")
        #expect((position(status)?.of ?? 200) < 200, "\(status)")
    }

    @Test("feed: `End Home` typed while the first page loads: first row, End stopped")
    func feedEndThenHome() async throws {
        let feed = FeedScreen(seed: 1, failRate: 0, timing: FeedServer.Timing(firstPage: 50, page: 5), avatarDelay: 0)
        let session = await AppSession(feed) { $0.app.handle([.end, .home]) }
        let status = try await session.settled()
        let at = try #require(position(status), "\(status)")
        #expect(at.row == 1 && at.of < 100, "\(status)")
    }
}

/// Demo report 13, defect 4: `r` typed after keys that wait for the next page dropped them (the
/// refresh cancelled the page they waited for), and git said nothing of what it found.
@Suite("cellkit-demo: report 13, `r` after keys waiting for a page")
@MainActor
struct DemoReport13KeysThenRefreshTests {
    @Test("git: `60×j r` moves 60 rows, then says Up to date; with a new commit, `30×j r` moves 30 more, one row lower",
          .enabled(if: GitFixture.isAvailable))
    func git() async throws {
        let repository = try await ScratchRepository.emptyCommits("keys-then-r", 100)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 20))
        try await session.waitFor("the first page") { $0.contains("+ commits") }
        let down = Array(repeating: Key.character("j"), count: 60)
        session.app.handle(down + [.character("r")])
        try await session.waitFor("the moves and the refresh") { $0.hasPrefix(" Up to date") && position($0)?.row == 61 }
        #expect(session.selectedSubject == "c 40")
        try await repository.run("git commit -q --allow-empty -m 'new top'")
        session.app.handle(Array(repeating: Key.character("j"), count: 30) + [.character("r")])
        try await session.waitFor("the moves and the refresh") { $0.hasPrefix(" 1 new commit") && position($0)?.row == 92 }
        #expect(session.selectedSubject == "c 10")
    }

    @Test("feed: `60×j r` moves to the row `60×j` moves to, then brings the new tweets above it")
    func feed() async throws {
        func session() async throws -> AppSession {
            let feed = FeedScreen(seed: 1, failRate: 0, timing: FeedServer.Timing(firstPage: 0, page: 20), avatarDelay: 0)
            let session = await AppSession(feed)
            try await session.waitFor("the first page") { $0.hasPrefix(" 20 tweets") }
            return session
        }
        let down = Array(repeating: Key.character("j"), count: 60)
        let plain = try await session()
        plain.app.handle(down)
        try await plain.waitFor("the moves") { (position($0)?.row ?? 0) > 60 }
        _ = try await plain.settled()
        let target = try #require(plain.selected as? Tweet)
        let refreshed = try await session()
        refreshed.app.handle(down + [.character("r")])
        try await refreshed.waitFor("the moves and the refresh") { $0.contains("new tweet") }
        let status = try await refreshed.settled()
        #expect((refreshed.selected as? Tweet)?.id == target.id, "\(status)")
        #expect((position(status)?.row ?? 0) > 61, "\(status)")
    }
}
