import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A program whose standard output is read as it comes, a record at a time, for output
/// too long to wait for (`git log` over a long history).
///
/// Nothing is read ahead of what is asked: a program that writes more than the pipe
/// holds waits until the next ``readRecords(_:separator:perRecord:)`` (backpressure). Reads are
/// blocking and must come one at a time; ``terminate()`` may come from any thread, also
/// during a read, which then ends as cancelled. The child is reaped as soon as it exits
/// (its output may wait in the pipe for reads to come: no zombie meanwhile), or when it is
/// terminated, so none outlives the stream.
final class StreamingProcess: @unchecked Sendable {
    /// Records read by one ``StreamingProcess/readRecords(_:separator:perRecord:)``.
    struct Chunk {
        /// The complete records, without their separators.
        var records: [[UInt8]]
        /// How the program ended, once its output did (the records are then all that was left).
        var end: ProcessResult?
        /// Whether the stream was terminated: the records are to be dropped.
        var cancelled = false
    }

    let pid: pid_t
    private let output: Int32
    private let errors: Int32
    private let lock = NSLock()
    private var reading = false
    private var terminated = false
    private var reaped = false
    /// The child's exit status, once it exited and was reaped (its output may still be in the pipe).
    private var exitedStatus: Int32?
    private var buffer: [UInt8] = []
    private var errorBytes: [UInt8] = []

    /// Starts `arguments` (see ``Subprocess/spawn(_:environment:)``).
    init(_ arguments: [CommandArgument], environment: [String: String?]) throws(Subprocess.SpawnFailure) {
        switch Subprocess.spawn(arguments, environment: environment) {
        case .success(let child):
            pid = child.pid
            output = child.output
            errors = child.errors
        case .failure(let failure):
            throw failure
        }
        watchForExit()
    }

    /// Waits on a thread of its own for the child to exit (without reaping it: `WNOWAIT`), then
    /// reaps it at once: a child that wrote all its output and exited while nothing reads (an
    /// idle screen) is no zombie until the next read.
    private func watchForExit() {
        let pid = pid
        Thread.detachNewThread { [weak self] in
            var info = siginfo_t()
            var result: Int32
            repeat { result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) } while result < 0 && errno == EINTR
            // ECHILD: reaped already (terminated, or its output read to the end).
            guard result == 0 else { return }
            self?.reapExited()
        }
    }

    /// Reaps the child, which exited, unless it was reaped or is being terminated.
    private func reapExited() {
        lock.lock()
        defer { lock.unlock() }
        guard !reaped, !terminated, exitedStatus == nil else { return }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return }
        exitedStatus = Subprocess.exitStatus(status)
        Subprocess.forget(pid)
    }

    deinit { terminate() }

    /// Reads until `count` complete records are in or the output ends; blocks the calling thread.
    ///
    /// A record starts with `separator` and holds `perRecord` of them (the first and
    /// `perRecord - 1` inside it, between its fields); it ends where the next starts. A byte
    /// of a field's text can only be taken as structure when it is `separator`: with NUL,
    /// which git never writes in a commit's text, none can.
    func readRecords(_ count: Int, separator: UInt8, perRecord: Int = 1) -> Chunk {
        lock.lock()
        guard !terminated, !reaped else {
            lock.unlock()
            return Chunk(records: [], cancelled: true)
        }
        reading = true
        lock.unlock()

        // The buffer starts at a record's start (or is empty): separators are counted from it.
        var seen = 0
        var starts: [Int] = []
        for index in buffer.indices where buffer[index] == separator {
            if seen % perRecord == 0 { starts.append(index) }
            seen += 1
        }
        // The output ends when standard output does; standard error is read meanwhile
        // (a child that fills it must not block) and to its end afterwards.
        let ended = Subprocess.readPipes([output, errors], until: { !$0.contains(0) && starts.count > count }) { index, bytes in
            if index == 0 {
                for offset in bytes.indices where bytes[offset] == separator {
                    if seen % perRecord == 0 { starts.append(buffer.count + offset - bytes.startIndex) }
                    seen += 1
                }
                buffer.append(contentsOf: bytes)
            } else {
                errorBytes.append(contentsOf: bytes)
            }
        }.contains(0)

        var records: [[UInt8]] = []
        if ended {
            for (index, start) in starts.enumerated() {
                let end = index + 1 < starts.count ? starts[index + 1] : buffer.count
                records.append(Array(buffer[(start + 1)..<end]))
            }
            buffer = []
        } else if starts.count > count {
            for index in 0..<count { records.append(Array(buffer[(starts[index] + 1)..<starts[index + 1]])) }
            buffer.removeSubrange(0..<starts[count])
        }

        lock.lock()
        defer { lock.unlock() }
        reading = false
        if terminated {
            closeAndReap()
            return Chunk(records: [], cancelled: true)
        }
        guard ended else { return Chunk(records: records) }
        let status = closeAndReap()
        return Chunk(records: records, end: ProcessResult(status: status, outputBytes: [], errorOutput: String(decoding: errorBytes, as: UTF8.self)))
    }

    /// Ends the program and what it started (SIGTERM to its process group) and reaps it;
    /// a read in progress ends as cancelled. A program still running after
    /// ``Subprocess/gracePeriod`` is killed (SIGKILL): this never waits longer.
    func terminate() {
        lock.lock()
        defer { lock.unlock() }
        guard !reaped else { return }
        if !terminated {
            terminated = true
            // Not once reaped: its pid may be another process's by now.
            if exitedStatus == nil { kill(-pid, SIGTERM) }
        }
        if !reading { closeAndReap() }
    }

    /// Closes the pipes and waits for the child (at most ``Subprocess/gracePeriod`` when it
    /// was terminated); call with the lock held.
    @discardableResult
    private func closeAndReap() -> Int32 {
        guard !reaped else { return -1 }
        reaped = true
        close(output)
        close(errors)
        if let exitedStatus { return exitedStatus }
        guard terminated else { return Subprocess.reap(pid) }
        let status = Subprocess.end([pid])[pid] ?? -1
        Subprocess.forget(pid)
        return status
    }
}
