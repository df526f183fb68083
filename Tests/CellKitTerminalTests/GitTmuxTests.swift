import Foundation
import Testing

/// The demo's git mode on a repository the test creates, driven through tmux.
@Suite("cellkit-demo git in a terminal", .enabled(if: TmuxAvailability.available && GitFixture.isAvailable, "tmux or git is not installed"))
struct GitTmuxTests {
    @Test("commits, merges and tags by day; diffstats for visible rows; filter; refresh; quit")
    func history() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let session = try DemoSession("git", ["git", fixture.repository], columns: 90, rows: 24)
        defer { session.close() }
        let tmux = session.tmux
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
        try fixture.addCommit("A commit made during the test")
        try tmux.send("r")
        try tmux.waitFor(text: "1 new commit")
        try tmux.waitFor(text: "A commit made during the test")

        // A filter that matches nothing.
        try tmux.send("/")
        try tmux.send("no such commit", literal: true)
        try tmux.waitFor(text: "No commits match “no such commit”")
        try tmux.send("Escape")
        try tmux.waitFor(text: "Remove the second file")

        try tmux.send("q")
        #expect(try session.waitForExitAndCheckTerminal() == 0)
    }

    @Test("a bare repository works too")
    func bare() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let session = try DemoSession("git-bare", ["git", fixture.bare], columns: 80, rows: 24)
        defer { session.close() }
        try session.tmux.waitFor(text: "Add the first file")
        try session.tmux.send("q")
        #expect(try session.waitForExitAndCheckTerminal() == 0)
    }

    @Test("a path that is not a repository shows the error row naming it")
    func notARepository() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let session = try DemoSession("git-error", ["git", fixture.notARepository], columns: 100, rows: 24)
        defer { session.close() }
        let screen = try session.tmux.waitFor(text: "is not a git repository")
        #expect(screen.contains { $0.contains("plain’ is not a git repository") })
        #expect(screen.contains { $0.contains("Select to retry") })
        try session.tmux.send("q")
        #expect(try session.waitForExitAndCheckTerminal() == 0)
    }
}
