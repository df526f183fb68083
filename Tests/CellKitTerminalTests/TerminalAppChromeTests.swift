import Foundation
import Testing
import CellKit
@testable import CellKitTerminal

/// The app's title bar and status line, composed without a terminal: widths, the filter
/// prompt, colors.
@Suite("Terminal app: title bar and status line")
@MainActor
struct TerminalAppChromeTests {
    func app(columns: Int, title: String, notes: Int = 3) -> (TerminalApp, NotesFixture) {
        let fixture = NotesFixture(columns: columns, rows: 6)
        fixture.controller.apply(NotesFixture.model(sections: 1, rows: notes))
        let app = TerminalApp(listView: fixture.list, title: title)
        app.usesColor = true  // whatever TERM and NO_COLOR the tests run with
        app.colors = 256
        return (app, fixture)
    }

    // Failed before the fix (outside check 11c, d3): the TerminalApp doc example sets the
    // data source and delegate by hand and runs; nothing read the data source, so the app
    // drew an empty list, "0/0". The list view now loads its data at its first layout.
    @Test("a list whose data source is set by hand shows its rows at the first frame, as UITableView's first layout")
    func firstFrameLoadsTheData() {
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Note.self) { cell, note in cell.text = note.title }
        controller.apply(TableModel((0..<5).map { Note(id: $0, title: "note \($0)") }))
        let list = TerminalListView()
        list.dataSource = controller
        list.delegate = controller
        let app = TerminalApp(listView: list, title: "Notes")
        list.resize(columns: 40, rows: 8)          // what run() does with the terminal's size
        let frame = app.composeFrame().map(\.plainText)
        #expect(frame[1].hasPrefix(" note 0") && frame[5].hasPrefix(" note 4"), "\(frame)")
        #expect(list.positionDescription == "1/5")
        // A key before any frame loads the data too.
        let keyed = TerminalListView(columns: 40, rows: 8)
        keyed.dataSource = controller
        keyed.handle(.down)
        #expect(keyed.selectedPath == ItemPath(item: 1, section: 0))
    }

    // Failed before the fix (demo report 3, item 5): the bars counted 👍🏽 as 2 columns, the
    // terminal draws 4: "q quit" and the position's "/1" fell off the right edge.
    @Test("the bars measure a skin-tone emoji as the rows do: every line is exactly the width")
    func barsWithEmojiModifiers() {
        // As tmux counts: " CellKit · git · /tmp/" 22, 👍🏽👍🏽 8, "-" 1, 日本 4, "-repo " 6.
        let (app, fixture) = app(columns: 100, title: "CellKit · git · /tmp/👍🏽👍🏽-日本-repo")
        defer { withExtendedLifetime(fixture) {} }
        app.statusMessage = "x 👍🏽 end"
        let frame = app.composeFrame()
        #expect(frame.allSatisfy { $0.displayWidth == 100 }, "\(frame.map { $0.displayWidth })")
        let hints = " ↑↓ move  ⏎ select  / filter  r refresh  q quit "
        #expect(frame[0].plainText == " CellKit · git · /tmp/👍🏽👍🏽-日本-repo " + String(repeating: " ", count: 100 - 41 - DisplayWidth.of(hints)) + hints)
        // " x 👍🏽 end" is 11 columns, " 1/3 " 5.
        #expect(frame.last!.plainText == " x 👍🏽 end" + String(repeating: " ", count: 84) + " 1/3 ", "\(frame.last!.plainText)")
        app.handle(.character("/"))
        app.handle(.paste("👍🏽"))
        let status = app.composeFrame().last!
        #expect(status.displayWidth == 100)
        #expect(status.plainText.hasPrefix(" /👍🏽▏"))
    }

    // Failed before the fix (demo report 3, item 8): a filter longer than the line kept its
    // start in view and cut its end and the caret off.
    @Test("a long filter scrolls: its end and the caret stay in view")
    func longFilterScrolls() {
        let (app, fixture) = app(columns: 60, title: "Notes")
        defer { withExtendedLifetime(fixture) {} }
        app.handle(.character("/"))
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        app.handle((0..<120).map { Key.character(letters[$0 % 26]) } + [.character("X"), .character("Y"), .character("Z")])
        var status = app.composeFrame().last!
        #expect(status.displayWidth == 60)
        #expect(status.plainText.hasPrefix(" /…"), "\(status.plainText)")
        #expect(status.plainText.contains("XYZ▏"), "\(status.plainText)")
        #expect(status.plainText.hasSuffix(" 1/3 "), "\(status.plainText)")
        // A short one shows whole, from its start.
        app.handle(.escape)
        app.handle([.character("/"), .character("a"), .character("b")])
        status = app.composeFrame().last!
        #expect(status.plainText.hasPrefix(" /ab▏ "), "\(status.plainText)")
        // A 100,000-character paste, wide characters included: the tail, exactly the width.
        app.handle(.paste(String(repeating: "日b", count: 50_000) + "END"))
        status = app.composeFrame().last!
        #expect(status.displayWidth == 60)
        #expect(status.plainText.contains("END▏"), "\(status.plainText)")
    }

    // Failed before the fix (demo report 6, item 9): a long title was cut at its end, so
    // every deep repository's title read the same ("CellKit · git · /tmp/d6/ddddddd…").
    @Test("a title too wide is cut in the middle: its start and its end (the repository's name) stay")
    func longTitleCutInTheMiddle() {
        let path = "/tmp/" + String(repeating: "d", count: 80) + "/日本-repo"
        let (app, fixture) = app(columns: 40, title: "CellKit · git · " + path)
        defer { withExtendedLifetime(fixture) {} }
        let title = app.composeFrame()[0]
        #expect(title.displayWidth == 40)
        #expect(title.plainText.hasPrefix(" CellKit · git · /"), "\(title.plainText)")
        #expect(title.plainText.hasSuffix("d/日本-repo "), "\(title.plainText)")
        #expect(title.plainText.contains("…"), "\(title.plainText)")
        #expect(TerminalApp.middleCut("abcdefgh", to: 8) == "abcdefgh")
        #expect(TerminalApp.middleCut("abcdefghij", to: 5) == "ab…ij")
        #expect(TerminalApp.middleCut("ab日本cd", to: 5) == "ab…cd")
    }

    @Test("tail(of:fitting:marker:) keeps the end that fits after the marker")
    func tail() {
        #expect(TerminalApp.tail(of: "abc", fitting: 3, marker: "…") == "abc")
        #expect(TerminalApp.tail(of: "abcd", fitting: 3, marker: "…") == "…cd")
        #expect(TerminalApp.tail(of: "ab日本", fitting: 4, marker: "…") == "…本")
        #expect(TerminalApp.tail(of: "", fitting: 0, marker: "…") == "")
    }

    // Failed before the fix (demo report 3, item 6): NO_COLOR was ignored.
    @Test("without colors, the frame has no color codes; the selection and the bars stay in reverse video")
    func noColors() {
        let (app, fixture) = app(columns: 40, title: "Notes")
        fixture.controller.onRetry = {}  // the error row takes the selection when it retries
        fixture.controller.apply(TableModel(), state: .failed(TestFailure("offline")))
        app.usesColor = false
        let frame = app.composeFrame()
        let styles = frame.flatMap(\.spans).map(\.style)
        #expect(styles.allSatisfy { $0.foreground == nil && $0.background == nil })
        #expect(frame[0].spans.allSatisfy { $0.style.isInverse }, "the title bar")
        #expect(frame[1].spans.contains { $0.style.isInverse }, "the selected error row")
        #expect(frame.last!.spans.last!.style.isInverse, "the position")
        let ansi = frame.map { $0.rendered(ansi: true) }.joined()
        #expect(!ansi.contains("[3") && !ansi.contains("[4") && !ansi.contains(";3") && !ansi.contains(";4"), "\(ansi)")
        app.usesColor = true
        #expect(app.composeFrame()[0].spans.contains { $0.style.background == .cyan })
    }

    // Failed before the fix (outside report 13b, doc gap 4): below 12 columns (position " 1/100 ")
    // the status line kept the position and the caret, and the filter showed only as "…".
    @Test("while the filter is typed, its last character and the caret stay in view from 6 columns on; the position gives way below 11", arguments: 6...16)
    func narrowFilterKeepsItsEnd(columns: Int) {
        for (typed, last) in [("abcdefghijklmnop", "p"), ("日本語日本語", "語")] {
            let (app, fixture) = app(columns: columns, title: "Notes")
            defer { withExtendedLifetime(fixture) {} }
            app.handle([.character("/")] + typed.map { Key.character($0) })
            let status = app.composeFrame().last!
            #expect(status.displayWidth == columns, "\(columns): \(status.plainText)")
            #expect(status.plainText.contains(last + "▏"), "\(columns): \(status.plainText)")
            // " 1/3 " is 5 columns: it stays while 3 columns are left for the filter beside it.
            #expect(status.plainText.hasSuffix(" 1/3 ") == (columns >= 11), "\(columns): \(status.plainText)")
            app.handle(.enter)
            #expect(app.composeFrame().last!.plainText.hasSuffix(" 1/3 "), "the position is back once the filter is kept")
        }
    }

    @Test("TERM and NO_COLOR decide what the terminal can show", arguments: [
        ([:], false, false), (["TERM": ""], false, false), (["TERM": "dumb"], false, false),
        (["TERM": "xterm-256color"], true, true), (["TERM": "screen"], true, true), (["TERM": "linux"], true, true),
        (["TERM": "xterm-256color", "NO_COLOR": "1"], true, false), (["TERM": "xterm-256color", "NO_COLOR": ""], true, true),
        (["TERM": "vt100"], true, false), (["TERM": "vt220"], true, false), (["TERM": "xterm-mono"], true, false),
        (["TERM": "vte-256color"], true, true), (["TERM": "", "COLORTERM": "truecolor"], false, false),
    ])
    func capabilities(environment: [String: String], screen: Bool, color: Bool) {
        let capabilities = TerminalCapabilities(environment: environment)
        #expect(capabilities.canTakeOverScreen == screen, "\(environment)")
        #expect(capabilities.usesColor == color, "\(environment)")
    }

    // Demo report 10–12, left: under TERM=screen, xterm, linux or xterm-color (colors#8 in
    // terminfo) the demo's avatars used 256-color indexes (48;5;39) and bright colors (90, 97).
    @Test("terminfo's colors number decides how many colors the terminal shows", arguments: [
        ("xterm", 8), ("screen", 8), ("linux", 8), ("xterm-color", 8), ("xterm-256color", 256), ("vte-256color", 256),
    ])
    func colorsFromTerminfo(term: String, colors: Int) throws {
        // An entry of its own for each name, in the legacy and the extended number format, in a TERMINFO directory.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cellkit-terminfo-\(getpid())-\(term)")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, extended) in [false, true].enumerated() {
            let sub = directory.appendingPathComponent("\(index)").appendingPathComponent(String(term.prefix(1)))
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try Data(Self.terminfoEntry(name: term, colors: colors, extended: extended)).write(to: sub.appendingPathComponent(term))
            let environment = ["TERM": term, "TERMINFO": directory.appendingPathComponent("\(index)").path, "HOME": "/nonexistent"]
            #expect(TerminalCapabilities(environment: environment).colors == colors, "\(term) \(extended)")
            #expect(TerminalCapabilities(environment: environment.merging(["COLORTERM": "truecolor"]) { $1 }).colors == 256)
            #expect(TerminalCapabilities(environment: environment.merging(["NO_COLOR": "1"]) { $1 }).colors == 0)
        }
        // The system's own entry, where it has one (Debian's ncurses-base: /lib/terminfo).
        if FileManager.default.fileExists(atPath: "/lib/terminfo/\(term.prefix(1))/\(term)") {
            #expect(TerminalCapabilities(environment: ["TERM": term, "HOME": "/nonexistent"]).colors == colors)
        }
        // No entry anywhere: the name decides.
        let none = ["TERM": "nosuch-\(term)", "TERMINFO": directory.path, "TERMINFO_DIRS": directory.path, "HOME": "/nonexistent"]
        #expect(TerminalCapabilities(environment: none).colors == (term.hasSuffix("-256color") ? 256 : 8))
    }

    // Failed before the fix (outside report 13b, defect 2): an entry with no `colors` number
    // (`tput colors` prints -1: xterm-r6, sun, mach, rxvt-basic) or `colors#0` got colors
    // (`usesColor` true, 8 colors), and TerminalApp sent such a terminal SGR 30–47.
    @Test("a terminfo entry without colors (none, cancelled, or fewer than 8) is a terminal without colors", arguments: [
        (-1, 14), (-2, 14), (0, 14), (2, 14), (0, 0), (0, 13),
    ])
    func terminfoEntryWithoutColors(colors: Int, numbers: Int) throws {
        let term = "nocolors-test"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cellkit-terminfo-\(getpid())-\(colors)-\(numbers)")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, extended) in [false, true].enumerated() {
            let sub = directory.appendingPathComponent("\(index)").appendingPathComponent("n")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try Data(Self.terminfoEntry(name: term, colors: colors, extended: extended, numbers: numbers)).write(to: sub.appendingPathComponent(term))
            let environment = ["TERM": term, "TERMINFO": directory.appendingPathComponent("\(index)").path, "HOME": "/nonexistent"]
            let capabilities = TerminalCapabilities(environment: environment)
            #expect(capabilities.canTakeOverScreen, "\(colors) \(numbers) \(extended)")
            #expect(!capabilities.usesColor && capabilities.colors == 0, "\(colors) \(numbers) \(extended): \(capabilities)")
            // The same file with 8 colors: it is the entry that decides.
            try Data(Self.terminfoEntry(name: term, colors: 8, extended: extended)).write(to: sub.appendingPathComponent(term))
            let eight = TerminalCapabilities(environment: environment)
            #expect(eight.usesColor && eight.colors == 8, "\(eight)")
        }
        // The system's own entries without colors, where it has them (Debian's ncurses-base: /lib/terminfo).
        for name in ["xterm-r6", "sun", "mach", "rxvt-basic"] where FileManager.default.fileExists(atPath: "/lib/terminfo/\(name.prefix(1))/\(name)") {
            let capabilities = TerminalCapabilities(environment: ["TERM": name, "HOME": "/nonexistent"])
            #expect(!capabilities.usesColor && capabilities.colors == 0, "\(name): \(capabilities)")
        }
    }

    /// A compiled terminfo entry named `name` with only the `colors` number set (the numbers before it absent);
    /// with `numbers` below 14, an entry that stops before `colors` (it has none).
    nonisolated static func terminfoEntry(name: String, colors: Int, extended: Bool, numbers: Int = 14) -> [UInt8] {
        func short(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
        let names = Array((name + "|test entry").utf8) + [0]
        let bools: [UInt8] = [1, 0, 1]   // an odd count: the numbers start after a pad byte
        var bytes = short(extended ? 0o1036 : 0o432) + short(names.count) + short(bools.count) + short(numbers) + short(0) + short(0)
        bytes += names + bools
        if bytes.count % 2 == 1 { bytes.append(0) }
        for index in 0..<numbers {
            let value = index == 13 ? colors : -1
            if extended {
                bytes += short(value & 0xFFFF) + short(value < 0 ? 0xFFFF : 0)
            } else {
                bytes += short(value & 0xFFFF)
            }
        }
        return bytes
    }

    @Test("a frame on a terminal of 8 or 16 colors uses only those colors; a hue stays a hue")
    func framesUseTheColorsTheTerminalHas() {
        let (app, fixture) = app(columns: 40, title: "Notes")
        _ = fixture
        app.statusMessage = "note"
        let avatars: [UInt8] = [39, 54, 76, 150, 209]
        let line = StyledLine(avatars.map { StyledSpan("AB", style: TextStyle(foreground: .brightWhite, background: .palette($0), bold: true)) }
                              + [StyledSpan("grey", style: TextStyle(foreground: .brightBlack)), StyledSpan("g", style: TextStyle(foreground: .palette(244)))])
        let basic: Set<TerminalColor> = [.black, .red, .green, .yellow, .blue, .magenta, .cyan, .white]
        let bright: Set<TerminalColor> = [.brightBlack, .brightRed, .brightGreen, .brightYellow, .brightBlue, .brightMagenta, .brightCyan, .brightWhite]
        for count in [8, 16] {
            let allowed = count == 8 ? basic : basic.union(bright)
            let limited = line.limitingColors(to: count)
            let colors = limited.spans.flatMap { [$0.style.foreground, $0.style.background] }.compactMap { $0 }
            #expect(colors.allSatisfy(allowed.contains), "\(count): \(colors)")
            // Avatars keep a hue (white initials stay readable on them).
            for span in limited.spans.prefix(avatars.count) {
                #expect(![.black, .white, .brightBlack, .brightWhite].contains(span.style.background), "\(count): \(span.style)")
                #expect(span.style.background != span.style.foreground, "\(count): \(span.style)")
            }
            let rendered = limited.rendered(ansi: true)
            #expect(!rendered.contains(";5;") && (count == 16 || !rendered.contains("[9") && !rendered.contains(";9")), "\(rendered)")
        }
        // Grey text at 8 colors is the default color, dim (black would vanish on a dark background).
        let grey = line.limitingColors(to: 8).spans[avatars.count].style
        #expect(grey.foreground == nil && grey.isDim)
        #expect(line.limitingColors(to: 256) == line && line.limitingColors(to: 0) == line.withoutColors)
        #expect(StyledLine("x", style: TextStyle(background: .palette(39))).limitingColors(to: 8).spans[0].style.background == .cyan)
        // The app: the frames use the colors set.
        app.colors = 8
        let frame = app.composeFrame()
        #expect(frame.flatMap(\.spans).allSatisfy { span in [span.style.foreground, span.style.background].compactMap { $0 }.allSatisfy(basic.contains) })
    }

    @Test("the error for a dumb terminal names TERM and says what to do")
    func unsupportedTerminalError() {
        #expect(TerminalError.unsupportedTerminal(term: "dumb").description.contains("TERM=dumb"))
        #expect(TerminalError.unsupportedTerminal(term: nil).description.contains("TERM is not set (or is empty)"))  // TERM="" too (outside check 11c)
    }
}

/// Esc typed quickly before another key (one read: ESC then the key, an Alt combination).
@Suite("Terminal app: Esc then a key in one read")
@MainActor
struct TerminalAppEscapeTests {
    // Failed before the fix (demo report 4, item 7): ESC j was an Alt key and ignored: the
    // filter stayed, and the j did not move the selection.
    @Test("Esc and a key together are Esc, then the key: the filter clears, the key acts")
    func escapeThenKey() {
        let fixture = NotesFixture(columns: 40, rows: 6)
        fixture.controller.apply(NotesFixture.model(sections: 1, rows: 5))
        let app = TerminalApp(listView: fixture.list, title: "Notes")
        app.handle([.character("/"), .character("x")])
        #expect(app.isEditingFilter && app.filterText == "x")
        var decoder = InputDecoder()
        app.handle(decoder.decode(Array("\u{1B}/yz\u{1B}".utf8)))
        app.handle(decoder.decode(Array("j".utf8)))
        #expect(app.filterText == "", "the second Esc clears the filter typed after the first")
        #expect(!app.isEditingFilter)
        let before = app.listView.positionDescription
        app.handle(decoder.decode(Array("\u{1B}j".utf8)))
        #expect(app.listView.positionDescription != before, "the j after Esc moves the selection")
    }
}
