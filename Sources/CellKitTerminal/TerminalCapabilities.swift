#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the terminal named by the environment can show, read from `TERM` and `NO_COLOR`
/// as command-line tools read them.
///
/// - `TERM` unset, empty or `dumb` (Emacs' `M-x shell`, some CI logs): the terminal
///   takes no escape sequences, so a full-screen list cannot run there
///   (``canTakeOverScreen`` is `false`; ``Terminal/isInteractive`` is `false`, and
///   ``Terminal/enterRawMode()`` throws ``TerminalError/unsupportedTerminal(term:)``).
///   Print the rows plainly instead (``TerminalListView/plainLines(width:from:)``).
/// - `NO_COLOR` set to anything but the empty string (<https://no-color.org>), or a
///   `TERM` of a monochrome terminal (`vt52`, `vt100`, `vt220`, …, and names ending in
///   `-m` or `-mono`): ``usesColor`` is `false`, and ``TerminalApp`` draws without
///   colors, keeping bold, dim, underline and reverse video (the selection and the bars
///   stay visible in reverse video).
///
/// ```swift
/// let emacs = TerminalCapabilities(environment: ["TERM": "dumb"])
/// assert(!emacs.canTakeOverScreen)
/// let plain = TerminalCapabilities(environment: ["TERM": "xterm-256color", "NO_COLOR": "1"])
/// assert(plain.canTakeOverScreen && !plain.usesColor)
/// assert(TerminalCapabilities(environment: ["TERM": "vt100"]).usesColor == false)
/// ```
public struct TerminalCapabilities: Hashable, Sendable {
    /// Whether the terminal takes cursor movement and the alternate screen: `TERM` is set,
    /// not empty and not `dumb`.
    public var canTakeOverScreen: Bool
    /// Whether styles may use colors: `NO_COLOR` is unset or empty, and `TERM` does not
    /// name a monochrome terminal.
    public var usesColor: Bool

    /// Reads the capabilities from `environment` (`TERM`, `NO_COLOR`).
    public init(environment: [String: String]) {
        let term = environment["TERM"] ?? ""
        canTakeOverScreen = !term.isEmpty && term != "dumb"
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        usesColor = canTakeOverScreen && !noColor && !Self.isMonochrome(term)
    }

    /// The capabilities of this process's environment.
    public static var current: TerminalCapabilities {
        var environment: [String: String] = [:]
        for name in ["TERM", "NO_COLOR"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return TerminalCapabilities(environment: environment)
    }

    /// `vt52`, `vt100`, `vt102`, `vt220`, `vt320`, … and the `-m` / `-mono` variants (`xterm-mono`, `linux-m`).
    static func isMonochrome(_ term: String) -> Bool {
        term.hasSuffix("-m") || term.hasSuffix("-mono") || term.hasPrefix("vt") && term.dropFirst(2).first?.isNumber == true
    }
}
