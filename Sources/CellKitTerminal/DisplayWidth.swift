/// How many terminal columns text occupies: 0 for combining marks and other
/// zero-width scalars, 2 for East Asian wide characters and emoji, 1 otherwise;
/// an emoji with a skin-tone modifier counts the modifier's 2 columns too, as
/// tmux does.
///
/// A small `wcwidth` that needs no locale: tables of the wide and zero-width
/// ranges, searched by binary search.
///
/// ## Unicode version
///
/// The categories (zero width, unassigned) and the emoji shown wide come from the Unicode
/// data of the Swift standard library the program runs with: Unicode 17.0 for Swift 6.3 on
/// Linux (on Apple platforms, the system's). The East Asian wide ranges are Unicode 17.0's
/// too, but for a few symbols counted as the C library's `wcwidth` counts them (and tmux 3.3a
/// draws them): one column for those Unicode 16.0 made wide (U+2630–U+2637, U+268A–U+268F,
/// U+1D300–U+1D376), two for U+3248–U+324F. An unassigned code point or noncharacter counts
/// one column: ``StyledLine`` shows it as `�` (U+FFFD).
///
/// A terminal draws with its own tables. One older than the characters in a line draws
/// those it does not know in fewer columns: tmux 3.3a on Debian 12 (whose C library has
/// Unicode 14 data) draws the emoji of Unicode 15 to 17 (such as 🩵 U+1FA75) in no column, so
/// a line holding one is drawn 2 columns short: what follows it moves left and the end of
/// the line stays blank; nothing is cut or wrapped. A character the standard library does
/// not know yet is shown as `�`, so a terminal with newer tables never draws text wider than
/// it was counted.
///
/// ```swift
/// assert(DisplayWidth.of("abc") == 3)
/// assert(DisplayWidth.of("日本") == 4)
/// assert(DisplayWidth.of("e\u{301}") == 1)
/// assert(DisplayWidth.of("👍🏽") == 4)
/// ```
public enum DisplayWidth {
    /// The columns `scalar` occupies: 0, 1 or 2. Control characters count 0.
    ///
    /// Zero: nonspacing and enclosing marks, format characters (joiners,
    /// variation selectors' neighbours), Hangul medial and final jamo. Two:
    /// emoji shown as emoji by default, and the East Asian Wide and Fullwidth
    /// ranges. The categories come from the standard library's Unicode tables.
    ///
    /// - Complexity: O(log r), r the number of wide ranges.
    @inlinable
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x300 {
            // ASCII and Latin: the fast path.
            return (v < 0x20 || (v >= 0x7F && v < 0xA0)) ? 0 : 1
        }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .control:
            return 0
        case .format:
            // Prepended concatenation marks (such as the Arabic number sign) are visible.
            return contains(_visibleFormatRanges, v) ? 1 : 0
        case .unassigned:
            // Unassigned code points and noncharacters: terminals draw them in 0, 1 or 2
            // columns, so `StyledLine` shows U+FFFD instead, which takes one.
            return 1
        default:
            break
        }
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return 0 }
        // Regional indicators are one column each, as the C library counts them.
        if (0x1F1E6...0x1F1FF).contains(v) { return 1 }
        if v >= 0x1100 && (properties.isEmojiPresentation || contains(_wideRanges, v)) { return 2 }
        return 1
    }

    /// The columns `character` (a grapheme cluster) occupies: the sum of its scalars'
    /// widths, plus 2 for each emoji modifier (skin tone, U+1F3FB–U+1F3FF) in it; a joined
    /// emoji sequence (an emoji, then ZWJ and more) counts at most 2 besides its modifiers.
    ///
    /// A joined emoji sequence takes the columns of one emoji, but a skin-tone modifier
    /// takes two columns of its own, as tmux, xterm and the C library's `wcswidth` count
    /// it: `👍🏽` is 4 columns, `✌🏽` 3, `👩🏽‍💻` 4. (Terminals that draw `👍🏽` as one
    /// 2-column glyph show the line 2 columns short; none cuts it.) Any other cluster is
    /// its scalars' sum, as those terminals draw it: a Devanagari conjunct with a vowel sign
    /// such as `त्रि` (त, virama, र, the spacing vowel sign ि) is 3 columns.
    @inlinable
    public static func of(_ character: Character) -> Int {
        var total = 0
        var modifiers = 0
        var joined = false
        for scalar in character.unicodeScalars {
            if (0x1F3FB...0x1F3FF).contains(scalar.value) {
                modifiers += 1
            } else {
                if scalar.value == 0x200D { joined = true }
                total += of(scalar)
            }
        }
        guard joined, let first = character.unicodeScalars.first, first.value >= 0x80, first.properties.isEmoji else {
            return total + 2 * modifiers
        }
        return min(total, 2) + 2 * modifiers
    }

    /// The columns `text` occupies.
    ///
    /// - Complexity: O(n) in the length of `text`.
    @inlinable
    public static func of<S: StringProtocol>(_ text: S) -> Int {
        var total = 0
        for character in text {
            if character.isASCII, let ascii = character.asciiValue {
                total += ascii < 0x20 || ascii == 0x7F ? 0 : 1
            } else {
                total += of(character)
            }
        }
        return total
    }

    @usableFromInline
    static func contains(_ ranges: [ClosedRange<UInt32>], _ value: UInt32) -> Bool {
        var low = 0
        var high = ranges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = ranges[mid]
            if value < range.lowerBound {
                high = mid - 1
            } else if value > range.upperBound {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }
}

/// Format characters that take a column: prepended concatenation marks (sorted).
@usableFromInline
let _visibleFormatRanges: [ClosedRange<UInt32>] = [
    0x0600...0x0605, 0x06DD...0x06DD, 0x070F...0x070F, 0x0890...0x0891, 0x08E2...0x08E2,
    0x110BD...0x110BD, 0x110CD...0x110CD,
]

/// East Asian Wide and Fullwidth characters, and emoji shown wide (sorted): Unicode 17.0's,
/// but for a few symbols counted as `wcwidth` counts them (see ``DisplayWidth``).
@usableFromInline
let _wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
    0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
    0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
    0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
    0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
    0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
    0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
    0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DFF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
    0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
    0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x16FF0...0x16FF6, 0x17000...0x18CFF, 0x18D00...0x18D1E, 0x18D80...0x18DF2, 0x1AFF0...0x1AFFE, 0x1B000...0x1B2FF,
    0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
    0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251,
    0x1F260...0x1F265, 0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C,
    0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0,
    0x1F3F4...0x1F3F4, 0x1F3F8...0x1F3FA, 0x1F400...0x1F43E, 0x1F440...0x1F440,
    0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567,
    0x1F57A...0x1F57A, 0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F,
    0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7,
    0x1F6DC...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB,
    0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
    0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
]
