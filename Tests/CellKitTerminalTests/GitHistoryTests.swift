@testable import cellkit_demo
import Foundation
import Testing

/// Reading a history: one `git log` streamed page by page, piped output as it comes,
/// commits whose diffstat git cannot compute, and the messages of failures.
@Suite("cellkit-demo git: reading the history", .enabled(if: GitFixture.isAvailable), .blocking)
struct GitHistoryTests {
    private func demo(_ arguments: [String], environment: [String: String] = [:]) throws -> Finished {
        try Spawn.run([try DemoBinary.path] + arguments, environment: environment)
    }

    /// A directory with a `git` that records its arguments in `calls` (one line per run) and
    /// runs the real git; with $CELLKIT_TEST_GO set, `git log` then waits (at most 20 s) for
    /// that file to exist and writes $CELLKIT_TEST_DONE.
    private func recordingGit(in root: URL) throws -> FakeGit {
        try FakeGit(in: root) { real, calls in
            """
            echo "$*" >> '\(calls)'
            case " $* " in
            *" log "*)
              if [ -n "$CELLKIT_TEST_GO" ]; then
                '\(real)' "$@" || exit $?
                i=0
                while [ ! -e "$CELLKIT_TEST_GO" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
                : > "$CELLKIT_TEST_DONE"
                exit 0
              fi ;;
            esac
            """
        }
    }

    @Test("a whole history is read by one git log, not one per page")
    func oneGitLogPerHistory() throws {
        // Before: each page ran `git log --skip=N`, and the history was walked again up to N
        // for every page (quadratic: minutes for 50,000 commits).
        let fixture = try GitFixture()
        defer { fixture.remove() }
        try fixture.addLinearCommits(40)
        let git = try recordingGit(in: fixture.root)
        let result = try demo(["git", fixture.repository, "--page-size", "5"], environment: ["PATH": git.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        for n in [1, 20, 40] { #expect(result.output.contains("Linear commit \(n)\n") || result.output.contains("Linear commit \(n) ")) }
        #expect(result.output.contains("Add the first file"))
        let calls = try String(contentsOfFile: git.calls, encoding: .utf8).split(separator: "\n")
        let logs = calls.filter { $0.contains(" log ") }
        #expect(logs.count == 1, "\(logs)")
        // The pages bring their diffstats: no `git show` per row.
        #expect(!calls.contains { $0.contains(" show ") }, "\(calls)")
        // The same rows as with one page holding everything.
        let onePage = try demo(["git", fixture.repository, "--page-size", "1000"])
        #expect(onePage.output == result.output)
    }

    // Failed before the fix (demo report 4, item 5): piped, every commit printed stayed in the
    // source, and each page cost a pass over all of them (--page-size 1: quadratic, 2 minutes for
    // 50,000 commits). Counted as the rows the source held, not timed.
    @Test("piped with --page-size 1, the source holds a page or two, not every commit printed")
    func smallPagesCostTheSame() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        try fixture.addLinearCommits(30)
        let result = try demo(["git", fixture.repository, "--page-size", "1"], environment: ["CELLKIT_DEMO_STATS": "1"])
        #expect(result.status == 0, "\(result.errorOutput)")
        for n in [1, 15, 30] { #expect(result.output.contains("Linear commit \(n)\n") || result.output.contains("Linear commit \(n) ")) }
        #expect(result.output.contains("Add the first file"))
        let held = result.errorOutput.firstMatch(of: /most rows held (\d+)/).flatMap { Int($0.1) }
        #expect(held != nil && held! <= 3, "\(result.errorOutput)")
        // The same rows as with one page holding everything.
        #expect(try demo(["git", fixture.repository, "--page-size", "1000"]).output == result.output)
    }

    @Test("piped, the first page is printed while git log is still running")
    func pipedOutputStreams() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let git = try recordingGit(in: fixture.root)
        let go = fixture.root.appendingPathComponent("go").path
        let done = fixture.root.appendingPathComponent("done").path
        // The reader takes the first line, notes whether git log had ended by then, and lets it end.
        let script = """
        "$DEMO" git "$1" --page-size 2 | { IFS= read -r first; if [ -e "$DONE" ]; then echo late; else echo early; fi; : > "$GO"; cat > /dev/null; }
        """
        let result = try Spawn.run(["sh", "-c", script, "sh", fixture.repository],
                                   environment: ["DEMO": try DemoBinary.path, "PATH": git.path,
                                                 "CELLKIT_TEST_GO": go, "CELLKIT_TEST_DONE": done, "GO": go, "DONE": done])
        #expect(result.output == "early\n", "the first line came only after git log ended")
    }

    @Test("the pages of GitHistory are the history in git's order; a page asked again is read again")
    func pagesInOrder() async throws {
        let fixture = try await GitFixture()
        defer { fixture.remove() }
        try await fixture.addLinearCommits(9)
        let expected = try await Spawn.run(["git", "-C", fixture.repository, "log", "--format=%H"]).output.split(separator: "\n").map(String.init)
        let history = GitHistory(repository: GitRepository(path: fixture.repository), pageSize: 4, diffstats: true)
        var hashes: [String] = []
        var page = 0
        while true {
            let loaded = try await history.page(page)
            hashes += loaded.items.map(\.hash)
            #expect(loaded.items.allSatisfy { $0.diffstat != nil && $0.diffstat != GitHistory.unavailable })
            page += 1
            if !loaded.hasMore { break }
        }
        #expect(hashes == expected)
        #expect(history.processesStarted == 1)
        // Page 1 again (a retry): a new git log from its first commit.
        let again = try await history.page(1)
        #expect(again.items.map(\.hash) == Array(expected[4..<8]))
        // A new page 0 (a refresh) reads the history afresh.
        let first = try await history.page(0)
        #expect(first.items.map(\.hash) == Array(expected[0..<4]))
        history.stop()
    }

    @Test("while growing (End, searching the rest), pages double: a long history in a few pages, each commit once")
    func growingPages() async throws {
        // Before: End read 500 pages of 100 for 50,000 commits, each costing the list a pass
        // over all its rows (51 s in a release build); now 100, 200, 400, … (1.5 s).
        let fixture = try await GitFixture()
        defer { fixture.remove() }
        try await fixture.addLinearCommits(40)
        let expected = try await Spawn.run(["git", "-C", fixture.repository, "log", "--format=%H"]).output.split(separator: "\n").map(String.init)
        let history = GitHistory(repository: GitRepository(path: fixture.repository), pageSize: 2, diffstats: false)
        var pages: [[String]] = [try await history.page(0).items.map(\.hash)]
        history.growing = true
        var page = 1
        while true {
            let loaded = try await history.page(page)
            pages.append(loaded.items.map(\.hash))
            page += 1
            if !loaded.hasMore { break }
        }
        history.growing = false
        #expect(pages.map(\.count) == [2, 4, 8, 16, 16])
        #expect(pages.flatMap { $0 } == expected)
        // Pages asked again (a retry, the pages after a refresh) are the same pages.
        #expect(try await history.page(2).items.map(\.hash) == pages[2])
        #expect(try await history.page(0).items.map(\.hash) == pages[0])
        #expect(try await history.page(3).items.map(\.hash) == pages[3])
        history.stop()
    }

    @Test("a stream is ended by terminate(), also during a read that waits, and its child is reaped")
    func streamTerminates() async throws {
        let stream = try StreamingProcess(["sh", "-c", "printf '\\036a\\036b\\036c'; exec sleep 600"], environment: [:])
        let two = stream.readRecords(2, separator: 0x1E)
        #expect(two.records == [Array("a".utf8), Array("b".utf8)])
        #expect(two.end == nil && !two.cancelled)
        // The third record is not known to be complete until more comes: this read waits.
        let reading = Task.detached { stream.readRecords(1, separator: 0x1E) }
        stream.terminate()
        let third = await reading.value
        #expect(third.cancelled)
        #expect(waitUntilGone([stream.pid]), "the child still runs")
        #expect(kill(stream.pid, 0) != 0 && errno == ESRCH, "the child was not reaped")
    }

    // Demo report 10–12, left: a `git log` that wrote all its output and exited while the screen
    // was idle stayed a zombie (`[git] <defunct>`) until the next read.
    @Test("a child that exits while nothing reads is reaped at once; its output and status are still read")
    func exitedChildIsReapedAtOnce() async throws {
        let stream = try StreamingProcess(["sh", "-c", "printf '\\036a\\036b\\036c'; exit 3"], environment: [:])
        let one = stream.readRecords(1, separator: 0x1E)
        #expect(one.records == [Array("a".utf8)] && one.end == nil)
        // Nothing reads now: the child is reaped all the same (a zombie answers kill 0).
        let deadline = Date().addingTimeInterval(10)
        while kill(stream.pid, 0) == 0, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(kill(stream.pid, 0) != 0 && errno == ESRCH, "the child is a zombie")
        #expect(!Subprocess.liveChildren.contains(stream.pid))
        let rest = stream.readRecords(5, separator: 0x1E)
        #expect(rest.records == [Array("b".utf8), Array("c".utf8)])
        #expect(rest.end?.status == 3)
        stream.terminate()
    }

    @Test("a commit whose diffstat git cannot compute says so; piped output goes on and exits 0")
    func missingBlob() throws {
        // Before: piped, the whole run failed with git's "unable to read" (exit 1, no rows).
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let script = """
        set -e
        cd "$1"
        head -c 5000 /dev/urandom > lost.bin; git add lost.bin
        GIT_AUTHOR_DATE="2024-03-04T09:00:00+0000" GIT_COMMITTER_DATE="2024-03-04T09:00:00+0000" git commit -q -m "Add a file whose blob goes missing"
        blob=$(git rev-parse HEAD:lost.bin)
        echo more > more.txt; git add more.txt
        GIT_AUTHOR_DATE="2024-03-04T10:00:00+0000" GIT_COMMITTER_DATE="2024-03-04T10:00:00+0000" git commit -q -m "A commit after it"
        rm -f ".git/objects/$(echo $blob | cut -c1-2)/$(echo $blob | cut -c3-)"
        """
        let made = try Spawn.run(["sh", "-c", script, "sh", fixture.repository])
        try #require(made.status == 0, "\(made.errorOutput)")
        for pageSize in ["100", "1", "3"] {
            let result = try demo(["git", fixture.repository, "--page-size", pageSize, "--width", "100"])
            #expect(result.status == 0, "\(result.errorOutput)")
            #expect(result.errorOutput.isEmpty, "\(result.errorOutput)")
            let lines = result.output.split(separator: "\n")
            let lost = try #require(lines.firstIndex { $0.contains("Add a file whose blob goes missing") })
            #expect(lines[lost + 1].contains("diffstat unavailable"))
            for subject in ["A commit after it", "Remove the second file", "Add the first file"] {
                #expect(result.output.contains(subject), "\(subject) is missing with --page-size \(pageSize)")
            }
            #expect(result.output.components(separatedBy: "diffstat unavailable").count == 2)
            #expect(result.output.contains("1 file +1 −0"))
        }
    }

    @Test("piped output prints no interaction hints and no developer diagnostics (unless --verbose)")
    func plainFailure() throws {
        let failing = try demo(["feed", "--fail-rate", "1"])
        #expect(failing.status == 1)
        #expect(failing.output.contains("could not load the first page"))
        #expect(!failing.output.contains("retry"), "\(failing.output)")
        #expect(!failing.output.contains("(Enter)"), "\(failing.output)")
        #expect(!failing.errorOutput.contains("CellKit ["), "\(failing.errorOutput)")
        #expect(failing.errorOutput.components(separatedBy: "could not load the first page").count == 2)
        let verbose = try demo(["feed", "--fail-rate", "1", "--verbose"])
        #expect(verbose.errorOutput.contains("CellKit [loadFailed]"), "\(verbose.errorOutput)")
    }

    @Test("standard error shows control characters in a path as symbols; git's own message for other failures")
    func errorMessages() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let evil = fixture.root.appendingPathComponent("evil\u{1B}]0;HACK\u{07}\u{1B}[31mred").appendingPathComponent("missing").path
        let missing = try demo(["git", evil])
        #expect(missing.status == 1)
        #expect(!missing.errorOutput.contains("\u{1B}") && !missing.errorOutput.contains("\u{07}"), "\(missing.errorOutput.debugDescription)")
        #expect(missing.errorOutput.contains("evil␛]0;HACK␇␛[31mred/missing’ does not exist"), "\(missing.errorOutput)")
        let unknown = try demo(["git", "-\u{1B}[2Jx"])
        #expect(unknown.status == 64)
        #expect(!unknown.errorOutput.contains("\u{1B}"), "\(unknown.errorOutput.debugDescription)")

        let config = try Spawn.run(["git", "-C", fixture.repository, "config", "core.abbrev", "evil"])
        #expect(config.status == 0)
        let badConfig = try demo(["git", fixture.repository])
        #expect(badConfig.status == 1)
        #expect(!badConfig.errorOutput.contains("not a git repository"), "\(badConfig.errorOutput)")
        #expect(badConfig.errorOutput.contains("git cannot read ‘\(fixture.repository)’: fatal: bad numeric config value"), "\(badConfig.errorOutput)")
    }

    @Test("negative numbers get a clear message, exit 64; a closed standard output is a bad descriptor")
    func options() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        for (arguments, message) in [
            (["feed", "--fail-rate", "-1"], "--fail-rate must be between 0 and 1 (got -1.0)"),
            (["feed", "--seed", "-1"], "'-1' is invalid for '--seed"),
            (["git", fixture.repository, "--pages", "-1"], "--pages must be at least 1 (got -1)"),
            (["git", fixture.repository, "--page-size", "-5"], "--page-size must be positive (got -5)"),
            (["feed", "--width", "-5"], "--width must be between 20 and 1000 (got -5)"),
        ] {
            let result = try demo(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.errorOutput.contains(message), "\(arguments): \(result.errorOutput)")
            #expect(!result.errorOutput.contains("Missing value"))
        }
        let closed = try Spawn.run(["sh", "-c", "\"$DEMO\" git \"$1\" >&-", "sh", fixture.repository], environment: ["DEMO": try DemoBinary.path])
        #expect(closed.status == 2)
        #expect(closed.errorOutput.contains("could not write the output: Bad file descriptor"), "\(closed.errorOutput)")
    }
    @Test("a refresh whose shown head was pruned counts the commits shown that the history lacks")
    @MainActor
    func replacedHistoryMessage() {
        // All shown: exact counts, new commits too.
        #expect(GitScreen.replacedMessage(shown: ["e", "d", "c", "b", "a"], shownAll: true, now: ["c", "b", "a"], notOlder: ["c", "b", "a"])
                == "The history was rewritten: 2 commits gone")
        #expect(GitScreen.replacedMessage(shown: ["c", "b", "a"], shownAll: true, now: ["x", "a"], notOlder: ["x", "a"])
                == "The history was rewritten: 2 commits gone, 1 new commit")
        // Pages left, the oldest loaded kept: the older ones are its history, kept too.
        #expect(GitScreen.replacedMessage(shown: ["e", "d", "c"], shownAll: false, now: ["c", "b", "a"], notOlder: ["c"])
                == "The history was rewritten: 2 commits gone")
        // Pages left, new commits on the oldest loaded one (pruned rewrite): counted from
        // what the old history did not reach below the loaded ones; not when that is unknown.
        #expect(GitScreen.replacedMessage(shown: ["e", "d", "c"], shownAll: false, now: ["y", "x", "c", "b", "a"], notOlder: ["y", "x", "c"])
                == "The history was rewritten: 2 commits gone, 2 new commits")
        #expect(GitScreen.replacedMessage(shown: ["e", "d", "c"], shownAll: false, now: ["y", "x", "c", "b", "a"], notOlder: nil)
                == "The history was rewritten: 2 commits gone")
        // Pages left, the oldest loaded gone: older ones may be gone too.
        #expect(GitScreen.replacedMessage(shown: ["e", "d", "c"], shownAll: false, now: ["a"], notOlder: nil)
                == "The history was rewritten: at least 3 commits gone")
        // git failed: no count.
        #expect(GitScreen.replacedMessage(shown: ["a"], shownAll: true, now: nil, notOlder: nil) == nil)
    }
}
