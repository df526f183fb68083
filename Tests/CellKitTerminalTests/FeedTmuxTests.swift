import Foundation
import Testing

/// The demo's feed mode, driven for real through tmux.
@Suite("cellkit-demo feed in a terminal", .enabled(if: TmuxAvailability.available, "tmux is not installed"), .blocking)
struct FeedTmuxTests {
    @Test("start, loading row, rows, scroll, select, refresh, quit restores the terminal")
    func lifecycle() throws {
        let session = try DemoSession("feed", ["feed", "--seed", "3"], columns: 80, rows: 24)
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor(text: "Loading")
        // The rows may draw a frame before the status line counts them: wait for both.
        var screen = try tmux.waitFor("the first rows and their position") { lines in
            lines.contains { $0.contains("@") } && statusPosition(lines)?.hasPrefix("1/") == true
        }
        #expect(screen[0].contains("CellKit · feed"))
        #expect(screen.contains { $0.hasPrefix(" Today 15:00 ─") })
        #expect(statusPosition(screen)?.hasPrefix("1/") == true)

        // Scroll: the selection moves, then the screen follows it.
        try tmux.send("j", "j", "Down")
        screen = try tmux.waitFor("the selection on row 4") { statusPosition($0)?.hasPrefix("4/") == true }
        let firstTweet = screen[2]
        try tmux.send("PageDown")
        screen = try tmux.waitFor("a page down") { !$0.contains(firstTweet) }

        // Select: Enter reports the selected row.
        try tmux.send("Enter")
        try tmux.waitFor(text: "Selected @")

        // Refresh: new tweets arrive at the top, the row we are on stays where it was.
        let before = try tmux.waitFor("the avatars on screen") { !$0.contains { $0.contains("[··]") } }
        let beforePosition = statusPosition(before) ?? ""
        try tmux.send("r")
        // The status line may announce them before the list applied them: wait for the position to move.
        screen = try tmux.waitFor("new tweets") { lines in
            lines.contains { $0.contains("at the top") } && statusPosition(lines) != beforePosition
        }
        // Ages ("· 5m") move with the clock of the feed; the rows must not.
        let list = { (lines: [String]) in
            lines.prefix(23).dropFirst().map { $0.replacing(/\ · (\d+[mhd]|now)/, with: "") }
        }
        #expect(list(screen) == list(before), "the list moved during the refresh")

        // Home goes back to the top, where the new tweets are.
        try tmux.send("Home")
        try tmux.waitFor("the top") { statusPosition($0)?.hasPrefix("1/") == true }

        try session.quit()
    }

    // Failed before the fix (demo report 4, item 9): keys pressed while the first page loaded
    // were dropped, and r then called the first page "20 new tweets".
    @Test("keys pressed while the first page loads wait for it; r then brings no \"new\" tweets")
    func keysDuringTheFirstLoad() throws {
        let session = try DemoSession("feed-first-keys", ["feed", "--seed", "5"], columns: 80, rows: 24)
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor(text: "Loading the feed")
        try tmux.send("r", "j", "j", "j")
        let screen = try tmux.waitFor("the selection on row 4") { statusPosition($0)?.hasPrefix("4/") == true }
        #expect(!screen.contains { $0.contains("new tweet") }, "\(screen)")
        try session.quit()
    }

    @Test("End keeps loading pages, showing progress; avatars arrive for the visible rows")
    func pagingAndAvatars() throws {
        let session = try DemoSession("feed-paging", ["feed", "--seed", "3"], columns: 80, rows: 24)
        defer { session.close() }
        let tmux = session.tmux
        // Avatars replace the dotted frame once they "download".
        try tmux.waitFor("avatars") { screen in
            screen.contains { $0.contains("@") } && !screen.contains { $0.contains("[··]") }
        }
        try tmux.send("End")
        // End goes on to the feed's real end (50 pages): the status counts the tweets as they arrive.
        try tmux.waitFor(text: "Loading more tweets…")
        try tmux.waitFor("the third page") { screen in
            statusPosition(screen).flatMap { $0.split(separator: "/").last.flatMap { Int($0) } }.map { $0 >= 65 } == true
        }
        try session.quit()
    }

    // Failed before the fix (demo report 3, item 3): End with the selection left at the top
    // brought the failed row on screen only at the end, which retried it behind the user's
    // back; End stopped at "100 tweets 90/113", with no retry row and no message.
    @Test("End with failing pages stops on the Couldn't load more row, selected; Enter retries it")
    func endStopsOnTheFailedRow() throws {
        let session = try DemoSession("feed-end-fail", ["feed", "--fail-rate", "0.3", "--seed", "1"], columns: 100, rows: 30)
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor(text: "@")
        try tmux.send("End")
        func position(_ lines: [String]) -> (Int, Int)? {
            guard let parts = statusPosition(lines)?.split(separator: "/"), parts.count == 2,
                  let index = Int(parts[0]), let total = Int(parts[1]) else { return nil }
            return (index, total)
        }
        let screen = try tmux.waitFor("End to stop on the failed row", timeout: 40) { lines in
            lines.contains { $0.contains("Could not load more tweets") } && lines.contains { $0.contains("Couldn't load more") }
                && position(lines).map { $0.0 == $0.1 } == true
        }
        let (_, total) = try #require(position(screen))
        #expect(screen.contains { $0.contains("Select to retry (Enter)") })
        // The selection is on the failed row: Enter retries it (a tweet would say "Selected @…").
        try tmux.send("Enter")
        let after = try tmux.waitFor("the retry") { lines in
            lines.contains { $0.contains("Selected @") || $0.contains("Loading more") }
                || position(lines).map { $0.1 > total } == true
        }
        #expect(!after.contains { $0.contains("Selected @") }, "Enter selected a tweet, not the retry row: \(after)")
        try session.quit()
    }

    // Failed before the fix: Home pressed while End loaded the feed's 50 pages waited for
    // all of them, then went to the top.
    @Test("Home while End loads stops the loading and goes to the top at once")
    func homeStopsEnd() throws {
        let session = try DemoSession("feed-end-home", ["feed", "--seed", "2"], columns: 80, rows: 24)
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor(text: "@")
        func total(_ lines: [String]) -> Int? {
            statusPosition(lines)?.split(separator: "/").last.flatMap { Int($0) }
        }
        try tmux.send("End")
        try tmux.waitFor("End under way") { lines in
            lines.contains { $0.contains("Loading more tweets…") } && (total(lines) ?? 0) >= 40
        }
        try tmux.send("Home")
        let top = try tmux.waitFor("the top, loading stopped", timeout: 20) { lines in
            statusPosition(lines)?.hasPrefix("1/") == true && !lines.contains { $0.contains("Loading more tweets…") }
        }
        let stoppedAt = try #require(total(top))
        // The feed's 50 pages hold about 1,000 rows; End stopped after the page under way.
        #expect(stoppedAt < 400, "End went on after Home: \(stoppedAt) rows")
        // End does not go on: ↓ moves within the loaded rows (the page under way when Home
        // came may still land, a page at most).
        try tmux.send("Down")
        let after = try tmux.waitFor("the second row") { statusPosition($0)?.hasPrefix("2/") == true }
        #expect((total(after) ?? .max) < 400, "End went on after Home: \(total(after) ?? 0) rows")
        try session.quit()
    }

    @Test("a resize lays the list out at the new size")
    func resize() throws {
        let session = try DemoSession("feed-resize", ["feed"], columns: 80, rows: 24)
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor(text: "@")
        try tmux.resize(columns: 50, rows: 12)
        let screen = try tmux.waitFor("the 50×12 layout") { lines in
            // The header rule ends exactly at the new right edge, and the status line moved up.
            lines.contains { $0.hasPrefix(" Today") && $0.count == 50 } && statusPosition(Array(lines.prefix(12))) != nil
        }
        #expect(screen.prefix(12).allSatisfy { $0.count <= 50 })
        try tmux.resize(columns: 100, rows: 30)
        try tmux.waitFor("the 100×30 layout") { lines in lines.contains { $0.hasPrefix(" Today") && $0.count == 100 } }
        try session.quit()
    }

    @Test("a filter that matches nothing shows the no-results row; Esc brings the rows back")
    func filterToNoResults() throws {
        let session = try DemoSession("feed-filter", ["feed"], columns: 80, rows: 24)
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor(text: "@")
        try tmux.send("/")
        try tmux.send("日本語", literal: true)
        try tmux.waitFor(text: "wide characters like 日本語")
        try tmux.send("zzz", literal: true)
        // It says what it searched: the loaded tweets.
        try tmux.waitFor("the no-results row") { $0.contains { $0.contains("No tweets or people match “日本語zzz” in the ") && $0.contains(" loaded tweets") } }
        try tmux.send("Escape")
        try tmux.waitFor("the rows again") { $0.contains { $0.contains("@") } && !$0.contains { $0.contains("No tweets") } }
        try session.quit()
    }

    @Test("--fail-rate shows the error row; Enter retries")
    func failures() throws {
        let session = try DemoSession("feed-fail", ["feed", "--fail-rate", "1"], columns: 80, rows: 24)
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor(text: "could not load the first page of the feed")
        try tmux.waitFor(text: "Select to retry")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Loading")
        try tmux.waitFor(text: "could not load the first page of the feed")
        try session.quit()
    }

    @Test("Ctrl-C, signals and crashes restore the terminal too", arguments: ["C-c", "SIGTERM", "SIGHUP", "SIGABRT", "SIGSEGV"])
    func otherWaysOut(how: String) throws {
        let session = try DemoSession("feed-exit-\(how)", ["feed"], columns: 80, rows: 24)
        defer { session.close() }
        try session.tmux.waitFor(text: "@")
        let expected: Int32
        switch how {
        case "C-c":
            try session.tmux.send("C-c")
            expected = 130
        case "SIGTERM":
            kill(try session.demoPID(), SIGTERM)
            expected = 128 + SIGTERM
        case "SIGHUP":
            kill(try session.demoPID(), SIGHUP)
            expected = 128 + SIGHUP
        case "SIGABRT":
            // What a failed precondition or a crash delivers: the handler restores, then the signal kills.
            kill(try session.demoPID(), SIGABRT)
            expected = 128 + SIGABRT
        default:
            kill(try session.demoPID(), SIGSEGV)
            expected = 128 + SIGSEGV
        }
        #expect(try session.waitForExitAndCheckTerminal() == expected)
    }
}
