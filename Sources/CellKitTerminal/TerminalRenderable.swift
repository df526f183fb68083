import CellKit

/// A cell that draws itself as styled text in a ``TerminalListView``.
///
/// Return as many lines as the cell needs at `width`; the list view cuts or
/// pads each line to the width and the row to its height (from the delegate,
/// or the number of lines returned when the delegate gives none).
///
/// A note drawn as a bulleted paragraph, its text wrapped beside the bullet:
///
/// ```swift
/// import CellKit
/// import CellKitTerminal
///
/// final class NoteCell: ListCell, TerminalRenderable {
///     var text = ""
///     init() {}
///     func terminalLines(width: Int) -> [StyledLine] {
///         StyledLine.wrap(text, width: width - 2).enumerated().map { index, line in
///             var prefixed = StyledLine(index == 0 ? "• " : "  ", style: .dim)
///             prefixed.append(line)
///             return prefixed
///         }
///     }
/// }
/// ```
@MainActor
public protocol TerminalRenderable: AnyObject {
    /// The cell's lines at `width` columns.
    func terminalLines(width: Int) -> [StyledLine]
}

/// How the terminal list view draws cells that do not adopt ``TerminalRenderable``.
@MainActor
enum CellRendering {
    /// The frames of the loading row's spinner.
    static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    static func lines(for cell: AnyObject, width: Int, phase: Int = 0) -> [StyledLine] {
        if let renderable = cell as? TerminalRenderable {
            let lines = renderable.terminalLines(width: width)
            return lines.isEmpty ? [StyledLine()] : lines
        }
        if let more = cell as? LoadMoreCell, more.error != nil {
            // The failed "load more" row: the message, then the retry hint.
            var lines = [StyledLine("  ↻ " + more.text, style: TextStyle(foreground: .red))]
            if let detail = more.detailText, !detail.isEmpty { lines.append(StyledLine("    " + detail + " (Enter)", style: .dim)) }
            return lines
        }
        if let loading = cell as? LoadingCell {
            let mark = loading.isAnimating ? spinner[phase % spinner.count] : "⋯"
            return [StyledLine("  \(mark) " + loading.text, style: TextStyle(foreground: .cyan))]
        }
        if let noResults = cell as? NoResultsCell {
            return [StyledLine("  ∅ " + noResults.text, style: .dim)]
        }
        if let error = cell as? ErrorCell {
            // The message names what failed: wrap it rather than cut it.
            let style = TextStyle(foreground: .red, bold: true)
            var lines = StyledLine.wrap(error.text, width: max(1, width - 4), maxLines: 4, style: style).enumerated().map { index, line in
                var prefixed = StyledLine(index == 0 ? "  ✖ " : "    ", style: style)
                prefixed.append(line)
                return prefixed
            }
            if let detail = error.detailText {
                lines.append(StyledLine("    " + detail + (error.canRetry ? " (Enter)" : ""), style: .dim))
            }
            return lines
        }
        if let text = cell as? TextCell {
            return textCellLines(text, width: width)
        }
        return [StyledLine(String(describing: type(of: cell)), style: .dim)]
    }

    /// A text cell: the title with the accessory at the trailing edge, then the detail line.
    static func textCellLines(_ cell: TextCell, width: Int) -> [StyledLine] {
        var first = StyledLine(" " + cell.text)
        if let accessory = cell.accessory, !accessory.isEmpty {
            // Measured as drawn (a control character is a one-column symbol), so the accessory ends at the edge.
            let accessoryWidth = StyledLine(accessory).displayWidth + 1
            first = first.fitted(to: max(0, width - accessoryWidth))
            first.append(" " + accessory, style: .dim)
        }
        var lines = [first]
        if let detail = cell.detailText, !detail.isEmpty {
            lines.append(StyledLine("   " + detail, style: .dim))
        }
        return lines
    }
}
