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

    // Failed before the fix (demo report 3, item 5): 👍🏽 counted 2 columns, tmux draws 4,
    // so bars and rows holding it ran 2 columns past the edge and lost their right end.
    @Test("a skin-tone modifier takes two columns of its own, as tmux draws it", arguments: [
        ("👍🏽", 4), ("✌🏽", 3), ("👩🏽‍💻", 4), ("🧑🏽‍🤝‍🧑🏿", 6), ("👋🏻x", 5), ("a🏽", 3),
        ("👨‍👩‍👧", 2), ("🇯🇵", 2), ("❤️", 1), ("1️⃣", 1),
    ])
    func emojiModifiers(text: String, expected: Int) {
        #expect(DisplayWidth.of(text) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    // Demo report 10, defect 1: a cluster was capped at 2 columns, so a Devanagari conjunct
    // with a spacing vowel sign (त्रि: 3 columns in tmux and the C library) counted 2, and rows
    // of Indic text ran past the edge.
    @Test("a cluster that is no emoji sequence takes its scalars' columns", arguments: [
        ("त्रि", 3), ("क्षत्रिय", 6), ("বাংলা", 5), ("कि", 2), ("ksha क्ष", 7),
        ("க்ஷ", 2), ("👩\u{200D}💻", 2), ("क\u{200D}", 1),
    ])
    func indicClusters(text: String, expected: Int) {
        #expect(DisplayWidth.of(text) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test("fitting never splits an emoji modifier sequence (no 👍 without its skin tone)")
    func fittingKeepsModifierSequences() {
        let line = StyledLine("ab👍🏽cd👍🏽")
        #expect(line.displayWidth == 12)
        for width in 1...14 {
            let fitted = line.fitted(to: width)
            #expect(fitted.displayWidth == width, "\(width): \(fitted.plainText)")
            for character in fitted.plainText where character.unicodeScalars.first == "👍" {
                #expect(character == "👍🏽", "\(width): \(fitted.plainText)")
            }
            #expect(!fitted.plainText.unicodeScalars.contains { $0 == "👍" } || fitted.plainText.contains("👍🏽"))
        }
        #expect(line.fitted(to: 7).plainText == "ab👍🏽…")
        #expect(line.fitted(to: 6).plainText == "ab   …")
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

#if canImport(Glibc)
import Glibc

@_silgen_name("wcwidth") private func c_wcwidth(_ c: Int32) -> Int32

@Suite("Display width against the C library")
struct DisplayWidthGlibcTests {
    @Test("agrees with glibc’s wcwidth (what tmux uses) on planes 0 and 1, but for newer Unicode data")
    func agreesWithWcwidth() throws {
        guard setlocale(LC_CTYPE, "C.UTF-8") != nil else {
            print("the C.UTF-8 locale is missing: skipping the comparison with wcwidth")
            return
        }
        var mismatches: [String] = []
        for value in UInt32(0x20)...UInt32(0x1FFFF) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = c_wcwidth(Int32(bitPattern: value))
            guard expected >= 0 else { continue }   // unassigned for the C library
            if DisplayWidth.of(scalar) != Int(expected) {
                mismatches.append("U+\(String(value, radix: 16, uppercase: true)): \(DisplayWidth.of(scalar)) vs \(expected)")
            }
        }
        // Characters whose Unicode data changed between the C library's version and ours may differ.
        #expect(mismatches.count <= 8, "\(mismatches.count) differences: \(mismatches.prefix(20))")
    }

    // Demo report 10, defect 1: lines of Indic text, as `wcswidth` (and tmux) count them.
    @Test("text without emoji sequences: the C library's wcswidth of its scalars", arguments: [
        "क्षत्रिय क्षत्रिय", "বাংলা বাংলা", "देवनागरी", "தமிழ் க்ஷ", "ที่นี่", "עִבְרִית", "e\u{301}x", "한국어",
    ])
    func agreesWithWcswidth(text: String) throws {
        guard setlocale(LC_CTYPE, "C.UTF-8") != nil else { return }
        let expected = text.unicodeScalars.reduce(0) { $0 + max(0, Int(c_wcwidth(Int32(bitPattern: $1.value)))) }
        #expect(DisplayWidth.of(text) == expected)
    }
}
#endif
