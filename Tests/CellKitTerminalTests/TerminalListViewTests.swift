import Foundation
import Testing
import CellKit
@testable import CellKitTerminal

@Suite("Terminal list view")
@MainActor
struct TerminalListViewTests {
    @Test("only visible rows get cells, even with a million rows")
    func visibleRowsOnly() {
        let fixture = NotesFixture(columns: 40, rows: 12)
        var model = TableModel()
        model.appendSection(id: 0)
        model.append((0..<1_000_000).map { Note(id: $0, title: "Note \($0)") })
        fixture.controller.apply(model)
        _ = fixture.list.renderFrame()
        #expect(fixture.list.visibleItemPaths.count == 12)
        for _ in 0..<200 { fixture.list.handle(.down) }
        for _ in 0..<20 { fixture.list.handle(.pageDown) }
        fixture.list.handle(.end)
        _ = fixture.list.renderFrame()
        #expect(fixture.list.selectedPath == ItemPath(item: 999_999, section: 0))
        #expect(fixture.list.visibleItemPaths.last == ItemPath(item: 999_999, section: 0))
        #expect(fixture.list.createdCellCount <= 12 + 4, "created \(fixture.list.createdCellCount) cells")
        #expect(fixture.list.reusedCellCount > 100)
    }

    @Test("every line of a frame is exactly the list's width, wide characters included")
    func framesAreExactWidth() {
        let fixture = NotesFixture(columns: 23, rows: 8)
        let titles = ["日本語のノート", "emoji 🚀🎉 here", "한국어 메모", "plain", "ｶﾀｶﾅ", "mixed 日a本b語c🚀d"]
        var model = TableModel()
        model.appendSection(id: 0, header: "見出し")
        model.append(titles.enumerated().map { Note(id: $0.offset, title: $0.element, body: $0.element + " " + $0.element) })
        fixture.controller.apply(model)
        for _ in 0..<6 {
            let frame = fixture.list.renderFrame()
            #expect(frame.count == 8)
            #expect(frame.allSatisfy { $0.displayWidth == 23 }, "\(frame.map { "\($0.plainText)|\($0.displayWidth)" })")
            fixture.list.handle(.down)
        }
    }

    @Test("row heights come from the delegate, in lines")
    func heightsFromDelegate() {
        let fixture = NotesFixture(columns: 30, rows: 10, noteHeight: 3)
        fixture.controller.apply(NotesFixture.model(sections: 1, rows: 10))
        let frame = fixture.frame()
        #expect(frame[1].hasPrefix(" Note 0"))
        #expect(frame[4].hasPrefix(" Note 1"))
        #expect(frame[7].hasPrefix(" Note 2"))
        #expect(fixture.list.visibleItemPaths.count == 3)
    }

    @Test("the header of the section at the top stays while the section scrolls")
    func stickyHeaders() {
        let fixture = NotesFixture(columns: 30, rows: 6)
        fixture.controller.apply(NotesFixture.model(sections: 3, rows: 8))
        #expect(fixture.frame()[0].hasPrefix(" Section 0"))
        for _ in 0..<6 { fixture.list.handle(.down) }
        let frame = fixture.frame()
        #expect(frame[0].hasPrefix(" Section 0"), "\(frame)")
        #expect(frame.last!.hasPrefix(" Note 6"), "\(frame)")
        for _ in 0..<6 { fixture.list.handle(.down) }
        let later = fixture.frame()
        #expect(later[0].hasPrefix(" Section 1"), "\(later)")
        #expect(later.contains { $0.hasPrefix(" Note 12") })
    }

    @Test("selection moves with the keys and calls the delegate on Enter")
    func selection() {
        let fixture = NotesFixture(columns: 30, rows: 6)
        var selected: [Int] = []
        fixture.controller.onSelect(Note.self) { note, _ in selected.append(note.id) }
        fixture.controller.apply(NotesFixture.model(sections: 2, rows: 5))
        #expect(fixture.list.selectedPath == ItemPath(item: 0, section: 0))
        fixture.list.handle(.character("j"))
        fixture.list.handle(.down)
        fixture.list.handle(.enter)
        fixture.list.handle(.up)
        fixture.list.handle(.enter)
        fixture.list.handle(.end)
        fixture.list.handle(.enter)
        fixture.list.handle(.home)
        fixture.list.handle(.enter)
        #expect(selected == [2, 1, 9, 0])
        // Crossing a section boundary skips the header.
        for _ in 0..<5 { fixture.list.handle(.down) }
        #expect(fixture.list.selectedPath == ItemPath(item: 0, section: 1))
    }

    @Test("rows inserted above keep the selected row and the screen in place")
    func insertsAboveKeepPosition() throws {
        let list = TerminalListView(columns: 30, rows: 8)
        let source = TitlesDataSource(sections: [(0..<50).map { "Row \($0)" }])
        list.dataSource = source
        list.reloadData()
        for _ in 0..<20 { list.handle(.down) }
        let before = list.renderFrame().map(\.plainText)
        let selectedLine = list.selectedScreenLine
        var changeset = Changeset()
        changeset.itemInserts = (0..<3).map { ItemPath(item: $0, section: 0) }
        changeset.itemDeletes = [ItemPath(item: 40, section: 0)]
        list.performBatchUpdates(changeset) {
            source.sections[0].remove(at: 40)
            source.sections[0].insert(contentsOf: ["New a", "New b", "New c"], at: 0)
        }
        #expect(list.selectedPath == ItemPath(item: 23, section: 0))
        #expect(list.selectedScreenLine == selectedLine)
        #expect(list.renderFrame().map(\.plainText) == before)
    }

    @Test("moves and section inserts carry the selection to the row's new place")
    func movesFollowTheRow() throws {
        let list = TerminalListView(columns: 30, rows: 8)
        let source = TitlesDataSource(sections: [["a", "b", "c"], ["d", "e"]], headers: ["One", "Two"])
        list.dataSource = source
        list.reloadData()
        list.select(ItemPath(item: 1, section: 0))
        var changeset = Changeset()
        changeset.sectionInserts = [0]
        changeset.itemMoves = [Move(from: ItemPath(item: 1, section: 0), to: ItemPath(item: 0, section: 2))]
        list.performBatchUpdates(changeset) {
            source.sections = [["z"], ["a", "c"], ["b", "d", "e"]]
            source.headers = ["Zero", "One", "Two"]
        }
        #expect(list.selectedPath == ItemPath(item: 0, section: 2))
        #expect(list.renderFrame().map(\.plainText).contains { $0.hasPrefix(" b") })
    }

    @Test("an invalid batch throws naming the section, and the list reloads")
    func invalidBatch() {
        let list = TerminalListView(columns: 30, rows: 8)
        let source = TitlesDataSource(sections: [["a", "b"], ["c"]])
        list.dataSource = source
        list.reloadData()
        var changeset = Changeset()
        changeset.itemInserts = [ItemPath(item: 0, section: 1)]   // but two rows arrive
        let error = list.performBatchUpdates(changeset) { source.sections[1] = ["x", "y", "c"] }.error
        #expect(error?.section == 1 && error?.description.contains("section 1") == true)
        // After the reload, the list shows the new data.
        let frame = list.renderFrame().map(\.plainText)
        #expect(frame.contains { $0.hasPrefix(" y") })
    }

    @Test("placeholder rows: loading, no results, error with retry")
    func placeholders() {
        let fixture = NotesFixture(columns: 40, rows: 5)
        var retries = 0
        fixture.controller.onRetry = { retries += 1 }
        fixture.controller.apply(TableModel(), state: .loading)
        #expect(fixture.frame()[0].contains("Loading"))
        fixture.controller.apply(TableModel(), state: .empty)
        #expect(fixture.frame()[0].contains("No results"))
        struct Offline: LocalizedError { var errorDescription: String? { "offline" } }
        fixture.controller.apply(TableModel(), state: .failed(Offline()))
        let frame = fixture.frame()
        #expect(frame[0].contains("offline"))
        #expect(frame[1].contains("retry"))
        fixture.list.handle(.enter)
        #expect(retries == 1)
    }

    @Test("a resize lays the list out at the new size and keeps the selection visible")
    func resize() {
        let fixture = NotesFixture(columns: 40, rows: 20)
        fixture.controller.apply(NotesFixture.model(sections: 1, rows: 100))
        for _ in 0..<15 { fixture.list.handle(.down) }
        fixture.list.resize(columns: 25, rows: 5)
        let frame = fixture.list.renderFrame()
        #expect(frame.count == 5)
        #expect(frame.allSatisfy { $0.displayWidth == 25 })
        #expect(fixture.list.visibleItemPaths.contains(ItemPath(item: 15, section: 0)))
    }

    @Test("cells leaving the screen go back to the pool with didEndDisplaying")
    func reuse() {
        let fixture = NotesFixture(columns: 40, rows: 5)
        fixture.controller.apply(NotesFixture.model(sections: 1, rows: 100))
        _ = fixture.list.renderFrame()
        let created = fixture.list.createdCellCount
        for _ in 0..<50 { fixture.list.handle(.down) }
        _ = fixture.list.renderFrame()
        #expect(fixture.list.createdCellCount <= created + 2)
        #expect(fixture.list.cell(at: ItemPath(item: 0, section: 0)) == nil)
        #expect(fixture.list.cell(at: ItemPath(item: 50, section: 0)) is NoteCell)
    }
}

@Suite("Terminal list view: animation")
@MainActor
struct TerminalListViewAnimationTests {
    @Test("the list animates only while a spinner is on screen, so an idle app needs no timer")
    func animatesOnlyWithSpinner() {
        let fixture = NotesFixture(columns: 40, rows: 10)
        fixture.controller.apply(TableModel(), state: .loading)
        _ = fixture.list.renderFrame()
        #expect(fixture.list.isAnimating)
        fixture.controller.apply(NotesFixture.model(sections: 1, rows: 3))
        _ = fixture.list.renderFrame()
        #expect(!fixture.list.isAnimating)
        #expect(!fixture.list.advanceAnimation())
    }
}

@Suite("Terminal list view: tiny sizes")
@MainActor
struct TerminalListViewTinyTests {
    /// The lines of the selected row in the frame (marked ">").
    private func selectedLines(_ fixture: NotesFixture) -> [String] {
        fixture.markedFrame().filter { $0.hasPrefix(">") }
    }

    @Test("a list too short for the pinned header and the selected row shows the whole row", arguments: [(3, 3), (3, 2), (1, 2), (1, 1), (2, 2)])
    func selectedRowVisible(rows: Int, rowHeight: Int) {
        let fixture = NotesFixture(columns: 20, rows: rows, noteHeight: Double(rowHeight))
        fixture.controller.apply(NotesFixture.model(sections: 3, rows: 4, body: { "body of \($0) that wraps onto more lines" }))
        for step in 0..<11 {
            let shown = selectedLines(fixture)
            let expected = min(rows, rowHeight)
            #expect(shown.count == expected, "step \(step): \(fixture.markedFrame())")
            // The row is shown from its first line (its title).
            #expect(shown.first?.contains("Note") == true, "step \(step): \(fixture.markedFrame())")
            fixture.list.handle(.down)
        }
        for _ in 0..<11 {
            fixture.list.handle(.up)
            #expect(selectedLines(fixture).count == min(rows, rowHeight), "\(fixture.markedFrame())")
        }
    }

    @Test("with room for both, the header of the top section is still pinned")
    func headerStillPinned() {
        let fixture = NotesFixture(columns: 20, rows: 4, noteHeight: 3)
        fixture.controller.apply(NotesFixture.model(sections: 2, rows: 4))
        fixture.list.handle(.down)
        fixture.list.handle(.down)
        let frame = fixture.frame()
        #expect(frame[0].hasPrefix(" Section 0"), "\(frame)")
        #expect(selectedLines(fixture).count == 3)
    }
}

@Suite("Terminal list view: position")
@MainActor
struct TerminalListViewPositionTests {
    @Test("a placeholder row that does not take the selection is not counted as position 1/1")
    func placeholderNotCounted() {
        let fixture = NotesFixture(columns: 40, rows: 10)
        fixture.controller.placeholders.errorCanRetry = false
        for state in [ContentState.loading, .empty, .failed(TestFailure("no network"))] {
            fixture.controller.apply(TableModel(), state: state)
            _ = fixture.list.renderFrame()
            #expect(fixture.list.positionDescription == "0/0", "\(state)")
        }
        fixture.controller.apply(NotesFixture.model(sections: 1, rows: 1))
        _ = fixture.list.renderFrame()
        #expect(fixture.list.positionDescription == "1/1")
    }
}

extension TerminalListViewPositionTests {
    // Failed before the fix: "0/0" while the highlighted error row took Enter (demo report 3, item 9).
    @Test("an error row that retries is selected and reads 1/1; Enter retries")
    func retryingErrorRowCounts() {
        let fixture = NotesFixture(columns: 40, rows: 10)
        var retries = 0
        fixture.controller.onRetry = { retries += 1 }
        fixture.controller.apply(TableModel(), state: .failed(TestFailure("the server timed out")))
        _ = fixture.list.renderFrame()
        #expect(fixture.list.selectedPath == ItemPath(item: 0, section: 0))
        #expect(fixture.list.positionDescription == "1/1")
        fixture.list.handle(.enter)
        #expect(retries == 1)
        fixture.controller.apply(TableModel(), state: .loading)
        _ = fixture.list.renderFrame()
        #expect(fixture.list.positionDescription == "0/0")
    }
}

@Suite("Terminal list view: zero sizes")
@MainActor
struct TerminalZeroSizeTests {
    @Test("a frame is exactly rows lines of exactly columns columns, also for 0")
    func zeroSizesAreExact() {
        for (columns, rows) in [(0, 0), (0, 3), (10, 0)] {
            let fixture = NotesFixture(columns: columns, rows: rows)
            fixture.controller.apply(NotesFixture.model(sections: 1, rows: 5))
            for key in [Key.down, .pageDown, .end, .up] { fixture.list.handle(key) }
            let frame = fixture.list.renderFrame()
            #expect(frame.count == rows, "\(columns)×\(rows): \(frame.count) lines")
            #expect(frame.allSatisfy { DisplayWidth.of($0.plainText) == columns }, "\(columns)×\(rows)")
        }
        let list = TerminalListView(columns: 5, rows: 5)
        list.resize(columns: 0, rows: 0)
        #expect(list.columns == 0 && list.rows == 0)
        #expect(list.renderFrame().isEmpty)
    }
}

/// An outside user's report (outside8a, d1): an apply from a display hook while the list
/// view lays out the rows a scroll brings ran inside that layout. The terminal list
/// view's layout is a layout pass of its core too: the apply waits for its end.
@Suite("Terminal list view: applies from hooks during a layout pass")
@MainActor
struct TerminalLayoutPassReentryTests {
    @Test(arguments: ["pageDown", "end", "resize"])
    func anApplyFromOnWillDisplayDuringAScrollWaitsForTheLayout(how: String) {
        let fixture = NotesFixture(columns: 40, rows: 6)
        var armed = false
        fixture.controller.onWillDisplay { _, _ in
            if armed {
                armed = false
                var model = TableModel()
                model.appendSection(id: 0)
                model.append([Note(id: 100, title: "Note 100"), Note(id: 101, title: "Note 101")])
                fixture.controller.apply(model)
            }
        }
        var model = TableModel()
        model.appendSection(id: 0)
        model.append((0..<30).map { Note(id: $0, title: "Note \($0)") })
        fixture.controller.apply(model)
        _ = fixture.list.renderFrame()
        armed = true
        switch how {
        case "pageDown": _ = fixture.list.handle(.pageDown)
        case "end": _ = fixture.list.handle(.end)
        default: fixture.list.resize(columns: 40, rows: 12)
        }
        // Right after the layout, before any frame is drawn again.
        #expect(fixture.controller.displayed.itemCount == 2)
        let shown = fixture.list.visibleItemPaths.map { (fixture.list.cell(at: $0) as? NoteCell)?.note?.id }
        #expect(shown == [100, 101], "paths \(fixture.list.visibleItemPaths)")
        #expect(fixture.list.core.consistencyProblem() == nil)
    }
}
