/// Turns the bytes read from a terminal in raw mode into keys.
///
/// One read may carry several keys, or end in the middle of an escape sequence
/// or a UTF-8 character; the decoder keeps the unfinished tail for the next
/// read. A lone ESC is ambiguous until more bytes arrive or a short pause
/// passes: call ``flush()`` after the pause.
///
/// ```swift
/// var decoder = InputDecoder()
/// assert(decoder.decode([0x1B, 0x5B]) == [])          // ESC [ ... split
/// assert(decoder.decode([0x41, 0x6A]) == [.up, .character("j")])
/// assert(decoder.decode([0x1B, 0x4F, 0x42]) == [.down]) // ESC O B
/// ```
public struct InputDecoder: Sendable {
    private var pending: [UInt8] = []

    /// Creates a decoder with nothing pending.
    public init() {}

    /// Whether bytes of an unfinished key are waiting.
    public var hasPending: Bool { !pending.isEmpty }

    /// Decodes `bytes` after whatever was pending; returns the complete keys.
    public mutating func decode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var i = 0
        while i < pending.count {
            guard let (key, length) = Self.key(at: i, in: pending) else { break }
            if let key { keys.append(key) }
            i += length
        }
        pending.removeFirst(i)
        return keys
    }

    /// Ends an unfinished sequence after a pause: a lone ESC is the Escape key,
    /// anything else pending is decoded as far as it goes.
    public mutating func flush() -> [Key] {
        guard !pending.isEmpty else { return [] }
        var keys: [Key] = []
        if pending[0] == 0x1B {
            keys.append(.escape)
            pending.removeFirst()
            keys += decode([])
        }
        if !pending.isEmpty {
            // An incomplete UTF-8 tail or sequence that never finished.
            keys.append(.unknown(pending))
            pending.removeAll()
        }
        return keys
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
        guard i + length <= bytes.count else { return nil }
        let slice = bytes[i..<(i + length)]
        guard slice.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }) else { return (nil, 1) }
        let text = String(decoding: slice, as: UTF8.self)
        guard let character = text.first, text.count == 1 else { return (nil, length) }
        return (.character(character), length)
    }

    static func escapeSequence(at i: Int, in bytes: [UInt8]) -> (Key?, Int)? {
        guard i + 1 < bytes.count else { return nil }
        let introducer = bytes[i + 1]
        if introducer == 0x4F {  // ESC O x (application cursor keys)
            guard i + 2 < bytes.count else { return nil }
            let final = bytes[i + 2]
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
        }
        guard introducer == 0x5B else {
            // ESC then another key (Alt+key, or Escape typed quickly before a key).
            if introducer == 0x1B { return (.escape, 1) }
            return (.escape, 1)
        }
        // CSI: parameters 0x30-0x3F, intermediates 0x20-0x2F, final 0x40-0x7E.
        var j = i + 2
        while j < bytes.count, (0x20...0x3F).contains(bytes[j]) { j += 1 }
        guard j < bytes.count else {
            // Give up on runaway sequences rather than waiting forever.
            return j - i > 32 ? (.unknown(Array(bytes[(i + 1)..<j])), j - i) : nil
        }
        let final = bytes[j]
        let parameters = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
        let first = parameters.split(separator: ";").first.map(String.init) ?? ""
        let length = j - i + 1
        let key: Key
        switch final {
        case 0x41: key = .up
        case 0x42: key = .down
        case 0x43: key = .right
        case 0x44: key = .left
        case 0x48: key = .home
        case 0x46: key = .end
        case 0x5A: key = .tab
        case 0x7E:
            switch first {
            case "1", "7": key = .home
            case "4", "8": key = .end
            case "3": key = .delete
            case "5": key = .pageUp
            case "6": key = .pageDown
            default: key = .unknown(Array(bytes[(i + 1)...j]))
            }
        default:
            key = .unknown(Array(bytes[(i + 1)...j]))
        }
        return (key, length)
    }
}
