/// Remembers what is on the terminal and writes only the lines that changed.
///
/// Each line of a frame is positioned with a cursor move and written whole;
/// a line equal to the one already on screen costs nothing. The first frame,
/// and the first after ``invalidate()`` or a size change, clears and redraws all.
///
/// ```swift
/// var screen = ScreenBuffer()
/// let full = screen.update(["one", "two"], columns: 3)
/// let diff = screen.update(["one", "TWO"], columns: 3)
/// assert(diff.count < full.count)
/// assert(screen.update(["one", "TWO"], columns: 3).isEmpty)
/// ```
public struct ScreenBuffer: Sendable {
    private var lines: [String] = []
    private var columns = 0
    private var valid = false

    /// Creates a buffer that knows nothing of the screen (the first update redraws all).
    public init() {}

    /// Forgets what is on screen: the next update redraws everything (after a resize, or a foreign write).
    public mutating func invalidate() { valid = false }

    /// The bytes that turn the screen into `frame` (styled lines), `columns` wide.
    ///
    /// A line wider than `columns` is cut to them (``StyledLine/fitted(to:padStyle:)``), so
    /// that the terminal does not wrap it onto the next line; a narrower one is written as
    /// it is (the rest of its screen line is cleared).
    public mutating func update(_ frame: [StyledLine], columns: Int) -> [UInt8] {
        update(frame.map { ($0.displayWidth > columns ? $0.fitted(to: max(0, columns)) : $0).rendered(ansi: true) }, columns: columns)
    }

    /// The bytes that turn the screen into `frame` (lines with escape codes), `columns` wide.
    ///
    /// The lines are written as given: each must fit in `columns` (a longer one wraps onto
    /// the next screen line) and carry only escape codes meant for the terminal (render
    /// untrusted text with ``StyledLine/rendered(ansi:)``).
    public mutating func update(_ frame: [String], columns: Int) -> [UInt8] {
        var out = ""
        if !valid || columns != self.columns || frame.count != lines.count {
            out += "\u{1B}[0m\u{1B}[H\u{1B}[2J"
            lines = Array(repeating: "", count: frame.count)
            self.columns = columns
            valid = true
            for (i, line) in frame.enumerated() where !line.isEmpty {
                out += Self.moveTo(line: i) + line + "\u{1B}[0m"
            }
            lines = frame
            return Array(out.utf8)
        }
        for (i, line) in frame.enumerated() where line != lines[i] {
            // The line is full width, so it overwrites the old one completely; clear for shorter lines.
            out += Self.moveTo(line: i) + "\u{1B}[2K" + line + "\u{1B}[0m"
            lines[i] = line
        }
        return Array(out.utf8)
    }

    static func moveTo(line: Int) -> String { "\u{1B}[\(line + 1);1H" }
}
