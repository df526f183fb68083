import CellKit
import Foundation
import Testing
@testable import CellKitTerminal

/// Unassigned code points and noncharacters (general category Cn) in untrusted text
/// (outside report 13b, defect 1). Terminals draw them as their own tables say: tmux 3.3a
/// in no column, others in one or two. `StyledLine` shows them as U+FFFD, which every
/// terminal draws in one column, and `DisplayWidth` counts them one: what is counted is drawn.
@Suite("Unassigned code points and noncharacters")
@MainActor
struct UnassignedScalarTests {
    /// Noncharacters (U+FFFF, U+FDD0, U+FDEF, U+1FFFE, U+10FFFF), unassigned code points
    /// (U+0378, U+0E00, U+1FAF9), in wide blocks (U+2E9A, U+3130), a default-ignorable one
    /// (U+2065) and an unassigned tag (U+E0080).
    nonisolated static let samples: [Unicode.Scalar] = [0xFFFF, 0xFDD0, 0xFDEF, 0x1FFFE, 0x10FFFF, 0x378, 0xE00, 0x1FAF9, 0x2E9A, 0x3130, 0x2065, 0xE0080]
        .map { Unicode.Scalar($0)! }

    nonisolated static func text(_ scalars: [Unicode.Scalar]) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// The scalars of `text` that are Cn.
    static func unassigned(in text: String) -> [String] {
        text.unicodeScalars.filter { $0.properties.generalCategory == .unassigned }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    @Test("each is one column, drawn as U+FFFD: fitted, rendered, measured and wrapped alike")
    func shownAsReplacementCharacter() {
        for scalar in Self.samples {
            #expect(scalar.properties.generalCategory == .unassigned, "U+\(String(scalar.value, radix: 16))")
            #expect(DisplayWidth.of(scalar) == 1, "U+\(String(scalar.value, radix: 16))")
            let line = StyledLine("a" + Self.text([scalar]) + "b")
            #expect(line.displayWidth == 3, "U+\(String(scalar.value, radix: 16))")
            #expect(line.fitted(to: 4).plainText == "a\u{FFFD}b ", "U+\(String(scalar.value, radix: 16))")
            #expect(line.rendered(ansi: true) == "a\u{FFFD}b", "U+\(String(scalar.value, radix: 16))")
        }
        let all = Self.text(Self.samples)
        #expect(StyledLine(all).displayWidth == Self.samples.count)
        #expect(StyledLine.wrap("x " + all + " y", width: 4).map(\.plainText)
                == ["x", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}", "y"])
        // Assigned neighbours stay as they are: U+FFFD, U+FFFC, a private-use character, U+0377, U+2E9B.
        let assigned = "\u{FFFD}\u{FFFC}\u{E000}\u{377}\u{2E9B}"
        #expect(StyledLine(assigned).fitted(to: 7).plainText == assigned + " ")
    }

    @Test("rows, accessories, headers and both bars holding them are exactly the width, with no Cn scalar in them")
    func framesAreExactlyTheWidth() {
        let all = Self.text(Self.samples)
        let fixture = NotesFixture(columns: 20, rows: 6)
        var model = TableModel()
        model.appendSection(id: SectionID(0), header: "h" + all)
        model.append([Note(id: 1, title: "a" + all + "b"), Note(id: 2, title: Self.text(Array(Self.samples.prefix(3))))])
        fixture.controller.apply(model)
        let app = TerminalApp(listView: fixture.list, title: "t" + all)
        app.statusMessage = "s" + all
        var frames = [app.composeFrame()]
        app.handle([.character("/"), .paste(String(repeating: "\u{FFFF}", count: 10))])
        frames.append(app.composeFrame())
        for frame in frames {
            for line in frame {
                #expect(line.displayWidth == 20, "\(line.plainText.debugDescription)")
                #expect(DisplayWidth.of(line.plainText) == 20, "\(line.plainText.debugDescription)")
                #expect(Self.unassigned(in: line.plainText).isEmpty && Self.unassigned(in: line.rendered(ansi: true)).isEmpty,
                        "\(Self.unassigned(in: line.rendered(ansi: true))) in \(line.plainText.debugDescription)")
            }
        }
        // The position stays at the right end of the status line while the filter holds them.
        #expect(frames[1].last!.plainText.hasSuffix(" 1/2 "), "\(frames[1].last!.plainText)")
        // A cell's accessory stays at the right edge.
        let accessory = TerminalListView(columns: 12, rows: 1)
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Note.self) { cell, note in
            cell.text = note.title
            cell.accessory = "›"
        }
        controller.attach(to: accessory)
        controller.apply(TableModel([Note(id: 1, title: "x\u{378}\u{2E9A}y")]))
        let row = accessory.renderFrame()[0].plainText
        #expect(row.hasSuffix("›") && DisplayWidth.of(row) == 12, "\(row.debugDescription)")
        #expect(Self.unassigned(in: row).isEmpty, "\(row.debugDescription)")
    }

    @Test("every code point the standard library has as unassigned is shown as U+FFFD, and no other but the controls")
    func everyUnassignedCodePoint() {
        var wrong: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let shown = StyledLine.visible(scalar)
            let isControl = value < 0xA0 || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
                || [0x2028, 0x2029, 0x200E, 0x200F, 0x61C].contains(value)
            let expected: Unicode.Scalar? = scalar.properties.generalCategory == .unassigned ? "\u{FFFD}" : scalar
            if !isControl && shown != expected { wrong.append("U+" + String(value, radix: 16, uppercase: true)) }
        }
        #expect(wrong.isEmpty, "\(wrong.count): \(wrong.prefix(20))")
    }

    @Test("the ranges that skip the category lookup hold no unassigned code point, since Unicode 10.0 at the latest")
    func assignedRangesAreAssigned() {
        var previous: UInt32 = 0
        for range in _assignedRanges {
            #expect(range.lowerBound > previous, "sorted, apart")
            previous = range.upperBound
            for value in range {
                let properties = Unicode.Scalar(value)!.properties
                #expect(properties.generalCategory != .unassigned, "U+\(String(value, radix: 16))")
                #expect(properties.age.map { ($0.major, $0.minor) <= (10, 0) } == true, "U+\(String(value, radix: 16))")
            }
        }
    }

    @Test("typed, one is a character of the filter (the prompt shows it as U+FFFD)")
    func typedIsACharacter() {
        var decoder = InputDecoder()
        #expect(decoder.decode(Array("\u{FFFF}".utf8)) == [.character("\u{FFFF}")])
        #expect(decoder.decode(Array("\u{85}".utf8)) == [], "a C1 control is still no character")
    }

    @Test("the wide characters of Unicode 17.0 count two columns; the symbols 16.0 made wide, one, as wcwidth counts them")
    func unicodeVersion() {
        // Unicode 17.0: Tangut components and ideographs, Chinese small letters, emoji.
        for value: UInt32 in [0x18D80, 0x18DF2, 0x18D1E, 0x16FF2, 0x16FF6, 0x1FAEA, 0x1F6D8, 0x1FA8A, 0x323B0] {
            let scalar = Unicode.Scalar(value)!
            #expect(scalar.properties.age.map { $0.major <= 17 } == true, "U+\(String(value, radix: 16)): not in this standard library's data")
            #expect(DisplayWidth.of(scalar) == 2, "U+\(String(value, radix: 16))")
        }
        for value: UInt32 in [0x2630, 0x268F, 0x1D300, 0x1D376] {
            #expect(DisplayWidth.of(Unicode.Scalar(value)!) == 1, "U+\(String(value, radix: 16))")
        }
    }
}

/// In a real terminal: the columns tmux draws a fitted line in are the columns counted.
@Suite("Unassigned code points in tmux", .enabled(if: TmuxAvailability.available, "tmux is not installed"))
struct UnassignedScalarTmuxTests {
    @Test("a fitted line holding unassigned code points and noncharacters fills exactly its columns in tmux")
    func drawnWidth() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cellkit-unassigned-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // "[" + 40 columns + "]": the cursor ends at column 42 when every column counted is drawn.
        let line = StyledLine("a" + UnassignedScalarTests.text(UnassignedScalarTests.samples) + "b 日本", style: .bold).fitted(to: 40)
        let file = directory.appendingPathComponent("line").path
        try Data(("[" + line.rendered(ansi: true) + "]").utf8).write(to: URL(fileURLWithPath: file))
        let session = try TmuxSession("unassigned", columns: 80, rows: 5, command: "cat \(DemoSession.quote(file)); exec sleep 600")
        defer { session.kill() }
        let screen = try session.waitFor(text: "]")
        #expect(try session.display("#{cursor_x}") == "42", "\(screen.first ?? "")")
    }
}
