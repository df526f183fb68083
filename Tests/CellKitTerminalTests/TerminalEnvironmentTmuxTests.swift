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
        try session.tmux.waitFor("avatars") { screen in
            screen.contains { $0.contains("@") } && !screen.contains { $0.contains("[··]") }
        }
        // The pane's contents with their attributes, as escape sequences.
        let styled = try session.tmux.tmux(["capture-pane", "-e", "-p", "-t", "main"]).output
        let codes = styled.matches(of: /\x1B\[([0-9;]*)m/).flatMap { $0.1.split(separator: ";").compactMap { Int($0) } }
        // 39 and 49 (default colors) are tmux's own resets.
        let colors = codes.filter { (30...48).contains($0) && $0 != 39 || (90...107).contains($0) }
        #expect(colors.isEmpty, "color codes on screen: \(Set(codes).sorted())")
        #expect(codes.contains(7), "reverse video for the selection and the bars")
        try session.quit()
    }
}
