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
}

/// Runs a screen interactively in a terminal, or prints its rows plainly.
@MainActor
enum ScreenRunner {
    static func run(_ screen: any DemoScreen, options: DisplayOptions) throws -> Never {
        let interactive = options.interactive || (!options.plain && Terminal.isInteractive)
        let list = TerminalListView()
        if interactive {
            let app = TerminalApp(listView: list, title: screen.title)
            // Diagnostics would tear the screen: show them in the status line.
            screen.controller.diagnostics = DiagnosticHandler { diagnostic in
                Task { @MainActor in app.statusMessage = diagnostic.message }
            }
            screen.controller.attach(to: list)
            app.onRefresh = { [unowned screen] in screen.refresh() }
            app.onFilter = { [unowned screen] text in screen.filter(text) }
            screen.showStatus = { app.statusMessage = $0 }
            if getenv("CELLKIT_DEMO_STATS") != nil {
                // Work counts for the tests (a paste must cost one filter pass, not one per character).
                app.onExit = { [unowned screen] _ in
                    writeToStandardError("cellkit-demo stats: filter passes \(screen.filterPasses), applied snapshots \(screen.controller.appliedSnapshotCount), filter length \(app.filterText.count)\n")
                }
            }
            screen.start()
            try app.run()
        }
        screen.controller.attach(to: list)
        screen.start()
        let width = options.width ?? plainWidth()
        Task { @MainActor in
            await screen.firstLoadFinished()
            var text = ""
            for line in list.plainLines(width: width) { text += line + "\n" }
            writeToStandardOutput(text)
            exit(0)
        }
        dispatchMain()
    }

    static func plainWidth() -> Int {
        if let columns = getenv("COLUMNS").map({ String(cString: $0) }), let value = Int(columns), value >= 20 {
            return value
        }
        return 80
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

/// Writes `text` to standard output, all of it (no buffering left behind at exit).
func writeToStandardOutput(_ text: String) {
    do {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
    }
}
