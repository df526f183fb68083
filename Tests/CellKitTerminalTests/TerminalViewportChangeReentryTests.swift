import CellKit
import Testing
@testable import CellKitTerminal

// outside9a D2, on the terminal list view: a selection move or a resize asked from a
// configure handler while the list laid out rows ran inside that pass, which went on
// placing rows after the ones the inner pass placed (more rows than the list has lines).
// It now runs once the pass is over (ListViewCore.performViewportChange).

@Suite("Terminal list view: scrolls and resizes asked during a layout pass")
@MainActor
struct TerminalViewportChangeReentryTests {
    /// A fixture of `rows` lines showing 100 notes without headers; the configure handler runs `hook`.
    private func fixture(rows: Int, hook: @escaping (TerminalListView, Note) -> Void) -> NotesFixture {
        let fixture = NotesFixture(columns: 30, rows: rows)
        let list = fixture.list
        fixture.controller.register(NoteCell.self, for: Note.self) { [unowned list] cell, note in
            cell.note = note
            cell.badge = nil
            hook(list, note)
        }
        fixture.controller.apply(TableModel((0..<100).map { Note(id: $0, title: "Note \($0)") }))
        _ = fixture.frame()
        return fixture
    }

    /// The rows on screen are `rows` consecutive rows, the frame has `rows` lines, and nothing waits.
    private func expectLaidOut(_ fixture: NotesFixture, rows: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let frame = fixture.frame()
        let paths = fixture.list.visibleItemPaths
        #expect(frame.count == rows, "\(frame)", sourceLocation: sourceLocation)
        #expect(paths.count == rows, "\(paths)", sourceLocation: sourceLocation)
        if let first = paths.first {
            #expect(paths == (first.item..<first.item + paths.count).map { ItemPath(item: $0, section: 0) }, sourceLocation: sourceLocation)
        }
        #expect(fixture.list.core.visibleItemPaths == paths, sourceLocation: sourceLocation)
        #expect(fixture.list.core.consistencyProblem() == nil, sourceLocation: sourceLocation)
        #expect(!fixture.list.isUpdating, sourceLocation: sourceLocation)
    }

    @Test func aSelectionFromAConfigureHandlerDuringAScrollRunsAfterIt() {
        var armed = false
        let fixture = fixture(rows: 5) { list, note in
            if armed && note.id == 30 { armed = false; list.select(ItemPath(item: 60, section: 0)) }
        }
        armed = true
        fixture.list.select(ItemPath(item: 30, section: 0))
        #expect(fixture.list.selectedPath == ItemPath(item: 60, section: 0))
        #expect(fixture.list.visibleItemPaths.contains(ItemPath(item: 60, section: 0)))
        expectLaidOut(fixture, rows: 5)
    }

    @Test func aResizeFromAConfigureHandlerDuringAScrollRunsAfterIt() {
        var armed = false
        var rowsSeenInside: Int?
        let fixture = fixture(rows: 5) { list, note in
            guard armed && note.id == 30 else { return }
            armed = false
            list.resize(columns: 30, rows: 2)
            rowsSeenInside = list.rows   // the pass under way keeps its size
        }
        armed = true
        fixture.list.select(ItemPath(item: 30, section: 0))
        #expect(rowsSeenInside == 5)
        #expect(fixture.list.rows == 2)
        #expect(fixture.list.visibleItemPaths.contains(ItemPath(item: 30, section: 0)))
        expectLaidOut(fixture, rows: 2)
    }

    @Test func aSelectionFromAConfigureHandlerDuringAResizeRunsAfterIt() {
        var armed = false
        let fixture = fixture(rows: 3) { list, note in
            if armed && note.id == 4 { armed = false; list.select(ItemPath(item: 80, section: 0), atScreenLine: 0) }
        }
        armed = true
        fixture.list.resize(columns: 30, rows: 6)   // rows 3, 4, 5 come on screen
        #expect(fixture.list.selectedPath == ItemPath(item: 80, section: 0))
        #expect(fixture.list.visibleItemPaths.first == ItemPath(item: 80, section: 0))
        expectLaidOut(fixture, rows: 6)
    }

    /// Moves by a distance add up, after the selection asked before them; keys too.
    @Test func movesAndKeysFromOnePassRunInOrderAfterIt() {
        var armed = false
        var handled: Bool?
        let fixture = fixture(rows: 4) { list, note in
            guard armed && note.id == 30 else { return }
            armed = false
            list.select(ItemPath(item: 50, section: 0))
            list.moveSelection(by: 2)
            handled = list.handle(.down)
        }
        armed = true
        fixture.list.select(ItemPath(item: 30, section: 0))
        #expect(handled == true)
        #expect(fixture.list.selectedPath == ItemPath(item: 53, section: 0))
        expectLaidOut(fixture, rows: 4)
    }

    /// The newest selection asked in one pass wins: the earlier one's rows are never made.
    @Test func theNewestSelectionFromOnePassWins() {
        var armed = false
        var configured: Set<Int> = []
        let fixture = fixture(rows: 4) { list, note in
            configured.insert(note.id)
            guard armed && note.id == 30 else { return }
            armed = false
            list.select(ItemPath(item: 50, section: 0))
            list.select(ItemPath(item: 90, section: 0))
        }
        armed = true
        fixture.list.select(ItemPath(item: 30, section: 0))
        #expect(fixture.list.selectedPath == ItemPath(item: 90, section: 0))
        #expect(!configured.contains(50))
        expectLaidOut(fixture, rows: 4)
    }

    /// Outside check 10c, D2, on the terminal list view: a configure handler in the
    /// controller's own apply (a changed row reconfigured) that applies a longer model, then
    /// selects a row only that model has, got its selection run first, on the old 100 rows.
    @Test func aSelectionAfterAnApplyFromAHookInTheControllersOwnApplyFindsTheRowOfTheNewModel() {
        var armed = false
        var controller: ListController?
        let fixture = fixture(rows: 4) { list, note in
            guard armed && note.title == "changed" else { return }
            armed = false
            controller?.apply(TableModel((0..<200).map { Note(id: $0, title: "Note \($0)") }))
            list.select(ItemPath(item: 150, section: 0))
        }
        controller = fixture.controller
        armed = true
        fixture.controller.apply(TableModel([Note(id: 0, title: "changed")] + (1..<100).map { Note(id: $0, title: "Note \($0)") }))
        #expect(fixture.controller.displayed.itemCount == 200)
        #expect(fixture.list.selectedPath == ItemPath(item: 150, section: 0))
        #expect(fixture.list.visibleItemPaths.contains(ItemPath(item: 150, section: 0)))
        expectLaidOut(fixture, rows: 4)
    }
}

extension TerminalViewportChangeReentryTests {
    // Outside check 9c, d2: a configure handler that keeps the current row selected ran the
    // selection inside the layout making that cell, which configured it again: the stack
    // overflowed (SIGSEGV).
    @Test("a configure handler that selects its own row selects it once, after the layout; the handler is not re-entered")
    func selectingTheConfiguredRow() {
        struct Track: Identifiable, Equatable, Sendable { let id: Int; var title: String; var isCurrent = false }
        let list = TerminalListView(columns: 20, rows: 5)
        let controller = ListController(diagnostics: .ignore)
        var depth = 0, deepest = 0, calls = 0
        controller.register(TextCell.self, for: Track.self) { cell, track in
            depth += 1
            calls += 1
            deepest = max(deepest, depth)
            cell.text = track.title
            // Bounded, so that a regression fails instead of crashing or hanging the run.
            if track.isCurrent && calls < 200 { list.select(ItemPath(item: track.id, section: 0)) }
            depth -= 1
        }
        controller.attach(to: list)
        controller.apply(TableModel((0..<30).map { Track(id: $0, title: "track \($0)", isCurrent: $0 == 2) }))
        _ = list.renderFrame()
        #expect(list.selectedPath == ItemPath(item: 2, section: 0))
        #expect(deepest == 1)
        #expect(calls < 20, "\(calls) configure calls")
        // The current row moves further down: the selection follows it, and scrolls to it.
        controller.apply(TableModel((0..<30).map { Track(id: $0, title: "track \($0)", isCurrent: $0 == 2 || $0 == 20) }))
        _ = list.renderFrame()
        #expect(deepest == 1)
        #expect(calls < 200, "\(calls) configure calls")
    }
}

extension TerminalViewportChangeReentryTests {
    // Outside check 9c, d2 (its renderFrame variant): a frame drawn from a configure handler
    // laid the list out again inside the pass, which configured the row again, and so on.
    @Test("renderFrame from a configure handler draws the rows laid out so far, without re-entering the handler")
    func renderingFromAConfigureHandler() {
        let list = TerminalListView(columns: 20, rows: 4)
        let controller = ListController(diagnostics: .ignore)
        var depth = 0, deepest = 0, calls = 0
        var inner: [[StyledLine]] = []
        controller.register(TextCell.self, for: Note.self) { cell, note in
            depth += 1
            calls += 1
            deepest = max(deepest, depth)
            cell.text = note.title
            if calls < 200 { inner.append(list.renderFrame()) }
            depth -= 1
        }
        controller.attach(to: list)
        controller.apply(TableModel((0..<30).map { Note(id: $0, title: "Note \($0)") }))
        let frame = list.renderFrame()
        #expect(deepest == 1)
        #expect(calls < 20, "\(calls) configure calls")
        #expect(inner.allSatisfy { $0.count == 4 && $0.allSatisfy { $0.displayWidth == 20 } })
        #expect(frame.first?.plainText.contains("Note 0") == true, "\(frame.map(\.plainText))")
        list.moveSelection(by: 10)
        _ = list.renderFrame()
        #expect(deepest == 1)
    }
}
