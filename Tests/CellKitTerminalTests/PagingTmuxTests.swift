import Foundation
import Testing

/// Paging in the demo's git mode: End reaches the real end, keys wait for pages,
/// a failed page can be retried, a refresh counts what it brought.
@Suite("cellkit-demo git: paging", .enabled(if: TmuxAvailability.available && GitFixture.isAvailable, "tmux or git is not installed"), .blocking)
struct PagingTmuxTests {
    @Test("End loads every page and goes to the real last commit")
    func endReachesTheRealEnd() throws {
        let demo = try GitDemo("git-end", linearCommits: 40, arguments: ["--page-size", "10"])  // 46 commits in all
        defer { demo.close() }
        let tmux = demo.tmux
        try tmux.waitFor(text: "Linear commit 40")
        try tmux.send("End")
        let screen = try tmux.waitFor("the last commit") { statusPosition($0) == "46/46" }
        #expect(screen.contains { $0.contains("Add the first file") })
        #expect(screen.contains { $0.contains("46 commits") })
        try demo.session.quit()
    }

    @Test("keys pressed past the loaded rows wait for the next page")
    func keysWaitForThePage() throws {
        let demo = try GitDemo("git-burst", linearCommits: 40, arguments: ["--page-size", "10"])
        defer { demo.close() }
        let tmux = demo.tmux
        try tmux.waitFor(text: "Linear commit 40")
        try tmux.send(Array(repeating: "j", count: 30).joined(), literal: true)
        let screen = try tmux.waitFor("row 31") { statusPosition($0)?.hasPrefix("31/") == true }
        #expect(screen.contains { $0.contains("Linear commit 10") }, "the selected row (commit 10) is on screen")
        try demo.session.quit()
    }

    // Demo report 8, item 5: PgDn past the loaded rows went only to the end of the next page
    // (one row a press at --page-size 1).
    @Test("PgDn moves a screen of rows whatever the page size: it waits for as many pages as that needs")
    func pageDownWaitsForEveryPageItNeeds() throws {
        var positions: [String] = []
        for pageSize in ["100", "2"] {
            let demo = try GitDemo("git-pgdn-\(pageSize)", linearCommits: 40, arguments: ["--page-size", pageSize])
            defer { demo.close() }
            let tmux = demo.tmux
            try tmux.waitFor(text: "Linear commit 40")
            func row(_ lines: [String]) -> Int? { statusPosition(lines).flatMap { Int($0.prefix { $0 != "/" }) } }
            try tmux.send("PageDown")
            let first = try #require(row(try tmux.waitFor("a move") { row($0).map { $0 > 1 } == true }))
            try tmux.send("PageDown")
            let second = try #require(row(try tmux.waitFor("a second move") { row($0).map { $0 > first } == true }))
            positions.append("\(first), \(second)")
            try demo.session.quit()
        }
        #expect(positions[0] == positions[1], "PgDn twice: rows \(positions[0]) with pages of 100, rows \(positions[1]) with pages of 2")
    }

    @Test("a failed page shows the retry row; Enter retries and paging goes on")
    func failedPageRecovers() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        try fixture.addLinearCommits(40)
        // git log stops in page 2 (commits 11–20) while one of its commits is missing: the
        // rows it gave before show, then the retry row.
        let restore = try fixture.hideCommitObject("HEAD~14")
        let readable = try Spawn.run(["git", "-C", fixture.repository, "log", "--format=%h"]).output.split(separator: "\n").count
        #expect(readable > 10 && readable < 20, "git log read \(readable) commits")
        let retryRow = "\(readable + 1)/\(readable + 1)"
        let session = try DemoSession("git-retry", ["git", fixture.repository, "--page-size", "10"], columns: 100, rows: 24)
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor(text: "Linear commit 40")
        try tmux.send("End")
        // The retry row draws a frame before End moves the selection onto it: wait for both.
        var screen = try tmux.waitFor("End to select the retry row") { lines in
            lines.contains { $0.contains("Couldn't load more") } && statusPosition(lines) == retryRow
        }
        #expect(screen.contains { $0.contains("Select to retry (Enter)") })
        #expect(statusPosition(screen) == retryRow, "End selects the retry row")
        try restore()
        try tmux.send("Enter")
        // Page 2 arrives; End, still under way, may go on to the later pages at once.
        screen = try tmux.waitFor("page 2") { lines in
            statusPosition(lines).flatMap { $0.split(separator: "/").last.flatMap { Int($0) } }.map { $0 >= 20 } ?? false
        }
        #expect(!screen.contains { $0.contains("Couldn't load more") })
        try tmux.send("End")
        try tmux.waitFor("the last commit") { statusPosition($0) == "46/46" }
        try session.quit()
    }

    @Test("a refresh with one page loaded counts the new commits")
    func refreshCountsNewCommits() throws {
        let demo = try GitDemo("git-refresh-count", linearCommits: 40, arguments: ["--page-size", "20"])
        defer { demo.close() }
        let tmux = demo.tmux
        try tmux.waitFor(text: "20+ commits")
        try demo.fixture.addLinearCommits(3, from: 41)
        try tmux.send("r")
        try tmux.waitFor(text: "3 new commits")
        try tmux.waitFor(text: "Linear commit 43")
        try demo.session.quit()
    }

    @Test("a refresh after a rewind counts no new commits: the lost ones go, the history reads on")
    func refreshAfterRewind() throws {
        // Before: "10 new commits", the older commits the new first page reached.
        let demo = try GitDemo("git-refresh-rewind", linearCommits: 40, arguments: ["--page-size", "20"])
        defer { demo.close() }
        let tmux = demo.tmux
        try tmux.waitFor(text: "20+ commits")
        let reset = try Spawn.run(["git", "-C", demo.fixture.repository, "reset", "-q", "--hard", "HEAD~10"])
        #expect(reset.status == 0, "\(reset.errorOutput)")
        try tmux.send("r")
        var screen = try tmux.waitFor(text: "The history was rewritten: 10 commits gone")
        #expect(!screen.contains { $0.contains("new commit") })
        // The rows read again may be drawn a frame after the status line.
        screen = try tmux.waitFor(text: "Linear commit 30")
        #expect(!screen.contains { $0.contains("Linear commit 31") })
        // A commit made after the rewind is new.
        try demo.fixture.addLinearCommits(1, from: 50)
        try tmux.send("r")
        // The status line may say so a frame before the list shows the row: wait for both.
        screen = try tmux.waitFor("the new commit and its count") { lines in
            lines.contains { $0.contains("1 new commit") } && lines.contains { $0.contains("Linear commit 50") }
        }
        // The history reads on to its end, every commit once.
        try tmux.send("End")
        screen = try tmux.waitFor("the last commit") { $0.contains { $0.contains("Add the first file") } }
        #expect(statusPosition(screen) == "37/37", "\(screen)")
        try demo.session.quit()
    }

    @Test("a refresh with more new commits than rows shown puts every one on top; the old head loses its HEAD label")
    func refreshWithMoreNewCommitsThanRows() throws {
        // Before: the first page read again kept its old size (10): "11 new commits  11/20",
        // Linear commit 5 missing, Linear commit 4 still "HEAD -> main".
        let demo = try GitDemo("git-refresh-many", linearCommits: 4, columns: 100, rows: 50)  // 10 commits
        defer { demo.close() }
        let tmux = demo.tmux
        try tmux.waitFor(text: "10 commits")
        try demo.fixture.addLinearCommits(11, from: 5)
        try tmux.send("r")
        // The status line may say it a frame before the rows show; the selection stays on the old head.
        let screen = try tmux.waitFor("the new commits") { lines in lines.contains { $0.contains("11 new commits") } && statusPosition(lines) == "12/21" }
        let five = try #require(screen.firstIndex { $0.contains("Linear commit 5") })
        #expect(screen[five + 2].contains("Linear commit 4"), "\(screen)")
        #expect(!screen[five + 3].contains("HEAD ->"), "\(screen)")
        #expect(screen.contains { $0.contains("HEAD -> main") })
        try demo.session.quit()
    }

    @Test("a refresh with one commit shown counts the new commits")
    func refreshFromOneCommit() throws {
        // Before: "4 commits" (the refresh read one commit, the next page the rest).
        let repository = try ScratchRepository("one", script: "git config user.name T; git config user.email t@example.com; git commit -q --allow-empty -m 'Commit 1'")
        defer { repository.remove() }
        let session = try DemoSession("git-refresh-one", ["git", repository.path], columns: 100, rows: 24)
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor(text: "1 commit")
        let more = try Spawn.run(["sh", "-c", "cd \"$1\"; for n in 2 3 4; do git commit -q --allow-empty -m \"Commit $n\"; done", "sh", repository.path])
        #expect(more.status == 0, "\(more.errorOutput)")
        try tmux.send("r")
        // The status line may say it a frame before the rows show.
        let screen = try tmux.waitFor("the new commits") { lines in lines.contains { $0.contains("3 new commits") } && statusPosition(lines) == "4/4" }
        #expect(screen.contains { $0.contains("Commit 4") })
        try session.quit()
    }

    @Test("a refresh with two commits shown counts the new commits", arguments: [1, 3])
    func refreshFromTwoCommits(added: Int) throws {
        // Before: "3 commits" (the page after the refresh's first one overwrote the count of new commits).
        let repository = try ScratchRepository("two\(added)", script: "git config user.name T; git config user.email t@example.com; git commit -q --allow-empty -m 'Commit 1'; git commit -q --allow-empty -m 'Commit 2'")
        defer { repository.remove() }
        let session = try DemoSession("git-refresh-two-\(added)", ["git", repository.path], columns: 100, rows: 24)
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor("2 commits") { statusPosition($0) == "1/2" }
        let more = try Spawn.run(["sh", "-c", "cd \"$1\"; n=0; while [ $n -lt \(added) ]; do n=$((n + 1)); git commit -q --allow-empty -m \"New $n\"; done", "sh", repository.path])
        #expect(more.status == 0, "\(more.errorOutput)")
        try tmux.send("r")
        // The refresh's first page, then the page after it: the status line must still count the new commits.
        let total = 2 + added
        let screen = try tmux.waitFor("every commit") { lines in
            statusPosition(lines) == "\(added + 1)/\(total)" && lines.contains { $0.contains("Commit 1") } && !lines.contains { $0.contains("Refreshing") || $0.contains("Reading") }
        }
        let status = screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
        #expect(status.contains(added == 1 ? "1 new commit " : "\(added) new commits"), "\(status)")
        try session.quit()
    }

    @Test("after a refresh with every commit loaded, clearing a kept filter counts them without “+”")
    func refreshInKeptFilterCountsAll() throws {
        // Before: "50+ commits" (and the filter offered to search the rest), with every commit loaded.
        let repository = try ScratchRepository("keptfilter", script: """
            git config user.name T; git config user.email t@example.com
            n=0; while [ $n -lt 45 ]; do n=$((n + 1)); git commit -q --allow-empty -m "Commit number $n"; done
            """)
        defer { repository.remove() }
        let session = try DemoSession("git-refresh-kept-filter", ["git", repository.path], columns: 100, rows: 24)
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor("45 commits") { statusPosition($0) == "1/45" }
        try tmux.send("/")
        try tmux.send("number 3", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor(text: "11 commits match in all 45 commits")
        let more = try Spawn.run(["sh", "-c", "cd \"$1\"; for n in 1 2 3 4 5; do git commit -q --allow-empty -m \"New $n\"; done", "sh", repository.path])
        #expect(more.status == 0, "\(more.errorOutput)")
        try tmux.send("r")
        var screen = try tmux.waitFor(text: "5 new commits")
        #expect(!screen.contains { $0.contains("Enter searches the rest") }, "\(screen)")
        try tmux.send("Escape")
        screen = try tmux.waitFor("the filter cleared") { lines in
            statusPosition(lines)?.hasSuffix("/50") == true && !lines.contains { $0.contains("filter:") }
        }
        let status = screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
        #expect(status.hasPrefix(" 50 commits "), "\(status)")
        try session.quit()
    }

    @Test("a refresh after a rewind whose commits were pruned counts the commits gone")
    func refreshAfterRewindAndPrune() throws {
        // Before: "Up to date" (git cannot compare with a head it no longer has).
        let demo = try GitDemo("git-refresh-pruned", linearCommits: 24, columns: 100)  // 30 commits
        defer { demo.close() }
        let tmux = demo.tmux
        try tmux.waitFor(text: "30 commits")
        let prune = try Spawn.run(["sh", "-c", "set -e; cd \"$1\"; git reset -q --hard HEAD~5; git reflog expire --expire=now --all; git gc -q --prune=now", "sh", demo.fixture.repository])
        #expect(prune.status == 0, "\(prune.errorOutput)")
        try tmux.send("r")
        try tmux.waitFor("the rewritten history") { lines in
            lines.contains { $0.contains("The history was rewritten: 5 commits gone") } && statusPosition(lines) == "1/25"
        }
        try demo.session.quit()
    }

    @Test("r and End typed together: the refresh, then End reads every page")
    func refreshThenEnd() throws {
        // Before: the refresh's first page cancelled End's page: End stopped at "Up to date  10/10".
        let demo = try GitDemo("git-refresh-end", linearCommits: 40, arguments: ["--page-size", "10"])  // 46 commits
        defer { demo.close() }
        let tmux = demo.tmux
        try tmux.waitFor(text: "Linear commit 40")
        try tmux.send("r", "End")
        let screen = try tmux.waitFor("the last commit") { statusPosition($0) == "46/46" }
        #expect(screen.contains { $0.contains("Add the first file") })
        try demo.session.quit()
    }

    @Test("r while “search the rest” reads the history: the search ends, then the refresh runs")
    func refreshDuringSearchTheRest() throws {
        // Before: r cancelled the search, and the filter offered to search the rest again.
        let fixture = try GitFixture()
        defer { fixture.remove() }
        try fixture.addLinearCommits(40)  // 46 commits
        // A git whose `git log` holds its end (the last page) until the file "go" exists.
        let go = fixture.root.appendingPathComponent("go").path
        let git = try FakeGit.holdingLogEnd(in: fixture.root, until: go)
        let session = try DemoSession("git-search-refresh", ["git", fixture.repository, "--page-size", "10"], columns: 100, rows: 24, environment: ["PATH": git.path])
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor(text: "Linear commit 40")
        try tmux.send("/")
        try tmux.send("brand-new", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor(text: "Enter searches the rest of the history")
        try tmux.send("Enter")   // searches the rest: the last page waits for "go"
        try tmux.waitFor(text: "Searching the history")
        try fixture.addCommit("A brand-new commit")
        try tmux.send("r")
        try tmux.waitFor(text: "commits read, refresh after")
        _ = FileManager.default.createFile(atPath: go, contents: nil)
        // The status line may say so a frame before the list shows the row: wait for both.
        try tmux.waitFor("the new commit and its count") { lines in
            lines.contains { $0.contains("1 new commit") } && lines.contains { $0.contains("A brand-new commit") }
        }
        let settled = try tmux.waitFor("the refresh's rows") { !$0.contains { $0.contains("Refreshing") || $0.contains("Searching") } }
        #expect(!settled.contains { $0.contains("Enter searches the rest") }, "\(settled)")
        try session.quit()
    }

    @Test("r while End reads every page: End reads to the last commit, then the refresh runs")
    func refreshDuringEnd() throws {
        // Before: the refresh cancelled End's page: End stopped short, not on the last row,
        // and the refresh's own result never showed.
        let fixture = try GitFixture()
        defer { fixture.remove() }
        try fixture.addLinearCommits(40)  // 46 commits
        // A git whose `git log` holds its end (the last page) until the file "go" exists.
        let go = fixture.root.appendingPathComponent("go").path
        let git = try FakeGit.holdingLogEnd(in: fixture.root, until: go)
        let path = git.path
        let session = try DemoSession("git-end-refresh", ["git", fixture.repository, "--page-size", "10"], columns: 100, rows: 24, environment: ["PATH": path])
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor(text: "Linear commit 40")
        try tmux.send("End")
        // End waits for the last page, which waits for the end of `git log`.
        try tmux.waitFor(text: "Loading more…")
        try tmux.send("r")
        _ = FileManager.default.createFile(atPath: go, contents: nil)
        try tmux.waitFor("the last commit") { statusPosition($0) == "46/46" }
        // The refresh ran after End: it asked git for HEAD.
        try tmux.waitFor("the refresh") { _ in
            ((try? String(contentsOfFile: git.calls, encoding: .utf8)) ?? "").contains("HEAD^{commit}")
        }
        // With the end on screen, the refresh reads the pages after its first again ("Reading
        // more history…", a load-more row at the end meanwhile): wait for those too.
        let screen = try tmux.waitFor("the refresh's rows") {
            !$0.contains { $0.contains("Refreshing") || $0.contains("Loading more") || $0.contains("Reading more") }
        }
        #expect(statusPosition(screen) == "46/46", "\(screen)")
        try session.quit()
    }
}

extension GitFixture {
    /// Adds `count` commits on main, "Linear commit N", N from `first`, a minute apart on 2024-03-03.
    func addLinearCommits(_ count: Int, from first: Int = 1) throws {
        let script = """
        set -e
        cd "$1"
        i=$2
        end=$(($2 + $3))
        while [ $i -lt $end ]; do
          echo "$i" > linear.txt; git add linear.txt
          d="2024-03-03T$(printf %02d $((i / 60 + 8))):$(printf %02d $((i % 60))):00+0000"
          GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d" git commit -q -m "Linear commit $i"
          i=$((i + 1))
        done
        """
        let result = try Spawn.run(["sh", "-c", script, "sh", repository, "\(first)", "\(count)"])
        guard result.status == 0 else { throw TestFailure("could not commit: \(result.errorOutput)") }
    }

    /// ``addLinearCommits(_:from:)`` on a thread of its own.
    func addLinearCommits(_ count: Int, from first: Int = 1) async throws {
        try await makeRepository { try addLinearCommits(count, from: first) }
    }

    /// Moves the loose object of commit `revision` away, so that `git log` fails when it reaches it;
    /// returns the function that puts it back.
    func hideCommitObject(_ revision: String) throws -> () throws -> Void {
        let parsed = try Spawn.run(["git", "-C", repository, "rev-parse", revision])
        let hash = parsed.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard parsed.status == 0, hash.count == 40 else { throw TestFailure("no commit \(revision): \(parsed.errorOutput)") }
        let object = root.appendingPathComponent("repo/.git/objects/\(hash.prefix(2))/\(hash.dropFirst(2))")
        let held = root.appendingPathComponent("held-object")
        try FileManager.default.moveItem(at: object, to: held)
        return { try FileManager.default.moveItem(at: held, to: object) }
    }
}

/// The feed's paging with failures (`--fail-rate`): the failures follow the seed, so the same page fails every run.
@Suite("cellkit-demo feed: paging that recovers", .enabled(if: TmuxAvailability.available, "tmux is not installed"), .blocking)
struct FeedPagingTmuxTests {
    @Test("a failed page shows the retry row at the end; Enter retries and paging goes on")
    func failedPageRecovers() throws {
        // Seed 1 at a fail rate of 0.5: pages 1–4 load, page 5 fails, then fails once more, then loads.
        let session = try DemoSession("feed-retry", ["feed", "--seed", "1", "--fail-rate", "0.5"], columns: 90, rows: 24)
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor(text: "@")
        try tmux.send("End")
        let screen = try tmux.waitFor(text: "Couldn't load more: could not load page 5 of the feed")
        #expect(screen.contains { $0.contains("Select to retry (Enter)") })
        #expect(!screen.contains { $0.contains("load failed while content was showing") }, "the row says it; no diagnostic in the status line")
        // Page 5 arrives (100 tweets and their suggestions: more than 100 rows); the next page may follow.
        let pageFiveShown = { (screen: [String]) in
            let total = statusPosition(screen).flatMap { $0.split(separator: "/").last.flatMap { Int($0) } } ?? 0
            return total > 100 && !screen.contains { $0.contains("page 5 of the feed") }
        }
        // With this seed the first retry of page 5 fails too, the second succeeds. End moving onto
        // the row may already have retried once (the row came on screen again): Enter until it loads.
        var attempts = 0
        while true {
            try tmux.send("Enter")
            attempts += 1
            if (try? tmux.waitFor("page 5 in place of the retry row", timeout: 8, pageFiveShown)) != nil { break }
            if attempts == 3 { _ = try tmux.waitFor("page 5 in place of the retry row", timeout: 1, pageFiveShown) }
        }
        try session.quit()
    }
}
