@testable import cellkit_demo
import CellKit
@testable import CellKitTerminal
import Foundation
import Testing

/// A demo screen run in process as `cellkit-demo` runs it in a terminal (the app's key
/// handling, filter prompt and status line), with no terminal: keys go to the app as one
/// burst each, the frame is composed, never drawn.
@MainActor
final class AppSession {
    let screen: any DemoScreen
    let list: TerminalListView
    let app: TerminalApp

    /// `screen`, wired as the demo wires it, started (at most 24 rows: the app, not started, composes
    /// frames for ``TerminalSize/fallback``); `whileFirstPageLoads` runs right after
    /// the start, before the first page is in (keys typed ahead with the command's Enter).
    init(_ screen: any DemoScreen, columns: Int = 100, rows: Int = 24, whileFirstPageLoads: (AppSession) -> Void = { _ in }) async {
        self.screen = screen
        list = TerminalListView(columns: columns, rows: rows - 2)
        app = TerminalApp(listView: list, title: screen.title)
        app.usesColor = false
        screen.controller.diagnostics = .ignore
        screen.controller.attach(to: list)
        app.onRefresh = { [weak screen] in screen?.refresh() }
        app.onFilter = { [weak screen] text in screen?.filter(text) }
        app.onListKey = { [weak screen, list] key in screen?.handleListKey(key, in: list) ?? false }
        screen.showStatus = { [weak app] in app?.statusMessage = $0 }
        screen.start()
        whileFirstPageLoads(self)
        await screen.firstLoadFinished()
    }

    /// Types `keys` as one burst: "/Fix\n" is `/`, `F`, `i`, `x`, Enter.
    func type(_ keys: String) {
        app.handle(keys.map { $0 == "\n" ? Key.enter : Key.character($0) })
    }

    /// The status line as text, without the spaces that pad it.
    var statusLine: String {
        String(app.composeFrame().last!.plainText.reversed().drop { $0 == " " }.reversed())
    }

    /// The frame's list lines as text, without the spaces that pad them.
    func rows() -> [String] {
        list.renderFrame().map { String($0.plainText.reversed().drop { $0 == " " }.reversed()) }
    }

    /// Polls (with a bound) until `done` holds for the status line.
    func waitFor(_ what: String, timeout: TimeInterval = 90, _ done: (String) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            await screen.controller.settle()
            if done(statusLine) { return }
            guard Date() < deadline else { throw TestFailure("timed out waiting for \(what); status “\(statusLine)”, rows:\n\(rows().joined(separator: "\n"))") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The selected row's model.
    var selected: (any Sendable)? {
        list.selectedPath.flatMap { screen.controller.displayed.item(at: $0)?.model }
    }

    /// The subject of the selected commit.
    var selectedSubject: String? { (selected as? any CommitRow)?.info.subject }

    /// A few turns of the main actor and the list (tasks the keys started run), then the status line.
    func settled() async throws -> String {
        for _ in 0..<20 {
            await screen.controller.settle()
            try await Task.sleep(for: .milliseconds(5))
        }
        return statusLine
    }
}
