import CellKit
import CellKitTerminal

/// Rows of the history: a plain commit, a merge, a commit with tags.
protocol CommitRow: Sendable {
    var info: CommitInfo { get }
}

struct Commit: Identifiable, Equatable, CommitRow {
    let info: CommitInfo
    var id: String { info.hash }
}

struct Merge: Identifiable, Equatable, CommitRow {
    let info: CommitInfo
    var id: String { info.hash }
}

struct TaggedCommit: Identifiable, Equatable, CommitRow {
    let info: CommitInfo
    var id: String { info.hash }
}

/// What the commit cells share: the info and the diffstat once it arrived.
class CommitCellBase: ListCell {
    var info: CommitInfo?
    var diffstat: String?
    required init() {}

    func detailLine() -> StyledLine {
        guard let info else { return StyledLine() }
        var line = StyledLine("   " + Self.byline(info.author) + " · " + info.time, style: .dim)
        if !info.branches.isEmpty {
            line.append(" · " + Self.refsText(info.branches), style: TextStyle(foreground: .green))
        }
        line.append(" · ", style: .dim)
        if let diffstat {
            line.append(diffstat, style: TextStyle(foreground: .cyan))
        } else {
            line.append("diffstat…", style: .dim)
        }
        return line
    }

    /// The longest author name a byline shows whole, in columns: a longer one is cut with
    /// "…", so the time, the branches and the diffstat stay on the line.
    static let authorColumns = 40

    /// `author` as the byline shows it: "unknown author" for none, cut to ``authorColumns``
    /// as the terminal draws it (control characters as their one-column symbols).
    static func byline(_ author: String) -> String {
        if author.isEmpty { return "unknown author" }
        let line = StyledLine(author)
        return line.displayWidth > authorColumns ? line.fitted(to: authorColumns).plainText : author
    }

    /// The most columns the refs of a byline take: past it, the refs that do not fit are
    /// counted ("HEAD -> main, … +29"), so the diffstat (and a merge's parents) stay on the line.
    static let refsColumns = 40

    /// `refs` as the byline shows them: all, joined with ", ", when they fit in ``refsColumns``
    /// as the terminal draws them; else the first ones that fit (the first one, `HEAD -> branch`,
    /// always, cut with "…" if it alone is too wide), then "… +N" for the N left out.
    static func refsText(_ refs: [String]) -> String {
        let all = refs.joined(separator: ", ")
        guard StyledLine(all).displayWidth > refsColumns, let first = refs.first else { return all }
        func count(_ shown: Int) -> String { " … +\(refs.count - shown)" }
        var shown = [first]
        for ref in refs.dropFirst() {
            let longer = shown + [ref]
            // Room for the count of the ones after it, unless it is the last.
            let tail = longer.count == refs.count ? "" : "," + count(longer.count)
            guard StyledLine(longer.joined(separator: ", ") + tail).displayWidth <= refsColumns else { break }
            shown = longer
        }
        var text = shown.joined(separator: ", ")
        let suffix = "," + count(shown.count)
        let room = refsColumns - StyledLine(suffix).displayWidth
        if StyledLine(text).displayWidth > room { text = StyledLine(text).fitted(to: room).plainText }
        return text + suffix
    }

    func subjectLine(marker: String, markerStyle: TextStyle) -> StyledLine {
        guard let info else { return StyledLine() }
        var line = StyledLine(" ")
        line.append(marker, style: markerStyle)
        line.append(" ")
        line.append(info.shortHash, style: TextStyle(foreground: .yellow))
        line.append(" " + info.subject)
        return line
    }
}

/// A commit with one parent (or none): subject, then author, time and diffstat.
final class CommitCell: CommitCellBase, TerminalRenderable {
    func terminalLines(width: Int) -> [StyledLine] {
        [subjectLine(marker: "●", markerStyle: TextStyle(foreground: .blue)), detailLine()]
    }
}

/// A merge: marked, with its parents.
final class MergeCell: CommitCellBase, TerminalRenderable {
    func terminalLines(width: Int) -> [StyledLine] {
        [subjectLine(marker: "⑂", markerStyle: TextStyle(foreground: .magenta, bold: true)), mergeDetailLine()]
    }
}

extension CommitCellBase {
    /// The detail line of a merge: ``detailLine()``, then the parents' short hashes.
    func mergeDetailLine() -> StyledLine {
        var detail = detailLine()
        if let info {
            detail.append(" · merges " + info.parents.map { String($0.prefix(7)) }.joined(separator: " + "), style: TextStyle(foreground: .magenta))
        }
        return detail
    }
}

/// A tagged commit: the tags on their own line above the commit (drawn as a merge when it is one).
final class TagCell: CommitCellBase, TerminalRenderable {
    func terminalLines(width: Int) -> [StyledLine] {
        let tags = info?.tags.joined(separator: ", ") ?? ""
        var tagLine = StyledLine(" ")
        tagLine.append("◆ " + tags, style: TextStyle(foreground: .black, background: .yellow, bold: true))
        if let info, info.parents.count > 1 {
            return [tagLine, subjectLine(marker: "⑂", markerStyle: TextStyle(foreground: .yellow, bold: true)), mergeDetailLine()]
        }
        return [tagLine, subjectLine(marker: "●", markerStyle: TextStyle(foreground: .yellow)), detailLine()]
    }
}
