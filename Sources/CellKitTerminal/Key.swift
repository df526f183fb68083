/// A key press decoded from terminal input.
public enum Key: Hashable, Sendable {
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, tab, delete
    /// Ctrl plus a letter, as the letter ("c" for Ctrl-C).
    case control(Character)
    /// A printable character.
    case character(Character)
    /// An escape sequence the decoder does not know, as its bytes after ESC.
    case unknown([UInt8])
}
