import Foundation
import Testing

/// An interactive bash in a tmux pane (its prompt is `ready$`), with a scratch directory
/// for the files its commands write: the job-control tests run the demo from it as a
/// user would.
final class ShellPane {
    let tmux: TmuxSession
    let directory: URL
    /// The scratch directory, quoted for the shell.
    let quotedDirectory: String

    init(_ name: String, columns: Int = 80) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cellkit-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            tmux = try TmuxSession(name, columns: columns, rows: 24, command: "env PS1='ready$ ' bash --norc --noprofile -i")
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        self.directory = directory
        quotedDirectory = DemoSession.quote(directory.path)
        try tmux.waitFor(text: "ready$")
    }

    /// The path of `file` in the scratch directory.
    func path(_ file: String) -> String { directory.appendingPathComponent(file).path }

    /// Types `line` and Enter, then waits until `file` in the scratch directory is
    /// written up to its last newline.
    func run(_ line: String, waitingFor file: String) throws {
        try tmux.send(line, literal: true)
        try tmux.send("Enter")
        let path = path(file)
        try tmux.waitFor("\(file) written") { _ in
            (try? String(contentsOfFile: path, encoding: .utf8))?.hasSuffix("\n") == true
        }
    }

    /// What `file` in the scratch directory holds ("" when it is missing).
    func contents(_ file: String) -> String {
        (try? String(contentsOfFile: path(file), encoding: .utf8)) ?? ""
    }

    /// Types `command` and Enter, then waits for the demo's first rows.
    func startDemo(_ command: String) throws {
        try tmux.send(command, literal: true)
        try tmux.send("Enter")
        try tmux.waitFor(text: "@")
    }

    /// Saves the terminal's settings in the file `before` (`stty -g`), starts the demo's
    /// feed, then Ctrl-Z, and waits for the shell to list it as stopped.
    func startFeedAndSuspend() throws {
        try run("stty -g > \(quotedDirectory)/before", waitingFor: "before")
        try startDemo(DemoSession.quote(try DemoBinary.path) + " feed")
        try tmux.send("C-z")
        try tmux.waitFor("the shell after Ctrl-Z") { $0.contains { $0.contains("Stopped") } }
    }

    /// Types `fg` and Enter, then checks the demo took the terminal back: redrawn on the
    /// alternate screen, in raw mode (Home, j moves to row 2 without Enter).
    func foregroundAndCheckRedraw() throws {
        try tmux.send("fg", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("the list again after fg") { $0[0].contains("CellKit · feed") && $0.contains { $0.contains("@") } }
        try tmux.waitFor("the alternate screen after fg") { _ in (try? self.tmux.display("#{alternate_on}")) == "1" }
        try tmux.send("Home", "j")
        try tmux.waitFor("the selection on row 2 after fg") { statusPosition($0)?.hasPrefix("2/") == true }
    }

    /// The process id of the shell's first child (the demo it started).
    func demoPID() throws -> pid_t {
        let bash = try tmux.panePID()
        let children = try String(contentsOfFile: "/proc/\(bash)/task/\(bash)/children", encoding: .utf8)
        guard let pid = children.split(separator: " ").first.flatMap({ pid_t($0) }) else {
            throw TestFailure("the shell \(bash) has no child")
        }
        return pid
    }

    /// Types q, waits for the prompt, then checks the demo exited 0 with the terminal's
    /// settings as in the file `before` (written by `stty -g`) and the alternate screen off.
    func quitDemoAndCheckTerminal(before: String = "before", sourceLocation: SourceLocation = #_sourceLocation) throws {
        try tmux.send("q")
        try tmux.waitFor("the prompt") { $0.contains { $0.hasPrefix("ready$") && $0.count < 10 } || $0.last { !$0.isEmpty }?.hasPrefix("ready$") == true }
        try run("echo $? > \(quotedDirectory)/status; stty -g > \(quotedDirectory)/after", waitingFor: "after")
        #expect(contents("status") == "0\n", sourceLocation: sourceLocation)
        #expect(contents("after") == contents(before), "the terminal's settings differ after the demo", sourceLocation: sourceLocation)
        #expect(try tmux.display("#{alternate_on}") == "0", sourceLocation: sourceLocation)
    }

    /// Kills the tmux server (and every process of the pane) and removes the scratch directory.
    func close() {
        tmux.kill()
        try? FileManager.default.removeItem(at: directory)
    }
}
