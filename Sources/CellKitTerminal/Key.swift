/// A key press decoded from terminal input.
public enum Key: Hashable, Sendable {
    /// The arrow keys (`ESC [ A` or `ESC O A`, and so on).
    case up, down, left, right
    /// Page Up, Page Down, Home and End, in their common spellings.
    case pageUp, pageDown, home, end
    /// Return or Enter (CR, LF, or CR LF once).
    case enter
    /// Escape alone (after a short pause with nothing following).
    case escape
    /// Backspace (DEL or BS).
    case backspace
    /// Tab (and Shift-Tab).
    case tab
    /// The Delete key (`ESC [ 3 ~`).
    case delete
    /// Ctrl plus a letter, as the letter ("c" for Ctrl-C).
    case control(Character)
    /// A printable character. The decoder drops the characters a row would not show as
    /// typed (invalid UTF-8, C1 controls, the bidirectional controls and direction marks,
    /// U+2028 and U+2029): they make no key. An unassigned code point or a noncharacter is a
    /// character (the prompt shows it as `�`, as the rows do).
    case character(Character)
    /// Alt (Meta) plus a printable character, sent as ESC then the character.
    case alt(Character)
    /// Text pasted while bracketed paste is on (`ESC [ 200 ~` … `ESC [ 201 ~`), whole,
    /// as typed characters would never be: a paste is one key.
    case paste(String)
    /// A sequence that is not a key the decoder knows, as its bytes after ESC:
    /// unknown CSI, SS3, OSC, DCS, APC, PM and SOS sequences, mouse reports
    /// (`ESC [ M b x y` and SGR `ESC [ < … M`). (ESC before a control key is
    /// ``escape``, then that key: Alt with a control key is not told apart.)
    /// Apps ignore it unless they bind it; it never stands for another key.
    case unknown([UInt8])
}
