import Foundation
import Testing
import CellKit
@testable import CellKitTerminal

/// Frames at a fixed size, compared with the text recorded under Snapshots/.
@Suite("Rendered frames")
@MainActor
struct SnapshotTests {
    private func notes() -> TableModel {
        NotesFixture.model(sections: 3, rows: 4) { id in
            id % 3 == 0 ? "A body long enough to wrap onto a second line at this width." : ""
        }
    }

    @Test("sections, multi-line rows and the selection at 40×12")
    func initialFrame() throws {
        let fixture = NotesFixture(columns: 40, rows: 12)
        fixture.controller.apply(notes())
        try assertSnapshot(fixture.markedFrame(), named: "notes-initial-40x12")
    }

    @Test("scrolled into the second section: its header is pinned")
    func scrolledFrame() throws {
        let fixture = NotesFixture(columns: 40, rows: 12)
        fixture.controller.apply(notes())
        for _ in 0..<7 { fixture.list.handle(.down) }
        try assertSnapshot(fixture.markedFrame(), named: "notes-scrolled-40x12")
    }

    @Test("wide characters line up")
    func wideCharacters() throws {
        let fixture = NotesFixture(columns: 30, rows: 7)
        var model = TableModel()
        model.appendSection(id: 0, header: "日本語の見出し")
        model.append([
            Note(id: 1, title: "東京 Tokyo", body: "寿司 🍣 ラーメン 🍜"),
            Note(id: 2, title: "서울 Seoul 🚀"),
            Note(id: 3, title: "ASCII only"),
            Note(id: 4, title: "長い長い長い長い長い長いタイトル"),
        ])
        fixture.controller.apply(model)
        try assertSnapshot(fixture.markedFrame(), named: "wide-30x7")
    }

    @Test("placeholder rows")
    func placeholders() throws {
        let fixture = NotesFixture(columns: 40, rows: 3)
        fixture.controller.onRetry = {}                 // the error row offers a retry only with one to call
        fixture.controller.apply(TableModel(), state: .loading)
        var lines = fixture.markedFrame()
        fixture.controller.apply(TableModel(), state: .empty)
        lines += fixture.markedFrame()
        struct Timeout: LocalizedError { var errorDescription: String? { "the server timed out" } }
        fixture.controller.apply(TableModel(), state: .failed(Timeout()))
        lines += fixture.markedFrame()
        try assertSnapshot(lines, named: "placeholders-40x3")
    }

    @Test("the app's title bar, list and filter prompt at 60×10")
    func appChrome() throws {
        let fixture = NotesFixture(columns: 60, rows: 8)
        fixture.controller.apply(notes())
        let app = TerminalApp(listView: fixture.list, title: "Notes")
        app.usesColor = true  // whatever TERM and NO_COLOR the tests run with
        app.colors = 256
        app.statusMessage = "12 notes"
        var lines = app.composeFrame().map(\.markedText)
        app.handle(.character("/"))
        app.handle(.character("n"))
        lines += app.composeFrame().suffix(1).map(\.markedText)
        try assertSnapshot(lines, named: "app-chrome-60x10")
    }
}
