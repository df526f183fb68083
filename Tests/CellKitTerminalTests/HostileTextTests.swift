import CellKit
import Testing
@testable import CellKitTerminal

/// Untrusted cell text: control characters and absurd widths.
@Suite("Hostile text and widths")
@MainActor
struct HostileTextTests {
    /// Every C0 control, DEL, every C1 control, CR LF, and escape sequences that would clear or move.
    static let hostile: [String] = {
        var strings = (0..<0x20).map { "a" + String(UnicodeScalar(UInt8($0))) + "b" }
        strings += ["del\u{7F}x", "crlf\r\nx", "\u{1B}[2J\u{1B}[Hcleared", "\u{1B}]0;title\u{07}osc", "\u{9B}31mcsi", "\u{85}nel",
                    "tab\there\tand\tthere", "bell\u{07}\u{07}\u{07}", "\u{1B}", "日本\u{1B}語\t🚀"]
        strings += (0x80..<0xA0).map { "c1" + String(UnicodeScalar(UInt8($0))) + "x" }
        return strings
    }()

    /// `text` without the SGR sequences the styles write (ESC [ digits ; m).
    private func withoutStyles(_ text: String) -> String {
        text.replacing(/\u{1B}\[[0-9;]*m/, with: "")
    }

    private func assertNoControls(_ text: String, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let stray = withoutStyles(text).unicodeScalars.filter { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        #expect(stray.isEmpty, "control characters reach the terminal: \(stray.map { String($0.value, radix: 16) }) \(comment.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
    }

    @Test("each control character is one visible, counted column")
    func visibleForms() {
        #expect(StyledLine("a\tb").displayWidth == 3)
        #expect(StyledLine("a\tb").fitted(to: 4).plainText == "a␉b ")
        #expect(StyledLine("\u{1B}[2J").fitted(to: 4).plainText == "␛[2J")
        #expect(StyledLine("x\r\ny").fitted(to: 4).plainText == "x␍␊y")
        #expect(StyledLine("\u{7F}\u{9B}\u{0}").fitted(to: 3).plainText == "␡�␀")
        #expect(StyledLine("a\u{1B}b").rendered(ansi: false) == "a␛b")
    }

    // Outside check 9c, d4: CR LF and CR stayed inside a word (`first␍␊second`).
    @Test("wrapping breaks words at every line break (CR LF, CR, VT, FF, NEL, U+2028, U+2029), as at LF")
    func wrapBreaksAtEveryLineBreak() {
        for separator in ["\r\n", "\r", "\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", " \r\n "] {
            let lines = StyledLine.wrap("first\(separator)second", width: 20)
            #expect(lines.map(\.plainText) == ["first second"], "\(separator.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(StyledLine.wrap("an error\r\nfrom HTTP", width: 8).map(\.plainText) == ["an error", "from", "HTTP"])
    }

    @Test("the line and paragraph separators show as one visible column, not as themselves")
    func lineSeparatorsAreVisible() {
        let line = StyledLine("a\u{2028}b\u{2029}c")
        #expect(line.displayWidth == 5)
        #expect(line.fitted(to: 5).plainText == "a\u{FFFD}b\u{FFFD}c")
        #expect(line.rendered(ansi: false) == "a\u{FFFD}b\u{FFFD}c")
    }

    @Test("every line of a list with hostile text is exactly the list's width and carries no control character")
    func hostileRows() {
        let fixture = NotesFixture(columns: 20, rows: 200)
        var model = TableModel()
        model.appendSection(id: SectionID(0), header: "head\u{1B}[2Jer\tx")
        model.append(Self.hostile.enumerated().map { Note(id: $0.offset, title: $0.element) })
        fixture.controller.apply(model)
        let frame = fixture.list.renderFrame()
        for line in frame {
            #expect(line.displayWidth == 20, "\(line.plainText.debugDescription)")
            #expect(DisplayWidth.of(line.plainText) == 20, "\(line.plainText.debugDescription)")
            assertNoControls(line.rendered(ansi: true), "in \(line.plainText.debugDescription)")
        }
        var screen = ScreenBuffer()
        let bytes = screen.update(frame, columns: 20)
        let output = String(decoding: bytes, as: UTF8.self).replacing(/\u{1B}\[[0-9;]*[HJK]/, with: "")
        assertNoControls(output)
        for line in fixture.list.plainLines(width: 20) {
            #expect(DisplayWidth.of(line) <= 20)
            assertNoControls(line)
        }
    }

    @Test("a hostile span fitted to any width is that width, cut or padded", arguments: 1...24)
    func fittedWidths(width: Int) {
        for text in Self.hostile {
            var line = StyledLine(text, style: .bold)
            line.append(text, style: .dim)
            let fitted = line.fitted(to: width)
            #expect(fitted.displayWidth == width, "\(text.debugDescription)")
            #expect(DisplayWidth.of(fitted.plainText) == width, "\(text.debugDescription)")
        }
    }

    @Test("fitting and wrapping accept any width without trapping", arguments: [Int.max, Int.max - 1, Int.min, -1, 0, 1, 100_000_000])
    func anyWidth(width: Int) {
        let line = StyledLine("short") 
        let fitted = line.fitted(to: width)
        #expect(fitted.displayWidth == min(max(0, width), StyledLine.maximumWidth))
        #expect(StyledLine(String(repeating: "long ", count: 50)).fitted(to: width).displayWidth == fitted.displayWidth)
        let wrapped = StyledLine.wrap("words to wrap here", width: width, maxLines: 2)
        #expect(width > 0 ? wrapped.count >= 1 : wrapped.isEmpty)

        let fixture = NotesFixture(columns: width, rows: 4)
        fixture.controller.apply(NotesFixture.model(sections: 1, rows: 3))
        #expect(fixture.list.columns == min(max(0, width), StyledLine.maximumWidth))
        #expect(fixture.frame().count == 4)
        fixture.list.resize(columns: width, rows: 3)
        #expect(fixture.list.plainLines(width: width).count == 4)
    }
}

/// `StyledLine.wrap` and words that take no column (outside report 13b, doc gap 6).
@Suite("Wrapping words of zero-width characters")
struct ZeroWidthWordTests {
    // Failed before the fix: a word of only zero-width characters (a lone ZWSP, ZWJ, BOM or
    // combining mark) became a line of its own, blank, at narrow widths ("no line is empty").
    @Test("a word that takes no column is left out: no line is blank", arguments: [
        "\u{200B}", "\u{200D}", "\u{FEFF}", "\u{301}", "\u{200B}\u{301}\u{FEFF}", "\u{200E}",
    ])
    func zeroWidthWords(word: String) {
        // After a line break or a tab (a space before a joiner or a mark is one character with it).
        for width in 1...4 {
            let lines = StyledLine.wrap("a\n" + word + "\tb", width: width)
            #expect(lines.map(\.plainText) == (width >= 3 ? ["a b"] : ["a", "b"]), "\(width): \(lines.map { $0.plainText.unicodeScalars.map { String($0.value, radix: 16) } })")
            #expect(lines.allSatisfy { $0.displayWidth > 0 })
        }
        // Only such words: the one line of a text with no words.
        #expect(StyledLine.wrap(word + "\n" + word, width: 5).map(\.plainText) == [""])
        #expect(StyledLine.wrap(word + "\nab", width: 1).map(\.plainText) == ["a", "b"])
    }
}
