import Testing
@testable import CellKitTerminal

@Suite("Display width")
struct DisplayWidthTests {
    @Test("ASCII, CJK, emoji, combining marks and controls", arguments: [
        ("abc", 3), ("日本語", 6), ("한국어", 6), ("ｶﾀｶﾅ", 4), ("ＡＢ", 4), ("🚀🎉", 4), ("☕", 2),
        ("e\u{301}", 1), ("a\u{200B}b", 2), ("\u{1B}[0m", 3), ("→", 1), ("…", 1), ("", 0),
    ])
    func widths(text: String, expected: Int) {
        #expect(DisplayWidth.of(text) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test("fitting cuts with an ellipsis and never splits a wide character")
    func fitting() {
        let line = StyledLine("ab日本語")
        #expect(line.fitted(to: 10).plainText == "ab日本語  ")
        #expect(line.fitted(to: 5).plainText == "ab日…")
        // 日 would straddle column 4: a space takes its place.
        #expect(line.fitted(to: 4).plainText == "ab …")
        for width in 1...12 {
            #expect(line.fitted(to: width).displayWidth == width)
        }
    }

    @Test("wrapping counts wide characters twice")
    func wrapping() {
        let lines = StyledLine.wrap("日本語 テキスト wraps here", width: 8)
        #expect(lines.map(\.plainText) == ["日本語", "テキスト", "wraps", "here"])
        #expect(lines.allSatisfy { $0.displayWidth <= 8 })
        let capped = StyledLine.wrap("one two three four five", width: 9, maxLines: 2)
        #expect(capped.count == 2)
        #expect(capped[1].plainText.hasSuffix("…"))
    }
}
