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
/// - `NO_COLOR` set to anything but the empty string (<https://no-color.org>), a
///   `TERM` of a monochrome terminal (`vt52`, `vt100`, `vt220`, …, and names ending in
///   `-m` or `-mono`), or a `TERM` whose terminfo entry has no colors (no `colors`
///   number, as `xterm-r6`, `sun`, `mach` and `rxvt-basic`, where `tput colors` prints -1;
///   or one below 8, `colors#0` included): ``usesColor`` is `false`, and ``TerminalApp`` draws without
///   colors, keeping bold, dim, underline and reverse video (the selection and the bars
///   stay visible in reverse video). So is `TERM` unset, empty or `dumb`.
///
/// - How many colors: ``colors``, from the `colors` number of the terminal's terminfo entry
///   (`xterm`, `screen`, `linux` and `xterm-color` have 8): ``TerminalApp`` maps the colors
///   of its frames to those the terminal has (``StyledLine/limitingColors(to:)``).
///
/// ```swift
/// let emacs = TerminalCapabilities(environment: ["TERM": "dumb"])
/// assert(!emacs.canTakeOverScreen)
/// let plain = TerminalCapabilities(environment: ["TERM": "xterm-256color", "NO_COLOR": "1"])
/// assert(plain.canTakeOverScreen && !plain.usesColor)
/// assert(TerminalCapabilities(environment: ["TERM": "vt100"]).usesColor == false)
/// assert(TerminalCapabilities(environment: [:]).usesColor == false)
/// ```
public struct TerminalCapabilities: Hashable, Sendable {
    /// Whether the terminal takes cursor movement and the alternate screen: `TERM` is set,
    /// not empty and not `dumb`.
    public var canTakeOverScreen: Bool
    /// Whether styles may use colors: `NO_COLOR` is unset or empty, `TERM` is set, not
    /// empty and not `dumb` (``canTakeOverScreen``), it does not name a monochrome terminal,
    /// and its terminfo entry, when one is found, has colors (``colors`` is not 0).
    public var usesColor: Bool

    /// How many colors the terminal shows: 0 when ``usesColor`` is `false`; 256 when
    /// `COLORTERM` is `truecolor` or `24bit`; else the `colors` number of `TERM`'s terminfo
    /// entry (8 for `xterm`, `screen`, `linux`, `xterm-color`; 256 for `xterm-256color`), read
    /// from the directories ncurses reads (`TERMINFO`, `~/.terminfo`, `TERMINFO_DIRS`,
    /// `/etc/terminfo`, `/lib/terminfo`, `/usr/share/terminfo`). An entry without a `colors`
    /// number (`xterm-r6`, `sun`, `mach`, `rxvt-basic`: `tput colors` prints -1), or with one
    /// below 8 (`colors#0`), is a terminal without colors: 0, and ``usesColor`` is `false`.
    /// With no entry found: 256 for
    /// a name that says so (`…-256color`, `…-direct`) or a terminal known for it (`alacritty`,
    /// `xterm-kitty`, `foot`, `wezterm`, `xterm-ghostty`), else 8.
    ///
    /// ```swift
    /// let xterm = TerminalCapabilities(environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"])
    /// assert(xterm.colors == 256)
    /// assert(TerminalCapabilities(environment: ["TERM": "xterm-256color", "NO_COLOR": "1"]).colors == 0)
    /// ```
    public var colors: Int

    /// Reads the capabilities from `environment` (`TERM`, `NO_COLOR`, `COLORTERM`, and the
    /// terminfo directories: `TERMINFO`, `TERMINFO_DIRS`, `HOME`).
    public init(environment: [String: String]) {
        let term = environment["TERM"] ?? ""
        canTakeOverScreen = !term.isEmpty && term != "dumb"
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        colors = canTakeOverScreen && !noColor && !Self.isMonochrome(term) ? Self.colorCount(term: term, environment: environment) : 0
        usesColor = colors > 0
    }

    /// The capabilities of this process's environment.
    public static var current: TerminalCapabilities {
        var environment: [String: String] = [:]
        for name in ["TERM", "NO_COLOR", "COLORTERM", "TERMINFO", "TERMINFO_DIRS", "HOME"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return TerminalCapabilities(environment: environment)
    }

    /// `vt52`, `vt100`, `vt102`, `vt220`, `vt320`, … and the `-m` / `-mono` variants (`xterm-mono`, `linux-m`).
    static func isMonochrome(_ term: String) -> Bool {
        term.hasSuffix("-m") || term.hasSuffix("-mono") || term.hasPrefix("vt") && term.dropFirst(2).first?.isNumber == true
    }

    /// How many colors `term` shows (see ``colors``); `term` is not monochrome by name. 0 when
    /// its terminfo entry has no `colors` number (absent or cancelled: -1, -2) or one below 8.
    static func colorCount(term: String, environment: [String: String]) -> Int {
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return 256 }
        if let count = Terminfo.colors(of: term, environment: environment) { return count >= 8 ? count : 0 }
        let known = ["alacritty", "xterm-kitty", "foot", "wezterm", "xterm-ghostty"]
        return term.hasSuffix("-256color") || term.hasSuffix("-direct") || known.contains(term) ? 256 : 8
    }
}

/// Reads numbers of compiled terminfo entries (the legacy and the extended number format).
enum Terminfo {
    /// The index of `colors` among the numeric capabilities.
    private static let colorsIndex = 13

    /// The `colors` number of `term`'s entry: nil when no entry is found or it is unreadable,
    /// -1 when the entry has none.
    static func colors(of term: String, environment: [String: String]) -> Int? {
        // A name that could leave the directory is no terminal's.
        guard !term.isEmpty, !term.contains("/"), term != ".", term != "..", let first = term.unicodeScalars.first else { return nil }
        var directories: [String] = []
        if let dir = environment["TERMINFO"], !dir.isEmpty { directories.append(dir) }
        if let home = environment["HOME"], !home.isEmpty { directories.append(home + "/.terminfo") }
        if let dirs = environment["TERMINFO_DIRS"] {
            directories += dirs.split(separator: ":", omittingEmptySubsequences: false).map { $0.isEmpty ? "/usr/share/terminfo" : String($0) }
        }
        directories += ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"]
        let subdirectories = [String(first), String(first.value, radix: 16)]
        for directory in directories {
            for subdirectory in subdirectories {
                if let bytes = contents(of: directory + "/" + subdirectory + "/" + term) { return number(colorsIndex, in: bytes) }
            }
        }
        return nil
    }

    /// The file's bytes (at most 64 KiB: terminfo entries are a few KiB), or nil.
    private static func contents(of path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 65_536)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            count += n
        }
        return Array(bytes.prefix(count))
    }

    /// The numeric capability at `index` of the compiled entry `bytes`: nil when the entry
    /// is not one, -1 when absent or cancelled.
    static func number(_ index: Int, in bytes: [UInt8]) -> Int? {
        func short(_ offset: Int) -> Int? {
            guard offset + 1 < bytes.count else { return nil }
            return Int(Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8))
        }
        guard let magic = short(0), let namesSize = short(2), let boolCount = short(4), let numberCount = short(6),
              namesSize >= 0, boolCount >= 0, numberCount >= 0 else { return nil }
        let width: Int
        switch magic {
        case 0o432: width = 2
        case 0o1036: width = 4
        default: return nil
        }
        guard index < numberCount else { return -1 }
        var offset = 12 + namesSize + boolCount
        if offset % 2 == 1 { offset += 1 }
        offset += index * width
        guard offset + width <= bytes.count else { return nil }
        if width == 2 { return short(offset) }
        var value: UInt32 = 0
        for byte in 0..<4 { value |= UInt32(bytes[offset + byte]) << (8 * byte) }
        return Int(Int32(bitPattern: value))
    }
}
