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
        In a terminal the list is interactive: ↑/↓ or j/k move, PgUp/PgDn and Home/End jump, \
        Enter selects (on an error row: retry), / filters (Enter keeps the filter, Esc clears it), \
        r refreshes, q quits (Ctrl-C too). The screen follows resizes.

        When standard input or output is not a terminal (a pipe, CI), the rows are printed \
        plainly, without escape codes, and the program exits 0. Output is deterministic for a given --seed.

        Modes:
          cellkit-demo [feed] [--seed N] [--fail-rate P]   the sample feed (the default)
          cellkit-demo git [PATH] [--page-size N]          a repository's history
        Every mode takes --interactive (fail without a terminal), --plain and --width N. \
        See 'cellkit-demo help feed' and 'cellkit-demo help git'.
        """,
        subcommands: [FeedCommand.self, GitCommand.self],
        defaultSubcommand: FeedCommand.self
    )
}

/// Options every mode shares: how to show the list.
struct DisplayOptions: ParsableArguments {
    @Flag(name: .long, help: "Require the interactive list; fail with an error when stdin or stdout is not a terminal.")
    var interactive = false

    @Flag(name: .long, help: "Print the rows plainly even in a terminal.")
    var plain = false

    @Option(name: .long, help: "Width of plain output in columns (default: $COLUMNS, else 80).")
    var width: Int?

    func validate() throws {
        if interactive && plain { throw ValidationError("--interactive and --plain exclude each other") }
        if let width, width < 20 { throw ValidationError("--width must be at least 20 (got \(width))") }
    }
}
