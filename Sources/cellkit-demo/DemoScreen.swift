#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
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
}

/// Runs a screen interactively in a terminal, or prints its rows plainly.
@MainActor
enum ScreenRunner {
    static func run(_ screen: any DemoScreen, options: DisplayOptions) throws -> Never {
        let list = TerminalListView()
        if options.isInteractive {
            let app = TerminalApp(listView: list, title: screen.title)
            // Diagnostics are for developers: never in the user's status line (it is the
            // screen's own messages' place); they go to standard error once the terminal is back.
            let diagnostics = DiagnosticLog()
            screen.controller.diagnostics = DiagnosticHandler { diagnostic in
                Task { @MainActor in diagnostics.append(diagnostic) }
            }
            screen.controller.attach(to: list)
            app.onRefresh = { [unowned screen] in screen.refresh() }
            app.onFilter = { [unowned screen] text in screen.filter(text) }
            app.onListKey = { [unowned screen] key in screen.handleListKey(key, in: list) }
            screen.showStatus = { app.statusMessage = $0 }
            let stats = getenv("CELLKIT_DEMO_STATS") != nil
            app.onExit = { [unowned screen] _ in
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
        screen.controller.attach(to: list)
        screen.start()
        let pageLimit = options.pages ?? screen.defaultPlainPages
        Task { @MainActor in
            await screen.firstLoadFinished()
            var pages = 1
            var failure: String?
            while true {
                if case .failed(let error) = screen.loadedSnapshot.state {
                    failure = "\(error)"
                    break
                }
                guard screen.loadedSnapshot.hasMore, pageLimit.map({ pages < $0 }) ?? true else { break }
                guard let task = screen.loadNextPage() else {
                    // A page is loading already (prefetched as the rows came on screen): wait for it.
                    guard screen.loadedSnapshot.activity == .loadingMore else { break }
                    while screen.loadedSnapshot.activity == .loadingMore {
                        try? await Task.sleep(for: .milliseconds(5))
                    }
                    pages += 1
                    continue
                }
                await task.value
                pages += 1
            }
            await screen.controller.settle()
            var text = ""
            for line in list.plainLines(width: width) { text += line + "\n" }
            if let error = writeToStandardOutput(text) {
                writeToStandardError("cellkit-demo: could not write the output: \(error)\n")
                exit(ExitCode.outputFailed)
            }
            if let failure {
                writeToStandardError("cellkit-demo: \(failure)\n")
                exit(ExitCode.loadFailed)
            }
            let loaded = screen.loadedSnapshot
            if loaded.hasMore {
                let count = loaded.model.itemCount
                writeToStandardError("cellkit-demo: printed \(pages) page\(pages == 1 ? "" : "s") (\(count) \(screen.rowName)s); more remain: --pages N prints N pages\n")
            }
            exit(0)
        }
        dispatchMain()
    }
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

/// Writes `text` to standard output, all of it (no buffering left behind at exit);
/// returns what went wrong, or nil.
func writeToStandardOutput(_ text: String) -> String? {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeMutableBytes { write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0 && errno == EINTR { continue }
        if n < 0 { return String(cString: strerror(errno)) }
        if n == 0 { return "nothing was written" }
        offset += n
    }
    return nil
}
