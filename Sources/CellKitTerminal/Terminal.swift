#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A terminal's size in character cells.
public struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
    /// Columns.
    public var columns: Int
    /// Lines.
    public var rows: Int
    /// Creates a size.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
    /// The size assumed when none can be read: 80 × 24.
    public static let fallback = TerminalSize(columns: 80, rows: 24)
    public var description: String { "\(columns)x\(rows)" }
}

/// Why the terminal could not be taken over.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal; names which.
    case notATerminal(stream: String)
    /// `TERM` names a terminal that takes no escape sequences (`dumb`), or is unset or
    /// empty (see ``TerminalCapabilities``); `nil` when unset or empty (`TERM=""`).
    case unsupportedTerminal(term: String?)
    /// A system call failed; names it and the errno.
    case systemCall(String, errno: Int32)

    public var description: String {
        switch self {
        case .notATerminal(let stream):
            return "interactive mode needs a terminal, but standard \(stream) is not a tty (run it in a terminal, or print the rows as plain text there)"
        case .unsupportedTerminal(let term):
            let named = term.map { "TERM=\(StyledLine(String($0)).rendered(ansi: false)) says this one does not" } ?? "TERM is not set (or is empty)"
            return "interactive mode needs a terminal that takes escape sequences, but \(named) (set TERM to your terminal's type, such as xterm-256color, or print the rows as plain text there)"
        case .systemCall(let call, let code):
            return "\(call) failed: \(String(cString: strerror(code)))"
        }
    }
}

/// The process's controlling terminal: raw mode, the alternate screen, size and output.
///
/// Entering raw mode installs handlers that restore the terminal on every way
/// out: a normal exit, `exit()`, every signal whose default action ends the
/// process (a crash, SIGUSR1, SIGALRM, SIGPIPE, …), and, through the
/// ``TerminalApp`` event loop, SIGINT, SIGTERM, SIGHUP and SIGQUIT.
/// ``suspend()`` and ``resume()`` stop and continue the program as Ctrl-Z and `fg` do.
@MainActor
public final class Terminal {
    /// Whether a full-screen list can run here: both standard input and standard output
    /// are terminals, and `TERM` names one that takes escape sequences (set, and not
    /// `dumb`; see ``TerminalCapabilities``). When it is `false`, print the rows plainly.
    public nonisolated static var isInteractive: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 && TerminalCapabilities.current.canTakeOverScreen
    }

    /// The size of the terminal on standard output; 80 × 24 when it cannot be read.
    public nonisolated static func currentSize() -> TerminalSize {
        var size = winsize()
        let request = UInt(TIOCGWINSZ)
        guard ioctl(STDOUT_FILENO, request, &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return .fallback
        }
        return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    /// Whether this process is in the terminal's foreground process group (`fg`), so that it
    /// may take the terminal; `false` in the background (`bg`, `&`) or without a terminal.
    public nonisolated static var isForeground: Bool {
        let group = tcgetpgrp(STDIN_FILENO)
        return group >= 0 && group == getpgrp()
    }

    /// Whether raw mode is on.
    public private(set) var isRaw = false
    /// Whether ``suspend()`` gave the terminal back and ``resume()`` has not taken it again.
    public private(set) var isSuspended = false

    /// Asked when the program is continued in the background after ``suspend()``, before
    /// it stops again: `true` when an end was asked meanwhile (`kill %1` sends SIGTERM,
    /// then SIGCONT), so that it stays continued and its caller ends it. ``TerminalApp``
    /// sets it; without it the program stops again.
    var endAskedWhileSuspended: (() -> Bool)?

    /// Creates a handle on the terminal; nothing changes until ``enterRawMode()``.
    public init() {}

    /// Switches to raw mode and the alternate screen, hides the cursor, turns off line
    /// wrap and turns on bracketed paste (a paste arrives as one ``Key/paste(_:)``).
    ///
    /// - Throws: ``TerminalError/notATerminal(stream:)`` when standard input or output is not a tty;
    ///   ``TerminalError/unsupportedTerminal(term:)`` when `TERM` is unset, empty or `dumb`.
    public func enterRawMode() throws(TerminalError) {
        guard !isRaw else { return }
        guard isatty(STDIN_FILENO) == 1 else { throw .notATerminal(stream: "input") }
        guard isatty(STDOUT_FILENO) == 1 else { throw .notATerminal(stream: "output") }
        guard TerminalCapabilities.current.canTakeOverScreen else {
            throw .unsupportedTerminal(term: getenv("TERM").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 })
        }
        var attributes = termios()
        guard tcgetattr(STDIN_FILENO, &attributes) == 0 else { throw .systemCall("tcgetattr", errno: errno) }
        _savedTerminalAttributes = attributes
        TerminalSignals.installRestoreHandlers()
        var raw = attributes
        cfmakeraw(&raw)
        // TCSADRAIN, not TCSAFLUSH: keys typed before the program took the terminal (type-ahead)
        // are kept and read as its first keys, as a shell, `less` and `vim` keep them.
        guard tcsetattr(STDIN_FILENO, TCSADRAIN, &raw) == 0 else { throw .systemCall("tcsetattr", errno: errno) }
        _terminalIsRaw = 1
        isRaw = true
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?2004h\u{1B}[H\u{1B}[2J")
    }

    /// Restores the terminal and stops the process group, as Ctrl-Z does in a shell
    /// (SIGTSTP with its default action, sent to the whole group as `less` and `vim`
    /// send it); returns once the process is continued. Continued in the foreground
    /// (`fg`), raw mode and the alternate screen are back (``isRaw``) and the caller
    /// redraws; continued in the background (`bg`), the terminal stays the shell's
    /// (``isSuspended``) and the process group stops again (SIGTTOU, as the kernel stops
    /// a background job that touches the terminal; the shell lists it as stopped), so
    /// that `fg` continues it and ``resume()`` takes the terminal back.
    ///
    /// The whole group stops, not only this process: run from a script (or `make`, or
    /// any wrapper that waits for it), the wrapper stops too, so the shell gets the
    /// terminal back and lists the job as stopped; `fg` continues them all.
    /// Where the kernel does not stop the process (a process group no shell
    /// manages, which nobody could continue), it returns at once.
    public func suspend() {
        suspend(stoppingWith: SIGTSTP)
    }

    /// ``suspend()``, stopping the process group with `stopSignal` (SIGTSTP; SIGTTOU when one came:
    /// the shell lists the job as stopped for tty output).
    func suspend(stoppingWith stopSignal: Int32) {
        guard isRaw else { return }
        restore()
        Terminal.stopProcessGroup(with: stopSignal)
        isSuspended = true
        resume()
    }

    /// Stops the process group with `signal` (SIGTSTP, SIGTTOU) and its default action;
    /// returns once the process is continued.
    private static func stopProcessGroup(with stopSignal: Int32) {
        var previous = sigaction()
        _ = sigaction(stopSignal, nil, &previous)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, stopSignal)
        var mask = sigset_t()
        _ = pthread_sigmask(SIG_BLOCK, &only, &mask)
        // The rest of the process group (0) first: a wrapper waiting for this process
        // stops with it. The signal is ignored here meanwhile, so that it leaves nothing
        // pending in this process: the kernel hands a signal sent to a process to any of
        // its threads, which may stop the process only after this thread has run on.
        _ = signal(stopSignal, SIG_IGN)
        _ = kill(0, stopSignal)
        #if os(Linux)
        // Linux queues an ignored signal anyway while the process's first thread blocks it
        // (a sanitizer's deferred handler does) or a tracer is attached; delivered once the
        // default action is back, that copy stopped the process a second time, right after
        // `fg`. Take every such copy now, while it is still ignored (blocked in this thread).
        var now = timespec(tv_sec: 0, tv_nsec: 0)
        while sigtimedwait(&only, nil, &now) == stopSignal {}
        #endif
        // Then this process: a signal sent to this thread, with the default action,
        // stops the process before `pthread_kill` returns (the continue, SIGCONT, also
        // discards any stop signal still pending).
        var defaultAction = sigaction()
        sigemptyset(&defaultAction.sa_mask)
        _ = sigaction(stopSignal, &defaultAction, nil)
        _ = pthread_sigmask(SIG_UNBLOCK, &only, nil)
        _ = pthread_kill(pthread_self(), stopSignal)
        // Continued.
        _ = sigaction(stopSignal, &previous, nil)
        _ = pthread_sigmask(SIG_SETMASK, &mask, nil)
    }

    /// Takes the terminal again after the process was continued (SIGCONT), when it is
    /// in the terminal's foreground process group (``isForeground``); returns whether
    /// the terminal is this program's (raw mode on), so the caller redraws.
    ///
    /// After ``suspend()``, it enters raw mode and the alternate screen again; after a
    /// stop by someone else (SIGSTOP, then SIGCONT) it puts raw mode and the alternate
    /// screen back, in case the shell changed the terminal meanwhile. Continued in the
    /// background after ``suspend()`` (`bg`), it stops the process group again (SIGTTOU)
    /// without touching the terminal, and takes it once `fg` continues it. Stopped by
    /// someone else while it had the terminal (SIGSTOP) and continued in the background
    /// (`kill -CONT`), it leaves the alternate screen and shows the cursor (the shell has
    /// put its own modes back), then does the same. Otherwise, in the background (a group
    /// no shell manages), it returns `false`: draw nothing and call it again on the next
    /// SIGCONT.
    @discardableResult
    public func resume() -> Bool {
        guard isRaw || isSuspended else { return false }
        if isRaw, !Terminal.isForeground {
            // Stopped by someone else (SIGSTOP) while it had the terminal, then continued in
            // the background (`kill -CONT`): the shell has the terminal and its own modes
            // back. Leave its screen as the shell expects it, and go on as after `bg`: a
            // running background job gets no SIGCONT from `fg`, a stopped one does.
            isRaw = false
            _terminalIsRaw = 0
            write("\u{1B}[0m\u{1B}[?2004l\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l")
            isSuspended = true
        }
        if isSuspended, !Terminal.isForeground {
            // Continued in the background (`bg`): stop again, as a background process that
            // touches the terminal is stopped (SIGTTOU), so that `fg` continues it. Not when
            // continued to end (`kill %1`: SIGTERM, then SIGCONT): the caller ends it.
            if endAskedWhileSuspended?() == true { return false }
            // `fg` may have come meanwhile: it sends no SIGCONT to a running job.
            if !Terminal.isForeground { Terminal.stopProcessGroup(with: SIGTTOU) }
        }
        guard Terminal.isForeground else { return false }
        if isSuspended {
            isSuspended = false
            try? enterRawMode()
            return isRaw
        }
        var raw = _savedTerminalAttributes
        cfmakeraw(&raw)
        _ = tcsetattr(STDIN_FILENO, TCSADRAIN, &raw)
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?2004h")
        return true
    }

    /// Puts the terminal back as it was before ``enterRawMode()``. Safe to call more than once.
    public func restore() {
        guard isRaw else { return }
        isRaw = false
        _restoreTerminal()
    }

    /// Writes `text` to standard output.
    public func write(_ text: String) {
        write(Array(text.utf8))
    }

    /// Writes `bytes` to standard output, all of them.
    public func write(_ bytes: [UInt8]) {
        Terminal.writeAll(bytes, to: STDOUT_FILENO)
    }

    nonisolated static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while offset < buffer.count {
                let written = _systemWrite(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return
                }
                offset += written
            }
        }
    }
}

/// The C library's `write`, reachable where a method of the same name hides it.
private func _systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
