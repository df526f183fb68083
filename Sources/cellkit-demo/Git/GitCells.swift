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

    /// The byline of a row `width` columns wide: author, time, refs, diffstat, then
    /// `trailing` (a merge's parents). The refs take what the rest leaves, up to
    /// ``refsColumns``: on a narrow terminal they are cut first, so the diffstat stays; their
    /// count ("+2") stays too, before the trailing text, which the list then cuts.
    func detailLine(width: Int, trailing: StyledLine = StyledLine()) -> StyledLine {
        guard let info else { return StyledLine() }
        var line = StyledLine("   " + Self.byline(info.author) + " · " + info.time, style: .dim)
        var end = StyledLine(" · ", style: .dim)
        if let diffstat {
            end.append(diffstat, style: TextStyle(foreground: .cyan))
        } else {
            end.append("diffstat…", style: .dim)
        }
        let essentialWidth = end.displayWidth
        end.append(trailing)
        if !info.branches.isEmpty {
            var room = min(Self.refsColumns, width - line.displayWidth - end.displayWidth - 3)
            // The refs' count ("+2") is worth more than the end of the trailing text (a merge's
            // parents, cut anyway on such a row): the row keeps it where the line without that text fits it.
            let count = "+\(info.branches.count)".count
            if room < count { room = min(count, width - line.displayWidth - essentialWidth - 3) }
            let refs = Self.refsText(info.branches, columns: room)
            if !refs.isEmpty { line.append(" · " + refs, style: TextStyle(foreground: .green)) }
        }
        line.append(end)
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

    /// `refs` as a row shows them in `columns` (the byline gives them at most ``refsColumns``): all, joined
    /// with ", ", when they fit as the terminal draws them; else the first ones that fit (the
    /// first one, `HEAD -> branch`, always, cut with "…" if it alone is too wide), then
    /// "… +N" for the N left out (no count when none is). With no room for a ref (under 6
    /// columns), their count alone ("+2") when it fits, so a row never hides that it has refs.
    static func refsText(_ refs: [String], columns: Int = refsColumns) -> String {
        let all = refs.joined(separator: ", ")
        guard let first = refs.first else { return "" }
        guard columns >= 6 else {
            let count = "+\(refs.count)"
            return count.count <= columns ? count : ""
        }
        guard StyledLine(all).displayWidth > columns else { return all }
        func count(_ shown: Int) -> String { shown == refs.count ? "" : ", … +\(refs.count - shown)" }
        var shown = [first]
        for ref in refs.dropFirst() {
            let longer = shown + [ref]
            guard StyledLine(longer.joined(separator: ", ") + count(longer.count)).displayWidth <= columns else { break }
            shown = longer
        }
        var text = shown.joined(separator: ", ")
        let suffix = count(shown.count)
        let room = columns - StyledLine(suffix).displayWidth
        if StyledLine(text).displayWidth > room { text = cut(text, to: room) }
        return text + suffix
    }

    /// `text` cut to `columns` with "…" (as ``StyledLine/fitted(to:padStyle:)`` cuts it), without
    /// the space it pads with where a wide character did not fit ("長…", not "長 …").
    static func cut(_ text: String, to columns: Int) -> String {
        var cut = StyledLine(text).fitted(to: max(1, columns)).plainText
        guard cut.hasSuffix("…") else { return cut }
        cut.removeLast()
        while cut.hasSuffix(" ") { cut.removeLast() }
        return cut + "…"
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
        [subjectLine(marker: "●", markerStyle: TextStyle(foreground: .blue)), detailLine(width: width)]
    }
}

/// A merge: marked, with its parents.
final class MergeCell: CommitCellBase, TerminalRenderable {
    func terminalLines(width: Int) -> [StyledLine] {
        [subjectLine(marker: "⑂", markerStyle: TextStyle(foreground: .magenta, bold: true)), mergeDetailLine(width: width)]
    }
}

extension CommitCellBase {
    /// The detail line of a merge: ``detailLine(width:trailing:)``, then the parents' short hashes.
    func mergeDetailLine(width: Int) -> StyledLine {
        guard let info else { return StyledLine() }
        let parents = StyledLine(" · merges " + info.parents.map { String($0.prefix(7)) }.joined(separator: " + "), style: TextStyle(foreground: .magenta))
        return detailLine(width: width, trailing: parents)
    }
}

/// A tagged commit: the tags on their own line above the commit (drawn as a merge when it is one).
final class TagCell: CommitCellBase, TerminalRenderable {
    func terminalLines(width: Int) -> [StyledLine] {
        // Many tags are counted, as the byline's refs are ("v2, v1, … +5").
        let tags = Self.refsText(info?.tags ?? [], columns: width - 3)
        var tagLine = StyledLine(" ")
        tagLine.append("◆ " + tags, style: TextStyle(foreground: .black, background: .yellow, bold: true))
        if let info, info.parents.count > 1 {
            return [tagLine, subjectLine(marker: "⑂", markerStyle: TextStyle(foreground: .yellow, bold: true)), mergeDetailLine(width: width)]
        }
        return [tagLine, subjectLine(marker: "●", markerStyle: TextStyle(foreground: .yellow)), detailLine(width: width)]
    }
}
