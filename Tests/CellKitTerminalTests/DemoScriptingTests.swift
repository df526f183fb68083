import Foundation
import Testing

/// `cellkit-demo` in scripts: exit statuses, errors on stderr, whole histories, bad input, odd repositories.
@Suite("cellkit-demo in scripts", .blocking)
struct DemoScriptingTests {
    private func demo(_ arguments: [String], environment: [String: String] = [:]) throws -> Finished {
        try Spawn.run([try DemoBinary.path] + arguments, environment: environment)
    }

    /// Runs a shell command line with `$DEMO` set to the demo binary.
    private func shell(_ script: String, _ arguments: [String] = []) throws -> Finished {
        try Spawn.run(["sh", "-c", script, "sh"] + arguments, environment: ["DEMO": try DemoBinary.path])
    }

    /// A repository made by `script` (run in a new directory, given as $1 too); removed by the caller.
    private func repository(_ script: String) throws -> URL {
        try ScratchRepository("repo", script: "git config user.name Tester; git config user.email t@example.com\n" + script).root
    }

    private static var isRoot: Bool { getuid() == 0 }

    @Test("failures exit non-zero with the error on stderr", .enabled(if: GitFixture.isAvailable))
    func failuresExitNonZero() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let notRepository = try demo(["git", fixture.notARepository])
        #expect(notRepository.status == 1)
        #expect(notRepository.errorOutput.contains("plain’ is not a git repository"), "\(notRepository.errorOutput)")
        let missing = try demo(["git", fixture.root.appendingPathComponent("missing").path])
        #expect(missing.status == 1)
        #expect(missing.errorOutput.contains("missing’ does not exist"), "\(missing.errorOutput)")
        let failing = try demo(["feed", "--fail-rate", "1"])
        #expect(failing.status == 1)
        #expect(failing.errorOutput.contains("could not load the first page of the feed"))
        let full = try shell("\"$DEMO\" feed > /dev/full")
        #expect(full.status == 2)
        #expect(full.errorOutput.contains("could not write the output: No space left on device"), "\(full.errorOutput)")
        let fine = try demo(["git", fixture.repository])
        #expect(fine.status == 0)
        #expect(fine.errorOutput.isEmpty, "\(fine.errorOutput)")
    }

    @Test("--help describes the exit statuses and piped output")
    func helpDescribesScripting() throws {
        // The help is wrapped to the terminal's width: compare with the lines joined.
        let help = try demo(["--help"], environment: ["COLUMNS": "80"]).output.replacing(/\s+/, with: " ")
        for phrase in ["Exit status", "1 when loading failed", "2 when standard output", "every page", "--pages N"] {
            #expect(help.contains(phrase), "--help does not mention \(phrase)")
        }
    }

    @Test("an unreadable directory is reported as permission denied, exit 1",
          .enabled(if: isRoot && Spawn.isAvailable("setpriv") && GitFixture.isAvailable, "needs root and setpriv to run as another user"))
    func unreadableDirectory() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let locked = fixture.root.appendingPathComponent("locked").path
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        chmod(locked, 0)
        chmod(fixture.root.path, 0o755)
        let result = try Spawn.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", try DemoBinary.path, "git", locked])
        #expect(result.status == 1)
        #expect(result.errorOutput.contains("locked’ cannot be read: permission denied"), "\(result.errorOutput)")
        #expect(!result.errorOutput.contains("not a git repository"))
    }

    @Test("a repository owned by someone else: git's dubious ownership and its safe.directory advice",
          .enabled(if: isRoot && GitFixture.isAvailable, "needs root to give the repository away"))
    func dubiousOwnership() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let result = try Spawn.run(["chown", "-R", "65534", fixture.repository])
        #expect(result.status == 0)
        let run = try demo(["git", fixture.repository])
        #expect(run.status == 1)
        #expect(run.errorOutput.contains("dubious ownership"), "\(run.errorOutput)")
        #expect(run.errorOutput.contains("safe.directory"), "\(run.errorOutput)")
        #expect(!run.errorOutput.contains("not a git repository"))
    }

    @Test("--width and COLUMNS are bounded with a clear error, never a crash", arguments: [
        (["--width", "100000000"], [:], "--width must be between 20 and 1000"),
        (["--width", "9223372036854775807"], [:], "--width must be between 20 and 1000"),
        (["--width=-5"], [:], "--width must be between 20 and 1000"),
        ([], ["COLUMNS": "9223372036854775807"], "COLUMNS=9223372036854775807 is not a width"),
        ([], ["COLUMNS": "100000000"], "COLUMNS=100000000 is not a width"),
        ([], ["COLUMNS": "wide"], "COLUMNS=wide is not a width"),
    ] as [([String], [String: String], String)])
    func widthBounds(arguments: [String], environment: [String: String], message: String) throws {
        let result = try demo(["feed"] + arguments, environment: environment)
        #expect(result.status == 64, "\(result.errorOutput)")
        #expect(result.errorOutput.contains(message), "\(result.errorOutput)")
        #expect(result.output.isEmpty)
        let widest = try demo(["feed", "--width", "1000"])
        #expect(widest.status == 0)
    }

    @Test("piped, the whole history prints, every page, with real diffstats", .enabled(if: GitFixture.isAvailable))
    func wholeHistory() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let result = try demo(["git", fixture.repository, "--page-size", "2", "--width", "90"])
        #expect(result.status == 0, "\(result.errorOutput)")
        for subject in ["Remove the second file", "Merge branch 'feature'", "Add a third file on main", "Work on the feature", "Add a second file", "Add the first file"] {
            #expect(result.output.contains(subject), "\(subject) is missing")
        }
        #expect(!result.output.contains("diffstat…"))
        #expect(result.output.contains("1 file +1 −0"))
        #expect(result.output.contains("1 file +0 −2"))
        #expect(result.errorOutput.isEmpty)
        // --pages stops early and says how much is left, and how to get it.
        let some = try demo(["git", fixture.repository, "--page-size", "2", "--pages", "1"])
        #expect(some.status == 0)
        #expect(!some.output.contains("Add the first file"))
        #expect(some.errorOutput.contains("printed 1 page (2 commits); more remain: --pages N"), "\(some.errorOutput)")
        // The feed prints a page and says so.
        let feed = try demo(["feed", "--pages", "2"])
        #expect(feed.errorOutput.contains("printed 2 pages"), "\(feed.errorOutput)")
        #expect(feed.output.count > (try demo(["feed"])).output.count)
        // Failed before the fix (demo report 4, item 11): the sample feed ends after 50 pages,
        // and --pages 60 printed them without a word.
        let all = try demo(["feed", "--pages", "60"])
        #expect(all.status == 0)
        #expect(all.errorOutput.contains("printed all 50 pages (1000 tweets), fewer than --pages 60: there are no more"), "\(all.errorOutput)")
        let history = try demo(["git", fixture.repository, "--page-size", "2", "--pages", "9"])
        #expect(history.errorOutput.contains("printed all 3 pages (6 commits), fewer than --pages 9"), "\(history.errorOutput)")
    }

    @Test("git mode: a path that starts with '-' is a path; GIT_DIR does not override it", .enabled(if: GitFixture.isAvailable))
    func gitPaths() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let root = fixture.root.path
        let made = try Spawn.run(["sh", "-c", "cd \"$1\" && git clone -q repo ./-dashrepo", "sh", root])
        #expect(made.status == 0, "\(made.errorOutput)")
        for arguments in [["-dashrepo"], ["--", "-dashrepo"], ["-C", "-dashrepo"], ["--width", "70", "-dashrepo"]] {
            let result = try shell("cd \"$1\" && shift && exec \"$DEMO\" git \"$@\"", [root] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.errorOutput)")
            #expect(result.output.contains("Remove the second file"), "\(arguments): \(result.output)")
            #expect(!result.output.contains("OVERVIEW"))
        }
        let unknown = try shell("cd \"$1\" && exec \"$DEMO\" git -nothere", [root])
        #expect(unknown.status == 64)
        #expect(unknown.errorOutput.contains("git -- -nothere"), "\(unknown.errorOutput)")

        let other = try repository("git commit -q --allow-empty -m 'From the other repository'")
        defer { try? FileManager.default.removeItem(at: other) }
        let overridden = try demo(["git", fixture.repository], environment: [
            "GIT_DIR": other.appendingPathComponent(".git").path, "GIT_WORK_TREE": other.path,
        ])
        #expect(overridden.status == 0)
        #expect(overridden.output.contains("Remove the second file"))
        #expect(!overridden.output.contains("From the other repository"))
    }

    @Test("commit messages in Latin-1, with or without an encoding header, show correctly", .enabled(if: GitFixture.isAvailable))
    func latin1() throws {
        let root = try repository("""
        printf 'Caf\\351 with a header\\n' > message
        git -c i18n.commitEncoding=ISO-8859-1 commit -q --allow-empty -F message
        # git commit would convert the bytes to UTF-8: write the raw commit object, as old tools did.
        parent=$(git rev-parse HEAD)
        printf 'tree %s\\nparent %s\\nauthor T <t@example.com> 1709283600 +0000\\ncommitter T <t@example.com> 1709283600 +0000\\n\\nNa\\357ve without a header\\n' "$(git write-tree)" "$parent" > raw
        git update-ref refs/heads/main "$(git hash-object -t commit -w raw)"
        """)
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try demo(["git", root.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains("Café with a header"), "\(result.output)")
        #expect(result.output.contains("Naïve without a header"), "\(result.output)")
        #expect(!result.output.contains("\u{FFFD}"))
    }

    @Test("a history not in date order: a day that comes back gets its own section, no duplicate-id diagnostic", .enabled(if: GitFixture.isAvailable))
    func outOfOrderDays() throws {
        let root = try repository("""
        c() { GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$2" git commit -q --allow-empty -m "$3"; }
        c 2024-03-01T09:00:00+0000 2024-03-05T09:00:00+0000 "First, on Friday"
        c 2024-03-02T09:00:00+0000 2024-03-05T10:00:00+0000 "Second, on Saturday"
        c 2024-03-01T10:00:00+0000 2024-03-05T11:00:00+0000 "Third, on Friday again"
        c 2024-03-02T10:00:00+0000 2024-03-05T12:00:00+0000 "Fourth, on Saturday again"
        """)
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try demo(["git", root.path])
        #expect(result.status == 0)
        #expect(!result.errorOutput.contains("duplicate"), "\(result.errorOutput)")
        #expect(result.errorOutput.isEmpty, "\(result.errorOutput)")
        let headers = result.output.split(separator: "\n").filter { $0.hasPrefix("== ") }
        #expect(headers == ["== 2024-03-02 Sat ==", "== 2024-03-01 Fri ==", "== 2024-03-02 Sat ==", "== 2024-03-01 Fri =="])
        for subject in ["First", "Second", "Third", "Fourth"] { #expect(result.output.contains(subject)) }
    }
}
