#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import CellKit
import CellKitTerminal

/// One screen of the demo: a list controller and the loads behind it.
@MainActor
protocol DemoScreen: AnyObject {
    /// The controller that the list view is attached to.
    var controller: ListController { get }
    /// The title bar text.
    var title: String { get }
    /// Shows a message in the status line (interactive mode only).
    var showStatus: (String?) -> Void { get set }
    /// Starts the first load.
    func start()
    /// Waits until the first load ended (plain mode prints then).
    func firstLoadFinished() async
    /// Loads newer content (the `r` key).
    func refresh()
    /// Shows only the rows matching `text` ("" shows all).
    func filter(_ text: String)
    /// How many times the loaded rows were filtered (for the tests' work counts).
    var filterPasses: Int { get }
    /// Handles a key meant for the list first; returns whether it did (see ``PagedNavigation``).
    func handleListKey(_ key: Key, in list: TerminalListView) -> Bool
    /// Every loaded row, unfiltered, and whether more pages exist.
    var loadedSnapshot: ListSnapshot { get }
    /// Loads the next page; nil when none is left or one is loading.
    func loadNextPage() -> Task<Void, Never>?
    /// Stops loading pages as the last rows show: plain output loads exactly the pages it prints.
    func loadPagesOnlyWhenAsked()
    /// What a row is called in messages: "tweet", "commit".
    var rowName: String { get }
    /// The default number of pages printed when the output is not a terminal (nil: all).
    var defaultPlainPages: Int? { get }
    /// Ends what still runs for the screen (a `git log`) before the program exits.
    func stop()
    /// Plain output printed the rows shown: the screen may leave them out of later
    /// snapshots (a long history then costs the same per page to the end).
    func rowsPrinted()
    /// How many rows were read, printed ones left out since included.
    var rowsRead: Int { get }
}

extension DemoScreen {
    func stop() {}
    func rowsPrinted() {}
    var rowsRead: Int { loadedSnapshot.model.itemCount }
}

/// A screen's status line: what it shows last, and the line of the row Enter was pressed on
/// ("Selected …"), which goes once the selection moves to another row (the line shown before
/// it comes back), as the row's highlight does.
@MainActor
final class StatusLine {
    /// Where the lines go (the app's status line).
    var sink: (String?) -> Void = { _ in }
    /// The line shown last.
    private(set) var shown: String?
    /// The row whose line shows, and the line before it.
    private var selection: (row: ItemID?, before: String?)?

    /// Shows `text`.
    func show(_ text: String?) {
        selection = nil
        shown = text
        sink(text)
    }

    /// Shows `text` as the line of the row selected in `controller`'s list (Enter on it).
    func showSelection(_ text: String, in controller: ListController) {
        let row = Self.selectedRow(in: controller)
        // Enter on another row, or the same row's line completed (a diffstat): the line before stays.
        let before = selection?.before ?? shown
        show(text)
        selection = (row, before)
    }

    /// After list keys: the line shown before the selection's comes back when the selection is on another row.
    func selectionMayHaveMoved(in controller: ListController) {
        guard let selection, Self.selectedRow(in: controller) != selection.row else { return }
        show(selection.before)
    }

    private static func selectedRow(in controller: ListController) -> ItemID? {
        (controller.listView as? TerminalListView)?.selectedPath.flatMap { controller.displayed.item(at: $0)?.id }
    }
}

/// Runs a screen interactively in a terminal, or prints its rows plainly.
@MainActor
enum ScreenRunner {
    static func run(_ screen: any DemoScreen, options: DisplayOptions) throws -> Never {
        let list = TerminalListView()
        if options.isInteractive {
            let app = TerminalApp(listView: list, title: screen.title)
            // Diagnostics are for developers: never in the user's status line (it is the
            // screen's own messages' place); with --verbose they go to standard error once
            // the terminal is back.
            let diagnostics = DiagnosticLog()
            if options.verbose {
                screen.controller.diagnostics = DiagnosticHandler { diagnostic in
                    Task { @MainActor in diagnostics.append(diagnostic) }
                }
            } else {
                screen.controller.diagnostics = .ignore
            }
            screen.controller.attach(to: list)
            app.onRefresh = { [unowned screen] in screen.refresh() }
            app.onFilter = { [unowned screen] text in screen.filter(text) }
            app.onListKey = { [unowned screen] key in screen.handleListKey(key, in: list) }
            screen.showStatus = { app.statusMessage = $0 }
            let stats = getenv("CELLKIT_DEMO_STATS") != nil
            app.onExit = { [unowned screen] _ in
                screen.stop()
                diagnostics.write()
                if stats {
                    // Work counts for the tests (a paste must cost one filter pass, not one per character).
                    writeToStandardError("cellkit-demo stats: filter passes \(screen.filterPasses), applied snapshots \(screen.controller.appliedSnapshotCount), filter length \(app.filterText.count), idle timer wakeups \(app.idleTimerWakeCount)\n")
                }
            }
            screen.start()
            try app.run()
        }
        let width = try options.plainWidth()
        // Rows "show" as the plain list lays out; without this a prefetched page could
        // land between the last load and the print (`--pages 1` printing two pages).
        screen.loadPagesOnlyWhenAsked()
        // A pipe cannot select a row: the error row does not offer a retry.
        screen.controller.placeholders.errorCanRetry = false
        screen.controller.placeholders.retryHint = ""
        screen.controller.diagnostics = options.diagnosticHandler()
        screen.controller.attach(to: list)
        screen.start()
        let pageLimit = options.pages ?? screen.defaultPlainPages
        let stats = getenv("CELLKIT_DEMO_STATS") != nil
        Task { @MainActor in
            // Work counts for the tests: the most rows the source held (a page must not cost a pass over every row printed before).
            var mostRowsHeld = 0
            await screen.firstLoadFinished()
            var pages = 1
            // The last row printed; the rows before it may be gone from the list since.
            var lastPrinted: ItemID?
            var failure: String?
            /// Whether printing stopped at --pages with more to come: the rows are all printed, and
            /// the list may show nothing more than the no-results row (the printed rows left it).
            var stoppedAtPageLimit = false
            /// Prints the rows not printed yet: each page as it arrives, so a long history
            /// streams (`| head` sees its first lines at once).
            @MainActor func printNewRows() {
                let model = screen.controller.displayed
                let lines = list.plainLines(width: width, from: rowIndex(after: lastPrinted, in: model))
                lastPrinted = model.sections.last(where: { !$0.items.isEmpty })?.items.last?.id
                screen.rowsPrinted()
                guard !lines.isEmpty else { return }
                var text = ""
                for line in lines { text += line + "\n" }
                if let error = writeToStandardOutput(text) {
                    screen.stop()
                    // The reader is gone (`| head`): nothing is wrong.
                    if error.code == EPIPE { exit(0) }
                    writeToStandardError("cellkit-demo: could not write the output: \(error.message)\n")
                    exit(ExitCode.outputFailed)
                }
            }
            while true {
                if case .failed(let error) = screen.loadedSnapshot.state {
                    failure = "\(error)"
                    break
                }
                printNewRows()
                guard screen.loadedSnapshot.hasMore else { break }
                guard pageLimit.map({ pages < $0 }) ?? true else {
                    stoppedAtPageLimit = true
                    break
                }
                guard let task = screen.loadNextPage() else {
                    // A page is loading already (prefetched as the rows came on screen): wait for it.
                    guard screen.loadedSnapshot.activity == .loadingMore else { break }
                    while screen.loadedSnapshot.activity == .loadingMore {
                        try? await Task.sleep(for: .milliseconds(5))
                    }
                    await screen.controller.settle()
                    pages += 1
                    continue
                }
                await task.value
                await screen.controller.settle()
                mostRowsHeld = max(mostRowsHeld, screen.loadedSnapshot.model.itemCount)
                pages += 1
            }
            if stats { writeToStandardError("cellkit-demo stats: most rows held \(mostRowsHeld)\n") }
            await screen.controller.settle()
            if !stoppedAtPageLimit { printNewRows() }
            screen.stop()
            if let failure {
                writeToStandardError("cellkit-demo: \(visible(failure))\n")
                exit(ExitCode.loadFailed)
            }
            let loaded = screen.loadedSnapshot
            if loaded.hasMore {
                let count = screen.rowsRead
                writeToStandardError("cellkit-demo: printed \(pages) page\(pages == 1 ? "" : "s") (\(count) \(screen.rowName)\(count == 1 ? "" : "s")); more remain: --pages N prints N pages\n")
            } else if let asked = options.pages, pages < asked, screen.rowsRead > 0 {
                // Fewer pages than asked for: say so, the list ended there (the sample feed ends after 1,000 tweets).
                // Not after an empty list: its row said so ("No commits yet").
                let count = screen.rowsRead
                writeToStandardError("cellkit-demo: printed all \(pages) page\(pages == 1 ? "" : "s") (\(count) \(screen.rowName)\(count == 1 ? "" : "s")), fewer than --pages \(asked): there are no more\n")
            }
            exit(0)
        }
        dispatchMain()
    }
}

/// The index (among all rows of `model`) of the row after `row`; 0 when `row` is nil or
/// not in `model` (the rows printed before were left out). Looks from the end: the row
/// printed last is near it.
@MainActor
func rowIndex(after row: ItemID?, in model: TableModel) -> Int {
    guard let row else { return 0 }
    var after = model.itemCount
    for section in model.sections.reversed() {
        for item in section.items.reversed() {
            if item.id == row { return after }
            after -= 1
        }
    }
    return 0
}

/// The exit statuses of `cellkit-demo` (also in `--help` and the README).
enum ExitCode {
    /// Loading failed (not a repository, a missing path, `--fail-rate`); the error is on standard error.
    static let loadFailed: Int32 = 1
    /// Standard output could not be written (a full disk, `>/dev/full`).
    static let outputFailed: Int32 = 2
}

/// Diagnostics collected while the terminal is taken, written to standard error at exit.
@MainActor
final class DiagnosticLog {
    private var entries: [Diagnostic] = []
    private var dropped = 0

    func append(_ diagnostic: Diagnostic) {
        if entries.count < 100 { entries.append(diagnostic) } else { dropped += 1 }
    }

    func write() {
        guard !entries.isEmpty else { return }
        var text = "cellkit-demo: CellKit diagnostics (for developers):\n"
        for entry in entries { text += "  \(entry)\n" }
        if dropped > 0 { text += "  … and \(dropped) more\n" }
        writeToStandardError(text)
    }
}

/// `text` with control characters shown as visible symbols (`␛`, `␉`), as in the rows:
/// for messages on standard error that quote what the user or a repository gave.
func visible(_ text: String) -> String { StyledLine(text).rendered(ansi: false) }

/// Whether one of `fields`, as the rows show it (a control character as its symbol, `␛`, so
/// that typing what the row shows finds it), holds `query`, which is lowercased. The query
/// is taken as shown too: a tab or ESC pasted into the filter finds the row that shows `␉` or `␛`.
///
/// Beyond ASCII, both are compared as runs of Unicode scalars, composed (NFC): a letter typed
/// alone finds the clusters it starts (`क` in `क्ष`, `ශ` in `ශ්‍රී`), as a word typed letter by
/// letter should, and `é` typed finds an `é` written as `e` and a combining accent.
func shownText(of fields: String..., contains query: String) -> Bool {
    guard !query.isEmpty else { return true }
    let query = visible(query)
    let asciiQuery = query.utf8.allSatisfy { $0 < 0x80 }
    var composedQuery: [Unicode.Scalar]?
    return fields.contains { field in
        // Printable ASCII is shown as it is; anything else may be shown otherwise.
        if field.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return asciiQuery && field.lowercased().contains(query)
        }
        let shown = Array(visible(field).lowercased().precomposedStringWithCanonicalMapping.unicodeScalars)
        if composedQuery == nil { composedQuery = Array(query.precomposedStringWithCanonicalMapping.unicodeScalars) }
        return contains(shown, run: composedQuery!)
    }
}

/// Whether `scalars` hold `run` as a contiguous run.
private func contains(_ scalars: [Unicode.Scalar], run: [Unicode.Scalar]) -> Bool {
    guard !run.isEmpty else { return true }
    guard run.count <= scalars.count else { return false }
    search: for start in 0...(scalars.count - run.count) {
        for offset in run.indices where scalars[start + offset] != run[offset] { continue search }
        return true
    }
    return false
}

/// Exits with ``ExitCode/outputFailed`` when standard output is closed (`>&-`), before a
/// file opened later (a pipe to git) takes its descriptor and the error becomes another.
func exitIfStandardOutputIsClosed() {
    guard fcntl(STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF else { return }
    writeToStandardError("cellkit-demo: could not write the output: \(String(cString: strerror(EBADF)))\n")
    exit(ExitCode.outputFailed)
}

/// Writes `text` to standard error, all of it.
func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        offset += n
    }
}

/// Why standard output could not be written: `errno` and its text.
struct OutputError: Error {
    var code: Int32
    var message: String
}

/// Writes `text` to standard output, all of it (no buffering left behind at exit);
/// returns what went wrong, or nil.
func writeToStandardOutput(_ text: String) -> OutputError? {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeMutableBytes { write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0 && errno == EINTR { continue }
        if n < 0 { return OutputError(code: errno, message: String(cString: strerror(errno))) }
        if n == 0 { return OutputError(code: 0, message: "nothing was written") }
        offset += n
    }
    return nil
}
