/// Turns the bytes read from a terminal in raw mode into keys.
///
/// One read may carry several keys, or end in the middle of an escape sequence
/// or a UTF-8 character; the decoder keeps the unfinished tail, and the next
/// read completes it, however late it comes. A lone ESC is ambiguous until more
/// bytes arrive or a short pause passes: call ``flush(includingUnfinished:)`` after
/// the pause (it makes the Escape key); call it with `true` after a longer pause to
/// give up a sequence that never ended (a cut-off mouse report).
///
/// Every escape sequence is decoded whole, known or not: mouse reports
/// (`ESC [ M b x y`, SGR `ESC [ < b;x;y M`), unknown CSI and SS3 sequences,
/// OSC, DCS, APC, PM and SOS strings become one ``Key/unknown(_:)`` key (one longer than
/// 4,096 bytes that has not ended when a read does becomes one unknown key of its first
/// bytes, and the rest of it is skipped up to its end, whatever reads bring it, so none
/// of its bytes is taken as a key), and
/// ESC before a printable character is ``Key/alt(_:)`` (which is also what Esc
/// typed quickly before that character sends: ``TerminalApp`` handles it as Esc,
/// then the character). A byte that cannot continue a sequence ends it and is
/// decoded as its own key: ESC before a control key (Enter, Backspace, Ctrl-C) is
/// Escape, then that key. An `ESC [` or `ESC O` with nothing after it is
/// ``Key/alt(_:)`` of `[` or `O` (Esc, then the character) when it is given up
/// after the long pause, or broken off by a control key; and after the short pause
/// (a terminal sends a key's sequence in one write, a person types Esc, `[`, `j`
/// slower), a lowercase letter or another byte 0x60–0x7E after a bare `ESC [` ends it
/// too: ECMA-48 makes `ESC [ j` a complete (unknown) control sequence, but no
/// terminal sends one without parameters for a key, so it is Esc, `[`, then `j`.
/// Other bytes after the short pause (a digit, an uppercase letter) still complete
/// the sequence, so an arrow key split by a slow link keeps working. Bracketed paste (`ESC [ 200 ~` … `ESC [ 201 ~`) becomes
/// one ``Key/paste(_:)`` with the text, however many reads it spans. CR LF is one
/// ``Key/enter``, also when a read ends after the CR: an LF that starts the next read is
/// taken as its end.
///
/// ```swift
/// var decoder = InputDecoder()
/// assert(decoder.decode([0x1B, 0x5B]) == [])          // ESC [ ... split
/// assert(decoder.decode([0x41, 0x6A]) == [.up, .character("j")])
/// assert(decoder.decode([0x1B, 0x4F, 0x42]) == [.down]) // ESC O B
/// assert(decoder.decode([0xC3]) == [])                  // é, split
/// assert(decoder.flush() == [])                          // still waits for the rest
/// assert(decoder.decode([0xA9]) == [.character("é")])
/// assert(decoder.decode([0x1B, 0x0D]) == [.escape, .enter])
/// assert(decoder.decode(Array("\u{1B}[200~q\r\u{1B}[201~".utf8)) == [.paste("q\r")])
/// ```
public struct InputDecoder: Sendable {
    private var pending: [UInt8] = []
    /// The text of a bracketed paste that has not ended yet.
    private var paste: [UInt8]?
    /// Whether the short pause passed with a bare `ESC [` pending (see ``flush(includingUnfinished:)``).
    private var pausedAfterIntroducer = false
    /// The rest of a sequence given up for its length, skipped up to its end.
    private var skipping: Skipped?
    /// Whether the last byte decoded was a CR ending a read: an LF first in the next read is its CR LF.
    private var endedWithCR = false

    /// What the rest of a sequence given up for its length ends with.
    private enum Skipped: Sendable {
        /// An OSC, DCS, APC, PM or SOS string: BEL or ST (`ESC \`); `afterEscape` when
        /// the bytes so far end with the ESC of an ST.
        case string(afterEscape: Bool)
        /// A control sequence: its final byte (0x40–0x7E), or a byte that cannot continue it.
        case controlSequence
    }

    /// The longest sequence kept whole: a longer unfinished one is given up as one
    /// unknown key of its first bytes, and the rest of it, however long, is skipped.
    static let longestSequence = 4096

    /// Creates a decoder with nothing pending.
    public init() {}

    /// Whether bytes of an unfinished key are waiting (not counting an unfinished paste,
    /// which waits for its end however long it takes).
    public var hasPending: Bool { paste == nil && (!pending.isEmpty || skipping != nil) }

    /// Whether a bracketed paste started and has not ended.
    public var isInPaste: Bool { paste != nil }

    /// Decodes `bytes` after whatever was pending; returns the complete keys.
    ///
    /// - Complexity: O(n) in the bytes given (and what was pending).
    public mutating func decode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var i = 0
        if endedWithCR, !pending.isEmpty {
            endedWithCR = false
            // The LF of a CR LF that a read cut in two: one Enter, already given.
            if pending[0] == 0x0A { i = 1 }
        }
        if pausedAfterIntroducer {
            pausedAfterIntroducer = false
            // ESC [, a pause, then a byte no terminal sends there for a key: typed by hand.
            if pending.count > 2, pending[..<2].elementsEqual(Self.introducerCSI), (0x60...0x7E).contains(pending[2]) {
                keys.append(.alt("["))
                i = 2
            }
        }
        while i < pending.count {
            if let skipped = skipping {
                i = skip(skipped, from: i)
                continue
            }
            if paste != nil {
                // Everything up to ESC [ 201 ~ is text.
                guard let end = Self.find(Self.pasteEnd, in: pending, from: i) else {
                    // Keep a tail that may be the start of the end marker.
                    let keep = Self.partialSuffix(of: Self.pasteEnd, in: pending, from: i)
                    paste!.append(contentsOf: pending[i..<(pending.count - keep)])
                    i = pending.count - keep
                    break
                }
                paste!.append(contentsOf: pending[i..<end])
                keys.append(.paste(String(decoding: paste!, as: UTF8.self)))
                paste = nil
                i = end + Self.pasteEnd.count
                continue
            }
            guard let (key, length) = Self.key(at: i, in: pending) else {
                // An OSC, DCS or control sequence still open after this many bytes: its
                // first bytes are one unknown key, the rest is skipped up to its end, so that
                // no byte of it, however late it comes, is taken as a key.
                if pending.count - i > Self.longestSequence, pending[i] == 0x1B {
                    keys.append(.unknown(Array(pending[(i + 1)..<(i + Self.longestSequence)])))
                    skipping = pending[i + 1] == 0x5B ? .controlSequence
                        : .string(afterEscape: pending[i + Self.longestSequence - 1] == 0x1B)
                    i += Self.longestSequence
                    continue
                }
                break
            }
            if key == .unknown(Self.pasteStart) {
                paste = []
            } else if let key {
                keys.append(key)
            }
            i += length
        }
        endedWithCR = i > 0 && i == pending.count && pending[i - 1] == 0x0D && paste == nil && skipping == nil
        pending.removeFirst(i)
        return keys
    }

    /// Skips the rest of a sequence given up for its length, from `i`; returns where decoding goes on.
    private mutating func skip(_ skipped: Skipped, from i: Int) -> Int {
        var j = i
        switch skipped {
        case .string(var afterEscape):
            while j < pending.count {
                let byte = pending[j]
                j += 1
                if byte == 0x07 || (afterEscape && byte == 0x5C) {
                    skipping = nil
                    return j
                }
                afterEscape = byte == 0x1B
            }
            skipping = .string(afterEscape: afterEscape)
        case .controlSequence:
            while j < pending.count {
                let byte = pending[j]
                if (0x40...0x7E).contains(byte) {
                    skipping = nil
                    return j + 1
                }
                guard (0x20...0x3F).contains(byte) else {
                    // Broken off: the byte is its own key.
                    skipping = nil
                    return j
                }
                j += 1
            }
        }
        return j
    }

    /// Ends what is pending after a pause in the input: a lone ESC is the Escape key.
    ///
    /// Half an escape sequence or a cut UTF-8 character stays pending, for the next
    /// read to complete (a terminal or a slow link may split one anywhere), unless
    /// `includingUnfinished` is `true`: then it is given up as one ``Key/unknown(_:)``
    /// (its bytes after ESC), so that the keys typed after it are not taken as its end;
    /// a bare `ESC [` or `ESC O` is given up as ``Key/alt(_:)`` (Esc, then `[` or `O`),
    /// which is what was typed. After the short pause, a bare `ESC [` pending is ended
    /// by a next byte 0x60–0x7E (`j`, `q`): Esc, `[`, then that key.
    /// Call it with `false` after a short pause (tens of milliseconds) and with `true`
    /// after a long one (a second); ``TerminalApp`` does both on timers, so a cut-off
    /// sequence ends even when no more input comes (and the rest of an over-long one is
    /// no longer skipped). An unfinished paste keeps waiting for its end.
    public mutating func flush(includingUnfinished: Bool = false) -> [Key] {
        if includingUnfinished, paste == nil { skipping = nil }
        guard !pending.isEmpty, paste == nil else { return [] }
        if pending == [0x1B] {
            pending.removeAll()
            return [.escape]
        }
        guard includingUnfinished else {
            pausedAfterIntroducer = pending == Self.introducerCSI
            return []
        }
        pausedAfterIntroducer = false
        defer { pending.removeAll() }
        if pending == Self.introducerCSI || pending == Self.introducerSS3 {
            return [.alt(Character(Unicode.Scalar(pending[1])))]
        }
        return [.unknown(pending.first == 0x1B ? Array(pending.dropFirst()) : pending)]
    }

    static let introducerCSI: [UInt8] = [0x1B, 0x5B]
    static let introducerSS3: [UInt8] = [0x1B, 0x4F]

    static let pasteStart: [UInt8] = Array("[200~".utf8)
    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// The index of the first `needle` in `bytes` at or after `start`.
    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var i = start
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// How many bytes at the end of `bytes` (after `start`) are a proper prefix of `needle`.
    static func partialSuffix(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int {
        for length in stride(from: min(needle.count - 1, bytes.count - start), to: 0, by: -1)
        where bytes[(bytes.count - length)...].elementsEqual(needle.prefix(length)) {
            return length
        }
        return 0
    }

    /// The key starting at `i`, and its length; nil when more bytes are needed.
    /// A nil key with a length skips bytes that mean nothing.
    static func key(at i: Int, in bytes: [UInt8]) -> (Key?, Int)? {
        let b = bytes[i]
        switch b {
        case 0x1B:
            return escapeSequence(at: i, in: bytes)
        case 0x0D, 0x0A:
            // CR LF from a paste counts once.
            if b == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { return (.enter, 2) }
            return (.enter, 1)
        case 0x09:
            return (.tab, 1)
        case 0x7F, 0x08:
            return (.backspace, 1)
        case 0x00:
            return (nil, 1)
        case 0x01...0x1A:
            return (.control(Character(Unicode.Scalar(b + 0x60))), 1)
        case 0x1C...0x1F:
            return (nil, 1)
        case 0x20...0x7E:
            return (.character(Character(Unicode.Scalar(b))), 1)
        default:
            return utf8Character(at: i, in: bytes)
        }
    }

    static func utf8Character(at i: Int, in bytes: [UInt8]) -> (Key?, Int)? {
        let lead = bytes[i]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (nil, 1)   // a stray continuation byte or invalid lead
        }
        guard i + length <= bytes.count else {
            // Wait for the rest, unless a byte that cannot continue it came already.
            let available = bytes[(i + 1)...]
            return available.allSatisfy({ $0 & 0xC0 == 0x80 }) ? nil : (nil, 1)
        }
        let slice = bytes[i..<(i + length)]
        guard slice.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }) else { return (nil, 1) }
        let text = String(decoding: slice, as: UTF8.self)
        // C1 controls, the bidirectional controls and marks, and the line and paragraph
        // separators are no printable character (the rows show them as `�` or not at all).
        // An unassigned code point or a noncharacter is typed text: shown as `�`, as in the rows.
        guard let character = text.first, text.count == 1,
              !text.unicodeScalars.contains(where: { StyledLine.visible($0) != $0 && $0.properties.generalCategory != .unassigned }) else {
            return (nil, length)
        }
        return (.character(character), length)
    }

    static func escapeSequence(at i: Int, in bytes: [UInt8]) -> (Key?, Int)? {
        guard i + 1 < bytes.count else { return nil }
        let introducer = bytes[i + 1]
        switch introducer {
        case 0x5B:  // ESC [: CSI
            return controlSequence(at: i, in: bytes)
        case 0x4F:  // ESC O x: SS3 (application cursor keys, F1-F4)
            guard i + 2 < bytes.count else { return nil }
            let final = bytes[i + 2]
            // Broken off by a byte that cannot end it: ESC O is Alt-O, the byte its own key.
            guard (0x40...0x7E).contains(final) else { return (.alt("O"), 2) }
            let key: Key
            switch final {
            case 0x41: key = .up
            case 0x42: key = .down
            case 0x43: key = .right
            case 0x44: key = .left
            case 0x48: key = .home
            case 0x46: key = .end
            default: key = .unknown([introducer, final])
            }
            return (key, 3)
        case 0x5D, 0x50, 0x5F, 0x5E, 0x58:
            // OSC, DCS, APC, PM, SOS: a string up to BEL (OSC) or ST (ESC \).
            var j = i + 2
            while j < bytes.count {
                if bytes[j] == 0x07 { return (.unknown(Array(bytes[(i + 1)...j])), j - i + 1) }
                if bytes[j] == 0x1B {
                    guard j + 1 < bytes.count else { break }
                    if bytes[j + 1] == 0x5C { return (.unknown(Array(bytes[(i + 1)...(j + 1)])), j - i + 2) }
                }
                j += 1
            }
            return nil
        case 0x1B:
            // ESC ESC: the first is Escape (Alt-Escape is not told apart).
            return (.escape, 1)
        case 0x20...0x7E:
            return (.alt(Character(Unicode.Scalar(introducer))), 2)
        case 0x80...0xFF:
            // Alt with a non-ASCII character.
            guard let (key, length) = utf8Character(at: i + 1, in: bytes) else { return nil }
            if case .character(let c)? = key { return (.alt(c), length + 1) }
            return (.unknown(Array(bytes[(i + 1)..<(i + 1 + length)])), length + 1)
        default:
            // A control key (Enter, Backspace, Ctrl-C, …) after ESC: Escape, then that key
            // (Alt with a control key is not told apart from Esc typed just before it).
            return (.escape, 1)
        }
    }

    static func controlSequence(at i: Int, in bytes: [UInt8]) -> (Key?, Int)? {
        // X10 mouse report: ESC [ M and three bytes of button, column and row.
        if i + 2 < bytes.count, bytes[i + 2] == 0x4D {
            guard i + 5 < bytes.count else { return nil }
            return (.unknown(Array(bytes[(i + 1)...(i + 5)])), 6)
        }
        // CSI: parameters 0x30-0x3F, intermediates 0x20-0x2F, final 0x40-0x7E.
        var j = i + 2
        while j < bytes.count, (0x20...0x3F).contains(bytes[j]) { j += 1 }
        guard j < bytes.count else { return nil }
        let final = bytes[j]
        guard (0x40...0x7E).contains(final) else {
            // Broken off by a byte that cannot end it: a bare ESC [ is Alt-[ (Esc, then [),
            // a longer start one unknown key; the byte is its own key.
            if j == i + 2 { return (.alt("["), 2) }
            return (.unknown(Array(bytes[(i + 1)..<j])), j - i)
        }
        let parameters = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let first = fields.first ?? ""
        let length = j - i + 1
        let raw = Array(bytes[(i + 1)...j])
        // Only plain parameters (digits and ;) make keys; private ones (<, =, >, ?) never do.
        guard parameters.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ";") }) else { return (.unknown(raw), length) }
        // A modifier (ESC [ 1 ; 5 A is Ctrl-Up) keeps the key; other first parameters do not name keys.
        let plainLetterKey = first.isEmpty || first == "1"
        let key: Key
        switch final {
        case 0x41 where plainLetterKey: key = .up
        case 0x42 where plainLetterKey: key = .down
        case 0x43 where plainLetterKey: key = .right
        case 0x44 where plainLetterKey: key = .left
        case 0x48 where plainLetterKey: key = .home
        case 0x46 where plainLetterKey: key = .end
        case 0x5A where parameters.isEmpty: key = .tab
        case 0x7E:
            switch first {
            case "1", "7": key = .home
            case "4", "8": key = .end
            case "3": key = .delete
            case "5": key = .pageUp
            case "6": key = .pageDown
            default: key = .unknown(raw)   // F5-F12, Insert, 200~ (the paste start), …
            }
        default:
            key = .unknown(raw)
        }
        return (key, length)
    }
}
