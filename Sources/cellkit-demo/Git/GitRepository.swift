import Foundation

/// One commit as `git log` reports it.
struct CommitInfo: Identifiable, Equatable, Sendable {
    var id: String { hash }
    var hash: String
    var shortHash: String
    var parents: [String]
    var author: String
    /// "2026-11-21 Sat", the author date's day.
    var day: String
    /// "14:02".
    var time: String
    var refs: [String]
    var subject: String

    var tags: [String] { refs.filter { $0.hasPrefix("tag: ") }.map { String($0.dropFirst(5)) } }
    var branches: [String] { refs.filter { !$0.hasPrefix("tag: ") } }
}

/// Why the history could not be read; names the path and what git said. Its
/// description is meant for the user: the error row shows it (`LocalizedError`).
enum GitError: LocalizedError, CustomStringConvertible {
    case notARepository(path: String, detail: String)
    case noCommits(path: String)
    case failed(command: String, status: Int32, detail: String)

    var description: String {
        switch self {
        case .notARepository(let path, let detail):
            return "‘\(path)’ is not a git repository" + (detail.isEmpty ? "" : " (git: \(detail))")
        case .noCommits(let path):
            return "‘\(path)’ has no commits yet"
        case .failed(let command, let status, let detail):
            return "\(command) failed with status \(status)" + (detail.isEmpty ? "" : ": \(detail)")
        }
    }

    var errorDescription: String? { description }
}

/// Reads a repository's history with the `git` command, a page at a time.
struct GitRepository: Sendable {
    let path: String

    private func git(_ arguments: [String]) async -> ProcessResult {
        await Subprocess.run(["git", "--no-pager", "-C", path, "-c", "log.showSignature=false", "-c", "color.ui=never"] + arguments)
    }

    private static func firstLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }

    /// Checks that `path` is a repository (a work tree or a bare one).
    func check() async throws(GitError) {
        let result = await git(["rev-parse", "--git-dir"])
        guard result.status == 0 else {
            throw .notARepository(path: path, detail: Self.firstLine(result.errorOutput))
        }
    }

    /// Commits `skip ..< skip + count` of HEAD's history, newest first.
    func page(skip: Int, count: Int) async throws(GitError) -> [CommitInfo] {
        let format = "%H%x1f%h%x1f%P%x1f%an%x1f%ad%x1f%D%x1f%s%x1e"
        let arguments = ["log", "--decorate=short", "--date=format:%Y-%m-%d %a %H:%M", "--format=" + format,
                         "--skip=\(skip)", "--max-count=\(count)", "HEAD"]
        let result = await git(arguments)
        guard result.status == 0 else {
            // An empty repository has a HEAD that names no commit.
            let head = await git(["rev-parse", "--verify", "--quiet", "HEAD"])
            if head.status != 0 { throw .noCommits(path: path) }
            throw .failed(command: "git log", status: result.status, detail: Self.firstLine(result.errorOutput))
        }
        return result.output.split(separator: "\u{1E}").compactMap { record in
            let fields = record.trimmingPrefix(while: \.isNewline).split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 7 else { return nil }
            let date = fields[4]
            return CommitInfo(
                hash: fields[0], shortHash: fields[1],
                parents: fields[2].split(separator: " ").map(String.init),
                author: fields[3],
                day: String(date.prefix(14)), time: String(date.suffix(5)),
                refs: fields[5].isEmpty ? [] : fields[5].components(separatedBy: ", "),
                subject: fields[6...].joined(separator: " ")
            )
        }
    }

    /// "3 files +10 −2" for `hash` (against its first parent), or nil when git fails.
    func diffstat(_ hash: String) async -> String? {
        let result = await git(["show", "--shortstat", "--format=", "--diff-merges=first-parent", hash])
        guard result.status == 0 else { return nil }
        let line = Self.firstLine(result.output)
        guard !line.isEmpty else { return "no changes" }
        var files = 0, added = 0, removed = 0
        for part in line.split(separator: ",") {
            let words = part.split(separator: " ")
            guard let number = words.first.flatMap({ Int($0) }) else { continue }
            if part.contains("file") { files = number }
            else if part.contains("insertion") { added = number }
            else if part.contains("deletion") { removed = number }
        }
        return "\(files) file\(files == 1 ? "" : "s") +\(added) −\(removed)"
    }
}

extension String {
    func components(separatedBy separator: String) -> [String] {
        var parts: [String] = []
        var rest = Substring(self)
        while let range = rest.firstRange(of: separator) {
            parts.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        parts.append(String(rest))
        return parts
    }
}
