import Foundation
import Testing
import CellKit
@testable import CellKitTerminal

@Suite("Screen buffer")
@MainActor
struct ScreenBufferTests {
    @Test("only changed lines are written")
    func changedLinesOnly() {
        var screen = ScreenBuffer()
        let frame = (0..<24).map { StyledLine("line \($0)").fitted(to: 80) }
        let full = screen.update(frame, columns: 80)
        #expect(screen.update(frame, columns: 80).isEmpty)
        var changed = frame
        changed[7] = StyledLine("line seven").fitted(to: 80)
        let diff = screen.update(changed, columns: 80)
        let text = String(decoding: diff, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}[8;1H"))
        #expect(text.contains("line seven"))
        #expect(!text.contains("line 6") && !text.contains("line 8"))
        #expect(diff.count * 10 < full.count, "one line: \(diff.count) bytes, full redraw: \(full.count) bytes")
    }

    // Outside check 9c (doc gap): a styled line wider than the columns was written whole,
    // and the terminal wrapped it over the next line.
    @Test("a styled line wider than the columns is cut to them; a narrower one is written as it is")
    func wideLinesAreCut() {
        var screen = ScreenBuffer()
        let bytes = screen.update([StyledLine(String(repeating: "x", count: 30) + "日本"), StyledLine("ok")], columns: 10)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(String(repeating: "x", count: 9) + "…"))
        #expect(!text.contains(String(repeating: "x", count: 10)))
        #expect(!text.contains("日"))
        #expect(text.contains("ok\u{1B}[0m"))
        #expect(screen.update([StyledLine("wide line"), StyledLine("ok")], columns: 0).count > 0)
    }

    @Test("a resource update repaints only its row")
    func cellDidChangeRepaintsOneRow() {
        let fixture = NotesFixture(columns: 40, rows: 10)
        fixture.controller.apply(NotesFixture.model(sections: 1, rows: 50))
        var screen = ScreenBuffer()
        let full = screen.update(fixture.list.renderFrame(), columns: 40)
        // Change what the cell of row 3 shows, as a resource update would.
        let path = ItemPath(item: 3, section: 0)
        let cell = fixture.list.cell(at: path) as? NoteCell
        #expect(cell != nil)
        cell?.badge = "new"
        fixture.list.cellDidChange(at: path, reason: .resource("badge"))
        let diff = screen.update(fixture.list.renderFrame(), columns: 40)
        let text = String(decoding: diff, as: UTF8.self)
        #expect(text.components(separatedBy: ";1H").count - 1 == 1, "one cursor move: \(text.debugDescription)")
        #expect(text.contains("Note 3") && text.contains("[new]"))
        #expect(diff.count * 5 < full.count, "one row: \(diff.count) bytes, full redraw: \(full.count) bytes")
    }
}

