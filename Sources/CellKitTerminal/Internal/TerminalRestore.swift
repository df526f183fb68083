#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The one piece of global state: what the terminal looked like before raw mode,
// reachable from atexit and signal handlers (which cannot capture context).
// Written on the main thread before any handler is installed; read by handlers.
nonisolated(unsafe) var _savedTerminalAttributes = termios()
nonisolated(unsafe) var _terminalIsRaw: Int32 = 0
nonisolated(unsafe) var _signalPipeWrite: Int32 = -1
nonisolated(unsafe) var _exitHandlerInstalled = false

/// Leaves the alternate screen, shows the cursor and puts back the saved
/// terminal attributes. Async-signal-safe: only `write` and `tcsetattr`.
func _restoreTerminal() {
    guard _terminalIsRaw != 0 else { return }
    _terminalIsRaw = 0
    let leave: StaticString = "\u{1B}[0m\u{1B}[?2004l\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"
    _ = write(STDOUT_FILENO, leave.utf8Start, leave.utf8CodeUnitCount)
    _ = tcsetattr(STDIN_FILENO, TCSADRAIN, &_savedTerminalAttributes)
}

/// Restores the terminal, then lets a fatal signal take its default course.
private func _fatalSignalHandler(_ signal: Int32) {
    _restoreTerminal()
    _ = raise(signal)
}

/// SIGTTOU. In the terminal's foreground (`kill -TTOU`): forwarded to the event loop, which
/// restores the terminal and stops the process group, as for SIGTSTP (see ``Terminal/suspend()``).
/// Otherwise (the kernel's, for a background job that touches the terminal; or before the event
/// loop runs): stops the process as the default action does, which also stays the action until
/// the event loop handles the next SIGCONT (a call the kernel restarts stops the process again,
/// rather than calling this handler in a loop). Async-signal-safe: `tcgetpgrp`, `getpgrp`,
/// `write`, `sigaction`, `raise`.
private func _stopSignalHandler(_ signal: Int32) {
    let saved = errno
    defer { errno = saved }
    let group = tcgetpgrp(STDIN_FILENO)
    if group >= 0 && group == getpgrp() && _signalPipeWrite >= 0 {
        var byte = UInt8(truncatingIfNeeded: signal)
        _ = write(_signalPipeWrite, &byte, 1)
        return
    }
    var defaultAction = sigaction()
    sigemptyset(&defaultAction.sa_mask)
    _ = sigaction(signal, &defaultAction, nil)
    // Not blocked in its own handler (SA_NODEFER): the process stops here, until continued.
    _ = raise(signal)
}

/// Forwards a signal to the event loop through the self-pipe.
private func _forwardSignalHandler(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    let saved = errno
    _ = write(_signalPipeWrite, &byte, 1)
    errno = saved
}

enum TerminalSignals {
    /// Signals whose default action ends the process (or dumps core), other than the
    /// forwarded ones: their handler restores the terminal, then the signal takes its
    /// default course. Crashes (SIGSEGV, SIGABRT, …) and the rest (SIGUSR1, SIGALRM,
    /// SIGPIPE, the realtime signals, …).
    static let fatal: [Int32] = {
        var signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS,
                                SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ]
        #if os(Linux)
        signals += [SIGIO, SIGPWR, SIGSTKFLT]
        #if canImport(Glibc)
        signals += Array(__libc_current_sigrtmin()...__libc_current_sigrtmax())
        #endif
        #endif
        return signals
    }()
    /// Signals handed to the event loop: resize, the ways to ask for an end, suspend and resume.
    static let forwarded: [Int32] = [SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT]

    /// Installs the exit and fatal-signal handlers that restore the terminal, and unblocks
    /// those signals (a parent, such as a test runner through tmux, may have blocked them).
    /// A signal that was ignored when the program started (`nohup`, a parent ignoring
    /// SIGPIPE) stays ignored.
    static func installRestoreHandlers() {
        if !_exitHandlerInstalled {
            _exitHandlerInstalled = true
            atexit { _restoreTerminal() }
        }
        var set = sigset_t()
        sigemptyset(&set)
        for signal in fatal {
            guard let ignored = isIgnored(signal), !ignored else { continue }
            sigaddset(&set, signal)
            install(_fatalSignalHandler, for: signal, flags: SA_RESETHAND)
        }
        // A stop by SIGTTOU gives the terminal back first (not when ignored: then it stops nothing).
        if isIgnored(SIGTTOU) == false {
            stopHandlerWanted = true
            installStopHandler(SIGTTOU)
            sigaddset(&set, SIGTTOU)
        }
        _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Whether the SIGTTOU handler is wanted (SIGTTOU was not ignored at the start).
    nonisolated(unsafe) static var stopHandlerWanted = false

    /// Installs the SIGTTOU handler again after a stop in the background (the event loop, on SIGCONT).
    static func reinstallStopHandler() {
        if stopHandlerWanted { installStopHandler(SIGTTOU) }
    }

    /// Installs the handler that gives the terminal back before `signal` (SIGTTOU) stops the process.
    static func installStopHandler(_ signal: Int32) {
        install(_stopSignalHandler, for: signal, flags: SA_RESTART | SA_NODEFER)
    }

    /// Whether `signal` is ignored (`SIG_IGN`); `nil` when its disposition cannot be read.
    static func isIgnored(_ signal: Int32) -> Bool? {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return nil }
        #if canImport(Darwin)
        let handler = current.__sigaction_u.__sa_handler
        #else
        let handler = current.__sigaction_handler.sa_handler
        #endif
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Installs `handler` for `signal` with `flags` and an empty mask.
    static func install(_ handler: @convention(c) (Int32) -> Void, for signal: Int32, flags: some BinaryInteger) {
        var action = sigaction()
        #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = handler
        #else
        action.__sigaction_handler.sa_handler = handler
        #endif
        action.sa_flags = Int32(truncatingIfNeeded: flags)
        sigemptyset(&action.sa_mask)
        _ = sigaction(signal, &action, nil)
    }

    /// Routes the forwarded signals to `pipeWrite`, and unblocks them: a parent
    /// (a test runner, through tmux) may have left them blocked.
    static func forward(to pipeWrite: Int32) {
        _signalPipeWrite = pipeWrite
        var set = sigset_t()
        sigemptyset(&set)
        for signal in forwarded {
            install(_forwardSignalHandler, for: signal, flags: SA_RESTART)
            sigaddset(&set, signal)
        }
        _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
