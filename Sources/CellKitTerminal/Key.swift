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
    /// A printable character.
    case character(Character)
    /// An escape sequence the decoder does not know, as its bytes after ESC.
    case unknown([UInt8])
}
