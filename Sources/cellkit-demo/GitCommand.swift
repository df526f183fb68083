#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import CellKit

/// `cellkit-demo git [PATH]`: a repository's history.
struct GitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "git",
        abstract: "Browse a git repository's history (bare repositories too).",
        discussion: """
        Commits, merges and tagged commits are different cell types (a tagged merge is marked as a merge under its tags), in sections by day (a day that \
        comes back later in the history gets a section of its own). Pages are read lazily as you \
        scroll, from one git log for the whole history; each commit's diffstat is computed only once \
        its row is on screen and arrives as a resource update (r computes again, for the rows on screen, those git could not \
        compute and those of root commits, which a shallow clone's deepening changes). Refs past 40 columns (fewer on a narrow terminal) are counted \
        ("HEAD -> main, … +30"), so the diffstat stays on the line; a merge's parents that do not fit are counted too \
        ("merges a + b + … +5"), after the refs. Piped, every page is printed with its \
        diffstat as it is read ("diffstat unavailable" where git cannot compute one, such as a blob a \
        partial clone lacks: git is never let fetch, prompt or read the terminal). r counts the \
        commits newer than the head shown (r during End or while the filter searches the rest refreshes once that is done); after a rewind or \
        rebase the history is read again (the selected commit stays selected when it is still there), and the status \
        line says how many commits went (all of them when HEAD is left on an unborn branch; also when a graft or a \
        shallower fetch drops them, under the same head or under new commits). A PATH \
        that is not a repository, does not exist, cannot be read, or that git refuses (dubious \
        ownership, with git's safe.directory advice; a bad config value, with git's message) shows \
        the error row, and exits 1 when piped. A commit git cannot read (a corrupt repository) \
        ends the history there: the commits before it show, then the "Couldn't load more" row with \
        git's fatal line. A filter (/) \
        matches subjects, authors, short hashes and refs as the rows show them (a control \
        character as its symbol, ␛), searches the loaded pages and says so (its end on screen reads more pages while they bring \
        matches; a key that moves down past the last match reads on to the next one, Esc stops it): its last row (Enter) searches the rest of the history (Esc stops it and goes back to the row selected before the filter); one that \
        matches nothing shows the no-results row.

        The path is always the repository: GIT_DIR and GIT_WORK_TREE in the environment are \
        ignored. Its bytes reach git as given, also when they are not UTF-8 (the title and \
        messages show those as �). A path that starts with '-' goes after '--' or after -C. Messages are read as \
        UTF-8 (git converts those with an encoding header; others that are not UTF-8 are read as Latin-1). \
        Control characters in messages, names and refs show as visible symbols (␛ ␉ ␞ ␟ …); none of \
        them can split or add a row: there are as many rows as git log has commits.
        """
    )

    @Argument(help: "The repository (a work tree or a bare repository).")
    var path: String = "."

    @Option(name: .customShort("C"), parsing: .unconditionalSingleValue, help: "Run as if started in this directory, as git -C: the repository, or the folder a relative <path> is in (also for a path that starts with '-'). Given again, each is relative to the one before; an empty one changes nothing.")
    var directories: [String] = []

    @Option(name: .long, parsing: .unconditional, help: "Commits per page read from git log.")
    var pageSize: Int = 100

    @OptionGroup var display: DisplayOptions

    func validate() throws {
        guard pageSize > 0 else { throw ValidationError("--page-size must be positive (got \(pageSize))") }
    }

    func run() throws {
        let display = display
        let (path, location) = Self.repository(directory: Self.directory(directories), path: path)
        let pageSize = pageSize
        try MainActor.assumeIsolated {
            let screen = GitScreen(path: path, location: location, pageSize: pageSize, diffstats: !display.isInteractive)
            try ScreenRunner.run(screen, options: display)
        }
    }

    /// The directory the `-C` options name, read as git reads them: each relative to the one
    /// before (an absolute one starts over), an empty one changing nothing; nil for none.
    static func directory(_ directories: [String]) -> String? {
        directories.reduce(nil) { current, next in
            guard !next.isEmpty else { return current }
            guard let current, !next.hasPrefix("/") else { return next }
            return current + (current.hasSuffix("/") ? "" : "/") + next
        }
    }

    /// The repository's path, and its bytes when they are not UTF-8: `path`, relative to
    /// `directory` when both are given, as `git -C directory … path` reads it.
    static func repository(directory: String?, path: String) -> (path: String, location: [UInt8]?) {
        guard let directory, path != ".", !path.hasPrefix("/") else {
            let chosen = path.hasPrefix("/") ? path : directory ?? path
            return (chosen, rawArgument(chosen))
        }
        let separator = directory.hasSuffix("/") ? "" : "/"
        let rawDirectory = rawArgument(directory), rawPath = rawArgument(path)
        let location = rawDirectory == nil && rawPath == nil ? nil
            : (rawDirectory ?? Array(directory.utf8)) + Array(separator.utf8) + (rawPath ?? Array(path.utf8))
        return (directory + separator + path, location)
    }

    /// The bytes of the command-line argument that reads as `text` when it is not UTF-8 (a path
    /// in Latin-1: `CommandLine.arguments` replaced its invalid bytes with U+FFFD); nil otherwise.
    static func rawArgument(_ text: String) -> [UInt8]? {
        guard text.contains("\u{FFFD}") else { return nil }
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
            if String(validating: bytes, as: UTF8.self) == nil, String(decoding: bytes, as: UTF8.self) == text { return bytes }
        }
        return nil
    }

    /// The options that take a value, and the flags, of `git` (and `help`).
    static let valueOptions: Set<String> = ["--page-size", "--width", "--pages", "-C"]
    static let flags: Set<String> = ["--interactive", "--plain", "--verbose", "-h", "--help"]

    /// The error for `argument`, an unknown option of `git` that is not an existing path: a long
    /// option (`--seed`, the feed's) is named with git's options; another (`-repo`) says how to
    /// pass a repository path that starts with '-'.
    static func unknownOption(_ argument: String) -> ValidationError {
        let shown = visible(argument)
        guard argument.hasPrefix("--") else {
            return ValidationError("unknown option ‘\(shown)’ (a repository path that starts with '-' goes after '--' or -C: cellkit-demo git -- \(shown))")
        }
        let name = String(argument.prefix { $0 != "=" })
        let feed = feedOptions.contains(name) ? " ‘\(visible(name))’ is an option of the feed, not of git;" : ""
        return ValidationError("unknown option ‘\(shown)’ for git (\(feed.dropFirst())\(feed.isEmpty ? "" : " ")git takes -C, --page-size, --pages, --width, --interactive, --plain, --verbose)")
    }

    /// The feed's own options (an error names them when given to `git`).
    static let feedOptions: Set<String> = ["--seed", "--fail-rate"]

    /// `arguments` with a `git` mode path that starts with "-" moved after "--", so that it
    /// is read as the path it is, not as options (`-dashrepo` holds `-h`); an unknown
    /// option that is not an existing path is an error (``unknownOption(_:)``).
    static func arguments(_ arguments: [String]) -> Result<[String], ValidationError> {
        guard arguments.first == "git" else { return .success(arguments) }
        var kept = ["git"]
        var paths: [String] = []
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                paths += arguments[index...]
                break
            }
            let name = String(argument.prefix { $0 != "=" })
            if valueOptions.contains(argument) {
                kept.append(argument)
                if index < arguments.count {
                    kept.append(arguments[index])
                    index += 1
                }
            } else if flags.contains(argument) || valueOptions.contains(name) || !argument.hasPrefix("-") || argument == "-" {
                kept.append(argument)
            } else if access(argument, F_OK) == 0 {
                paths.append(argument)
            } else {
                return .failure(unknownOption(argument))
            }
        }
        return .success(paths.isEmpty ? kept : kept + ["--"] + paths)
    }
}
