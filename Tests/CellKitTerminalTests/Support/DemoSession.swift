import Foundation
import Testing

/// The demo running in its own tmux server, wrapped in a shell that records the
/// terminal settings before and after, and the exit status.
final class DemoSession {
    let tmux: TmuxSession
    let directory: URL

    /// Starts `cellkit-demo arguments…` in a `columns` × `rows` pane, with `environment` added;
    /// everything ends with ``close()`` or, at the latest, soon after process `owner` ends.
    init(_ name: String, _ arguments: [String], columns: Int = 80, rows: Int = 24, environment: [String: String] = [:], owner: pid_t = getpid()) throws {
        let binary = try DemoBinary.path
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cellkit-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let quoted = ((variables.isEmpty ? [] : ["env"] + variables) + [binary] + arguments).map(Self.quote).joined(separator: " ")
        let d = Self.quote(directory.path)
        // After the demo, the shell waits (on a tmux channel) until the test has read the
        // terminal's state: once the pane is dead, tmux writes its own "Pane is dead" line,
        // which scrolls the screen and hides the cursor.
        let script = "stty -g > \(d)/before; \(quoted) 2> \(d)/stderr; echo \"exit=$?\"; stty -g > \(d)/after; "
            + "tmux wait-for \(Self.checkedChannel)"
        tmux = try TmuxSession(name, columns: columns, rows: rows, command: "sh -c " + Self.quote(script), owner: owner)
    }

    /// The tmux channel the pane's shell waits on after the demo ended.
    static let checkedChannel = "cellkit-checked"

    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// The demo's process id (the child of the wrapping shell).
    func demoPID() throws -> pid_t {
        let shell = try tmux.panePID()
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if let children = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8),
               let first = children.split(separator: " ").first, let pid = pid_t(first) {
                return pid
            }
            usleep(20_000)
        }
        throw TestFailure("no child process of the pane's shell \(shell)")
    }

    /// Waits for the demo to end; checks that the terminal is as it was before and returns the exit status.
    func waitForExitAndCheckTerminal(sourceLocation: SourceLocation = #_sourceLocation) throws -> Int32 {
        let screen = try tmux.waitFor("the program to exit", timeout: 20) { $0.contains { $0.hasPrefix("exit=") } }
        let line = screen.first { $0.hasPrefix("exit=") } ?? ""
        let status = Int32(line.dropFirst(5).trimmingCharacters(in: .whitespaces)) ?? -1
        #expect(try tmux.display("#{alternate_on}") == "0", "still on the alternate screen", sourceLocation: sourceLocation)
        #expect(try tmux.display("#{cursor_flag}") == "1", "the cursor is still hidden", sourceLocation: sourceLocation)
        try tmux.tmux(["wait-for", "-S", Self.checkedChannel])
        _ = try tmux.waitForExit()
        let before = try String(contentsOf: directory.appendingPathComponent("before"), encoding: .utf8)
        let after = try String(contentsOf: directory.appendingPathComponent("after"), encoding: .utf8)
        #expect(before == after, "terminal settings differ after the demo: \(before) vs \(after)", sourceLocation: sourceLocation)
        return status
    }

    /// Presses q, then checks that the demo exits with status 0 and leaves the terminal as it was.
    func quit(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try tmux.send("q")
        #expect(try waitForExitAndCheckTerminal(sourceLocation: sourceLocation) == 0, sourceLocation: sourceLocation)
    }

    var standardError: String {
        (try? String(contentsOf: directory.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
    }

    func close() {
        tmux.kill()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { close() }
}

/// Whether the tmux tests can run here; the reason is printed when they cannot.
enum TmuxAvailability {
    static let available: Bool = {
        if TmuxSession.isAvailable { return true }
        print("tmux is not installed: skipping the tests that drive cellkit-demo in a terminal (CI installs it)")
        return false
    }()
}

/// The position text ("12/340") at the end of the status line.
func statusPosition(_ screen: [String]) -> String? {
    let status = screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
    return status.split(separator: " ").last.map(String.init)
}
