import Foundation
import Testing

/// The demo under `TERM` and `NO_COLOR`, in a real terminal (demo report 3, item 6; each
/// failed before the fix: the demo took over the screen with colors whatever they said).
@Suite("cellkit-demo under TERM and NO_COLOR", .enabled(if: TmuxAvailability.available, "tmux is not installed"), .blocking)
struct TerminalEnvironmentTmuxTests {
    @Test("TERM=dumb or unset: the rows are printed plainly, as when piped", arguments: ["dumb", ""])
    func dumbTerminalPrintsPlainly(term: String) throws {
        let session = try DemoSession("term-\(term.isEmpty ? "unset" : term)", ["feed", "--pages", "1"], columns: 80, rows: 24, environment: ["TERM": term])
        defer { session.close() }
        let screen = try session.tmux.waitFor("the program to exit", timeout: 20) { $0.contains { $0.hasPrefix("exit=") } }
        #expect(screen.contains { $0.contains("@") }, "the rows were printed: \(screen)")
        #expect(try session.waitForExitAndCheckTerminal() == 0)
        #expect(session.standardError.contains("more remain"), "the plain output's note: \(session.standardError)")
    }

    @Test("TERM=dumb with --interactive: a clear error naming TERM (exit 64, bad options), the terminal untouched")
    func dumbTerminalRefusesInteractive() throws {
        let session = try DemoSession("term-dumb-interactive", ["feed", "--interactive"], columns: 80, rows: 24, environment: ["TERM": "dumb"])
        defer { session.close() }
        #expect(try session.waitForExitAndCheckTerminal() == 64)
        #expect(session.standardError.contains("TERM=dumb"), "\(session.standardError)")
    }

    @Test("NO_COLOR: no color codes reach the terminal; the selection stays in reverse video")
    func noColor() throws {
        let session = try DemoSession("no-color", ["feed"], columns: 80, rows: 24, environment: ["NO_COLOR": "1", "TERM": "xterm-256color"])
        defer { session.close() }
        try expectNoColorsButReverseVideo(session)
    }

    // Failed before the fix (outside report 13b, defect 2): a TERM whose terminfo entry has no
    // `colors` (xterm-r6, sun: `tput colors` prints -1) got SGR 30–47 from the demo.
    @Test("a TERM whose terminfo entry has no colors: no color codes reach the terminal; reverse video stays")
    func terminfoWithoutColors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cellkit-nocolor-terminfo-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sub = directory.appendingPathComponent("c")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try Data(TerminalAppChromeTests.terminfoEntry(name: "cellkit-nocolor", colors: -1, extended: false)).write(to: sub.appendingPathComponent("cellkit-nocolor"))
        let session = try DemoSession("terminfo-nocolor", ["feed"], columns: 80, rows: 24,
                                      environment: ["TERM": "cellkit-nocolor", "TERMINFO": directory.path, "COLORTERM": "", "NO_COLOR": ""])
        defer { session.close() }
        try expectNoColorsButReverseVideo(session)
    }

    /// Once the feed shows its avatars: no color code on the screen of `session`, reverse
    /// video (the selection, the bars) still there; then quits the demo.
    private func expectNoColorsButReverseVideo(_ session: DemoSession, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try session.tmux.waitFor("avatars") { screen in
            screen.contains { $0.contains("@") } && !screen.contains { $0.contains("[··]") }
        }
        // The pane's contents with their attributes, as escape sequences.
        let styled = try session.tmux.tmux(["capture-pane", "-e", "-p", "-t", "main"]).output
        let codes = styled.matches(of: /\x1B\[([0-9;]*)m/).flatMap { $0.1.split(separator: ";").compactMap { Int($0) } }
        // 39 and 49 (default colors) are tmux's own resets.
        let colors = codes.filter { (30...48).contains($0) && $0 != 39 || (90...107).contains($0) }
        #expect(colors.isEmpty, "color codes on screen: \(Set(codes).sorted())", sourceLocation: sourceLocation)
        #expect(codes.contains(7), "reverse video for the selection and the bars", sourceLocation: sourceLocation)
        try session.quit()
    }

    @Test("on a small terminal the bars give way to the list: 2 rows have no status line, 1 row only the title bar")
    func smallTerminal() throws {
        let session = try DemoSession("tiny-terminal", ["feed"], columns: 60, rows: 3)
        defer { session.close() }
        let tmux = session.tmux
        let three = try tmux.waitFor("the title, a row and the status line") { $0.count >= 3 && $0[0].contains("CellKit · feed") && statusPosition($0)?.contains("/") == true }
        #expect(!three[1].trimmingCharacters(in: .whitespaces).isEmpty, "\(three)")
        try tmux.resize(columns: 60, rows: 2)
        let two = try tmux.waitFor("the title and a row, no status line") { screen in
            screen.count >= 2 && screen[0].contains("CellKit · feed") && !screen[1].trimmingCharacters(in: .whitespaces).isEmpty
                && screen[1].firstMatch(of: /\d+\/\d+\s*$/) == nil
        }
        #expect(two.dropFirst(2).allSatisfy { $0.isEmpty }, "\(two)")
        try tmux.resize(columns: 60, rows: 1)
        try tmux.waitFor("the title bar alone") { $0.first?.contains("CellKit · feed") == true }
        try tmux.resize(columns: 60, rows: 3)
        try tmux.waitFor("the status line again") { statusPosition($0)?.contains("/") == true }
        try session.quit()
    }

    @Test("onExit runs for the ends the app handles (SIGTERM), not for another fatal signal (SIGUSR1); both restore the terminal",
          arguments: [("TERM", SIGTERM, true), ("USR1", SIGUSR1, false)])
    func onExitRunsForHandledEnds(name: String, signal: Int32, called: Bool) throws {
        // With CELLKIT_DEMO_STATS, the demo's onExit writes its counts to standard error.
        let session = try DemoSession("on-exit-\(name)", ["feed"], environment: ["CELLKIT_DEMO_STATS": "1"])
        defer { session.close() }
        try session.tmux.waitFor(text: "@")
        kill(try session.demoPID(), signal)
        #expect(try session.waitForExitAndCheckTerminal() == 128 + signal)
        #expect(session.standardError.contains("cellkit-demo stats:") == called, "\(session.standardError)")
    }
}
