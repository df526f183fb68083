#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import CellKit
import CellKitTerminal

/// The demo app: CellKit lists in a terminal, on sample data or a real repository.
@main
struct CellKitDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cellkit-demo",
        abstract: "CellKit lists in your terminal: a sample Twitter feed, or a git repository's history.",
        discussion: """
        In a terminal the list is interactive: ↑/↓ or j/k move, PgUp/PgDn and Home/End jump \
        (End first loads every page, the selection on the "Loading more…" row; a page that fails stops it on the \
        "Couldn't load more" row; Home, ↑ or PgUp meanwhile stops it; keys past the loaded rows wait for the next page, and r typed after them refreshes once they moved), \
        Enter selects (the status line names the row until the selection moves; on an error or "Couldn't load more" row: retry), / filters (Enter keeps the filter, Esc clears it), \
        r refreshes, q quits (Ctrl-D and Ctrl-C too). Alt+letter reads as Esc, then the letter (Alt+q in the filter clears it \
        and quits). The screen follows resizes.

        Ctrl-Z suspends (fg resumes), with the script that runs it if any. A long filter scrolls. \
        Control characters in the text show as visible symbols (␉ ␊ ␛). NO_COLOR (or a monochrome \
        TERM such as vt100) turns colors off; the selection stays in reverse video.

        When standard input or output is not a terminal (a pipe, CI), or TERM is dumb or unset \
        (Emacs' M-x shell), the rows are printed \
        plainly, without escape codes: a history in full (every page, with real diffstats), \
        the sample feed one page at a time (--pages N prints N pages; when more remain, \
        standard error says so, and also when fewer were there: the sample feed ends after 50 pages, \
        1,000 tweets, plus those a refresh brings). Output is deterministic for a given --seed.

        Exit status: 0 on success; 1 when loading failed (not a repository, a missing or \
        unreadable path, --fail-rate), with the error on standard error; 2 when standard output \
        could not be written (a full disk, >/dev/full, >&-); 64 for bad options (also --interactive \
        without a terminal, or with TERM dumb or unset); 130 after Ctrl-C, 128+N after signal N. CellKit's diagnostics for \
        developers go to standard error only with --verbose.

        Modes:
          cellkit-demo [feed] [--seed N] [--fail-rate P]   the sample feed (the default)
          cellkit-demo git [PATH] [--page-size N]          a repository's history
        Every mode takes --interactive (fail without a terminal), --plain, --width N, --pages N and --verbose. \
        See 'cellkit-demo help feed' and 'cellkit-demo help git'.
        """,
        subcommands: [FeedCommand.self, GitCommand.self],
        defaultSubcommand: FeedCommand.self
    )

    static func main() {
        // Every way out ends in exit() (q, Ctrl-C, SIGTERM/SIGHUP through the terminal's
        // handler, errors, piped output's end): the git processes still running end with the demo.
        atexit { Subprocess.terminateAll() }
        exitIfStandardOutputIsClosed()
        switch GitCommand.arguments(Array(CommandLine.arguments.dropFirst())) {
        case .success(let arguments):
            main(arguments)
        case .failure(let error):
            exit(withError: error)
        }
    }
}

/// Options every mode shares: how to show the list.
struct DisplayOptions: ParsableArguments {
    @Flag(name: .long, help: "Require the interactive list; fail with an error when stdin or stdout is not a terminal, or TERM is dumb or unset.")
    var interactive = false

    @Flag(name: .long, help: "Print the rows plainly even in a terminal.")
    var plain = false

    @Option(name: .long, parsing: .unconditional, help: "Width of plain output in columns, \(DisplayOptions.widths.lowerBound)...\(DisplayOptions.widths.upperBound) (default: $COLUMNS, else 80).")
    var width: Int?

    @Option(name: .long, parsing: .unconditional, help: "Pages to print when not interactive (default: all of a history, one of the feed).")
    var pages: Int?

    @Flag(name: .long, help: "Also write CellKit's diagnostics for developers to standard error (at exit when interactive).")
    var verbose = false

    /// Where the controller's diagnostics go: standard error with --verbose, else nowhere
    /// (the error a user needs is the demo's own message).
    func diagnosticHandler() -> DiagnosticHandler { verbose ? .standardError : .ignore }

    /// The widths plain output accepts.
    static let widths = 20...1_000

    func validate() throws {
        if interactive && plain { throw ValidationError("--interactive and --plain exclude each other") }
        if interactive, let stream = [(STDIN_FILENO, "input"), (STDOUT_FILENO, "output")].first(where: { isatty($0.0) == 0 })?.1 {
            throw ValidationError("--interactive needs a terminal, but standard \(stream) is not a tty (run it in a terminal, or drop --interactive to print the rows plainly)")
        }
        if interactive, !TerminalCapabilities.current.canTakeOverScreen {
            let term = getenv("TERM").map { String(cString: $0) } ?? ""
            let named = term.isEmpty ? "TERM is not set" : "TERM=\(visible(term)) says this one does not"
            throw ValidationError("--interactive needs a terminal that takes escape sequences, but \(named) (set TERM to your terminal's type, such as xterm-256color, or drop --interactive to print the rows plainly)")
        }
        if let width, !Self.widths.contains(width) {
            throw ValidationError("--width must be between \(Self.widths.lowerBound) and \(Self.widths.upperBound) (got \(width))")
        }
        if let pages, pages < 1 { throw ValidationError("--pages must be at least 1 (got \(pages))") }
    }

    /// Whether the list runs interactively: --interactive, or a terminal on both ends and not --plain.
    var isInteractive: Bool { interactive || (!plain && Terminal.isInteractive) }

    /// The width of plain output: --width, else $COLUMNS when set, else 80.
    ///
    /// - Throws: a ``ValidationError`` naming COLUMNS when it is set but not a width in ``widths``.
    func plainWidth() throws -> Int {
        if let width { return width }
        guard let raw = getenv("COLUMNS").map({ String(cString: $0) }), !raw.isEmpty else { return 80 }
        guard let value = Int(raw), Self.widths.contains(value) else {
            throw ValidationError("COLUMNS=\(raw) is not a width between \(Self.widths.lowerBound) and \(Self.widths.upperBound); set --width N or unset COLUMNS")
        }
        return value
    }
}
