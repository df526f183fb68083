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

/// Demo report 15, defect C: `End r` typed before the first screen showed lost the `r` (the
/// refresh did nothing while the first page loaded, before it looked at the keys kept).
@Suite("cellkit-demo: report 15 C, `End r` typed ahead")
@MainActor
struct DemoReport15TypedAheadRefreshTests {
    @Test("git: `End r` typed while the first page loads: End reads every page, then r refreshes", .enabled(if: GitFixture.isAvailable))
    func git() async throws {
        let repository = try await ScratchRepository.emptyCommits("typeahead-end-r", 60)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 5)) {
            $0.app.handle([.end, .character("r")])
        }
        // Without the r, End ends on "60 commits"; the r after it says what it found.
        try await session.waitFor("End, then the refresh") { $0.hasPrefix(" Up to date") && $0.hasSuffix(" 60/60") }
        let status = try await session.settled()
        #expect(status.hasPrefix(" Up to date") && status.hasSuffix(" 60/60"), "\(status)")
        #expect(session.selectedSubject == "c 1")
    }

    @Test("feed: `End r` typed while the first page loads: End reads every page, then r brings new tweets")
    func feed() async throws {
        let feed = FeedScreen(seed: 1, failRate: 0, timing: FeedServer.Timing(firstPage: 50, page: 1), avatarDelay: 0)
        let session = await AppSession(feed) { $0.app.handle([.end, .character("r")]) }
        try await session.waitFor("End, then the refresh") { $0.contains("new tweet") }
        let status = try await session.settled()
        #expect(status.contains("new tweet"), "\(status)")
        // The selection stays on the last row End went to (tweet 1), the new tweets above it.
        #expect((session.selected as? Tweet)?.id == 1, "\(status)")
        let at = try #require(position(status), "\(status)")
        #expect(at.row == at.of && at.of > 1_000, "\(status)")
    }
}

/// Demo report 15, defect D: `10×PgDn r` with a new commit on the git screen moved to the right
/// row, but the status line never said "1 new commit".
@Suite("cellkit-demo git: report 15 D, `r` after PgDn past the loaded rows", .enabled(if: GitFixture.isAvailable))
@MainActor
struct DemoReport15PageDownThenRefreshTests {
    @Test("`10×PgDn r` with a new commit: the moves, then “1 new commit”, as a plain r says", arguments: [5, 10])
    func pageDownThenRefresh(pageSize: Int) async throws {
        let repository = try await ScratchRepository.emptyCommits("pgdn-then-r", 300)
        defer { repository.remove() }
        let pageDowns = Array(repeating: Key.pageDown, count: 10)
        // Where the moves alone go, in the history without the new commit.
        let plain = await AppSession(GitScreen(path: repository.path, pageSize: pageSize))
        try await plain.waitFor("the first page") { $0.contains("+ commits") }
        plain.app.handle(pageDowns)
        try await plain.waitFor("the moves") { (position($0)?.row ?? 0) > 50 }
        let target = try await plain.settled()
        let targetSubject = try #require(plain.selectedSubject, "\(target)")
        let targetRow = try #require(position(target)?.row, "\(target)")

        let session = await AppSession(GitScreen(path: repository.path, pageSize: pageSize))
        try await session.waitFor("the first page") { $0.contains("+ commits") }
        try await repository.run("git commit -q --allow-empty -m 'new top'")
        session.app.handle(pageDowns + [.character("r")])
        try await session.waitFor("the moves and the refresh") { $0.hasPrefix(" 1 new commit") }
        let status = try await session.settled()
        // The message stays (as a plain r's does through the pages after its first one), the
        // selection on the commit the moves went to, one row lower.
        #expect(status.hasPrefix(" 1 new commit"), "\(status)")
        #expect(session.selectedSubject == targetSubject, "\(status)")
        #expect(position(status)?.row == targetRow + 1, "\(status)")
    }
}

/// Demo report 15, defect E: a graft that made commits go, in the same `r` as new commits on
/// top, was not checked for commits gone (only an unchanged head was); nor was one that brought
/// older commits back (with every page loaded, they never showed).
@Suite("cellkit-demo git: report 15 E, a reshaped history with new commits on top", .enabled(if: GitFixture.isAvailable))
@MainActor
struct DemoReport15GraftWithNewCommitsTests {
    private func subjects(_ session: AppSession) -> [String] {
        session.screen.loadedSnapshot.model.sections.flatMap(\.items).compactMap { ($0.model as? CommitInfo)?.subject }
    }

    @Test("a graft and a new commit in one r: the status says both, the list is git's history; undone with another: the older commits counted and read")
    func graftAndNewCommit() async throws {
        let repository = try await ScratchRepository.emptyCommits("graft-and-new", 30)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 5))
        session.app.handle([.end])
        try await session.waitFor("every page") { $0.hasPrefix(" 30 commits") }
        try await repository.run("git replace --graft HEAD~5; git commit -q --allow-empty -m 'new top'")
        session.app.handle([.character("r")])
        try await session.waitFor("the refresh") { $0.hasPrefix(" The history was rewritten") || $0.hasPrefix(" 1 new commit") }
        let status = try await session.settled()
        #expect(status.hasPrefix(" The history was rewritten: 24 commits gone, 1 new commit "), "\(status)")
        #expect(subjects(session) == ["new top"] + (25...30).reversed().map { "c \($0)" })
        #expect(session.screen.controller.displayed.itemCount == 7)

        // The graft undone, another commit on top: the commits below come back, read as End reads them.
        try await repository.run("git replace -d $(git rev-parse HEAD~6) >/dev/null; git commit -q --allow-empty -m 'newer top'")
        session.app.handle([.character("r")])
        try await session.waitFor("the second refresh") { $0.hasPrefix(" 1 new commit") || $0.hasPrefix(" The history") }
        let second = try await session.settled()
        #expect(second.hasPrefix(" 1 new commit, 24 older commits "), "\(second)")
        session.app.handle([.end])
        try await session.waitFor("every page") { position($0).map { $0.row == 32 && $0.of == 32 } ?? false }
        #expect(subjects(session) == ["newer top", "new top"] + (1...30).reversed().map { "c \($0)" })
    }

    @Test("a deepen that brings a new commit too: the new commit and the older ones counted, and read")
    func deepenWithNewCommit() async throws {
        let origin = try await ScratchRepository.emptyCommits("deepen-and-new", 12)
        defer { origin.remove() }
        let shallow = origin.root.appendingPathComponent("shallow").path
        let cloned = try await Spawn.run(["git", "clone", "-q", "--depth", "7", "file://" + origin.path, shallow])
        try #require(cloned.status == 0, "\(cloned.errorOutput)")
        let session = await AppSession(GitScreen(path: shallow, pageSize: 5))
        session.app.handle([.end])
        try await session.waitFor("the shallow history") { $0.hasPrefix(" 7 commits") }
        try await origin.run("git commit -q --allow-empty -m 'new top'")
        let fetched = try await Spawn.run(["sh", "-c", "set -e; cd \"$1\"; git fetch -q --deepen=3 origin; git merge -q --ff-only FETCH_HEAD", "sh", shallow])
        try #require(fetched.status == 0, "\(fetched.errorOutput)")
        session.app.handle([.character("r")])
        try await session.waitFor("the refresh") { $0.hasPrefix(" 1 new commit") || $0.hasPrefix(" The history") }
        let status = try await session.settled()
        #expect(status.hasPrefix(" 1 new commit, 3 older commits "), "\(status)")
        session.app.handle([.end])
        try await session.waitFor("every page") { position($0).map { $0.row == 11 && $0.of == 11 } ?? false }
        #expect(subjects(session) == ["new top"] + (3...12).reversed().map { "c \($0)" })
    }

    @Test("with pages left, a graft and a new commit in one r: “at least” the loaded commits gone, and the new one")
    func graftAndNewCommitWithPagesLeft() async throws {
        let repository = try await ScratchRepository.emptyCommits("graft-and-new-paged", 60)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 5)) { $0.screen.loadPagesOnlyWhenAsked() }
        try await session.waitFor("the first page") { $0.hasPrefix(" 5+ commits") }
        try await repository.run("git replace --graft HEAD~2; git commit -q --allow-empty -m 'new top'")
        session.app.handle([.character("r")])
        try await session.waitFor("the refresh") { $0.hasPrefix(" The history was rewritten") || $0.hasPrefix(" 1 new commit") }
        let status = try await session.settled()
        // c 57 and c 56 went, and c 56 was the last loaded: older ones may have gone too.
        #expect(status.hasPrefix(" The history was rewritten: at least 2 commits gone, 1 new commit "), "\(status)")
        #expect(subjects(session) == ["new top", "c 60", "c 59", "c 58"])
        #expect(!session.screen.loadedSnapshot.hasMore)
    }
}
