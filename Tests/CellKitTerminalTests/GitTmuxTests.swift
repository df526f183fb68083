import Foundation
import Testing

/// The demo's git mode on a repository the test creates, driven through tmux.
@Suite("cellkit-demo git in a terminal", .enabled(if: TmuxAvailability.available && GitFixture.isAvailable, "tmux or git is not installed"), .blocking)
struct GitTmuxTests {
    @Test("commits, merges and tags by day; diffstats for visible rows; filter; refresh; quit")
    func history() throws {
        let demo = try GitDemo("git", columns: 90)
        defer { demo.close() }
        let tmux = demo.tmux
        var screen = try tmux.waitFor(text: "Remove the second file")
        #expect(screen.contains { $0.hasPrefix(" 2024-03-02 Sat ─") })
        #expect(screen.contains { $0.contains("⑂") && $0.contains("Merge branch 'feature'") })
        #expect(screen.contains { $0.contains("◆ v1.0") })
        // Diffstats arrive as resource updates for the rows on screen.
        screen = try tmux.waitFor("the diffstats") { !$0.contains { $0.contains("diffstat…") } }
        #expect(screen.contains { $0.contains("Remove the second file") })
        #expect(screen.contains { $0.contains("1 file +0 −2") })
        #expect(screen.contains { $0.contains("1 file +2 −0") })

        // Select a commit.
        try tmux.send("j", "Enter")
        try tmux.waitFor(text: "Merge branch 'feature' — Test Author")

        // Refresh picks up a new commit at the top.
        try demo.fixture.addCommit("A commit made during the test")
        try tmux.send("r")
        try tmux.waitFor(text: "1 new commit")
        try tmux.waitFor(text: "A commit made during the test")

        // A filter that matches nothing.
        try tmux.send("/")
        try tmux.send("no such commit", literal: true)
        try tmux.waitFor(text: "No commits match “no such commit”")
        try tmux.send("Escape")
        try tmux.waitFor(text: "Remove the second file")

        try demo.session.quit()
    }

    @Test("a bare repository works too")
    func bare() throws {
        let demo = try GitDemo("git-bare", repository: \.bare)
        defer { demo.close() }
        try demo.tmux.waitFor(text: "Add the first file")
        try demo.session.quit()
    }

    @Test("a path that is not a repository shows the error row naming it")
    func notARepository() throws {
        let demo = try GitDemo("git-error", repository: \.notARepository, columns: 100)
        defer { demo.close() }
        // The status line may name the error before the row shows: wait for the row.
        let screen = try demo.tmux.waitFor(text: "Select to retry")
        #expect(screen.dropLast(2).contains { $0.contains("✖") && $0.contains("plain’ is not a git repository") })
        try demo.session.quit()
    }
}

/// What a user of `cellkit-demo git` notices: what the filter searched, feedback, counts, odd histories.
@Suite("cellkit-demo git: filter, feedback and odd histories", .enabled(if: TmuxAvailability.available && GitFixture.isAvailable, "tmux or git is not installed"), .blocking)
struct GitUsabilityTmuxTests {
    @Test("the filter says what it searched and offers the rest; Enter searches the whole history")
    func filterSearchesTheRest() throws {
        let repository = try ScratchRepository("many", script: """
            git config user.name T; git config user.email t@example.com
            for n in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
              GIT_AUTHOR_DATE="2024-03-01T09:$n:00+0000" GIT_COMMITTER_DATE="2024-03-01T09:$n:00+0000" git commit -q --allow-empty -m "Commit number $n"
            done
            """)
        defer { repository.remove() }
        // Five commits a page; a short screen loads two pages: "Commit number 01" is on the last.
        let session = try DemoSession("git-search-rest", ["git", repository.path, "--page-size", "5"], columns: 100, rows: 8)
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor(text: "Commit number 30")
        try tmux.send("/")
        try tmux.send("number 01", literal: true)
        try tmux.waitFor(text: "No commits match “number 01” in the")
        try tmux.waitFor(text: "Enter searches the rest of the history")
        try tmux.send("Enter")   // ends the filter prompt
        try tmux.send("Enter")   // on the "search the rest" row
        try tmux.waitFor(text: "Commit number 01")
        try tmux.waitFor(text: "1 commit matches “number 01” in all 30 commits")
        let screen = try tmux.capture()
        #expect(!screen.contains { $0.contains("Enter searches the rest") })
        try session.quit()
    }

    @Test("after searching the rest, the no-results row counts every commit searched")
    func noResultsAfterSearchingTheRest() throws {
        // Before: the row said "in all 10 commits" (those loaded when the filter was typed).
        let repository = try ScratchRepository.thirtyCommits("nomatch")
        defer { repository.remove() }
        let session = try DemoSession("git-search-none", ["git", repository.path, "--page-size", "5"], columns: 100, rows: 8)
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor(text: "Commit number 30")
        try tmux.send("/")
        try tmux.send("xyzzy", literal: true)
        try tmux.waitFor(text: "Enter searches the rest of the history")
        try tmux.send("Enter")   // ends the filter prompt
        try tmux.send("Enter")   // on the "search the rest" row
        try tmux.waitFor(text: "in all 30 commits")
        try tmux.waitFor(text: "No commits match “xyzzy” in all 30 commits")
        try session.quit()
    }

    /// On a history of 30 commits shown 5 a page: selects row 4, then filters for a text
    /// no loaded commit has ("xyzzy") and ends the filter prompt, so the list offers to
    /// search the rest.
    private static func filterFromRowFour(_ tmux: TmuxSession) throws {
        try tmux.waitFor(text: "Commit number 30")
        try tmux.send("j", "j", "j")
        try tmux.waitFor("row 4") { statusPosition($0)?.hasPrefix("4/") == true }
        try tmux.send("/")
        try tmux.send("xyzzy", literal: true)
        try tmux.waitFor(text: "Enter searches the rest of the history")
        try tmux.send("Enter")   // ends the filter prompt
    }

    @Test("Esc while searching the rest clears the filter, back on the row selected before")
    func escapeWhileSearchingTheRest() throws {
        // Before: the selection stayed at the end, where the search-rest row was, and paging went on.
        let repository = try ScratchRepository.thirtyCommits("escsearch")
        defer { repository.remove() }
        let session = try DemoSession("git-search-esc", ["git", repository.path, "--page-size", "5"], columns: 100, rows: 12)
        defer { session.close() }
        let tmux = session.tmux
        try Self.filterFromRowFour(tmux)
        try tmux.startRecording()
        try tmux.send("Enter", "Escape")   // searches the rest, then clears the filter at once
        // The rows again (the filter's no-results row may stay for a frame while the
        // history comes back: wait for the rows, not the first frame without the filter).
        let screen = try tmux.waitFor("the filter cleared") { lines in
            !lines.contains { $0.contains("filter:") || $0.contains("xyzzy") } && lines.contains { $0.contains("Commit number") }
                && statusPosition(lines).map { !$0.hasPrefix("0/") } == true
        }
        #expect(statusPosition(screen)?.hasPrefix("4/") == true, "\(screen)")
        // Before: a frame in between said the 30-commit history had none.
        let saidNoCommits = tmux.written().contains("No commits yet")
        #expect(!saidNoCommits, "a frame said the 30-commit history had no commits")
        try session.quit()
    }

    @Test("a key sent with Esc while searching the rest moves from the row selected before the filter")
    func keyRightAfterEscapeWhileSearchingTheRest() throws {
        // Before: j moved through the filtered rows (onto the search-rest row), not from row 4 to 5.
        let repository = try ScratchRepository.thirtyCommits("escsearchj")
        defer { repository.remove() }
        let session = try DemoSession("git-search-esc-j", ["git", repository.path, "--page-size", "5"], columns: 100, rows: 12)
        defer { session.close() }
        let tmux = session.tmux
        try Self.filterFromRowFour(tmux)
        try tmux.send("Enter", "Escape", "j")   // searches the rest, clears the filter at once, moves down
        try tmux.waitFor("row 5", timeout: 10) { !$0.contains { $0.contains("filter:") || $0.contains("xyzzy") } && statusPosition($0)?.hasPrefix("5/") == true }
        try session.quit()
    }

    @Test("Enter on a commit while a filter is active reports the commit")
    func enterWhileFiltering() throws {
        let demo = try GitDemo("git-filter-enter", columns: 100)
        defer { demo.close() }
        let tmux = demo.tmux
        try tmux.waitFor(text: "Remove the second file")
        try tmux.send("/")
        try tmux.send("file", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor(text: "(Esc clears)")
        try tmux.send("Enter")
        let screen = try tmux.waitFor(text: "Remove the second file — Test Author")
        #expect(screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.contains("filter: file") == true)
        try demo.session.quit()
    }

    @Test("a history whose days come back: no developer diagnostic in the status line, the count in words")
    func outOfOrderDays() throws {
        let repository = try ScratchRepository("days", script: """
            git config user.name T; git config user.email t@example.com
            c() { GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$2" git commit -q --allow-empty -m "$3"; }
            c 2024-03-01T09:00:00+0000 2024-03-05T09:00:00+0000 "First, on Friday"
            c 2024-03-02T09:00:00+0000 2024-03-05T10:00:00+0000 "Second, on Saturday"
            c 2024-03-01T10:00:00+0000 2024-03-05T11:00:00+0000 "Third, on Friday again"
            """)
        defer { repository.remove() }
        let session = try DemoSession("git-days", ["git", repository.path], columns: 100, rows: 24)
        defer { session.close() }
        let tmux = session.tmux
        // The status line may show the count before the list applied the rows: wait for both.
        let screen = try tmux.waitFor("the rows and the count") { lines in
            lines.contains { $0.contains("3 commits") } && lines.contains { $0.contains("Third, on Friday again") }
        }
        #expect(!screen.contains { $0.contains("duplicate") || $0.contains("CellKit [") }, "\(screen)")
        #expect(screen.filter { $0.hasPrefix(" 2024-03-01 Fri") }.count == 2, "\(screen)")
        try session.quit()
        #expect(!session.standardError.contains("duplicate"), "\(session.standardError)")
    }

    @Test("one commit is “1 commit”")
    func singular() throws {
        let repository = try ScratchRepository("one", script: "git -c user.name=T -c user.email=t@example.com commit -q --allow-empty -m Only")
        defer { repository.remove() }
        let session = try DemoSession("git-one", ["git", repository.path], columns: 80, rows: 24)
        defer { session.close() }
        let screen = try session.tmux.waitFor(text: "1 commit ")
        #expect(!screen.contains { $0.contains("1 commits") })
        try session.quit()
    }

    // Failed before the fix (demo report 3, item 5): the title bar and the status line counted
    // 👍🏽 as 2 columns, tmux draws 4: "quit" and the position's "/1" fell off the right edge.
    @Test("a path and a subject with skin-tone emoji: the bars keep their right ends")
    func emojiModifiersInTheBars() throws {
        let repository = try ScratchRepository("emoji", in: "\u{1F44D}\u{1F3FD}\u{1F44D}\u{1F3FD}-日本-repo",
                                                script: "git -c user.name=a -c user.email=a@example.com commit -q --allow-empty -m \"x \u{1F44D}\u{1F3FD}\"")
        defer { repository.remove() }
        let session = try DemoSession("git-emoji", ["git", repository.path], columns: 200, rows: 12)
        defer { session.close() }
        let tmux = session.tmux
        var screen = try tmux.waitFor(text: "x \u{1F44D}\u{1F3FD}")
        #expect(screen[0].hasSuffix("r refresh  q quit"), "\(screen[0])")
        try tmux.send("Enter")
        screen = try tmux.waitFor("the commit in the status line") { $0.contains { $0.hasPrefix(" f") || $0.contains(" — a, ") } }
        let status = screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
        #expect(status.hasSuffix(" 1/1"), "\(status)")
        try session.quit()
    }

    @Test("a key sent with Esc in one write moves through the unfiltered rows, not the filtered ones")
    func keyRightAfterEscape() throws {
        // Before: Esc then j in one write moved through the filtered rows (one: "Commit number 30"), so it stayed on row 1.
        let repository = try ScratchRepository.thirtyCommits("escj")
        defer { repository.remove() }
        let session = try DemoSession("git-esc-j", ["git", repository.path], columns: 100, rows: 12)
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor(text: "Commit number 30")
        try tmux.waitFor("all 30 loaded") { statusPosition($0) == "1/30" }
        try tmux.send("/")
        try tmux.send("number 3", literal: true)
        try tmux.waitFor("the one match") { statusPosition($0) == "1/1" }
        try tmux.send("Escape", "j")
        // Wrong rows never come back to the right one: a wait that ends is the check.
        try tmux.waitFor("row 2 of 30", timeout: 10) { statusPosition($0) == "2/30" }
        // A kept filter (Enter), then Esc and End in one write: the last commit, not the last match.
        try tmux.send("/")
        try tmux.send("number 3", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("the one match") { statusPosition($0) == "1/1" }
        try tmux.send("Escape", "End")
        try tmux.waitFor("row 30 of 30", timeout: 10) { statusPosition($0) == "30/30" }
        try session.quit()
    }
}
