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
