@testable import cellkit_demo
import CellKit
import CellKitTerminal
import Foundation
import Testing

/// The history screen in process, on a terminal list view that is never drawn to a terminal:
/// the status line it would show, and its frames.
@MainActor
private final class HistoryScreen {
    let screen: GitScreen
    let list: TerminalListView
    private(set) var status: String?

    /// Every status line shown, in order.
    private(set) var statuses: [String] = []

    /// The screen on `path`, started; `whileFirstPageLoads` runs right after the start, before the first page is in.
    init(_ path: String, pageSize: Int = 20, whileFirstPageLoads: (GitScreen) -> Void = { _ in }) async {
        screen = GitScreen(path: path, pageSize: pageSize)
        list = TerminalListView(columns: 100, rows: 20)
        screen.controller.diagnostics = .ignore
        screen.controller.attach(to: list)
        // Weak: a task of the screen may outlive this test's helper.
        screen.showStatus = { [weak self] in
            self?.status = $0
            self?.statuses.append($0 ?? "")
        }
        screen.start()
        whileFirstPageLoads(screen)
        await screen.firstLoadFinished()
        _ = list.renderFrame()
    }

    /// The frame's lines as text, without the spaces that pad them.
    func frame() -> [String] {
        list.renderFrame().map { String($0.plainText.reversed().drop { $0 == " " }.reversed()) }
    }

    /// The commit selected, by subject.
    var selectedSubject: String? {
        list.selectedPath.flatMap { (screen.controller.displayed.item(at: $0)?.model as? any CommitRow)?.info.subject }
    }

    /// Selects the commit with `subject`.
    func select(_ subject: String) throws {
        let sections = screen.controller.displayed.sections
        for (s, section) in sections.enumerated() {
            for (i, item) in section.items.enumerated() where (item.model as? any CommitRow)?.info.subject == subject {
                list.select(ItemPath(item: i, section: s))
                return
            }
        }
        throw TestFailure("no commit “\(subject)” in \(frame())")
    }

    /// Polls (with a bound) until `done` holds for the frame and the status line, and no refresh
    /// runs (an `r` while one runs is not taken).
    func waitFor(_ what: String, timeout: TimeInterval = 90, _ done: ([String], String?) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            await screen.controller.settle()
            let lines = frame()
            if !screen.refreshing, done(lines, status) { return }
            guard Date() < deadline else { throw TestFailure("timed out waiting for \(what); status “\(status ?? "")”, selected “\(selectedSubject ?? "")”, frame:\n\(lines.joined(separator: "\n"))") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The line after the subject line of the commit `subject` (its byline).
    static func byline(of subject: String, in lines: [String]) -> String? {
        guard let row = lines.firstIndex(where: { $0.hasSuffix(" " + subject) }), row + 1 < lines.count else { return nil }
        return lines[row + 1]
    }
}

@Suite("cellkit-demo git: refreshing (r)", .enabled(if: GitFixture.isAvailable))
@MainActor
struct GitRefreshTests {
    // Demo report 8, item 2: after the missing objects came back, r said "Up to date" and the rows
    // kept "diffstat unavailable" until a restart.
    @Test("r computes again the diffstats git could not compute, for the rows on screen")
    func unavailableDiffstatsAreRetried() async throws {
        let repository = try await ScratchRepository("refresh-diffstat", script: """
            git config user.name T; git config user.email t@example.com
            echo a > a; git add .; git commit -qm first
            echo b > b; git add .; git commit -qm second
            blob=$(git rev-parse HEAD:b)
            object=.git/objects/$(echo "$blob" | cut -c1-2)/$(echo "$blob" | cut -c3-)
            echo "$object" > .git/hidden-path; mv "$object" .git/hidden-blob
            """)
        defer { repository.remove() }
        let history = await HistoryScreen(repository.path)
        try await history.waitFor("the missing blob's diffstat") { lines, _ in
            HistoryScreen.byline(of: "second", in: lines)?.contains("diffstat unavailable") == true
                && HistoryScreen.byline(of: "first", in: lines)?.contains("1 file +1 −0") == true
        }
        try await repository.run("mv .git/hidden-blob \"$(cat .git/hidden-path)\"")
        let computed = history.screen.diffstatStore.computations
        history.screen.refresh()
        try await history.waitFor("the diffstat computed again") { lines, status in
            status == "Up to date" && HistoryScreen.byline(of: "second", in: lines)?.contains("1 file +1 −0") == true
        }
        // Computed again: the commit whose diffstat was unavailable, and the root commit (a
        // shallow clone's boundary shows as one until a deepen); no other.
        #expect(history.screen.diffstatStore.computations == computed + 2)
    }

    // Demo report 8, item 3: every commit gone (HEAD unborn) said "Up to date"; back from the
    // empty history, "20 new commits" (the page size) however many came.
    @Test("r counts every commit gone to an unborn HEAD, and every commit new after an empty history")
    func emptyHistoryCounts() async throws {
        let repository = try await ScratchRepository.emptyCommits("refresh-empty", 12)
        defer { repository.remove() }
        let history = await HistoryScreen(repository.path, pageSize: 5)
        // The rows fill the screen: every page is read.
        try await history.waitFor("every page") { _, status in status == "12 commits" }
        try await repository.run("git symbolic-ref HEAD refs/heads/ghost")
        history.screen.refresh()
        try await history.waitFor("every commit gone") { lines, status in
            status == "The history was rewritten: 12 commits gone" && lines.contains { $0.contains("No commits yet") }
        }
        try await repository.run("git symbolic-ref HEAD refs/heads/main")
        history.screen.refresh()
        try await history.waitFor("the commits back") { lines, status in
            status == "12 new commits" && lines.contains { $0.hasSuffix(" c 12") }
        }
        // From a path that was no repository at the start (its error row).
        let later = repository.root.appendingPathComponent("later").path
        let fromError = await HistoryScreen(later, pageSize: 5)
        try await fromError.waitFor("the error row") { lines, _ in lines.contains { $0.contains("does not exist") } }
        let made = try await Spawn.run(["git", "clone", "-q", repository.path, later])
        try #require(made.status == 0, "\(made.errorOutput)")
        fromError.screen.refresh()
        try await fromError.waitFor("the new history") { _, status in status == "12 new commits" }
    }

    // Demo report 8, section 7: after `git reset --hard HEAD~N`, the selection went back to row 1
    // although the commit selected was still in the history.
    @Test("a rewind keeps the selection on the commit selected when the history still has it")
    func rewindKeepsTheSelection() async throws {
        let repository = try await ScratchRepository.emptyCommits("refresh-rewind", 12)
        defer { repository.remove() }
        let history = await HistoryScreen(repository.path)
        try history.select("c 10")
        try await repository.run("git reset -q --hard HEAD~1")
        history.screen.refresh()
        try await history.waitFor("the rewound history, c 10 selected") { lines, status in
            status == "The history was rewritten: 1 commit gone" && !lines.contains { $0.hasSuffix(" c 12") }
                && history.selectedSubject == "c 10"
        }
    }
}

/// Demo report 9's refresh defects.
@Suite("cellkit-demo git: report 9's refreshes", .enabled(if: GitFixture.isAvailable))
@MainActor
struct DemoReport9RefreshTests {
    /// A repository of `count` commits "c 1" … "c N", each adding its own file.
    private func commits(_ name: String, _ count: Int) async throws -> ScratchRepository {
        try await ScratchRepository(name, script: """
            git config user.name T; git config user.email t@example.com
            for i in $(seq 1 \(count)); do echo $i > f$i; git add f$i; git commit -qm "c $i"; done
            """)
    }

    // Demo report 9, defect 1: `r` typed ahead while the first page loaded cancelled it (an error
    // row "Loading was cancelled." and `CancellationError()` on the status line), or called the
    // first page "20 new commits".
    @Test("r while the first page loads does nothing: no cancellation, no new commits")
    func refreshWhileTheFirstPageLoads() async throws {
        let repository = try await commits("refresh-first-page", 30)
        defer { repository.remove() }
        let history = await HistoryScreen(repository.path, pageSize: 10) { $0.refresh() }
        try await history.waitFor("the first page") { lines, status in
            lines.contains { $0.hasSuffix(" c 30") } && status?.hasSuffix("commits") == true
        }
        #expect(!history.statuses.contains { $0.contains("new commit") || $0.contains("Cancellation") }, "\(history.statuses)")
        #expect(!history.frame().contains { $0.contains("cancelled") }, "\(history.frame())")
        // r works once the first page is in.
        try await repository.run("echo 31 > f31; git add f31; git commit -qm 'c 31'")
        history.screen.refresh()
        try await history.waitFor("the new commit") { lines, status in
            status == "1 new commit" && lines.contains { $0.hasSuffix(" c 31") }
        }
    }

    // Demo report 9, defect 2: a rewind kept the selection only when the first page held it.
    @Test("a rewind reads on to the commit selected past the first page, keys pressed meanwhile wait")
    func rewindKeepsASelectionPastTheFirstPage() async throws {
        let repository = try await commits("refresh-rewind-far", 45)
        defer { repository.remove() }
        let history = await HistoryScreen(repository.path, pageSize: 10)
        // Every page read (as End would, without End's key handling still running after).
        // (The status line may name a page the list does not show yet: c 5 is selected once it does.)
        try await history.waitFor("every page, c 5 selected") { _, status in
            _ = history.screen.loadNextPage()
            return status == "45 commits" && (try? history.select("c 5")) != nil
        }
        try await repository.run("git reset -q --hard HEAD~2")
        history.screen.refresh()
        // Meanwhile: a second r (its first page loads) does nothing; a key waits for the refresh.
        history.screen.refresh()
        #expect(history.screen.handleListKey(.character("j"), in: history.list))
        try await history.waitFor("the rewound history, c 4 selected") { _, status in
            status == "The history was rewritten: 2 commits gone" && history.selectedSubject == "c 4"
        }
        #expect(!history.statuses.contains { $0.contains("new commit") || $0.contains("Cancellation") }, "\(history.statuses)")
        // Read as far as needed, not further than before.
        #expect(history.screen.rowsRead >= 39 && history.screen.rowsRead <= 43, "\(history.screen.rowsRead)")
    }

    // Demo report 9, defect 6: a rewrite whose old commits were pruned (`git gc --prune=now`),
    // with pages left, said "5 commits gone" without "3 new commits".
    @Test("a pruned rewrite with pages left counts the new commits too")
    func prunedRewriteWithPagesLeft() async throws {
        let repository = try await commits("refresh-pruned", 40)
        defer { repository.remove() }
        let history = await HistoryScreen(repository.path, pageSize: 20)
        try await history.waitFor("the first page") { _, status in status == "20+ commits" }
        try await repository.run("""
            git rebase -q --onto HEAD~5 HEAD~3
            git reflog expire --expire=now --all; git gc -q --prune=now
            """)
        history.screen.refresh()
        try await history.waitFor("the rewritten history") { _, status in
            status == "The history was rewritten: 5 commits gone, 3 new commits"
        }
    }
}

/// Demo report 9's leftovers.
@Suite("cellkit-demo git: report 9's leftovers", .enabled(if: GitFixture.isAvailable))
@MainActor
struct DemoReport9LeftoverTests {
    // Demo report 9, left: after `git fetch --deepen` on a shallow clone whose every commit
    // was loaded, r said "Up to date" although older commits had come.
    @Test("r after a deepen of a shallow clone counts the older commits and reads them")
    func deepenCountsOlderCommits() async throws {
        let origin = try await ScratchRepository("refresh-deepen", in: "origin", script: """
            git config user.name T; git config user.email t@example.com
            for i in $(seq 1 12); do echo $i > f$i; git add f$i; git commit -qm "c $i"; done
            """)
        defer { origin.remove() }
        let shallow = origin.root.appendingPathComponent("shallow").path
        let cloned = try await Spawn.run(["git", "clone", "-q", "--depth", "3", "file://" + origin.path, shallow])
        try #require(cloned.status == 0, "\(cloned.errorOutput)")
        let history = await HistoryScreen(shallow, pageSize: 5)
        try await history.waitFor("the shallow history") { _, status in status == "3 commits" }
        let deepened = try await Spawn.run(["git", "-C", shallow, "fetch", "-q", "--deepen=4"])
        try #require(deepened.status == 0, "\(deepened.errorOutput)")
        history.screen.refresh()
        try await history.waitFor("the older commits") { lines, status in
            status == "4 older commits" && lines.contains { $0.hasSuffix(" c 6") }
        }
        // They end the history now: a second r is up to date.
        history.screen.refresh()
        try await history.waitFor("up to date") { _, status in status == "Up to date" }
    }
}

/// Demo report 10's refreshes.
@Suite("cellkit-demo git: report 10's refreshes", .enabled(if: GitFixture.isAvailable))
@MainActor
struct DemoReport10RefreshTests {
    // Demo report 10, defect 2: each "Up to date" r on a long history read every loaded commit
    // again (about 10 s of CPU on 200,000 commits, memory climbing).
    @Test("r with nothing changed reads nothing again; a new tag is read")
    func upToDateReadsNothing() async throws {
        let repository = try await ScratchRepository.emptyCommits("refresh-unchanged", 8)
        defer { repository.remove() }
        let history = await HistoryScreen(repository.path, pageSize: 5)
        // The rows fill the screen: every page is read.
        try await history.waitFor("every page") { _, status in status == "8 commits" }
        // The refs were recorded before the first page was read: no r reads again, the first included.
        let started = history.screen.history.processesStarted
        for _ in 0..<4 {
            history.screen.refresh()
            try await history.waitFor("up to date again") { _, status in status == "Up to date" }
        }
        #expect(history.screen.history.processesStarted == started, "an r with nothing changed read the history again")
        // A tag on a commit shown: read again, and shown.
        let tagged = try await Spawn.run(["git", "-C", repository.path, "tag", "v9", "HEAD~1"])
        try #require(tagged.status == 0)
        history.screen.refresh()
        try await history.waitFor("the tag") { lines, _ in lines.contains { $0.contains("v9") } }
    }

    // Demo report 11, defect 4: a tag added to or removed from the selected commit made its row
    // another row type (another identity): the selection moved one row down, or to row 1.
    @Test("a tag added to or removed from the selected commit keeps it selected", arguments: ["c 10", "c 3"])
    func tagOnTheSelectedCommit(subject: String) async throws {
        let repository = try await ScratchRepository.emptyCommits("refresh-tag-selected", 12)
        defer { repository.remove() }
        let history = await HistoryScreen(repository.path, pageSize: 5)
        try await history.waitFor("every page") { _, status in status == "12 commits" }
        try history.select(subject)
        let back = subject == "c 10" ? "HEAD~2" : "HEAD~9"
        for script in ["git tag mark \(back)", "git tag -d mark >/dev/null"] {
            let changed = try await Spawn.run(["sh", "-c", "cd \"$1\" && " + script, "sh", repository.path])
            try #require(changed.status == 0, "\(changed.errorOutput)")
            history.screen.refresh()
            try await history.waitFor("\(script): \(subject) still selected") { _, status in
                status == "Up to date" && history.selectedSubject == subject
            }
        }
    }

    // Demo report 11, defect 1: a tag moved on a commit below the first page stayed where it
    // was (the refresh reads its first page again and keeps the rows below), also after more
    // `r`; moved while new commits came, it was lost until a restart.
    @Test("a ref moved far down is shown where git has it, with and without new commits", arguments: [false, true])
    func farRefMoves(withNewCommits: Bool) async throws {
        let repository = try await ScratchRepository.emptyCommits("refresh-far-tag", 12, then: """
            git tag far HEAD~10
            """)
        defer { repository.remove() }
        let history = await HistoryScreen(repository.path, pageSize: 5)
        try await history.waitFor("every page") { _, status in status == "12 commits" }
        // The subjects of the loaded commits that carry the tag.
        func tagged(_: [String]) -> [String] {
            history.screen.loadedSnapshot.model.sections.flatMap(\.items).compactMap { item in
                (item.model as? CommitInfo).flatMap { $0.tags.contains("far") ? $0.subject : nil }
            }
        }
        try await history.waitFor("the tag on c 2") { lines, _ in tagged(lines) == ["c 2"] }
        let moved = try await Spawn.run(["sh", "-c", "cd \"$1\" && git tag -f far HEAD~9 >/dev/null" + (withNewCommits ? " && git commit -q --allow-empty -m 'c 13'" : ""), "sh", repository.path])
        try #require(moved.status == 0, "\(moved.errorOutput)")
        history.screen.refresh()
        try await history.waitFor("the tag on c 3") { lines, status in
            tagged(lines) == ["c 3"] && status == (withNewCommits ? "1 new commit" : "Up to date")
        }
    }
}

/// Small things of demo report 8, section 7.
@Suite("cellkit-demo: report 8's small things", .enabled(if: GitFixture.isAvailable))
struct DemoReport8Tests {
    @Test("git's message goes on with the indented lines after a line ending in “:” (the unknown extension's name)")
    func messageWithItsDetail() {
        let stderr = "fatal: unknown repository extension found:\n\tweird\n"
        #expect(GitRepository.message(stderr: stderr) == "fatal: unknown repository extension found: weird")
        #expect(GitRepository.error(path: "/r", stderr: stderr).description == "git cannot read ‘/r’: fatal: unknown repository extension found: weird")
        #expect(GitRepository.message(stderr: "warning: x\nfatal: bad object HEAD\n\tnot this\n") == "fatal: bad object HEAD")
    }

    @Test("a date in a year of more than four digits keeps its weekday; the time is what follows it")
    func longYears() {
        func commit(date: String) -> CommitInfo? {
            let hash = String(repeating: "a", count: 40)
            let fields = [hash, "aaaaaaa", "", "T", date, "", "subject", ""]
            return GitRepository.commit(record: Array(fields.joined(separator: "\0").utf8), diffstats: false)
        }
        let far = commit(date: "3170843-11-07 Sat 09:46")
        #expect(far?.day == "3170843-11-07 Sat" && far?.time == "09:46", "\(String(describing: far))")
        let near = commit(date: "2026-11-24 Tue 14:00")
        #expect(near?.day == "2026-11-24 Tue" && near?.time == "14:00")
        let none = commit(date: "")
        #expect(none?.day == GitRepository.unknownDay && none?.time == GitRepository.unknownTime)
    }

    @Test("piped --pages N on an empty history says nothing about pages after “No commits yet”", .blocking)
    func emptyHistoryPages() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let result = try Spawn.run([try DemoBinary.path, "git", fixture.empty, "--pages", "2"])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains("No commits yet"), "\(result.output)")
        #expect(!result.errorOutput.contains("printed all"), "\(result.errorOutput)")
    }

    /// Every status line a screen showed, in order.
    /// The feed with `seed` and `failRate`, instant pages, on an 80x20 terminal list view
    /// (returned: the controller holds it weakly), started and its first load finished; its
    /// status lines go to the log.
    @MainActor
    private func startedFeed(seed: UInt64, failRate: Double) async -> (FeedScreen, FeedScreenTests.StatusLog, TerminalListView) {
        let feed = await FeedScreenTests.startedFeed(seed: seed, failRate: failRate, columns: 80, rows: 20)
        return (feed.screen, feed.log, feed.list)
    }

    // Demo report 10, cosmetic: a failed refresh's status line started lower-case ("could not
    // load new tweets: …") beside "Could not load more tweets; …".
    @Test("a failed refresh of the feed says so in a sentence")
    @MainActor
    func feedRefreshFailureIsASentence() async throws {
        let (screen, log, list) = await startedFeed(seed: 3, failRate: 0.5)
        defer { withExtendedLifetime(list) {} }
        var failure: String?
        for _ in 0..<60 where failure == nil {
            screen.refresh()
            for _ in 0..<400 where screen.loadedSnapshot.activity == .refreshing || screen.loadedSnapshot.state.isLoading {
                await screen.controller.settle()
                try await Task.sleep(for: .milliseconds(5))
            }
            await screen.controller.settle()
            failure = log.lines.compactMap { $0 }.first { $0.lowercased().contains("could not load new tweets") }
        }
        let line = try #require(failure, "no refresh failed: \(log.lines)")
        #expect(line.hasPrefix("Could not load new tweets"), "\(line)")
    }

    @Test("r on the feed's first-page error row loads the first page: no “new tweets at the top”")
    @MainActor
    func feedRefreshFromTheErrorRow() async throws {
        // Seed 5 with this rate fails the first page; a later one succeeds.
        let (screen, log, list) = await startedFeed(seed: 5, failRate: 0.7)
        defer { withExtendedLifetime(list) {} }
        try #require(screen.loadedSnapshot.model.itemCount == 0, "the first page did not fail: \(log.lines)")
        for _ in 0..<30 where screen.loadedSnapshot.model.itemCount == 0 {
            log.lines.removeAll()
            screen.refresh()
            let deadline = Date().addingTimeInterval(10)
            // Until the refresh ends: a final status after the one the refresh publishes at once
            // (the error row's, still).
            func ended() -> Bool {
                guard log.lines.count >= 2, let last = log.lines.last ?? nil else { return false }
                return last.hasPrefix("Loading failed") || last.hasSuffix(" tweets") || last.hasSuffix(" at the top")
            }
            while !ended(), Date() < deadline {
                await screen.controller.settle()
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        try #require(screen.loadedSnapshot.model.itemCount > 0, "\(log.lines)")
        #expect(!log.lines.contains { $0?.contains("new tweet") == true }, "\(log.lines)")
        #expect(log.lines.last == "20 tweets", "\(log.lines)")
    }
}

extension ScratchRepository {
    /// A repository of `count` empty commits "c 1" … "c N" by "T", then `script` (run by sh in it).
    static func emptyCommits(_ name: String, _ count: Int, then script: String = "") async throws -> ScratchRepository {
        try await ScratchRepository(name, script: """
            git config user.name T; git config user.email t@example.com
            for i in $(seq 1 \(count)); do git commit -q --allow-empty -m "c $i"; done
            """ + "\n" + script)
    }
}

/// CI crash (stop 24): a task of the history screen outlived what held it and read a freed
/// object through an `unowned` capture.
@Suite("cellkit-demo git: a screen let go while it reads", .enabled(if: GitFixture.isAvailable))
@MainActor
struct GitScreenLifetimeTests {
    /// The status lines shown, held only by the screen's sink.
    private final class Statuses { var lines: [String?] = [] }

    @Test("a screen let go while End reads every page and r waits goes away without a crash")
    func letGoWhileEndReads() async throws {
        let repository = try await ScratchRepository.emptyCommits("lifetime-end", 40)
        defer { repository.remove() }
        weak var weakController: ListController?
        weak var weakScreen: GitScreen?
        do {
            let screen = GitScreen(path: repository.path, pageSize: 2)
            let list = TerminalListView(columns: 100, rows: 10)
            screen.controller.diagnostics = .ignore
            screen.controller.attach(to: list)
            let statuses = Statuses()
            screen.showStatus = { statuses.lines.append($0) }
            screen.start()
            await screen.firstLoadFinished()
            #expect(screen.handleListKey(.end, in: list))
            screen.refresh()
            weakController = screen.controller
            weakScreen = screen
        }
        // Whatever still runs finishes on its own, and everything goes.
        let deadline = Date().addingTimeInterval(30)
        while weakController != nil || weakScreen != nil, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(weakScreen == nil)
        #expect(weakController == nil)
    }
}

/// Demo report 13's refreshes.
@Suite("cellkit-demo git: report 13's refreshes", .enabled(if: GitFixture.isAvailable))
@MainActor
struct DemoReport13RefreshTests {
    // Demo report 13, defect 2: after End on a long history, one new commit and r read every
    // loaded page again (~25 s on 200,000 commits), with a "Loading more…" row counted meanwhile.
    @Test("r after End with new commits on top reads only them: no page read again, no extra row", arguments: [false, true])
    func newCommitsAfterEnd(endOfList: Bool) async throws {
        let repository = try await ScratchRepository.emptyCommits("refresh-after-end", 60)
        defer { repository.remove() }
        let history = await HistoryScreen(repository.path, pageSize: 5)
        if endOfList {
            #expect(history.screen.handleListKey(.end, in: history.list))
        } else {
            // Not every page: End is not pressed; two more pages are read.
            for _ in 0..<2 { await history.screen.loadNextPage()?.value }
        }
        // The pages the screen asked for are in (those that fill it, and the two asked here).
        try await history.waitFor("the pages loaded") { _, _ in
            history.screen.loadedSnapshot.activity == .idle && history.screen.loadedCount >= (endOfList ? 60 : 15)
        }
        let loaded = history.screen.loadedCount
        if !endOfList { try #require(loaded < 60) }
        let started = history.screen.history.processesStarted
        try await repository.run("git commit -q --allow-empty -m 'c 61'; git commit -q --allow-empty -m 'c 62'")
        // The commit selected before the refresh (End's last row, or one picked) stays selected.
        if endOfList {
            try await history.waitFor("End on the last row") { _, _ in history.selectedSubject == "c 1" }
        } else {
            await history.screen.controller.settle()
            try history.select("c 57")
        }
        let selected = history.selectedSubject
        let before = history.statuses.count
        history.screen.refresh()
        try await history.waitFor("the new commits") { _, status in
            status == "2 new commits" && history.screen.loadedCount == loaded + 2
        }
        // Let anything the refresh started run out.
        for _ in 0..<20 {
            await history.screen.controller.settle()
            _ = history.frame()
        }
        let shown = history.statuses[before...]
        #expect(!shown.contains { $0.hasPrefix("Reading more history") }, "\(Array(shown))")
        #expect(history.screen.loadedCount == loaded + 2)
        // No "Loading more…" row after the last commit: the history has no more.
        #expect(history.screen.loadedSnapshot.hasMore == !endOfList)
        #expect(history.screen.controller.displayed.itemCount == loaded + 2)
        #expect(history.selectedSubject == selected)
        #expect(history.screen.history.processesStarted == started + 1, "the refresh read more than the new commits")
        let subjects = history.screen.loadedSnapshot.model.sections.flatMap(\.items).compactMap { ($0.model as? CommitInfo)?.subject }
        #expect(subjects == (1...(loaded + 2)).map { "c \(63 - $0)" })
        if endOfList {
            #expect(history.status == "2 new commits")
        } else {
            // The next page goes on below the rows kept, from git.
            await history.screen.loadNextPage()?.value
            let more = history.screen.loadedSnapshot.model.sections.flatMap(\.items).compactMap { ($0.model as? CommitInfo)?.subject }
            #expect(more == (1...(loaded + 7)).map { "c \(63 - $0)" })
        }
    }

    // Demo report 13, defect 6: the history shrank under an unchanged head (a graft, a shallower
    // fetch) and r said "Up to date" while commits went.
    @Test("a graft under an unchanged head says how many commits went")
    func graftCountsTheCommitsGone() async throws {
        let repository = try await ScratchRepository.emptyCommits("refresh-graft", 30)
        defer { repository.remove() }
        let history = await HistoryScreen(repository.path, pageSize: 5)
        #expect(history.screen.handleListKey(.end, in: history.list))
        try await history.waitFor("every page") { _, status in status == "30 commits" }
        try await repository.run("git replace --graft HEAD~5")
        history.screen.refresh()
        try await history.waitFor("24 commits gone") { _, status in
            status == "The history was rewritten: 24 commits gone" && history.screen.loadedCount == 6
        }
        try await repository.run("git replace -d $(git rev-parse HEAD~5) >/dev/null")
        history.screen.refresh()
        try await history.waitFor("the older commits back") { lines, status in
            status == "24 older commits" && lines.contains { $0.hasSuffix(" c 24") }
        }
    }

    @Test("a shallower fetch says how many commits went")
    func shallowerFetchCountsTheCommitsGone() async throws {
        let origin = try await ScratchRepository.emptyCommits("refresh-shallower", 12)
        defer { origin.remove() }
        let shallow = origin.root.appendingPathComponent("shallow").path
        let cloned = try await Spawn.run(["git", "clone", "-q", "--depth", "7", "file://" + origin.path, shallow])
        try #require(cloned.status == 0, "\(cloned.errorOutput)")
        let history = await HistoryScreen(shallow, pageSize: 5)
        try await history.waitFor("the shallow history") { _, status in status == "7 commits" }
        let fetched = try await Spawn.run(["git", "-C", shallow, "fetch", "-q", "--depth=2", "origin"])
        try #require(fetched.status == 0, "\(fetched.errorOutput)")
        history.screen.refresh()
        try await history.waitFor("5 commits gone") { _, status in
            status == "The history was rewritten: 5 commits gone" && history.screen.loadedCount == 2
        }
    }

    @Test("a repository replaced by an empty one says every commit went")
    func emptiedRepositoryCountsEveryCommit() async throws {
        let repository = try await ScratchRepository.emptyCommits("refresh-emptied", 9)
        defer { repository.remove() }
        let history = await HistoryScreen(repository.path, pageSize: 5)
        try await history.waitFor("every page") { _, status in status == "9 commits" }
        try await repository.run("rm -rf .git; git init -q .")
        history.screen.refresh()
        try await history.waitFor("9 commits gone") { lines, status in
            status == "The history was rewritten: 9 commits gone" && lines.contains { $0.contains("No commits yet") }
        }
    }
}

/// The leftovers of demo report 12 on the history screen.
@Suite("cellkit-demo git: report 12's leftovers", .enabled(if: GitFixture.isAvailable))
@MainActor
struct DemoReport12LeftoverGitTests {
    // Demo report 12, left: under a filter, the end of the list coming on screen loaded no next page.
    @Test("under a filter, scrolling to the end of the list loads the next page")
    func filteredEndLoadsTheNextPage() async throws {
        let repository = try await ScratchRepository.thirtyCommits("filter-scroll")
        defer { repository.remove() }
        let history = await HistoryScreen(repository.path, pageSize: 5)
        try await history.waitFor("the first pages") { lines, _ in lines.contains { $0.hasSuffix("Commit number 30") } }
        // Every commit matches: the list is as long as without the filter, with the "search the rest" row last.
        history.screen.filter("number")
        try await history.waitFor("the filtered rows") { _, status in status?.contains("match in the") == true }
        let loaded = history.screen.loadedCount
        for _ in 0..<40 { history.list.handle(.pageDown) }
        try await history.waitFor("a page more") { _, _ in history.screen.loadedCount > loaded }
    }

    @Test("Enter on the “search the rest” row while the end on screen loads a page searches the whole history")
    func searchTheRestWhileAPageLoads() async throws {
        let repository = try await ScratchRepository.thirtyCommits("filter-search-inflight")
        defer { repository.remove() }
        // Pages load only when asked: the test asks for the page the end on screen asks for, and
        // presses Enter while it loads. (A page of the `git log` already running comes at once:
        // waiting for the end's own page to be under way, the test missed every one on a loaded
        // machine, and found the history read to its end.)
        let history = await HistoryScreen(repository.path, pageSize: 5) { $0.loadPagesOnlyWhenAsked() }
        try await history.waitFor("the first page") { lines, _ in lines.contains { $0.hasSuffix("Commit number 30") } }
        history.screen.filter("xyzzy")
        try await history.waitFor("the filter's rows") { _, _ in
            history.screen.controller.displayed.sections.contains { $0.id == SectionID("search-rest") }
        }
        let sections = history.screen.controller.displayed.sections
        let searchRow = try #require(sections.firstIndex { $0.id == SectionID("search-rest") })
        // The page the "search the rest" row on screen asks for.
        try #require(history.screen.loadNextPage() != nil)
        #expect(history.screen.loadedSnapshot.activity == .loadingMore)
        history.list.select(ItemPath(item: 0, section: searchRow))
        history.list.handle(.enter)
        try await history.waitFor("the whole history searched") { _, status in
            status == "0 commits match “xyzzy” in all 30 commits"
        }
    }

    // Demo report 11, defect 6 (left in report 12): after a deepen, `r` with a filter kept said
    // "50 older commits" while the filter's row still counted only the commits loaded before.
    @Test("r after a deepen with a filter kept searches the older commits")
    func deepenUnderAFilter() async throws {
        let origin = try await ScratchRepository("filter-deepen", in: "origin", script: """
            git config user.name T; git config user.email t@example.com
            for i in $(seq 1 12); do echo $i > f$i; git add f$i; git commit -qm "c $i"; done
            """)
        defer { origin.remove() }
        let shallow = origin.root.appendingPathComponent("shallow").path
        let cloned = try await Spawn.run(["git", "clone", "-q", "--depth", "2", "file://" + origin.path, shallow])
        try #require(cloned.status == 0, "\(cloned.errorOutput)")
        let history = await HistoryScreen(shallow, pageSize: 5)
        history.screen.filter("c 1")
        try await history.waitFor("the filter") { _, status in status == "2 commits match in all 2 commits" }
        let deepened = try await Spawn.run(["git", "-C", shallow, "fetch", "-q", "--deepen=10"])
        try #require(deepened.status == 0, "\(deepened.errorOutput)")
        history.screen.refresh()
        // c 12 … c 1 now: c 12, c 11, c 10 and c 1 match.
        try await history.waitFor("the older commits searched") { lines, _ in
            history.screen.loadedCount == 12 && lines.contains { $0.hasSuffix(" c 1") }
        }
        let lines = history.frame()
        #expect(!lines.contains { $0.contains("in the 2 loaded") || $0.contains("Enter searches the rest") }, "\(lines)")
    }
}

/// cellkit-demo report demouser15, D2: after `git replace --graft HEAD~5` and `r`, the new root
/// kept the diffstat it had with its parent (`1 file +1 −0`) until a second `r`: diffstats were
/// kept by commit id, and a graft gives a commit other parents under the same id.
@Suite("cellkit-demo demouser15: a graft's new root gets its own diffstat", .enabled(if: GitFixture.isAvailable))
@MainActor
struct GraftDiffstatTests {
    @Test("r after a graft shows the new root's diffstat at once, and again once the graft goes")
    func graftedRootDiffstat() async throws {
        // Commit "c i" adds the file f<i>: "c 25" as a root adds 25 files.
        let repository = try await ScratchRepository("graft-diffstat", script: """
            git config user.name T; git config user.email t@example.com
            for i in $(seq 1 30); do echo $i > f$i; git add f$i; git commit -qm "c $i"; done
            """)
        defer { repository.remove() }
        let history = await HistoryScreen(repository.path, pageSize: 30)
        try await history.waitFor("c 25's diffstat") { lines, _ in
            HistoryScreen.byline(of: "c 25", in: lines)?.contains("1 file +1 −0") == true
        }
        try await repository.run("git replace --graft HEAD~5")
        history.screen.refresh()
        try await history.waitFor("the new root's diffstat") { lines, status in
            status?.hasSuffix(" commits gone") == true
                && HistoryScreen.byline(of: "c 25", in: lines)?.contains("25 files +25 −0") == true
        }
        try await repository.run("git replace -d $(git rev-parse HEAD~5) >/dev/null")
        history.screen.refresh()
        try await history.waitFor("the old diffstat back") { lines, _ in
            HistoryScreen.byline(of: "c 25", in: lines)?.contains("1 file +1 −0") == true
        }
    }
}
