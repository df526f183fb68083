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
    /// git cannot read the repository for another reason (a bad config value); `detail` is git's message.
    case unreadable(path: String, detail: String)
    case failed(command: String, status: Int32, detail: String)

    var description: String {
        // The path as the title shows it (a newline as ␊, a tab as ␉): the error row wraps
        // its message at spaces, tabs and line breaks, which would read `nl⏎dir` as `nl dir`.
        switch self.shown {
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
        case .unreadable(let path, let detail):
            return "git cannot read ‘\(path)’: \(detail)"
        case .failed(let command, let status, let detail):
            return "\(command) failed with status \(status)" + (detail.isEmpty ? "" : ": \(detail)")
        }
    }

    var errorDescription: String? { description }

    /// This error with the path it names in its visible form (`visible(_:)`); git's own text unchanged.
    private var shown: GitError {
        switch self {
        case .notARepository(let path, let detail): .notARepository(path: visible(path), detail: detail)
        case .missing(let path): .missing(path: visible(path))
        case .permissionDenied(let path, let detail): .permissionDenied(path: visible(path), detail: detail)
        case .dubiousOwnership(let path, let hint): .dubiousOwnership(path: visible(path), hint: hint)
        case .noCommits(let path): .noCommits(path: visible(path))
        case .unreadable(let path, let detail): .unreadable(path: visible(path), detail: detail)
        case .failed: self
        }
    }
}

/// Reads a repository's history with the `git` command, a page at a time.
///
/// The path is always the repository: git runs with `-C PATH` (a path that starts
/// with "-" is still a path), and the environment's `GIT_DIR`, `GIT_WORK_TREE` and
/// the like are removed so they cannot point git elsewhere. Messages are asked for
/// in UTF-8 (`--encoding=UTF-8`); a message in another encoding without an
/// `encoding` header is read as Latin-1 where it is not valid UTF-8.
struct GitRepository: Sendable {
    /// The path as text, for messages and the title (bytes that are not UTF-8 show as U+FFFD).
    let path: String
    /// The path as the user gave it, for git and the file system (see ``init(path:location:)``).
    let location: CommandArgument

    /// The repository at `path`; `location` is the same path as the bytes the user gave, when
    /// they are not UTF-8 (a Latin-1 name): git is given those, unchanged.
    init(path: String, location: [UInt8]? = nil) {
        self.path = path
        self.location = location.map { CommandArgument(bytes: $0) } ?? CommandArgument(path)
    }

    /// Variables that would make git read another repository than `path`.
    static let repositoryVariables = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
                                      "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_PREFIX"]

    /// The environment git runs with: the C locale, none of ``repositoryVariables``, and
    /// never the network nor a prompt. `GIT_ALLOW_PROTOCOL` empty allows no transport at all,
    /// whatever the repository's config says (`protocol.ssh.allow=always` would win over
    /// `-c protocol.allow=never`): a partial clone's missing blob is not fetched (its diffstat is
    /// unavailable), and neither a `core.sshCommand` nor a remote helper runs. Git 2.45 and
    /// later are also told not to fetch lazily at all (`GIT_NO_LAZY_FETCH`).
    static var environment: [String: String?] {
        var environment: [String: String?] = ["LC_ALL": "C", "LANGUAGE": nil, "GIT_TERMINAL_PROMPT": "0",
                                              "GIT_ALLOW_PROTOCOL": "", "GIT_NO_LAZY_FETCH": "1"]
        for name in repositoryVariables { environment[name] = .some(nil) }
        return environment
    }

    /// The command line that runs git `arguments` on the repository.
    func command(_ arguments: [String]) -> [CommandArgument] {
        let options: [CommandArgument] = ["-c", "protocol.allow=never", "-c", "log.showRoot=true", "-c", "log.showSignature=false",
                                          "-c", "color.ui=never", "-c", "i18n.logOutputEncoding=UTF-8"]
        return ["git", "--no-pager", "-C", location] + options + arguments.map { CommandArgument($0) }
    }

    private func git(_ arguments: [String]) async -> ProcessResult {
        await Subprocess.run(command(arguments), environment: Self.environment)
    }

    static func firstLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }

    /// The line of git's standard error that says what went wrong: its `fatal:` line, else its
    /// `error:` line, else its first line that is neither a warning nor a trace (`GIT_TRACE`):
    /// a warning about an unreadable `$HOME` or trace output must not stand in for the cause.
    /// A line that ends with ":" goes on with the indented lines after it (git's "unknown
    /// repository extension found:", then the extension's name).
    static func message(stderr: String) -> String {
        let lines = stderr.split(whereSeparator: \.isNewline).map(String.init)
        let index = lines.firstIndex { $0.hasPrefix("fatal: ") } ?? lines.firstIndex { $0.hasPrefix("error: ") }
            ?? causes(lines).first.flatMap { cause in lines.firstIndex(of: cause) }
        guard let index else { return lines.first ?? "" }
        var message = lines[index]
        if message.hasSuffix(":") {
            let details = lines[(index + 1)...].prefix { $0.first == " " || $0.first == "\t" }
                .map { $0.trimmingPrefix(while: \.isWhitespace) }
            if !details.isEmpty { message += " " + details.joined(separator: ", ") }
        }
        return message
    }

    /// `lines` of git's standard error without its warnings and trace output (`GIT_TRACE`:
    /// "11:43:38.250751 git.c:460 trace: …").
    private static func causes(_ lines: [String]) -> [String] {
        lines.filter { line in
            !line.hasPrefix("warning: ") && !(line.first?.isNumber == true && line.contains(" trace: ")) && !line.hasPrefix("trace: ")
        }
    }

    /// Checks that `path` is a repository (a work tree or a bare one); names what is wrong when not.
    func check() async throws(GitError) {
        var info = stat()
        if location.withCString({ stat($0, &info) }) != 0 {
            if errno == EACCES { throw .permissionDenied(path: path, detail: "") }
            throw .missing(path: path)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR, location.withCString({ access($0, R_OK | X_OK) }) != 0, errno == EACCES {
            throw .permissionDenied(path: path, detail: "")
        }
        let result = await git(["rev-parse", "--git-dir"])
        guard result.status == 0 else {
            throw Self.error(path: path, stderr: result.errorOutput)
        }
    }

    /// The error git's standard error describes: dubious ownership, permission denied, or not a repository.
    static func error(path: String, stderr: String) -> GitError {
        let lines = causes(stderr.split(whereSeparator: \.isNewline).map(String.init)).map { $0.trimmingPrefix(while: \.isWhitespace) }
        if stderr.contains("dubious ownership") {
            let hint = lines.first { $0.hasPrefix("git config") && $0.contains("safe.directory") }.map(String.init) ?? ""
            return .dubiousOwnership(path: path, hint: hint)
        }
        if let denied = lines.first(where: { $0.contains("Permission denied") }) {
            return .permissionDenied(path: path, detail: "git: " + String(denied))
        }
        if stderr.contains("not a git repository") {
            return .notARepository(path: path, detail: message(stderr: stderr))
        }
        let detail = message(stderr: stderr)
        return .unreadable(path: path, detail: detail.isEmpty ? "git failed" : detail)
    }

    /// The arguments of the `git log` that lists HEAD's history from commit `skip` on, newest
    /// first, one record per commit (see ``commit(record:diffstats:)``); with `diffstats`, each with its diffstat.
    static func logArguments(skip: Int, diffstats: Bool) -> [String] {
        // Each record starts with NUL and holds ``fieldsPerRecord`` NULs, one before each field
        // and one after the last, so that a diffstat (after the format) stays with its commit.
        // git never writes NUL in a commit's text (it ends a name or a message there), so no
        // byte of a message, a name or a ref can be taken as structure.
        let format = "%x00%H%x00%h%x00%P%x00%an%x00%ad%x00%D%x00%s%x00"
        var arguments = ["log", "--encoding=UTF-8", "--decorate=short", "--date=format:%Y-%m-%d %a %H:%M", "--format=" + format]
        if skip > 0 { arguments.append("--skip=\(skip)") }
        if diffstats { arguments += ["--shortstat", "--diff-merges=first-parent"] }
        return arguments + ["HEAD", "--"]
    }

    /// The byte that starts each record of ``logArguments(skip:diffstats:)``'s output and
    /// separates its fields (NUL).
    static let recordSeparator: UInt8 = 0
    /// How many ``recordSeparator`` bytes each record holds (its first byte included).
    static let fieldsPerRecord = 8

    /// The commit of one record of ``logArguments(skip:diffstats:)``'s output (without its
    /// first separator); nil for a record that is not one.
    static func commit(record: [UInt8], diffstats: Bool) -> CommitInfo? {
        let fields = record.split(separator: recordSeparator, omittingEmptySubsequences: false)
        guard fields.count == fieldsPerRecord, isObjectName(fields[0]) else { return nil }
        let date = text(fields[4])
        let stat = diffstats ? firstLine(text(fields[7]).trimmingPrefix(while: \.isWhitespace).description) : ""
        let refs = text(fields[5])
        return CommitInfo(
            hash: text(fields[0]), shortHash: text(fields[1]),
            parents: text(fields[2]).split(separator: " ").map(String.init),
            author: text(fields[3]),
            day: day(date), time: time(date),
            refs: refs.isEmpty ? [] : refs.components(separatedBy: ", "),
            subject: text(fields[6]),
            diffstat: diffstats ? diffstat(shortstat: stat) : nil
        )
    }

    /// The day of a date as ``logArguments(skip:diffstats:)`` asks git for it ("2026-11-24 Tue 14:00"):
    /// all before the time, so a year of more than four digits keeps its weekday.
    static func day(_ date: String) -> String {
        guard let space = date.lastIndex(of: " ") else { return date.isEmpty ? unknownDay : date }
        return String(date[..<space])
    }

    /// The time of such a date: what follows its last space.
    static func time(_ date: String) -> String {
        guard let space = date.lastIndex(of: " ") else { return unknownTime }
        return String(date[date.index(after: space)...])
    }

    /// The day and the time of a commit whose date git cannot read (it prints none).
    static let unknownDay = "unknown date"
    static let unknownTime = "unknown time"

    /// Whether `bytes` are a full object name: 40 (SHA-1) or 64 (SHA-256) lowercase hex digits.
    static func isObjectName<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        (bytes.count == 40 || bytes.count == 64) && bytes.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Whether the repository has no commit yet (HEAD names none, and git says nothing more).
    func hasNoCommits() -> Bool {
        let head = Subprocess.runBlocking(command(["rev-parse", "--verify", "--quiet", "HEAD"]), environment: Self.environment)
        return head.status != 0 && head.errorOutput.isEmpty
    }

    /// How HEAD moved since it was `head`.
    enum HeadChange: Equatable {
        case unchanged
        /// `head` is in the history still, with `count` commits newer than it on top.
        case added(count: Int)
        /// `head` is not in the history any more (a reset, a rebase): `removed` of its commits
        /// are gone from it, and `added` are new.
        case rewritten(removed: Int, added: Int)
        /// `head` is not in the repository any more (pruned after a reset or a rebase, or the
        /// repository was replaced): git cannot count what changed.
        case replaced
        /// git could not say (HEAD gone, `head` unknown).
        case unknown
    }

    /// How HEAD moved since it was `head`: the commits it gained and lost.
    func change(since head: String) async -> HeadChange {
        let now = await git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"])
        let current = Self.firstLine(now.output)
        guard now.status == 0, !current.isEmpty else {
            // HEAD names no commit, and git says nothing more: an unborn branch, every commit gone.
            guard now.errorOutput.isEmpty else { return .unknown }
            // The head shown is not in the repository any more either (replaced by a new empty
            // one): the commits shown are counted instead.
            guard let gone = await commitCount(head) else { return .replaced }
            return .rewritten(removed: gone, added: 0)
        }
        if current == head { return .unchanged }
        let counts = await git(["rev-list", "--left-right", "--count", head + "..." + current, "--"])
        let numbers = Self.firstLine(counts.output).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard counts.status == 0, numbers.count == 2 else {
            let known = await git(["cat-file", "-e", head + "^{commit}"])
            return known.status == 0 ? .unknown : .replaced
        }
        // Left: commits only in the old history; right: only in the new one.
        return numbers[0] == 0 ? .added(count: numbers[1]) : .rewritten(removed: numbers[0], added: numbers[1])
    }

    /// What the refs say: every ref's commit and name, the branch HEAD names, and a shallow
    /// clone's boundary. Read before a first page (``GitHistory``) and at each `r`: equal states
    /// (with HEAD on the same commit) mean the history shown and its decorations did not change.
    struct RefsState: Equatable, Sendable {
        /// "HASH REFNAME" for every ref.
        var refs: Set<String>
        /// The ref HEAD names ("" when detached).
        var head: String
        /// A shallow clone's boundary (`git fetch --deepen` moves it; "" when not shallow).
        var boundary: String

        /// Whether the history under an unchanged head may differ between `self` and `other`:
        /// a graft or a replaced commit (`git replace`) came or went, or a shallow clone's
        /// boundary moved (`git fetch --depth`, `--deepen`).
        func reshapesHistory(from other: RefsState) -> Bool {
            func replacements(_ state: RefsState) -> Set<String> { state.refs.filter { $0.contains(" refs/replace/") } }
            return boundary != other.boundary || replacements(self) != replacements(other)
        }

        /// The commits whose decorations differ between `self` and `other` (a ref that came,
        /// went or moved names its old and its new commit).
        func commitsDecoratedDifferently(from other: RefsState) -> Set<Substring> {
            Set(refs.symmetricDifference(other.refs).compactMap { $0.split(separator: " ", maxSplits: 1).first })
        }
    }

    /// The refs as they are now (see ``RefsState``); nil when git fails. Runs git and waits.
    func refsStateNow() -> RefsState? {
        func git(_ arguments: [String]) -> ProcessResult {
            Subprocess.runBlocking(command(arguments), environment: Self.environment)
        }
        let refs = git(["for-each-ref", "--format=%(objectname) %(refname)"])
        let shallow = git(["rev-parse", "--path-format=absolute", "--git-path", "shallow"])
        guard refs.status == 0, shallow.status == 0 else { return nil }
        let head = git(["symbolic-ref", "-q", "HEAD"])
        // The boundary file's path as git wrote it, bytes and all (a repository under a Latin-1 name).
        var file = shallow.outputBytes
        while file.last == UInt8(ascii: "\n") { file.removeLast() }
        let boundary = CommandArgument(bytes: file).withCString { path -> [UInt8] in
            guard let stream = fopen(path, "r") else { return [] }
            defer { fclose(stream) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while case let count = fread(&buffer, 1, buffer.count, stream), count > 0 { bytes += buffer.prefix(count) }
            return bytes
        }
        return RefsState(refs: Set(refs.output.split(separator: "\n").map(String.init)), head: Self.firstLine(head.output),
                         boundary: String(decoding: boundary, as: UTF8.self))
    }

    /// ``refsStateNow()`` off the main actor.
    func refsState() async -> RefsState? {
        await Task.detached { self.refsStateNow() }.value
    }

    /// How many commits the history of `revision` (HEAD's by default) has: 0 when HEAD names
    /// no commit yet (an unborn branch), nil when git fails otherwise.
    func commitCount(_ revision: String = "HEAD") async -> Int? {
        let result = await git(["rev-list", "--count", revision, "--"])
        if result.status != 0 {
            let head = await git(["rev-parse", "--verify", "--quiet", "HEAD"])
            return revision == "HEAD" && head.status != 0 && head.errorOutput.isEmpty ? 0 : nil
        }
        return Int(Self.firstLine(result.output))
    }

    /// The hashes of HEAD's history, newest first: none when HEAD names no commit yet (an
    /// unborn branch); nil when git fails otherwise.
    func historyHashes() async -> [String]? {
        let result = await git(["rev-list", "HEAD", "--"])
        guard result.status == 0 else { return await commitCount() == 0 ? [] : nil }
        return result.output.split(whereSeparator: \.isNewline).map(String.init)
    }

    /// The hashes of HEAD's history that `excluded` (commits) do not reach, newest first; nil
    /// when git fails (one of `excluded` is not in the repository).
    func historyHashes(excluding excluded: [String]) async -> [String]? {
        let result = await git(["rev-list", "HEAD", "--not"] + excluded + ["--"])
        guard result.status == 0 else { return nil }
        return result.output.split(whereSeparator: \.isNewline).map(String.init)
    }

    /// `bytes` as UTF-8, or as Latin-1 when they are not valid UTF-8 (a message written
    /// in Latin-1 without an `encoding` header, which git passes through unconverted).
    static func text<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// "3 files +10 −2" for `hash` (against its first parent), or nil when git fails; blocks the calling thread.
    func diffstatNow(_ hash: String) -> String? {
        let result = Subprocess.runBlocking(command(["show", "--shortstat", "--format=", "--diff-merges=first-parent", hash, "--"]), environment: Self.environment)
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
