/// A terminal color: one of the eight ANSI colors, its bright variant, or a 256-color index.
public enum TerminalColor: Hashable, Sendable {
    /// The eight basic ANSI colors.
    case black, red, green, yellow, blue, magenta, cyan, white
    /// A bright variant of a basic color (`brightBlack` is grey).
    case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite
    /// An index into the 256-color palette.
    case palette(UInt8)

    func sgr(background: Bool) -> String {
        let base = background ? 40 : 30
        switch self {
        case .black: return "\(base)"
        case .red: return "\(base + 1)"
        case .green: return "\(base + 2)"
        case .yellow: return "\(base + 3)"
        case .blue: return "\(base + 4)"
        case .magenta: return "\(base + 5)"
        case .cyan: return "\(base + 6)"
        case .white: return "\(base + 7)"
        case .brightBlack: return "\(base + 60)"
        case .brightRed: return "\(base + 61)"
        case .brightGreen: return "\(base + 62)"
        case .brightYellow: return "\(base + 63)"
        case .brightBlue: return "\(base + 64)"
        case .brightMagenta: return "\(base + 65)"
        case .brightCyan: return "\(base + 66)"
        case .brightWhite: return "\(base + 67)"
        case .palette(let index): return "\(base + 8);5;\(index)"
        }
    }
}

extension TerminalColor {
    /// The eight basic colors, in ANSI order (red is bit 0, green bit 1, blue bit 2).
    private static let basic: [TerminalColor] = [.black, .red, .green, .yellow, .blue, .magenta, .cyan, .white]
    private static let bright: [TerminalColor] = [.brightBlack, .brightRed, .brightGreen, .brightYellow, .brightBlue, .brightMagenta, .brightCyan, .brightWhite]

    /// This color on a terminal with 8 or 16 colors (`count`): see ``StyledLine/limitingColors(to:)``.
    func limited(to count: Int) -> TerminalColor {
        let index: Int
        switch self {
        case .palette(let value): index = Int(value)
        default:
            guard count < 16, let brightIndex = Self.bright.firstIndex(of: self) else { return self }
            return Self.basic[brightIndex]
        }
        if index < 16 { return index < 8 ? Self.basic[index] : count < 16 ? Self.basic[index - 8] : Self.bright[index - 8] }
        let (r, g, b) = Self.rgb(ofPaletteIndex: index)
        let high = max(r, g, b), low = min(r, g, b)
        if high - low < 40 {
            // A grey: by its lightness.
            let light = (r + g + b) / 3
            if count < 16 { return light < 128 ? .black : .white }
            return light < 64 ? .black : light < 128 ? .brightBlack : light < 192 ? .white : .brightWhite
        }
        // A hue: the channels above the middle of this color's own range, never all or none of them.
        let middle = (high + low) / 2
        var bits = (r > middle ? 1 : 0) | (g > middle ? 2 : 0) | (b > middle ? 4 : 0)
        if bits == 0 || bits == 7 { bits = r == high ? 1 : g == high ? 2 : 4 }
        return count >= 16 && high >= 215 ? Self.bright[bits] : Self.basic[bits]
    }

    /// The red, green and blue (0–255) of a 256-color index from 16 on (xterm's cube and greys).
    private static func rgb(ofPaletteIndex index: Int) -> (Int, Int, Int) {
        if index >= 232 {
            let grey = 8 + (index - 232) * 10
            return (grey, grey, grey)
        }
        let cube = index - 16
        func level(_ step: Int) -> Int { step == 0 ? 0 : 55 + step * 40 }
        return (level(cube / 36), level(cube / 6 % 6), level(cube % 6))
    }
}

extension TextStyle {
    /// This style on a terminal with 8 or 16 colors (`count`): see ``StyledLine/limitingColors(to:)``.
    func limitingColors(to count: Int) -> TextStyle {
        var style = self
        if count < 16, foreground == .brightBlack {
            // Black text would vanish on the usual dark background: grey is the default color, dim.
            style.foreground = nil
            style.isDim = true
        } else {
            style.foreground = foreground?.limited(to: count)
        }
        style.background = background?.limited(to: count)
        return style
    }
}

/// How a run of text looks: colors and attributes, written as SGR escape codes.
///
/// ```swift
/// var style = TextStyle.plain
/// style.isBold = true
/// style.foreground = .cyan
/// assert(style != .plain)
/// ```
public struct TextStyle: Hashable, Sendable {
    /// The text color; `nil` keeps the terminal's default.
    public var foreground: TerminalColor?
    /// The background color; `nil` keeps the terminal's default.
    public var background: TerminalColor?
    /// Bold (bright) text.
    public var isBold = false
    /// Faint text.
    public var isDim = false
    /// Italic text.
    public var isItalic = false
    /// Underlined text.
    public var isUnderlined = false
    /// Swapped foreground and background (the selection highlight).
    public var isInverse = false

    /// Creates a style.
    public init(
        foreground: TerminalColor? = nil, background: TerminalColor? = nil,
        bold: Bool = false, dim: Bool = false, italic: Bool = false,
        underlined: Bool = false, inverse: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.isBold = bold
        self.isDim = dim
        self.isItalic = italic
        self.isUnderlined = underlined
        self.isInverse = inverse
    }

    /// No color, no attribute.
    public static let plain = TextStyle()
    /// Bold.
    public static let bold = TextStyle(bold: true)
    /// Faint.
    public static let dim = TextStyle(dim: true)
    /// Inverse video.
    public static let inverse = TextStyle(inverse: true)

    /// The SGR sequence that switches from the default rendition to this style; empty for ``plain``.
    public var escapeSequence: String {
        var codes: [String] = []
        if isBold { codes.append("1") }
        if isDim { codes.append("2") }
        if isItalic { codes.append("3") }
        if isUnderlined { codes.append("4") }
        if isInverse { codes.append("7") }
        if let foreground { codes.append(foreground.sgr(background: false)) }
        if let background { codes.append(background.sgr(background: true)) }
        return codes.isEmpty ? "" : "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    /// This style with `other`'s attributes and colors laid over it.
    public func merging(_ other: TextStyle) -> TextStyle {
        var merged = self
        merged.foreground = other.foreground ?? foreground
        merged.background = other.background ?? background
        merged.isBold = isBold || other.isBold
        merged.isDim = isDim || other.isDim
        merged.isItalic = isItalic || other.isItalic
        merged.isUnderlined = isUnderlined || other.isUnderlined
        merged.isInverse = isInverse || other.isInverse
        return merged
    }
}

/// A run of text in one style.
public struct StyledSpan: Hashable, Sendable {
    /// The text; control characters are shown as visible symbols when fitted or
    /// rendered (see ``StyledLine``).
    public var text: String
    /// How it looks.
    public var style: TextStyle

    /// Creates a span.
    public init(_ text: String, style: TextStyle = .plain) {
        self.text = text
        self.style = style
    }
}

/// One line of styled text, as a cell renders it for a terminal.
///
/// Cell text is untrusted (commit subjects, user names), so no character of it
/// ever reaches the terminal as a control or escape sequence. Each control
/// character is shown as one visible column, counted in ``displayWidth``:
/// C0 controls (U+0000–U+001F) as their Unicode control pictures (tab `␉`,
/// newline `␊`, carriage return `␍`, escape `␛`, and so on), DEL (U+007F) as `␡`,
/// and C1 controls (U+0080–U+009F, which some terminals read as escape
/// sequences) as `�`. The bidirectional embedding, override and isolate controls
/// (U+202A–U+202E, U+2066–U+2069), which reorder the text after them (a
/// right-to-left override shows `"\u{202E}gnp.exe"` as `exe.png`), are shown as `�`
/// too, as are the line and paragraph separators (U+2028, U+2029, line breaks to some terminals), and the invisible direction marks (U+200E, U+200F, U+061C) are dropped:
/// text is shown in the order it is stored. Unassigned code points and noncharacters
/// (U+FFFF, U+FDD0–U+FDEF, U+0378, …: general category Cn in the standard library's Unicode
/// data, see ``DisplayWidth``), which terminals draw in 0, 1 or 2 columns as their own tables
/// say (tmux in 0), are shown as `�` too, one column everywhere: what is counted is what is
/// drawn. ``fitted(to:padStyle:)``,
/// ``rendered(ansi:)`` and ``plainText`` of a fitted line all use this form.
///
/// The spans are drawn one after another, so the terminal joins a grapheme cluster
/// that crosses a span boundary (a ZWJ sequence split between two spans, a span that
/// starts with a combining mark); ``displayWidth`` and ``fitted(to:padStyle:)``
/// measure the joined text the same way.
///
/// ```swift
/// let hostile = StyledLine("a\tb\u{1B}[2Jc")
/// assert(hostile.displayWidth == 8)
/// assert(hostile.fitted(to: 9).plainText == "a␉b␛[2Jc ")
/// let spoof = StyledLine("\u{202E}gnp.exe")
/// assert(spoof.fitted(to: 8).plainText == "\u{FFFD}gnp.exe")
/// let unassigned = StyledLine("a\u{FFFF}\u{378}b")
/// assert(unassigned.fitted(to: 5).plainText == "a\u{FFFD}\u{FFFD}b ")
/// ```
///
/// ```swift
/// var line: StyledLine = "Ada "
/// line.append("@ada", style: .dim)
/// assert(line.displayWidth == 8)
/// assert(line.fitted(to: 6).plainText == "Ada @…")
/// ```
public struct StyledLine: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The runs, in order.
    public var spans: [StyledSpan]

    /// Creates a line from spans.
    public init(_ spans: [StyledSpan] = []) { self.spans = spans }

    /// Creates a line of one span.
    public init(_ text: String, style: TextStyle = .plain) {
        self.spans = text.isEmpty ? [] : [StyledSpan(text, style: style)]
    }

    /// Creates a plain line from a string literal.
    public init(stringLiteral value: String) { self.init(value) }

    /// Appends a span.
    public mutating func append(_ text: String, style: TextStyle = .plain) {
        guard !text.isEmpty else { return }
        if let last = spans.last, last.style == style {
            spans[spans.count - 1].text += text
        } else {
            spans.append(StyledSpan(text, style: style))
        }
    }

    /// Appends the spans of `other`.
    public mutating func append(_ other: StyledLine) {
        for span in other.spans { append(span.text, style: span.style) }
    }

    /// The text without styles.
    public var plainText: String { spans.map(\.text).joined() }

    /// The columns the line occupies when drawn, control characters counting one column each.
    ///
    /// The spans are measured joined, as the terminal shows them: a grapheme cluster that
    /// crosses a span boundary (an emoji ZWJ sequence split between two spans, or a span
    /// that starts with a combining mark, variation selector or skin-tone modifier) counts
    /// once, so `"👩\u{200D}"` followed by `"💻"` is 2 columns, not 4.
    public var displayWidth: Int {
        var total = 0
        var previous = ""
        for span in spans {
            let text = Self.visible(span.text)
            if text.isEmpty { continue }
            if Self.joins(previous, text) { return DisplayWidth.of(Self.visible(plainText)) }
            total += DisplayWidth.of(text)
            previous = text
        }
        return total
    }

    /// The widest line ``fitted(to:padStyle:)`` makes: 65,535 columns, the most a terminal can report.
    public static let maximumWidth = Int(UInt16.max)

    public var description: String { plainText }

    /// The line with every span's colors removed, its attributes (bold, dim, italic,
    /// underline, reverse video) kept: what a terminal without colors, or `NO_COLOR`, shows.
    public var withoutColors: StyledLine {
        StyledLine(spans.map { span in
            var style = span.style
            style.foreground = nil
            style.background = nil
            return StyledSpan(span.text, style: style)
        })
    }

    /// The line with its colors mapped to those a terminal with `count` colors has
    /// (``TerminalCapabilities/colors``): 256 or more keeps them; 16 maps each 256-color index
    /// to one of the eight ANSI colors or its bright variant; 8 maps to the eight, a bright
    /// color to its basic one (bright black, grey text, to the default color, dim); 0 is
    /// ``withoutColors``. A color with a hue keeps it (an index's nearest
    /// of red, green, yellow, blue, magenta and cyan, never black or white, so white text on it
    /// stays readable); a grey goes to black or white (at 16, bright black or bright white too).
    ///
    /// ```swift
    /// let avatar = StyledLine("AL", style: TextStyle(foreground: .brightWhite, background: .palette(39)))
    /// let eight = avatar.limitingColors(to: 8).spans[0].style
    /// assert(eight.foreground == .white && eight.background == .cyan)
    /// ```
    public func limitingColors(to count: Int) -> StyledLine {
        if count >= 256 { return self }
        if count <= 0 { return withoutColors }
        return StyledLine(spans.map { StyledSpan($0.text, style: $0.style.limitingColors(to: count)) })
    }

    /// Every span's style with `style` laid over it (for example the selection highlight).
    public func applying(_ style: TextStyle) -> StyledLine {
        StyledLine(spans.map { StyledSpan($0.text, style: $0.style.merging(style)) })
    }

    /// The line cut or padded to exactly `width` columns.
    ///
    /// A cut line ends in "…"; a wide character that would straddle the edge
    /// becomes a space; control characters become visible symbols of one column
    /// (see ``StyledLine``). Padding uses `padStyle` (default: the style of the
    /// last span, so a highlight spans the row). Any width is accepted: zero or
    /// less gives an empty line, more than ``maximumWidth`` is fitted to ``maximumWidth``.
    ///
    /// The line is measured and cut by the grapheme clusters of its joined text, as
    /// ``displayWidth`` counts them, and a cluster that crosses a span boundary is
    /// kept whole in the style of the span it starts in. So every span boundary of
    /// the result is a cluster boundary, and `DisplayWidth.of(fitted.plainText)`,
    /// `fitted.displayWidth` and `width` are equal.
    ///
    /// ```swift
    /// let split = StyledLine([StyledSpan("👩\u{200D}"), StyledSpan("💻 dev", style: .dim)])
    /// let fitted = split.fitted(to: 8)
    /// assert(DisplayWidth.of(fitted.plainText) == 8 && fitted.displayWidth == 8)
    /// assert(fitted.spans[0].text == "👩\u{200D}💻")
    /// ```
    public func fitted(to width: Int, padStyle: TextStyle? = nil) -> StyledLine {
        guard width > 0 else { return StyledLine() }
        let width = min(width, Self.maximumWidth)
        let spans = visibleClusterSpans()
        let total = spans.reduce(0) { $0 + DisplayWidth.of($1.text) }
        var result = StyledLine()
        if total <= width {
            for span in spans { result.append(span.text, style: span.style) }
            if total < width {
                result.appendFiller(spaces: width - total, ellipsis: false, style: padStyle ?? self.spans.last?.style ?? .plain)
            }
            return result
        }
        // Cut: keep width - 1 columns, then spaces up to them (a wide character that
        // straddles the edge) and an ellipsis.
        let budget = width - 1
        var used = 0
        var lastStyle = TextStyle.plain
        outer: for span in spans {
            lastStyle = span.style
            var piece = ""
            for character in span.text {
                let w = DisplayWidth.of(character)
                if used + w > budget {
                    result.append(piece, style: span.style)
                    break outer
                }
                piece.append(character)
                used += w
            }
            result.append(piece, style: span.style)
        }
        result.appendFiller(spaces: budget - used, ellipsis: true, style: lastStyle)
        return result
    }

    /// Appends `spaces` spaces, then an ellipsis if `ellipsis`, after the text.
    ///
    /// After a prepended concatenation mark (U+0600 and the like), which joins the
    /// character after it into its cluster, the first of them goes in the mark's span
    /// and style, and a column the join loses (``DisplayWidth`` counts a cluster at
    /// most 2 columns) is made up with a space, so the line keeps its width.
    private mutating func appendFiller(spaces: Int, ellipsis: Bool, style: TextStyle) {
        var spaces = spaces
        var ellipsis = ellipsis
        // Prepended marks are not ASCII: after ASCII nothing joins.
        if let last = spans.last, let end = last.text.utf8.last, end >= 0x80, spaces > 0 || ellipsis,
           Self.joins(last.text, spaces > 0 ? " " : "…") {
            let cluster = String(last.text.last!)
            if DisplayWidth.of(cluster + " ") == DisplayWidth.of(cluster) { spaces += 1 }
            if spaces > 0 {
                append(" ", style: last.style)
                spaces -= 1
            } else {
                append("…", style: last.style)
                ellipsis = false
            }
        }
        if spaces > 0 { append(String(repeating: " ", count: spaces), style: style) }
        if ellipsis { append("…", style: style) }
    }

    /// The line as text with SGR escape codes (`ansi`), or plain text.
    ///
    /// Each styled span starts from the default rendition and resets after itself.
    /// Control characters in the text are drawn as visible symbols (see ``StyledLine``),
    /// so the only escape sequences in the result are the styles' own.
    public func rendered(ansi: Bool) -> String {
        var out = ""
        for span in spans {
            let text = Self.visible(span.text)
            let escape = ansi ? span.style.escapeSequence : ""
            if escape.isEmpty {
                out += text
            } else {
                out += escape + text + "\u{1B}[0m"
            }
        }
        return out
    }

    /// The spans in their visible form, empty ones left out, with every span boundary
    /// on a grapheme-cluster boundary of the joined text: a cluster that starts in one
    /// span and ends in a later one goes whole to the span it starts in.
    func visibleClusterSpans() -> [StyledSpan] {
        var shown: [StyledSpan] = []
        shown.reserveCapacity(spans.count)
        var crosses = false
        for span in spans {
            let text = Self.visible(span.text)
            if text.isEmpty { continue }
            if !crosses, !shown.isEmpty, Self.joins(shown[shown.count - 1].text, text) { crosses = true }
            shown.append(StyledSpan(text, style: span.style))
        }
        guard crosses else { return shown }
        // Walk the clusters of the joined text; each takes the style of the span holding its first byte.
        var result: [StyledSpan] = []
        var spanIndex = 0
        var spanEnd = shown[0].text.utf8.count
        var offset = 0
        var piece = ""
        var pieceStyle = shown[0].style
        for character in shown.map(\.text).joined() {
            while offset >= spanEnd {
                spanIndex += 1
                spanEnd += shown[spanIndex].text.utf8.count
            }
            let style = shown[spanIndex].style
            if style != pieceStyle {
                if !piece.isEmpty { result.append(StyledSpan(piece, style: pieceStyle)) }
                piece = ""
                pieceStyle = style
            }
            piece.append(character)
            offset += character.utf8.count
        }
        if !piece.isEmpty { result.append(StyledSpan(piece, style: pieceStyle)) }
        return result
    }

    /// Whether `text` written right after `previous` changes the grapheme clusters: the
    /// boundary between them is not a cluster boundary of the joined text (a ZWJ sequence,
    /// a combining mark or modifier starting `text`, a regional-indicator pair, a prepended
    /// mark ending `previous`). Checking the boundary is enough: with no cluster across it,
    /// the clusters on each side are those of each text alone.
    static func joins(_ previous: String, _ text: String) -> Bool {
        guard let after = text.utf8.first, let before = previous.utf8.last else { return false }
        // ASCII next to ASCII always breaks (after `visible`, which leaves no CR or LF).
        if before < 0x80 && after < 0x80 { return false }
        guard let last = previous.last, let first = text.first else { return false }
        var pair = String(last)
        pair.append(first)
        return pair.first!.unicodeScalars.count != last.unicodeScalars.count
    }

    /// `text` with every control character replaced by its one-column visible form:
    /// C0 by its control picture (U+2400 + code), DEL by `␡`, C1, U+2028, U+2029, the bidirectional
    /// embedding, override and isolate controls, and unassigned code points and noncharacters
    /// by `�`; the direction marks are dropped.
    static func visible(_ text: String) -> String {
        // Fast path: C0 and DEL are single bytes; C1 is encoded as C2 80...C2 9F; everything
        // else replaced is U+0378 or above (lead byte CD or more: the bidi controls start with
        // E2 80, E2 81 or D8 9C). Latin text (lead bytes C3 to CC) takes the fast path too.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 >= 0xCD }),
              text.unicodeScalars.contains(where: isReplaced) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let shown = visible(scalar) { scalars.append(shown) }
        }
        return String(scalars)
    }

    /// Whether `visible(scalar)` is not `scalar` itself.
    @inline(__always)
    private static func isReplaced(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x378 { return v < 0x20 || (v >= 0x7F && v < 0xA0) }
        return visible(scalar) != scalar
    }

    /// How `scalar` is shown: itself, a visible stand-in, or `nil` (dropped).
    static func visible(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let v = scalar.value
        // Comparisons, not a `switch` of ranges: this runs for every scalar of non-ASCII text.
        if v < 0xA0 {
            if v >= 0x20 && v < 0x7F { return scalar }
            if v < 0x20 { return Unicode.Scalar(0x2400 + v)! }
            return v == 0x7F ? "\u{2421}" : "\u{FFFD}"  // DEL; C1
        }
        // Below U+0378, the first unassigned code point: nothing else to replace.
        if v < 0x378 { return scalar }
        if v >= 0x2028 && v <= 0x2069 {
            // The line and paragraph separators (line breaks to some terminals, nothing to
            // others); embeddings, overrides, their pop, and isolates (they reorder what follows).
            if v <= 0x2029 || (v >= 0x202A && v <= 0x202E) || v >= 0x2066 { return "\u{FFFD}" }
        }
        // Left-to-right, right-to-left and Arabic letter marks: invisible, zero width.
        if v == 0x200E || v == 0x200F || v == 0x61C { return nil }
        // Ranges with no unassigned code point (`_assignedRanges`): no lookup for most text.
        if DisplayWidth.contains(_assignedRanges, v) { return scalar }
        // Unassigned code points and noncharacters (general category Cn, as the standard
        // library's Unicode data has them): terminals draw them in 0, 1 or 2 columns, as
        // their own tables say, so they are shown as `�`, one column on every terminal.
        return scalar.properties.generalCategory == .unassigned ? "\u{FFFD}" : scalar
    }
}

extension StyledLine {
    /// Words of `text` wrapped into lines of at most `width` columns, as ``displayWidth``
    /// counts them; a word longer than a line is broken between grapheme clusters.
    ///
    /// Words are separated by spaces, tabs and line breaks (LF, CR, CR LF, VT, FF, NEL,
    /// U+2028 and U+2029). The lines hold the words'
    /// visible form (see ``StyledLine``): each control character is one column, as
    /// drawn. A character wider than the whole line (a wide character at width 1) is
    /// shown as ``fitted(to:padStyle:)`` shows it, cut to "…", so no line is wider
    /// than `width`. A word that takes no column (only zero-width characters: a lone
    /// zero-width space, joiner or combining mark) is left out, so no line is empty or
    /// blank, except the one line of a `text` with no words. At most `maxLines` lines; the
    /// last one is cut with "…". A width or `maxLines` of zero or less gives no lines.
    ///
    /// ```swift
    /// let lines = StyledLine.wrap("one two\u{1B} three", width: 7)
    /// assert(lines.map(\.plainText) == ["one", "two␛", "three"])
    /// assert(StyledLine.wrap("日本 語", width: 1).map(\.plainText) == ["…", "…", "…"])
    /// assert(StyledLine.wrap("a \u{200B} b", width: 1).map(\.plainText) == ["a", "b"])
    /// ```
    public static func wrap(_ text: String, width: Int, maxLines: Int = .max, style: TextStyle = .plain) -> [StyledLine] {
        guard width > 0, maxLines > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        func flush() {
            lines.append(current)
            current = ""
            currentWidth = 0
        }
        for rawWord in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0.isNewline }) {
            // Measured as drawn: a control character is a one-column symbol, a direction mark nothing.
            let word = visible(String(rawWord))
            let wordWidth = DisplayWidth.of(word)
            // A word that takes no column (a lone zero-width space, joiner or combining mark)
            // would show as nothing, or as a blank line of its own: left out.
            if wordWidth == 0 { continue }
            let gap = current.isEmpty ? 0 : 1
            if currentWidth + gap + wordWidth <= width {
                if gap == 1 { current += " " }
                current += word
                currentWidth += gap + wordWidth
                continue
            }
            if !current.isEmpty { flush() }
            if wordWidth <= width {
                current = word
                currentWidth = wordWidth
                continue
            }
            for character in word {
                let w = DisplayWidth.of(character)
                if currentWidth + w > width, !current.isEmpty { flush() }
                if w > width {
                    // No line can hold it: its stand-in fills a line of its own.
                    current = StyledLine(String(character)).fitted(to: width).plainText
                    currentWidth = width
                } else {
                    current.append(character)
                    currentWidth += w
                }
            }
        }
        if !current.isEmpty || lines.isEmpty { flush() }
        if lines.count > maxLines {
            var kept = Array(lines.prefix(maxLines))
            // Every line dropped goes into the cut, so that it ends with "…" even when the
            // first of them alone would still fit (a stand-in for a too-wide character after it).
            let rest = lines[maxLines...].joined(separator: " ")
            kept[maxLines - 1] = StyledLine(kept[maxLines - 1] + " " + rest, style: style).fitted(to: width).plainText
            lines = kept
        }
        return lines.map { StyledLine($0, style: style) }
    }
}

/// Ranges of code points assigned whole since Unicode 10.0 or before, so in the data of every
/// standard library Swift 6 runs on (sorted): the common scripts' letters (Greek, Cyrillic, Hebrew,
/// Arabic, Devanagari, Thai, Vietnamese Latin), punctuation, arrows,
/// box drawing and symbols, the control pictures, CJK ideographs, kana, Hangul syllables,
/// fullwidth forms and emoji. `StyledLine.visible(_:)` looks no category up for them.
let _assignedRanges: [ClosedRange<UInt32>] = [
    0x038E...0x03A1, 0x03A3...0x03FF, 0x0400...0x052F, 0x05D0...0x05EA, 0x0620...0x065F, 0x0900...0x097F,
    0x0E01...0x0E3A, 0x1E00...0x1EFF, 0x2010...0x2064, 0x2100...0x218B, 0x2190...0x23FF,
    0x2400...0x2426, 0x2460...0x27FF, 0x3000...0x303F, 0x3041...0x3096, 0x3099...0x30FF,
    0x4E00...0x9FD5, 0xAC00...0xD7A3, 0xFF01...0xFFBE, 0xFFF9...0xFFFD, 0x1F300...0x1F64F,
]
