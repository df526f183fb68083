import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The demo binary built next to the test bundle.
enum DemoBinary {
    static var path: String {
        get throws {
            let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
            // The test bundle may be a directory (…/CellKitPackageTests.xctest/…); walk up to the build directory.
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("cellkit-demo").path
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
            throw TestFailure("cellkit-demo was not found next to the test binary \(executable); build it with `swift build`")
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The result of a finished program.
struct Finished {
    var status: Int32
    var output: String
    var errorOutput: String
}

/// Runs programs with posix_spawn and waitpid (never Foundation.Process: a tmux
/// server inherits descriptors and would keep it waiting). Output goes through
/// temporary files, so a daemon that keeps a descriptor open cannot block us.
enum Spawn {
    static func run(_ arguments: [String], environment: [String: String] = [:], stdin: String = "/dev/null") throws -> Finished {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cellkit-spawn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outPath = directory.appendingPathComponent("out").path
        let errPath = directory.appendingPathComponent("err").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        var cEnvironment = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer {
            for p in cEnvironment { free(p) }
            for p in cArguments { free(p) }
        }
        var attributes = try ChildSignals.attributes()
        defer { posix_spawnattr_destroy(&attributes) }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw TestFailure("could not start \(arguments[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Finished(
            status: exit,
            output: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            errorOutput: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        )
    }

    /// ``run(_:environment:stdin:)`` on a thread of its own (see ``blockingWork(_:)``): what a
    /// test on the main actor calls (the compiler picks this one in async code).
    static func run(_ arguments: [String], environment: [String: String] = [:], stdin: String = "/dev/null") async throws -> Finished {
        try await blockingWork { try run(arguments, environment: environment, stdin: stdin) }
    }

    static func isAvailable(_ program: String) -> Bool {
        (try? run(["sh", "-c", "command -v \(program)"]).status) == 0
    }

    /// Starts `arguments` in the background (output discarded) and returns its pid;
    /// the caller ends it and reaps it with `waitpid`.
    static func start(_ arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var attributes = try ChildSignals.attributes()
        defer { posix_spawnattr_destroy(&attributes) }
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for p in cArguments { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, &cArguments, environ)
        guard spawned == 0 else { throw TestFailure("could not start \(arguments[0]): \(String(cString: strerror(spawned)))") }
        return pid
    }
}

/// Runs `work`, which blocks (runs programs, waits for them), on a thread of its own, and waits
/// for it without holding the caller's actor or a thread of the cooperative pool (2 threads on 2
/// cores). A test on the main actor that made its repository there held it for tens of seconds
/// under load, and the other tests' screens, which need it, missed their deadlines.
func blockingWork<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result(catching: work)) }
    }
}

/// The signal state every child of the tests starts with.
///
/// The test runner blocks most signals in its threads, and a spawned child
/// inherits that mask: a tmux server started with it never receives the SIGTERM
/// that its own `kill-server` sends itself, nor its panes the SIGHUP, so they
/// outlived the run. Children start with nothing blocked and every signal at
/// its default action.
enum ChildSignals {
    static func attributes() throws -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal: Int32 in 1..<32 where signal != SIGKILL && signal != SIGSTOP { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        guard posix_spawnattr_setflags(&attributes, flags) == 0 else {
            posix_spawnattr_destroy(&attributes)
            throw TestFailure("posix_spawnattr_setflags failed")
        }
        return attributes
    }
}

/// Whether process `pid` is gone (or a zombie nobody reaped yet).
func processIsGone(_ pid: pid_t) -> Bool {
    if kill(pid, 0) != 0 { return errno == ESRCH }
    // It exists: alive, or a zombie that its new parent has not reaped yet (Linux tells).
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return false }
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
}

/// Polls until every process of `pids` is gone; false if some remains after `timeout` seconds.
func waitUntilGone(_ pids: [pid_t], timeout: Double = 10) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if pids.allSatisfy(processIsGone) { return true }
        usleep(20_000)
    }
    return pids.allSatisfy(processIsGone)
}

/// A tmux server of its own (`tmux -L name`) running one command in one pane.
///
/// Nothing it starts outlives the test: ``kill()`` (called by the tests in a
/// `defer`, and on deinit) ends the server, whose panes then get SIGHUP; and a
/// watchdog in a second, hidden window ends the server when the process that
/// owns it (the test runner) is gone, so a killed runner leaves nothing behind.
final class TmuxSession {
    let socket: String
    private let configPath: String

    static var isAvailable: Bool { Spawn.isAvailable("tmux") }

    /// Starts `command` (a shell command line) in a detached session of `columns` × `rows`;
    /// the server ends at the latest about a second after process `owner` ends.
    init(_ name: String, columns: Int = 80, rows: Int = 24, command: String, owner: pid_t = getpid()) throws {
        socket = "cellkit-\(name)-\(getpid())"
        configPath = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).conf").path
        // No status bar (the pane is the whole window); keep the pane after the program exits.
        try "set -g status off\nset -g remain-on-exit on\nset -g history-limit 0\n".write(toFile: configPath, atomically: true, encoding: .utf8)
        let started = try tmux(["new-session", "-d", "-s", "main", "-x", "\(columns)", "-y", "\(rows)", command])
        guard started.status == 0 else {
            throw TestFailure("tmux new-session failed (\(started.status)): \(started.errorOutput)")
        }
        // The watchdog: a window that is never shown (the tests address the session's
        // current window), polling the owner once a second.
        let watchdog = "while kill -0 \(owner) 2>/dev/null; do sleep 1; done; tmux -L \(socket) kill-server"
        let watched = try tmux(["new-window", "-d", "-t", "main", "sh", "-c", watchdog])
        guard watched.status == 0 else {
            kill()
            throw TestFailure("tmux new-window (the watchdog) failed (\(watched.status)): \(watched.errorOutput)")
        }
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> Finished {
        try Spawn.run(["tmux", "-L", socket, "-f", configPath] + arguments, environment: ["TERM": "xterm-256color"])
    }

    /// The pane's text, one string per line.
    func capture() throws -> [String] {
        let result = try tmux(["capture-pane", "-p", "-t", "main"])
        return result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A tmux format value of the pane, such as `#{alternate_on}`.
    func display(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", "main", format]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the pane until `predicate` holds; fails with the last screen after `timeout` seconds.
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 30, _ predicate: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var screen: [String] = []
        while Date() < deadline {
            screen = try capture()
            if predicate(screen) { return screen }
            usleep(30_000)
        }
        throw TestFailure("timed out after \(timeout)s waiting for \(what); the screen was:\n" + screen.joined(separator: "\n"))
    }

    /// Waits until some line contains `text`.
    @discardableResult
    func waitFor(text: String, timeout: Double = 30) throws -> [String] {
        try waitFor("“\(text)”", timeout: timeout) { $0.contains { $0.contains(text) } }
    }

    /// Waits until the program in the pane ended; returns its exit status.
    func waitForExit(timeout: Double = 15) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let state = try display("#{pane_dead} #{pane_dead_status}").split(separator: " ")
            if state.first == "1" { return Int32(state.last ?? "") ?? -1 }
            usleep(30_000)
        }
        throw TestFailure("timed out waiting for the program to exit; the screen was:\n" + ((try? capture().joined(separator: "\n")) ?? ""))
    }

    /// Types keys (tmux key names such as "Down", "C-c", "Enter", or literal text with `literal`).
    func send(_ keys: String..., literal: Bool = false) throws {
        try tmux(["send-keys", "-t", "main"] + (literal ? ["-l"] : []) + keys)
    }

    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", "main", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Starts copying everything the program writes to the terminal from now on to a file;
    /// `written()` reads it. Every frame drawn is in it, also one a capture would miss.
    func startRecording() throws {
        try? FileManager.default.removeItem(atPath: recordingPath)
        let piped = try tmux(["pipe-pane", "-t", "main", "-o", "cat >> " + recordingPath])
        guard piped.status == 0 else { throw TestFailure("tmux pipe-pane failed (\(piped.status)): \(piped.errorOutput)") }
    }

    /// What the program wrote since `startRecording()`, escape sequences included.
    func written() -> String {
        (try? String(contentsOfFile: recordingPath, encoding: .utf8)) ?? ""
    }

    private var recordingPath: String { configPath + ".out" }

    /// The pid of the pane's first process.
    func panePID() throws -> pid_t { pid_t(try display("#{pane_pid}")) ?? -1 }

    /// The pid of the tmux server.
    func serverPID() throws -> pid_t { pid_t(try display("#{pid}")) ?? -1 }

    func kill() {
        // Everything the pane started first, stopped jobs included: a job stopped by Ctrl-Z
        // keeps no terminal and outlives the server when its group is not orphaned with it.
        if let session = try? panePID(), session > 0 {
            _ = try? Spawn.run(["pkill", "-KILL", "-s", String(session)])
        }
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(atPath: configPath)
        try? FileManager.default.removeItem(atPath: recordingPath)
    }

    deinit { kill() }
}

/// Writes an executable script through a close-on-exec descriptor. A descriptor that
/// children spawned meanwhile by other tests inherit (Foundation's `write(toFile:)`)
/// keeps the file open for writing in them, and running it then fails with "Text file
/// busy" (ETXTBSY): the fake `git` of GitHistoryTests failed so in a full run.
func writeExecutable(_ text: String, to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw TestFailure("could not create \(path): errno \(errno)") }
    defer { close(fd) }
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written > 0 else { throw TestFailure("could not write \(path): errno \(errno)") }
        bytes = bytes.dropFirst(written)
    }
    guard fchmod(fd, 0o755) == 0 else { throw TestFailure("could not chmod \(path): errno \(errno)") }
}
