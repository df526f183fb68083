#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation

/// One argument of a command line, as bytes: a path the user gave need not be UTF-8, and
/// reaches the program unchanged (a `String` would have replaced its invalid bytes).
struct CommandArgument: Sendable, Equatable, ExpressibleByStringLiteral, CustomStringConvertible {
    var bytes: [UInt8]

    init(_ text: String) { bytes = Array(text.utf8) }
    init(bytes: [UInt8]) { self.bytes = bytes }
    init(stringLiteral value: String) { self.init(value) }

    /// The argument as text (invalid UTF-8 shows as U+FFFD).
    var description: String { String(decoding: bytes, as: UTF8.self) }

    /// A copy as a C string (malloc'd, for `free`).
    var cString: UnsafeMutablePointer<CChar>? {
        guard let copy = malloc(bytes.count + 1)?.assumingMemoryBound(to: CChar.self) else { return nil }
        for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
        copy[bytes.count] = 0
        return copy
    }

    /// Calls `body` with the argument as a C string (a path for `stat`, `access`).
    func withCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// The result of running a program to its end.
struct ProcessResult: Sendable {
    var status: Int32
    /// Standard output as bytes (git prints commit messages in whatever encoding they were written).
    var outputBytes: [UInt8]
    var errorOutput: String
    /// Standard output as UTF-8 (invalid bytes become U+FFFD).
    var output: String { String(decoding: outputBytes, as: UTF8.self) }
}

/// Runs programs with posix_spawn, standard input from /dev/null, each in a session of its
/// own (never the terminal in raw mode, nor a controlling terminal to open).
enum Subprocess {
    private static let queue = DispatchQueue(label: "cellkit-demo.subprocess", attributes: .concurrent)

    /// The children started and not reaped yet, so that none outlives the demo (see ``terminateAll()``).
    private static let children = Children()

    private final class Children: @unchecked Sendable {
        let lock = NSLock()
        /// Under `lock`.
        var live: Set<pid_t> = []
        /// Under `lock`: set by ``Subprocess/terminateAll()``; no child starts after it.
        var closing = false
    }

    /// The children started and not reaped yet.
    static var liveChildren: Set<pid_t> { children.lock.withLock { children.live } }

    /// How long a child (and what it started) has to end after SIGTERM before SIGKILL.
    static let gracePeriod = 0.3

    /// Ends every child still running, with whatever it started (SIGTERM to its process
    /// group, SIGKILL to the groups still there after ``gracePeriod``), and reaps it; no
    /// child starts afterwards. Called once as the demo exits, whichever way it does
    /// (q, Ctrl-C, a signal, an error): a diffstat `git show`, or a `git fetch` or `ssh` it
    /// started, must not outlive the demo nor keep it from exiting (one that ignores SIGTERM).
    static func terminateAll() {
        let pids = children.lock.withLock {
            children.closing = true
            return children.live
        }
        end(Array(pids))
        children.lock.withLock { children.live.subtract(pids) }
    }

    /// Ends the children `pids` and their process groups (each child leads its own, see
    /// ``spawn(_:environment:)``): SIGTERM, then SIGKILL to the groups still there after
    /// ``gracePeriod``; reaps each child. Returns each child's status as ``reap(_:)`` does
    /// (-1 when another thread reaped it first).
    @discardableResult
    static func end(_ pids: [pid_t]) -> [pid_t: Int32] {
        for pid in pids { kill(-pid, SIGTERM) }
        var statuses: [pid_t: Int32] = [:]
        var left = pids
        let deadline = DispatchTime.now() + gracePeriod
        while !left.isEmpty {
            left.removeAll { pid in
                var status: Int32 = 0
                let result = waitpid(pid, &status, WNOHANG)
                if result == 0 || (result < 0 && errno == EINTR) { return false }
                // Ended (its group may live on: the rest of it is ended below), or reaped
                // by the thread that started it (ECHILD; no new child can have its pid, none starts).
                statuses[pid] = result > 0 ? exitStatus(status) : -1
                kill(-pid, SIGKILL)
                return true
            }
            if left.isEmpty || DispatchTime.now() >= deadline { break }
            usleep(5_000)
        }
        for pid in left {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &status, 0) } while result < 0 && errno == EINTR
            statuses[pid] = result > 0 ? exitStatus(status) : -1
        }
        return statuses
    }

    /// Runs `arguments` (the first is looked up in PATH) off the main thread, in this
    /// process's environment with `set` added (a nil value removes the variable).
    static func run(_ arguments: [CommandArgument], environment set: [String: String?] = [:]) async -> ProcessResult {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: runBlocking(arguments, environment: set)) }
        }
    }

    /// Runs `arguments` and waits; blocks the calling thread.
    static func runBlocking(_ arguments: [CommandArgument], environment set: [String: String?] = [:]) -> ProcessResult {
        let child: (pid: pid_t, output: Int32, errors: Int32)
        switch spawn(arguments, environment: set) {
        case .success(let spawned): child = spawned
        case .failure(let message): return ProcessResult(status: -1, outputBytes: [], errorOutput: message.text)
        }
        // Both pipes at once: a child that fills one pipe while we wait on the other would deadlock.
        let (output, errorOutput) = readBoth(child.output, child.errors)
        close(child.output)
        close(child.errors)
        return ProcessResult(status: reap(child.pid), outputBytes: output, errorOutput: String(decoding: errorOutput, as: UTF8.self))
    }

    /// posix_spawn's flag for a new session (`POSIX_SPAWN_SETSID`, a macro Swift does not import on Linux).
    #if canImport(Darwin)
    private static let newSession = Int16(POSIX_SPAWN_SETSID)
    #else
    private static let newSession: Int16 = 0x80
    #endif

    /// Why a program could not be started.
    struct SpawnFailure: Error {
        var text: String
    }

    /// Starts `arguments` with standard output and standard error on pipes; returns the
    /// child and the read ends of its pipes (the caller closes them and reaps the child).
    static func spawn(_ arguments: [CommandArgument], environment set: [String: String?]) -> Result<(pid: pid_t, output: Int32, errors: Int32), SpawnFailure> {
        var out: [Int32] = [-1, -1]
        var err: [Int32] = [-1, -1]
        // No end of these pipes is inherited by another child started meanwhile, from another
        // thread: one that kept the write ends open (a `git log` of the next page, held by
        // backpressure) kept this child's end of file from coming for as long as it ran, and a
        // diffstat's `git show` that had exited was waited for until then ("diffstat…" for good).
        // Made and marked close-on-exec under the lock the spawns take, so none starts in between
        // (the child's own standard output and error are copies made for it, not marked).
        children.lock.lock()
        guard pipe(&out) == 0 else {
            let message = String(cString: strerror(errno))
            children.lock.unlock()
            return .failure(SpawnFailure(text: "pipe failed: \(message)"))
        }
        guard pipe(&err) == 0 else {
            let message = String(cString: strerror(errno))
            children.lock.unlock()
            close(out[0])
            close(out[1])
            return .failure(SpawnFailure(text: "pipe failed: \(message)"))
        }
        for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        children.lock.unlock()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        for fd in [out[0], out[1], err[0], err[1]] { posix_spawn_file_actions_addclose(&actions, fd) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with default signal handling and nothing blocked.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // A session of its own: no controlling terminal, so neither git nor what it starts
        // (a fetch, ssh, a credential prompt) can read or write the terminal (keys meant for the
        // list, a prompt drawn over it); and a process group of its own, which ``end(_:)`` ends whole.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | newSession)

        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map(\.cString) + [nil]
        var cEnvironment = environment(with: set).map { strdup($0) } + [nil]
        defer {
            for p in cArguments { free(p) }
            for p in cEnvironment { free(p) }
        }
        var pid: pid_t = 0
        // Started and registered at once: ``terminateAll()`` sees every child, and none starts after it.
        children.lock.lock()
        let spawned = children.closing ? ECANCELED : posix_spawnp(&pid, cArguments[0]!, &actions, &attributes, &cArguments, &cEnvironment)
        if spawned == 0 { children.live.insert(pid) }
        children.lock.unlock()
        close(out[1])
        close(err[1])
        guard spawned == 0 else {
            close(out[0])
            close(err[0])
            return .failure(SpawnFailure(text: "could not start \(arguments[0]): \(String(cString: strerror(spawned)))"))
        }
        return .success((pid, out[0], err[0]))
    }

    /// Waits for `pid` to end; returns its exit status, or 128+N after signal N.
    static func reap(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        children.lock.withLock { _ = children.live.remove(pid) }
        return exitStatus(status)
    }

    /// Forgets `pid`, reaped by ``end(_:)``.
    static func forget(_ pid: pid_t) {
        children.lock.withLock { _ = children.live.remove(pid) }
    }

    /// The exit status in a `waitpid` status, or 128+N after signal N.
    static func exitStatus(_ status: Int32) -> Int32 {
        (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// This process's environment as NAME=value strings, with `set` applied.
    static func environment(with set: [String: String?]) -> [String] {
        var entries: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            let name = String(text.prefix { $0 != "=" })
            if set[name] == nil { entries.append(text) }
            pointer += 1
        }
        for (name, value) in set.sorted(by: { $0.key < $1.key }) {
            if let value { entries.append(name + "=" + value) }
        }
        return entries
    }

    /// Reads `first` and `second` to their ends, whichever has data, until both close.
    static func readBoth(_ first: Int32, _ second: Int32) -> ([UInt8], [UInt8]) {
        var data: [[UInt8]] = [[], []]
        readPipes([first, second]) { index, bytes in data[index].append(contentsOf: bytes) }
        return (data[0], data[1])
    }

    /// Reads `descriptors` (the read ends of pipes), whichever has data, handing each read
    /// to `received` with the descriptor's index, until all have ended (or failed), or
    /// until `done` says so (asked before each wait with the indices of those that ended);
    /// blocks the calling thread. Returns the indices of the descriptors that ended.
    @discardableResult
    static func readPipes(
        _ descriptors: [Int32], until done: (_ ended: Set<Int>) -> Bool = { _ in false },
        received: (_ index: Int, _ bytes: ArraySlice<UInt8>) -> Void
    ) -> Set<Int> {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var ended: Set<Int> = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while ended.count < fds.count, !done(ended) {
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for i in fds.indices where fds[i].fd >= 0 && fds[i].revents != 0 {
                let n = read(fds[i].fd, &buffer, buffer.count)
                if n > 0 {
                    received(i, buffer[0..<n])
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    fds[i].fd = -1  // poll skips negative descriptors
                    ended.insert(i)
                }
            }
        }
        return ended
    }
}
