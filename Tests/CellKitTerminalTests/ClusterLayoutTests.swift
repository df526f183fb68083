import CellKit
import CellKitTesting
import Testing
@testable import CellKitTerminal

/// Text layout by grapheme clusters: clusters that cross span boundaries (fitted lines),
/// control characters and too-wide characters while wrapping.
@Suite("Cluster layout")
@MainActor
struct ClusterLayoutTests {
    // MARK: Clusters across spans (fitted, displayWidth)

    @Test("a ZWJ sequence split between two spans is measured and fitted as the one cluster the terminal shows")
    func zwjAcrossSpans() {
        let split = StyledLine([StyledSpan("👩\u{200D}"), StyledSpan("💻", style: .dim)])
        #expect(split.displayWidth == 2)
        let fitted = split.fitted(to: 10)
        #expect(DisplayWidth.of(fitted.plainText) == 10, "\(fitted.plainText.debugDescription)")
        #expect(fitted.displayWidth == 10)
        // The cluster takes the style of the span it starts in; the padding keeps the last span's style.
        #expect(fitted.spans == [StyledSpan("👩\u{200D}💻"), StyledSpan(String(repeating: " ", count: 8), style: .dim)])
    }

    @Test("a span that starts with a mark joining the previous span's last character", arguments: [
        // A spacing mark after a wide character: 2 + 1 columns apart, 2 joined.
        ("日", "\u{093E}x"),
        // A prepended concatenation mark before a wide character: 1 + 2 apart, 2 joined.
        ("x\u{0600}", "日"),
        // A ZWJ starting the next span.
        ("👩", "\u{200D}💻 dev"),
        // Regional indicators: the second span's first one pairs with the first span's last one.
        ("🇫", "🇷🇺"),
    ])
    func marksAcrossSpans(first: String, second: String) {
        let line = StyledLine([StyledSpan(first, style: .bold), StyledSpan(second)])
        #expect(line.displayWidth == DisplayWidth.of(first + second))
        for width in 1...8 {
            let fitted = line.fitted(to: width)
            #expect(DisplayWidth.of(fitted.plainText) == width, "width \(width): \(fitted.plainText.debugDescription)")
            #expect(fitted.displayWidth == width)
        }
    }

    @Test("a line is cut between the clusters of the joined text")
    func cutAcrossSpans() {
        let line = StyledLine([StyledSpan("ab👩\u{200D}", style: .bold), StyledSpan("💻cd")])
        #expect(line.displayWidth == 6)
        #expect(line.fitted(to: 4).plainText == "ab …")
        #expect(line.fitted(to: 5).plainText == "ab👩\u{200D}💻…")
        #expect(line.fitted(to: 5).spans.first == StyledSpan("ab👩\u{200D}💻", style: .bold))
        #expect(line.fitted(to: 6).plainText == "ab👩\u{200D}💻cd")
    }

    @Test("a frame line with a cell whose spans split a ZWJ sequence is exactly the list's width")
    func frameWithSplitCluster() {
        let list = TerminalListView(columns: 12, rows: 1)
        let controller = ListController(diagnostics: .ignore)
        controller.register(BadgeCell.self, for: Member.self) { cell, member in
            cell.name = member.name
            cell.badge = member.badge
        }
        controller.attach(to: list)
        controller.apply(TableModel([Member(id: 1, name: "Ada 👩\u{200D}", badge: "💻 admin")]))
        let frame = list.renderFrame()
        #expect(DisplayWidth.of(frame[0].plainText) == 12, "\(frame[0].plainText.debugDescription)")
        #expect(frame[0].displayWidth == 12)
    }

    /// Pieces of hostile span text: joiners at span ends, marks and modifiers at span starts.
    static let pieces: [String] = [
        "a", "b", " ", "xyz", "日", "本語", "🚀", "👩", "💻", "👍", "\u{200D}", "👩\u{200D}", "\u{200D}💻",
        "\u{301}", "e\u{301}", "\u{FE0F}", "\u{FE0E}", "☺", "\u{1F3FD}", "👍\u{1F3FD}", "🇫", "🇷", "🇺🇸",
        "\u{093E}", "क", "\u{094D}", "\u{0600}", "\u{06DD}", "ᄀ", "\u{1161}", "\u{11A8}", "한",
        "\u{1B}", "\u{0}", "\t", "\r", "\n", "\r\n", "\u{7F}", "\u{9B}", "\u{85}",
        "\u{202E}", "\u{2066}", "\u{2069}", "\u{200E}", "\u{200F}", "\u{061C}", "\u{200B}", "\u{2028}",
        "…", "─", "Ｚ", "\u{E0067}", "🏴", "\u{2029}",
    ]

    static func randomText(_ rng: inout SplitMix64, maxPieces: Int) -> String {
        (0..<Int.random(in: 0...maxPieces, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    @Test("random hostile spans: every fitted line is exactly its width, by span and joined", arguments: 0..<8)
    func randomFitted(round: UInt64) {
        let seed = 0x5EED_0000 + round
        print("ClusterLayoutTests.randomFitted seed \(seed)")
        var rng = SplitMix64(seed: seed)
        let styles: [TextStyle] = [.plain, .bold, .dim, .inverse]
        for _ in 0..<400 {
            let line = StyledLine((0..<Int.random(in: 0...5, using: &rng)).map { _ in
                StyledSpan(Self.randomText(&rng, maxPieces: 4), style: styles.randomElement(using: &rng)!)
            })
            #expect(line.displayWidth == DisplayWidth.of(StyledLine.visible(line.plainText)),
                    "seed \(seed): \(line.spans.map(\.text.debugDescription))")
            for width in [-1, 0, 1, 2, 3, 5, 8, 13, 30] {
                let fitted = line.fitted(to: width)
                let expected = max(0, width)
                #expect(DisplayWidth.of(fitted.plainText) == expected && fitted.displayWidth == expected,
                        "seed \(seed), width \(width): \(line.spans.map(\.text.debugDescription)) → \(fitted.spans.map(\.text.debugDescription))")
                // Every span boundary of the result is a cluster boundary of its joined text.
                #expect(fitted.spans.reduce(0) { $0 + $1.text.count } == fitted.plainText.count,
                        "seed \(seed), width \(width): a cluster crosses a span of \(fitted.spans.map(\.text.debugDescription))")
                #expect(fitted.rendered(ansi: false) == fitted.plainText)
            }
        }
    }

    // MARK: Wrapping

    @Test("wrapping counts control and bidi characters as the one column they are drawn with")
    func wrapControls() {
        #expect(StyledLine.wrap("x\u{0}y", width: 2).map(\.plainText) == ["x␀", "y"])
        #expect(StyledLine.wrap("a\u{1B}b c", width: 2).map(\.plainText) == ["a␛", "b", "c"])
        #expect(StyledLine.wrap("a\u{202E}bc d", width: 3).map(\.plainText) == ["a�b", "c d"])
        // The space between two words stays when the first one is all control characters.
        #expect(StyledLine.wrap("\u{1B}\u{1B}\u{1B} x", width: 1).map(\.plainText) == ["␛", "␛", "␛", "x"])
        #expect(StyledLine.wrap("\u{1B} x", width: 3).map(\.plainText) == ["␛ x"])
        // Direction marks are drawn as nothing: a word of them is no word.
        #expect(StyledLine.wrap("a \u{200E}\u{200F} b", width: 5).map(\.plainText) == ["a b"])
        for line in StyledLine.wrap("x\u{0}y a\u{1B}b c a\u{202E}bc d", width: 2) {
            #expect(line.displayWidth <= 2, "\(line.plainText.debugDescription)")
        }
    }

    @Test("a character wider than the line is cut to an ellipsis, as fitted cuts it, and no empty line is made up")
    func wrapTooWide() {
        #expect(StyledLine.wrap("日本 語", width: 1).map(\.plainText) == ["…", "…", "…"])
        #expect(StyledLine.wrap("a日b", width: 1).map(\.plainText) == ["a", "…", "b"])
        #expect(StyledLine.wrap("👍\u{1F3FD}", width: 3).map(\.plainText) == ["  …"])
        #expect(StyledLine.wrap("日本 語", width: 2).map(\.plainText) == ["日", "本", "語"])
        #expect(StyledLine.wrap("", width: 1).map(\.plainText) == [""])
        #expect(StyledLine.wrap("  ", width: 4).map(\.plainText) == [""])
        // Outside check 7, d2: the line after the last kept one fitted beside it, so the
        // stand-in after that was dropped with no "…".
        #expect(StyledLine.wrap("a a👍\u{1F3FD}", width: 3, maxLines: 1).map(\.plainText) == ["a …"])
    }

    @Test("random hostile words: every wrapped line is at most the width and none is made up empty", arguments: 0..<4)
    func randomWrap(round: UInt64) {
        let seed = 0x3A9_0000 + round
        print("ClusterLayoutTests.randomWrap seed \(seed)")
        var rng = SplitMix64(seed: seed)
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 0...6, using: &rng)).map { _ in Self.randomText(&rng, maxPieces: 5) }.joined(separator: " ")
            let hasWords = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0.isNewline }).contains { DisplayWidth.of(StyledLine.visible(String($0))) > 0 }
            for width in [1, 2, 3, 4, 7, 12] {
                let maxLines = Int.random(in: 1...4, using: &rng)
                for lines in [StyledLine.wrap(text, width: width), StyledLine.wrap(text, width: width, maxLines: maxLines)] {
                    let shown = lines.map(\.plainText.debugDescription)
                    #expect(lines.allSatisfy { $0.displayWidth <= width && DisplayWidth.of($0.plainText) <= width },
                            "seed \(seed), width \(width): \(text.debugDescription) → \(shown)")
                    // Empty only as the one line of a text with no words.
                    #expect(hasWords ? !lines.contains { $0.plainText.isEmpty } : lines.map(\.plainText) == [""],
                            "seed \(seed), width \(width): \(text.debugDescription) → \(shown)")
                }
                let capped = StyledLine.wrap(text, width: width, maxLines: maxLines)
                #expect(capped.count <= maxLines)
                // Text left out ends the last line with "…" (compared by scalar: after a
                // prepended mark such as U+0600 the "…" is part of the mark's cluster).
                if StyledLine.wrap(text, width: width).count > maxLines {
                    #expect(capped.last?.plainText.unicodeScalars.last == "…",
                            "seed \(seed), width \(width), maxLines \(maxLines): \(text.debugDescription) → \(capped.map(\.plainText))")
                }
            }
        }
    }
}

/// A cell of two spans: a bold name and a badge (untrusted text in both).
private final class BadgeCell: ListCell, TerminalRenderable {
    var name = ""
    var badge = ""
    init() {}
    func terminalLines(width: Int) -> [StyledLine] { [StyledLine([StyledSpan(name, style: .bold), StyledSpan(badge)])] }
}

private struct Member: Identifiable, Equatable, Sendable {
    let id: Int
    var name: String
    var badge: String
}

extension ClusterLayoutTests {
    @Test("a prepended mark ending the text joins the padding or ellipsis after it; the line keeps its width and the cut its ellipsis")
    func prependedMarkAtTheEnd() {
        let marks = StyledLine([StyledSpan("ab\u{06DD}\u{06DD}", style: .bold), StyledSpan("", style: .dim)])
        let padded = marks.fitted(to: 6)
        #expect(DisplayWidth.of(padded.plainText) == 6 && padded.displayWidth == 6, "\(padded.plainText.debugDescription)")
        // The space that joins the marks' cluster takes their style.
        #expect(padded.spans.first == StyledSpan("ab\u{06DD}\u{06DD} ", style: .bold))
        // A line separator is shown as `�`, which the marks' cluster takes in (a prepended
        // mark joins what follows): 3 columns, as terminals draw it, with no room before the
        // ellipsis; the cut comes before that cluster.
        let cut = StyledLine("ab\u{06DD}\u{06DD}\u{2028}cdef").fitted(to: 5)
        #expect(cut.plainText == "ab  …")
        #expect(StyledLine("ab\u{06DD}\u{06DD}\u{2028}cdef").fitted(to: 6).plainText == "ab\u{06DD}\u{06DD}\u{FFFD}…")
        #expect(DisplayWidth.of(cut.plainText) == 5 && cut.displayWidth == 5, "\(cut.plainText.debugDescription)")
    }
}

extension ClusterLayoutTests {
    @Test("a text cell's accessory with a control character still ends at the trailing edge")
    func accessoryMeasuredAsDrawn() {
        let cell = TextCell()
        cell.text = "Title long enough to be cut"
        cell.accessory = "\u{1B}x"
        let first = CellRendering.textCellLines(cell, width: 20)[0].fitted(to: 20)
        #expect(first.plainText.hasSuffix(" ␛x"), "\(first.plainText.debugDescription)")
        #expect(first.displayWidth == 20)
    }
}
