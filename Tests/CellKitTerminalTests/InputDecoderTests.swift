import Testing
@testable import CellKitTerminal

@Suite("Input decoder")
struct InputDecoderTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("several keys in one read")
    func severalKeys() {
        var decoder = InputDecoder()
        #expect(decoder.decode(bytes("jk\r/q")) == [.character("j"), .character("k"), .enter, .character("/"), .character("q")])
        #expect(decoder.decode(bytes("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}OD")) == [.up, .down, .right, .left])
    }

    @Test("escape sequences split across reads")
    func splitSequences() {
        var decoder = InputDecoder()
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.hasPending)
        #expect(decoder.decode([0x5B, 0x36]) == [])
        #expect(decoder.decode([0x7E, 0x6A]) == [.pageDown, .character("j")])
        #expect(!decoder.hasPending)
        #expect(decoder.decode([0x1B, 0x4F]) == [])
        #expect(decoder.decode([0x41]) == [.up])
    }

    @Test("page, home and end in their common spellings")
    func navigationKeys() {
        var decoder = InputDecoder()
        #expect(decoder.decode(bytes("\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}OH\u{1B}OF\u{1B}[1;5A"))
            == [.pageUp, .pageDown, .home, .end, .home, .end, .home, .end, .up])
    }

    @Test("a lone ESC is the Escape key once the pause passes")
    func loneEscape() {
        var decoder = InputDecoder()
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.hasPending)
    }

    @Test("Ctrl-C, backspace and UTF-8 split across reads")
    func controlAndUTF8() {
        var decoder = InputDecoder()
        #expect(decoder.decode([0x03, 0x7F]) == [.control("c"), .backspace])
        let kanji = Array("日".utf8)
        #expect(decoder.decode(kanji.prefix(2)) == [])
        #expect(decoder.decode(kanji.suffix(1)) == [.character("日")])
    }
}

@Suite("Input decoder: stray sequences and pastes")
struct InputDecoderStrayTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Decodes `input` in one read and, separately, one byte per read (with a flush at the end of both).
    private func decodeBothWays(_ input: [UInt8]) -> ([Key], [Key]) {
        var whole = InputDecoder()
        let all = whole.decode(input) + whole.flush()
        var split = InputDecoder()
        var keys: [Key] = []
        for byte in input { keys += split.decode([byte]) }
        return (all, keys + split.flush())
    }

    @Test("mouse reports, unknown CSI/SS3/OSC/DCS and Alt keys are one key each, never keys the app binds", arguments: [
        "\u{1B}[M qq",                    // X10 mouse: button " ", column "q", row "q"
        "\u{1B}[M#/j",                    // a release over column "/" row "j"
        "\u{1B}[<0;12;5M", "\u{1B}[<0;12;5m", "\u{1B}[<64;1;1M",
        "\u{1B}[32;10;5M",                // urxvt mouse
        "\u{1B}[?1;2c", "\u{1B}[>0;95;0c", "\u{1B}[15~", "\u{1B}[2~", "\u{1B}[200~x", "\u{1B}[201~", "\u{1B}[I", "\u{1B}[O",
        "\u{1B}OP", "\u{1B}Oq",
        "\u{1B}]11;rgb:0000/0000/0000\u{07}", "\u{1B}]52;c;cXVpdA==\u{1B}\\", "\u{1B}P1$r0m\u{1B}\\", "\u{1B}_Gq\u{1B}\\",
        "\u{1B}q", "\u{1B}/", "\u{1B}j", "\u{1B}é",
    ])
    func strayIgnored(sequence: String) {
        let (whole, split) = decodeBothWays(bytes(sequence))
        for keys in [whole, split] {
            // "\u{1B}[200~x" opens a paste that never ends: nothing comes out.
            #expect(keys.count <= 1, "\(sequence.debugDescription) gave \(keys)")
            for key in keys {
                switch key {
                case .unknown, .alt: break
                default: Issue.record("\(sequence.debugDescription) decoded as \(key)")
                }
            }
        }
        // Keys after the stray sequence are decoded as themselves.
        if sequence != "\u{1B}[200~x" {
            var decoder = InputDecoder()
            let keys = decoder.decode(bytes(sequence + "jk"))
            #expect(keys.suffix(2) == [.character("j"), .character("k")], "\(keys)")
        }
    }

    @Test("Alt and the keys it modifies")
    func alt() {
        var decoder = InputDecoder()
        #expect(decoder.decode(bytes("\u{1B}q\u{1B}/x")) == [.alt("q"), .alt("/"), .character("x")])
        #expect(decoder.decode(bytes("\u{1B}[1;5A\u{1B}[1;3B")) == [.up, .down])
        #expect(decoder.decode(bytes("\u{1B}[5;5~")) == [.pageUp])
    }

    @Test("an unfinished sequence given up after the long pause is one unknown key, not its letters")
    func unfinishedFlush() {
        var decoder = InputDecoder()
        #expect(decoder.decode(bytes("\u{1B}[<0;1")) == [])
        #expect(decoder.flush() == [])
        #expect(decoder.flush(includingUnfinished: true) == [.unknown(bytes("[<0;1"))])
        #expect(decoder.decode(bytes("\u{1B}[M q")) == [])
        #expect(decoder.flush(includingUnfinished: true) == [.unknown(bytes("[M q"))])
        #expect(decoder.decode(bytes("q")) == [.character("q")])
    }

    // Failed before the fix (outside check 8, d4): the paste's tail that may start its end
    // marker counted as a pending key, so the app's pause timers woke up during the paste.
    @Test("an unfinished paste whose read ends in ESC is not a pending key; the paste still ends")
    func pasteEndingInEscapeIsNotPending() {
        var decoder = InputDecoder()
        #expect(decoder.decode(bytes("\u{1B}[200~abc")) == [])
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.isInPaste)
        #expect(!decoder.hasPending)
        #expect(decoder.flush(includingUnfinished: true) == [])
        #expect(!decoder.hasPending)
        #expect(decoder.decode(bytes("[201~j")) == [.paste("abc"), .character("j")])
        #expect(!decoder.isInPaste && !decoder.hasPending)
    }

    @Test("a bare ESC [ or ESC O given up after the long pause is Esc, then the character, and the next key is its own")
    func bareIntroducerGivenUp() {
        var decoder = InputDecoder()
        #expect(decoder.decode(bytes("\u{1B}[")) == [])
        #expect(decoder.flush() == [])
        #expect(decoder.flush(includingUnfinished: true) == [.alt("[")])
        #expect(!decoder.hasPending)
        #expect(decoder.decode(bytes("j")) == [.character("j")])
        #expect(decoder.decode(bytes("\u{1B}O")) == [])
        #expect(decoder.flush(includingUnfinished: true) == [.alt("O")])
        #expect(decoder.decode(bytes("q")) == [.character("q")])
    }

    @Test("ESC [, the short pause, then a lowercase letter: Esc, [, then the letter (typed, not a terminal's sequence)",
          arguments: ["j", "q", "k", "~", "jq"])
    func bareIntroducerThenTypedKey(typed: String) {
        var decoder = InputDecoder()
        #expect(decoder.decode(bytes("\u{1B}[")) == [])
        #expect(decoder.flush() == [])
        let expected: [Key] = [.alt("[")] + typed.map { Key.character($0) }
        #expect(decoder.decode(bytes(typed)) == expected)
        #expect(!decoder.hasPending)
    }

    @Test("ESC [ then a lowercase letter in one read is one (unknown) control sequence, as ECMA-48 has it; a control key breaks a bare ESC [")
    func bareIntroducerWithoutPause() {
        var decoder = InputDecoder()
        #expect(decoder.decode(bytes("\u{1B}[j")) == [.unknown(bytes("[j"))])
        // Only the read right after the short pause is looked at: a split arrow key still works.
        #expect(decoder.decode(bytes("\u{1B}[")) == [])
        #expect(decoder.flush() == [])
        #expect(decoder.decode(bytes("B")) == [.down])
        #expect(decoder.decode(bytes("\u{1B}[")) == [])
        #expect(decoder.decode(bytes("j")) == [.unknown(bytes("[j"))])
        #expect(decoder.decode(bytes("\u{1B}[\r")) == [.alt("["), .enter])
    }

    @Test("a sequence or UTF-8 character split across reads, with the short pause between, is completed by the next read",
          arguments: ["\u{1B}[B", "\u{1B}OB", "\u{1B}[5~", "\u{1B}[1;5A", "é", "日", "👨‍👩‍👧", "\u{1B}é"])
    func splitAcrossPause(text: String) {
        let input = bytes(text)
        var whole = InputDecoder()
        let expected = whole.decode(input)
        #expect(!expected.isEmpty)
        for cut in 1..<input.count where !(cut == 1 && input[0] == 0x1B) {
            var decoder = InputDecoder()
            var keys = decoder.decode(input[..<cut])
            keys += decoder.flush()   // the short pause: only a lone ESC counts as Escape
            keys += decoder.decode(input[cut...])
            keys += decoder.decode(bytes("q"))
            #expect(keys == expected + [.character("q")], "cut at \(cut): \(keys)")
        }
    }

    @Test("ESC before a control key is Escape, then the key; a broken SS3 keeps the byte that broke it")
    func escapeBeforeControl() {
        var decoder = InputDecoder()
        #expect(decoder.decode(bytes("\u{1B}\r\u{1B}\u{7F}\u{1B}\u{03}")) == [.escape, .enter, .escape, .backspace, .escape, .control("c")])
        #expect(decoder.decode(bytes("\u{1B}O\rq")) == [.alt("O"), .enter, .character("q")])
        #expect(decoder.decode(bytes("\u{1B}")) == [])
        #expect(decoder.flush() == [.escape])
        #expect(decoder.decode(bytes("\u{1B}")) == [])
        #expect(decoder.decode(bytes("q")) == [.alt("q")])
    }

    @Test("a bracketed paste is one key, across reads, with the end marker split")
    func bracketedPaste() {
        let text = String(repeating: "paste q/\u{1B}[A\r\n日本 ", count: 1_000)
        let input = bytes("j\u{1B}[200~" + text + "\u{1B}[201~k")
        var decoder = InputDecoder()
        var keys: [Key] = []
        var offset = 0
        for size in [3, 1, 7, 4096, 2, 5, 1, 1, 1, 1000000] where offset < input.count {
            let end = min(input.count, offset + size)
            keys += decoder.decode(input[offset..<end])
            offset = end
        }
        #expect(keys == [.character("j"), .paste(text), .character("k")])
        #expect(!decoder.isInPaste)
        let (whole, split) = decodeBothWays(input)
        #expect(whole == keys)
        #expect(split == keys)
    }

    // Outside check 9c, d1: past 4,096 pending bytes the sequence was given up and the rest
    // of it decoded as keys (an OSC 52 of q's quit a TerminalApp).
    @Test("an OSC, DCS or control sequence longer than 4,096 bytes, split across reads, gives no key of its bytes",
          arguments: [1, 1000, 1024, 4095, 4096, 5000])
    func longSequencesSplitAcrossReads(readSize: Int) {
        let cases: [[UInt8]] = [
            Array("\u{1B}]52;c;".utf8) + Array(repeating: UInt8(ascii: "q"), count: 9000) + [0x07],
            Array("\u{1B}P".utf8) + Array(repeating: UInt8(ascii: "j"), count: 6000) + [0x1B, 0x5C],
            [0x1B, 0x5B] + Array(repeating: UInt8(ascii: "1"), count: 5000) + [UInt8(ascii: "~")],
            // The ST's ESC right at the give-up point.
            Array("\u{1B}]".utf8) + Array(repeating: UInt8(ascii: "q"), count: 4094) + [0x1B, 0x5C],
        ]
        for sequence in cases {
            var decoder = InputDecoder()
            var keys: [Key] = []
            let input = sequence + Array("jq".utf8)
            var offset = 0
            while offset < input.count {
                keys += decoder.decode(input[offset..<min(input.count, offset + readSize)])
                offset += readSize
            }
            let unknown = keys.filter { if case .unknown = $0 { true } else { false } }
            #expect(unknown.count == 1, "read size \(readSize): \(keys.count) keys")
            #expect(Array(keys.drop { if case .unknown = $0 { true } else { false } }) == [.character("j"), .character("q")],
                    "read size \(readSize): \(keys.filter { if case .unknown = $0 { false } else { true } }.prefix(5))")
            #expect(!decoder.hasPending)
        }
    }

    @Test("a control sequence given up for its length and broken off by a control key keeps that key; the long pause ends the skipping")
    func longSequenceEnds() {
        var decoder = InputDecoder()
        _ = decoder.decode([0x1B, 0x5B] + Array(repeating: UInt8(ascii: "2"), count: 5000))
        #expect(decoder.hasPending)   // the rest of it is still skipped: the app keeps its pause timers
        #expect(decoder.decode(Array("333\r".utf8)) == [.enter])
        _ = decoder.decode(Array("\u{1B}]".utf8) + Array(repeating: UInt8(ascii: "q"), count: 5000))
        #expect(decoder.decode(Array("qqq".utf8)) == [])
        #expect(decoder.flush(includingUnfinished: true) == [])
        #expect(decoder.decode(Array("j".utf8)) == [.character("j")])
    }

    // Outside check 9c (doc gap): a typed or pasted bidi override was a `.character` and reached the filter.
    @Test("bidi controls, direction marks and the line separators make no key; the next key survives")
    func invisibleControlsMakeNoKey() {
        var decoder = InputDecoder()
        for scalar in ["\u{202E}", "\u{2066}", "\u{200F}", "\u{061C}", "\u{2028}", "\u{2029}", "\u{85}"] {
            #expect(decoder.decode(Array((scalar + "j").utf8)) == [.character("j")], "\(scalar.unicodeScalars.first!.value)")
        }
        #expect(decoder.decode(Array("é日".utf8)) == [.character("é"), .character("日")])
    }

    // Outside check 9c, d5.
    @Test("CR LF split between two reads is one Enter; CR alone, then LF in a later read, too; LF, CR alone stay Enter")
    func crlfAcrossReads() {
        var decoder = InputDecoder()
        #expect(decoder.decode([0x0D]) == [.enter])
        #expect(decoder.decode([0x0A]) == [])
        #expect(decoder.decode([0x0D]) == [.enter])
        #expect(decoder.decode(Array("j".utf8)) == [.character("j")])
        #expect(decoder.decode([0x0A]) == [.enter])
        #expect(decoder.decode([0x0D, 0x0D]) == [.enter, .enter])
        #expect(decoder.decode([0x0A, 0x0A]) == [.enter])
    }

    @Test("10,000 pasted characters decode in one pass")
    func bigPaste() {
        var decoder = InputDecoder()
        let keys = decoder.decode(bytes(String(repeating: "a", count: 10_000)))
        #expect(keys.count == 10_000)
        #expect(decoder.decode(bytes("\u{1B}[200~" + String(repeating: "b", count: 10_000) + "\u{1B}[201~")) == [.paste(String(repeating: "b", count: 10_000))])
    }
}
