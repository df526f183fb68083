/// What counts as text that shows nothing: the one rule of the default cell's text, the
/// error row's message and an index title's lead.
enum BlankText {
    /// Whether `scalar` draws nothing: white space, a control or format character, a
    /// default-ignorable code point (the Hangul fillers, variation selectors, the combining
    /// grapheme joiner, Mongolian and Khmer invisible signs), or the blank Braille pattern.
    nonisolated static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        // White space covers the space, line and paragraph separators.
        return properties.isWhitespace || properties.isDefaultIgnorableCodePoint || scalar.value == 0x2800
            || properties.generalCategory == .control || properties.generalCategory == .format
    }

    /// Whether `text` shows nothing (empty, or only invisible scalars).
    nonisolated static func showsNothing(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.allSatisfy(isInvisible)
    }
}
