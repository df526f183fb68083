import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// "3 files +10 −2", when the page was read with its diffstats (piped output).
    var diffstat: String?

    var tags: [String] { refs.filter { $0.hasPrefix("tag: ") }.map { String($0.dropFirst(5)) } }
    var branches: [String] { refs.filter { !$0.hasPrefix("tag: ") } }
}

/// Why the history could not be read; names the path and what git said. Its
/// description is meant for the user: the error row shows it (`LocalizedError`).
enum GitError: LocalizedError, CustomStringConvertible {
    case notARepository(path: String, detail: String)
    case missing(path: String)
    case permissionDenied(path: String, detail: String)
    /// Git refuses a repository owned by someone else; `hint` is git's own advice (`safe.directory`).
    case dubiousOwnership(path: String, hint: String)
    case noCommits(path: String)
    case failed(command: String, status: Int32, detail: String)

    var description: String {
        switch self {
        case .notARepository(let path, let detail):
            return "‘\(path)’ is not a git repository" + (detail.isEmpty ? "" : " (git: \(detail))")
        case .missing(let path):
            return "‘\(path)’ does not exist"
        case .permissionDenied(let path, let detail):
            return "‘\(path)’ cannot be read: permission denied" + (detail.isEmpty ? "" : " (\(detail))")
        case .dubiousOwnership(let path, let hint):
            return "git refuses ‘\(path)’: it is owned by someone else (dubious ownership)" + (hint.isEmpty ? "" : "; to trust it: \(hint)")
        case .noCommits(let path):
            return "‘\(path)’ has no commits yet"
        case .failed(let command, let status, let detail):
            return "\(command) failed with status \(status)" + (detail.isEmpty ? "" : ": \(detail)")
        }
    }

    var errorDescription: String? { description }
}

/// Reads a repository's history with the `git` command, a page at a time.
///
/// The path is always the repository: git runs with `-C PATH` (a path that starts
/// with "-" is still a path), and the environment's `GIT_DIR`, `GIT_WORK_TREE` and
/// the like are removed so they cannot point git elsewhere. Messages are asked for
/// in UTF-8 (`--encoding=UTF-8`); a message in another encoding without an
/// `encoding` header is read as Latin-1 where it is not valid UTF-8.
struct GitRepository: Sendable {
    let path: String

    /// Variables that would make git read another repository than `path`.
    static let repositoryVariables = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
                                      "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_PREFIX"]

    private func git(_ arguments: [String]) async -> ProcessResult {
        var environment: [String: String?] = ["LC_ALL": "C", "LANGUAGE": nil]
        for name in Self.repositoryVariables { environment[name] = .some(nil) }
        return await Subprocess.run(
            ["git", "--no-pager", "-C", path, "-c", "log.showSignature=false", "-c", "color.ui=never",
             "-c", "i18n.logOutputEncoding=UTF-8"] + arguments,
            environment: environment)
    }

    private static func firstLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }

    /// Checks that `path` is a repository (a work tree or a bare one); names what is wrong when not.
    func check() async throws(GitError) {
        var info = stat()
        if stat(path, &info) != 0 {
            if errno == EACCES { throw .permissionDenied(path: path, detail: "") }
            throw .missing(path: path)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR, access(path, R_OK | X_OK) != 0, errno == EACCES {
            throw .permissionDenied(path: path, detail: "")
        }
        let result = await git(["rev-parse", "--git-dir"])
        guard result.status == 0 else {
            throw Self.error(path: path, stderr: result.errorOutput)
        }
    }

    /// The error git's standard error describes: dubious ownership, permission denied, or not a repository.
    static func error(path: String, stderr: String) -> GitError {
        let lines = stderr.split(whereSeparator: \.isNewline).map { $0.trimmingPrefix(while: \.isWhitespace) }
        if stderr.contains("dubious ownership") {
            let hint = lines.first { $0.hasPrefix("git config") && $0.contains("safe.directory") }.map(String.init) ?? ""
            return .dubiousOwnership(path: path, hint: hint)
        }
        if let denied = lines.first(where: { $0.contains("Permission denied") }) {
            return .permissionDenied(path: path, detail: "git: " + String(denied))
        }
        return .notARepository(path: path, detail: firstLine(stderr))
    }

    /// Commits `skip ..< skip + count` of HEAD's history, newest first; with `diffstats`, each with its diffstat.
    func page(skip: Int, count: Int, diffstats: Bool = false) async throws(GitError) -> [CommitInfo] {
        // Records start with RS so that a diffstat (after the format) stays with its commit.
        let format = "%x1e%H%x1f%h%x1f%P%x1f%an%x1f%ad%x1f%D%x1f%s%x1f"
        var arguments = ["log", "--encoding=UTF-8", "--decorate=short", "--date=format:%Y-%m-%d %a %H:%M", "--format=" + format,
                         "--skip=\(skip)", "--max-count=\(count)"]
        if diffstats { arguments += ["--shortstat", "--diff-merges=first-parent"] }
        let result = await git(arguments + ["HEAD", "--"])
        guard result.status == 0 else {
            // An empty repository has a HEAD that names no commit.
            let head = await git(["rev-parse", "--verify", "--quiet", "HEAD"])
            if head.status != 0 && head.errorOutput.isEmpty { throw .noCommits(path: path) }
            throw .failed(command: "git log", status: result.status, detail: Self.firstLine(result.errorOutput))
        }
        return result.outputBytes.split(separator: 0x1E).compactMap { record in
            let fields = record.split(separator: 0x1F, omittingEmptySubsequences: false).map(Self.text)
            guard fields.count >= 8 else { return nil }
            let date = fields[4]
            let stat = Self.firstLine(fields[7].trimmingPrefix(while: \.isWhitespace).description)
            return CommitInfo(
                hash: fields[0], shortHash: fields[1],
                parents: fields[2].split(separator: " ").map(String.init),
                author: fields[3],
                day: String(date.prefix(14)), time: String(date.suffix(5)),
                refs: fields[5].isEmpty ? [] : fields[5].components(separatedBy: ", "),
                subject: fields[6],
                diffstat: diffstats ? Self.diffstat(shortstat: stat) : nil
            )
        }
    }

    /// `bytes` as UTF-8, or as Latin-1 when they are not valid UTF-8 (a message written
    /// in Latin-1 without an `encoding` header, which git passes through unconverted).
    static func text(_ bytes: ArraySlice<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// "3 files +10 −2" for `hash` (against its first parent), or nil when git fails.
    func diffstat(_ hash: String) async -> String? {
        let result = await git(["show", "--shortstat", "--format=", "--diff-merges=first-parent", hash, "--"])
        guard result.status == 0 else { return nil }
        return Self.diffstat(shortstat: Self.firstLine(result.output))
    }

    /// "3 files +10 −2" from git's "3 files changed, 10 insertions(+), 2 deletions(-)"; "no changes" for "".
    static func diffstat(shortstat line: String) -> String {
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
