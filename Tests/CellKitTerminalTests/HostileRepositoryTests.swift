@testable import cellkit_demo
import CellKit
import CellKitTerminal
import Foundation
import Testing

/// Repositories made to fool or trap the demo (report 6): commit text with the bytes a
/// record format could take as structure, promisor remotes, odd configs and object formats.
@Suite("cellkit-demo git: hostile repositories", .enabled(if: GitFixture.isAvailable), .blocking)
struct HostileRepositoryTests {
    private func demo(_ arguments: [String], environment: [String: String] = [:]) throws -> Finished {
        try Spawn.run([try DemoBinary.path] + arguments, environment: environment)
    }

    /// The commit rows of piped output (a row's first line starts with a marker and the short hash).
    private func commitLines(_ output: String) -> [Substring] {
        output.split(separator: "\n").filter { $0.hasPrefix(" ● ") || $0.hasPrefix(" ⑂ ") || $0.hasPrefix(" ◆ ") }
    }

    /// A repository whose messages and author names hold 0x1E and 0x1F laid out as the old record format
    /// (a forged commit with a hash, author, date, tag and "HEAD ->"; an author name that would hide commits).
    static func spoofing(_ name: String) throws -> ScratchRepository {
        try ScratchRepository(name, script: #"""
            git config user.name T; git config user.email t@example.com
            echo 1 > a; git add .; git commit -qm "real first"
            echo 2 > a; git add .
            git commit -qm "$(printf 'Fix typo\037\0362222222222222222222222222222222222222222\0372222222\037\037Linus Torvalds\0372030-01-01 Tue 00:00\037HEAD -> main, tag: v9.9\037Revert: remove backdoor\037')"
            echo 3 > a; git add .; git commit -qm "$(printf 'bare \037\036 in it')"
            echo 4 > b; git add .; git -c user.name="$(printf 'Ev\037e\0363333333333333333333333333333333333333333\037FAKE')" commit -qm "author sep"
            echo 5 > b; git add .; git -c user.name="$(printf 'Mal\036lory')" commit -qm "hidden backdoor"
            echo 6 > b; git add .; git commit -qm "normal last"
            """#)
    }

    @Test("0x1E and 0x1F in a message or an author name neither forge nor hide commits; they show as ␞ ␟")
    func separatorBytesInCommitText() throws {
        // Before: the record format used 0x1E/0x1F as its separators, so the first message
        // made a third, forged row, and the author names hid two commits.
        let repository = try Self.spoofing("spoof")
        defer { repository.remove() }
        let log = try Spawn.run(["git", "-C", repository.path, "log", "--format=%h"])
        let expected = log.output.split(separator: "\n").count
        #expect(expected == 6)
        for pageSize in ["100", "1", "2"] {
            let result = try demo(["git", repository.path, "--page-size", pageSize, "--width", "200"])
            #expect(result.status == 0, "\(result.errorOutput)")
            let rows = commitLines(result.output)
            #expect(rows.count == expected, "\(result.output)")
            #expect(!rows.contains { $0.contains("2222222 Revert") } && !result.output.contains(" ◆ v9.9") && !result.output.contains("== 2030-01-01"), "\(result.output)")
            #expect(result.output.contains("Fix typo␟␞2222222222222222222222222222222222222222␟2222222␟␟Linus Torvalds␟2030-01-01 Tue 00:00␟HEAD -> main, tag: v9.9␟Revert: remove backdoor␟"), "\(result.output)")
            #expect(result.output.contains("bare ␟␞ in it"), "\(result.output)")
            // The author name, cut at 40 columns as every long one is (its ␟FAKE end is past them).
            #expect(result.output.contains("Ev␟e␞" + String(repeating: "3", count: 34) + "… · "), "\(result.output)")
            #expect(result.output.contains("Mal␞lory"), "\(result.output)")
            // Once in the forged text, once as the real ref.
            #expect(result.output.components(separatedBy: "HEAD -> main").count == 3, "\(result.output)")
            // The diffstats stay with their commits: "Fix typo" changed a (1 line out, 1 in).
            let lines = result.output.split(separator: "\n")
            let fix = try #require(lines.firstIndex { $0.contains("Fix typo") })
            #expect(lines[fix + 1].contains("1 file +1 −1"), "\(lines[fix + 1])")
            let first = try #require(lines.firstIndex { $0.contains("real first") })
            #expect(lines[first + 1].contains("1 file +1 −0"), "\(lines[first + 1])")
        }
    }

    @Test("the filter finds control characters as the rows show them (␛, ␟), in subjects, authors and refs")
    @MainActor func filterMatchesShownSymbols() {
        func commit(_ hash: String, subject: String, author: String = "T", refs: [String] = []) -> ListItem {
            ListItem(CommitInfo(hash: hash, shortHash: String(hash.prefix(7)), parents: [], author: author,
                                day: "2026-11-24 Tue", time: "12:00", refs: refs, subject: subject))
        }
        var loaded = TableModel()
        loaded.appendSection(id: SectionID("all"))
        loaded.append([
            commit("a000000", subject: "red \u{1B}[31mtext"),
            commit("b000000", subject: "plain", author: "Ev\u{1F}e"),
            commit("c000000", subject: "tagged", refs: ["tag: v\u{7F}1"]),
            commit("d000000", subject: "Ünïcode ESC words"),
        ])
        func hashes(_ filter: String) -> [String] {
            GitScreen.shape(loaded, filter: filter).sections.flatMap(\.items).compactMap { $0.model(as: Commit.self)?.info.hash ?? $0.model(as: TaggedCommit.self)?.info.hash }
        }
        // Before: the filter read the raw text, so what the row shows found nothing.
        #expect(hashes("␛[31m") == ["a000000"])
        #expect(hashes("v␟E") == ["b000000"])
        #expect(hashes("v␡1") == ["c000000"])
        #expect(hashes("ünï") == ["d000000"])
        #expect(hashes("esc") == ["d000000"])
    }

    @Test("interactive: as many rows as git log has commits, with 0x1E and 0x1F in messages and names",
          .enabled(if: TmuxAvailability.available))
    func separatorBytesInteractive() throws {
        let repository = try Self.spoofing("spoof-tmux")
        defer { repository.remove() }
        let session = try DemoSession("git-spoof", ["git", repository.path], columns: 120, rows: 30)
        defer { session.close() }
        try session.tmux.waitFor(text: "real first")
        // The first row's selection may come a frame after the rows ("0/0" until then).
        let screen = try session.tmux.waitFor("the first of 6 rows selected") { statusPosition($0) == "1/6" }
        #expect(!screen.contains { $0.contains("◆ v9.9") || $0.contains("2222222 Revert") || $0.contains("2030-01-01 Tue ─") }, "\(screen)")
        #expect(screen.contains { $0.contains("Mal␞lory") }, "\(screen)")
        try session.tmux.send("End")
        let end = try session.tmux.waitFor("the selection on the last row") { statusPosition($0) == "6/6" }
        #expect(end.contains { $0.contains("real first") }, "\(end)")
        try session.quit()
    }

    @Test("a record is a commit only with a full object name and every field; fields never split on 0x1E or 0x1F")
    func recordParsing() {
        let hash = String(repeating: "a", count: 40)
        func record(_ fields: [String]) -> [UInt8] { Array(fields.joined(separator: "\u{0}").utf8) }
        let commit = GitRepository.commit(record: record([hash, "aaaaaaa", "", "A\u{1E}B\u{1F}C", "2024-03-01 Fri 09:00", "", "s\u{1F}\u{1E}t", "\n"]), diffstats: false)
        #expect(commit?.author == "A\u{1E}B\u{1F}C")
        #expect(commit?.subject == "s\u{1F}\u{1E}t")
        #expect(GitRepository.commit(record: record(["x" + hash.dropFirst(), "a", "", "A", "d", "", "s", ""]), diffstats: false) == nil)
        #expect(GitRepository.commit(record: record([hash, "a", "", "A", "d", "", "s"]), diffstats: false) == nil)
        let sha256 = String(repeating: "0123456789abcdef", count: 4)
        #expect(GitRepository.commit(record: record([sha256, "0123456", "", "A", "d", "", "s", ""]), diffstats: false)?.hash == sha256)
    }

    /// A partial clone whose newest commit's blob is missing, with a promisor remote that
    /// would run `core.sshCommand` (it creates the file `PWNED` next to the repository) and a
    /// config that allows ssh whatever `-c protocol.allow=never` says.
    static func promisor(_ name: String) throws -> ScratchRepository {
        try ScratchRepository(name, in: "evil", script: #"""
            git config user.name T; git config user.email t@example.com
            for n in 1 2 3; do echo $n > f$n; git add .; git commit -qm "commit $n"; done
            blob=$(git rev-parse HEAD:f3)
            git repack -adq
            old=$(ls .git/objects/pack/*.pack)
            git rev-list --objects --all | grep -v "$blob" | cut -d' ' -f1 | git pack-objects -q .git/objects/pack/kept > /dev/null
            rm -f "$old" "${old%.pack}.idx"
            ! git cat-file -e "$blob" 2>/dev/null
            git config core.repositoryformatversion 1
            git config extensions.partialClone origin
            git remote add origin ssh://host.example/repo
            git config remote.origin.promisor true
            git config protocol.ssh.allow always
            git config core.sshCommand "touch '$1/../PWNED'; exit 255; :"
            """#)
    }

    @Test("a partial clone's missing blob is never fetched: no remote, no ssh command, \"diffstat unavailable\"")
    func promisorRemoteNeverRuns() throws {
        // Before: git show / git log --shortstat fetched the blob lazily, running the repository's
        // core.sshCommand (PWNED was created), or prompting for a password on the terminal.
        let repository = try Self.promisor("promisor")
        defer { repository.remove() }
        let pwned = repository.root.appendingPathComponent("PWNED").path
        let check = try Spawn.run(["git", "-C", repository.path, "show", "--shortstat", "HEAD"])
        try #require(FileManager.default.fileExists(atPath: pwned), "the fixture does not reach its ssh command: \(check.errorOutput)")
        try FileManager.default.removeItem(atPath: pwned)
        for pageSize in ["100", "1"] {
            let result = try demo(["git", repository.path, "--page-size", pageSize, "--width", "100"])
            #expect(result.status == 0, "\(result.errorOutput)")
            let lines = result.output.split(separator: "\n")
            let newest = try #require(lines.firstIndex { $0.contains("commit 3") }, "\(result.output)")
            #expect(lines[newest + 1].contains("diffstat unavailable"), "\(result.output)")
            #expect(commitLines(result.output).count == 3, "\(result.output)")
            #expect(!FileManager.default.fileExists(atPath: pwned), "the repository's ssh command ran (--page-size \(pageSize))")
        }
    }

    // Before the fix: git show, started on the demo's terminal, could open /dev/tty and read the
    // keys (a credential prompt of a lazy fetch); q and Ctrl-C never reached the demo, and after a
    // key the main queue waited in read(), so SIGTERM, SIGINT and SIGHUP did nothing either; a git
    // that ignored SIGTERM left what it started (ssh, sleep) running after the demo.
    @Test("q, Ctrl-C and signals end the demo while git show prompts on /dev/tty or hangs ignoring SIGTERM; nothing it started is left",
          .enabled(if: TmuxAvailability.available), arguments: ["q", "C-c", "TERM", "INT", "HUP"])
    func hangingGitNeverKeepsTheDemo(_ way: String) throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let git = try FakeGit(in: fixture.root) { _, calls in
            """
            case " $* " in
            *" show "*)
              echo $$ >> '\(calls)'
              trap '' TERM INT HUP
              if (exec 3< /dev/tty) 2> /dev/null; then printf 'Password: ' > /dev/tty; read x < /dev/tty; read x < /dev/tty; fi
              sleep 600 & echo $! >> '\(calls)'
              wait; exit 1 ;;
            esac
            """
        }
        let session = try DemoSession("git-hang-\(way)", ["git", fixture.repository], columns: 100, rows: 12, environment: ["PATH": git.path])
        defer { session.close() }
        try session.tmux.waitFor(text: "Remove the second file")
        func recorded() -> [pid_t] {
            ((try? String(contentsOfFile: git.calls, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
        }
        let deadline = Date().addingTimeInterval(20)
        while recorded().count < 4 && Date() < deadline { usleep(20_000) }
        #expect(recorded().count >= 4, "the two git show did not start their sleep")
        defer { for pid in recorded() where !processIsGone(pid) { kill(pid, SIGKILL) } }
        try session.tmux.send("j")
        // The demo took the j before the signal: sent at once, the signal could end the demo
        // first, and the terminal, back in its own mode, echoed the j before "exit=" ("jexit=129").
        try session.tmux.waitFor("the j taken") { statusPosition($0) == "2/6" }
        switch way {
        case "TERM": kill(try session.demoPID(), SIGTERM)
        case "INT": kill(try session.demoPID(), SIGINT)
        case "HUP": kill(try session.demoPID(), SIGHUP)
        default: try session.tmux.send(way)
        }
        let screen = try session.tmux.waitFor("the demo to exit") { $0.contains { $0.hasPrefix("exit=") } }
        let expected = ["q": "exit=0", "C-c": "exit=130", "TERM": "exit=143", "INT": "exit=130", "HUP": "exit=129"][way]!
        #expect(screen.contains(expected), "\(screen)")
        let pids = recorded()
        #expect(waitUntilGone(pids, timeout: 5), "left running after the demo: \(pids.filter { !processIsGone($0) })")
        _ = try session.waitForExitAndCheckTerminal()
    }

    @Test("log.showRoot=false in the user's config does not make the root commit read \"no changes\"")
    func rootCommitWithShowRootOff() throws {
        // Before: git log and git show print no diffstat for a root commit with log.showRoot=false,
        // and the demo read that as "no changes".
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let environment = ["GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "log.showRoot", "GIT_CONFIG_VALUE_0": "false"]
        let piped = try demo(["git", fixture.repository, "--width", "100"], environment: environment)
        #expect(piped.status == 0, "\(piped.errorOutput)")
        let lines = piped.output.split(separator: "\n")
        let root = try #require(lines.firstIndex { $0.contains("Add the first file") }, "\(piped.output)")
        #expect(lines[root + 1].contains("1 file +1 −0"), "\(lines[root + 1])")
        // The interactive list's diffstats (git show, one per row).
        let repository = GitRepository(path: fixture.repository)
        let hash = try Spawn.run(["git", "-C", fixture.repository, "rev-list", "--max-parents=0", "HEAD"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = try Spawn.run(["env", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=log.showRoot", "GIT_CONFIG_VALUE_0=false"]
            + repository.command(["show", "--shortstat", "--format=", hash, "--"]).map(\.description))
        #expect(shown.output.contains("1 file changed, 1 insertion(+)"), "\(shown.output)")
    }

    // Demo report 7, items 2 and 4: a 5,000-character author pushed the time, the branches and
    // the diffstat off the byline (piped at --width 1000 too); an empty one left a bare " · ".
    @Test("a long author name is cut with …, so the byline keeps its time and diffstat; an empty one reads “unknown author”")
    func longAndEmptyAuthors() throws {
        let long = String(repeating: "Ω", count: 5_000)
        let repository = try ScratchRepository("authors", script: """
            git config user.email t@example.com
            echo 1 > a; git add .; git -c user.name=T commit -qm first
            echo 2 > a; git add .; git -c user.name='\(long)' commit -qm "long author"
            """)
        defer { repository.remove() }
        let result = try demo(["git", repository.path, "--width", "200"])
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n")
        let row = try #require(lines.firstIndex { $0.contains("long author") }, "\(result.output)")
        let byline = lines[row + 1]
        #expect(byline.hasPrefix("   " + String(repeating: "Ω", count: CommitCellBase.authorColumns - 1) + "… · "), "\(byline)")
        #expect(byline.contains("1 file +1 −1"), "\(byline)")
        #expect(CommitCellBase.byline("") == "unknown author")
        #expect(CommitCellBase.byline("Ada") == "Ada")
        #expect(DisplayWidth.of(CommitCellBase.byline(String(repeating: "日", count: 100))) <= CommitCellBase.authorColumns)
        // Control characters draw as one-column symbols: they count.
        #expect(StyledLine(CommitCellBase.byline("Ev\u{1F}e\u{1E}" + String(repeating: "3", count: 60))).displayWidth == CommitCellBase.authorColumns)
        // "1 commit", not "1 commits", when one page of one commit leaves more.
        let one = try demo(["git", repository.path, "--pages", "1", "--page-size", "1"])
        #expect(one.errorOutput.contains("(1 commit);"), "\(one.errorOutput)")
    }

    // Demo report 8, item 1: 30 branches on a commit pushed its diffstat off the byline (piped at
    // --width 1000 too, and a merge's parents with it).
    @Test("many refs on a commit are cut to their first ones and a count, so the byline keeps its diffstat")
    func manyRefs() throws {
        let repository = try ScratchRepository("refs", script: """
            git config user.name R; git config user.email r@example.com
            echo 1 > a; git add .; git commit -qm one
            echo 2 > a; git add .; git commit -qm two
            for i in $(seq 1 30); do git branch feature/very-long-branch-name-number-$i; done
            """)
        defer { repository.remove() }
        for width in ["100", "1000"] {
            let result = try demo(["git", repository.path, "--width", width])
            #expect(result.status == 0, "\(result.errorOutput)")
            let lines = result.output.split(separator: "\n")
            let row = try #require(lines.firstIndex { $0.contains(" two") }, "\(result.output)")
            let byline = lines[row + 1]
            #expect(byline.hasPrefix("   R · "), "\(byline)")
            #expect(byline.contains(" · HEAD -> main, "), "\(byline)")
            #expect(byline.contains(", … +30 · 1 file +1 −1") || byline.contains(", … +29 · 1 file +1 −1"), "\(byline)")
        }
        // Cut by the terminal's widths (wide and control characters), never past refsColumns.
        let wide = (1...20).map { "分支-\($0)-\u{1B}" }
        let text = CommitCellBase.refsText(["HEAD -> main"] + wide)
        #expect(StyledLine(text).displayWidth <= CommitCellBase.refsColumns, "\(text)")
        #expect(text.hasPrefix("HEAD -> main, 分支-1-"), "\(text)")
        #expect(CommitCellBase.refsText(["HEAD -> main", "origin/main"]) == "HEAD -> main, origin/main")
        let long = CommitCellBase.refsText(["HEAD -> " + String(repeating: "b", count: 100), "x"])
        #expect(long.hasSuffix("…, … +1") && StyledLine(long).displayWidth <= CommitCellBase.refsColumns, "\(long)")
        // Demo report 9, items 4 and 5: a long ref alone read "… +0"; a cut wide character left "長 …".
        let alone = CommitCellBase.refsText(["HEAD -> plain/very-long-branch-name-with-nothing-else-on-it-3"])
        #expect(alone.hasSuffix("…") && !alone.contains("+0") && StyledLine(alone).displayWidth <= CommitCellBase.refsColumns, "\(alone)")
        let japanese = CommitCellBase.refsText(["HEAD -> feature/日本語のとても長い名前のブランチ", "a", "b"], columns: 30)
        #expect(!japanese.contains(" …,") && !japanese.contains("……") && japanese.hasSuffix("…, … +2"), "\(japanese)")
        #expect(StyledLine(japanese).displayWidth <= 30, "\(japanese)")
        // Demo report 10, cosmetic: below about 72 columns the refs went with no trace.
        #expect(CommitCellBase.refsText(["HEAD -> main"], columns: 5) == "+1")
        #expect(CommitCellBase.refsText(["HEAD -> main", "v1", "v2"], columns: 2) == "+3")
        #expect(CommitCellBase.refsText(["HEAD -> main"], columns: 1) == "")
        #expect(CommitCellBase.refsText([], columns: 5) == "")
    }

    // Demo report 9, item 5: the refs kept 40 columns on a narrow terminal and pushed the
    // diffstat (and a merge's parents) off the byline.
    @Test("on a narrow row the refs are cut first: the byline keeps its diffstat and a merge's parents", arguments: [100, 80, 60, 45])
    @MainActor func refsOnNarrowRows(width: Int) throws {
        var info = CommitInfo(hash: "a1b2c3d4e5", shortHash: "a1b2c3d", parents: ["1111111aaaa", "2222222bbbb"], author: "Ryo Aoyama",
                              day: "2026-11-24 Tue", time: "01:29", refs: ["HEAD -> plain/very-long-branch-name-with-nothing-else-on-it-3", "origin/x"], subject: "merge")
        let cell = MergeCell()
        cell.info = info
        cell.diffstat = "1 file +1 −1"
        let byline = cell.terminalLines(width: width)[1].plainText
        #expect(byline.contains("· 1 file +1 −1 · merges 1111111 + 2222222"), "\(byline)")
        // The diffstat ends inside the row (the list view cuts the rest of the line).
        let diffstatEnd = try #require(byline.range(of: "1 file +1 −1")?.upperBound)
        #expect(DisplayWidth.of(String(byline[..<diffstatEnd])) <= width, "\(byline)")
        // The parents too, where the line without refs fits.
        if width >= 70 { #expect(DisplayWidth.of(byline) <= width, "\(byline)") }
        info.refs = (1...7).map { "tag: v1.0.\($0)-🚀🚀🚀🚀" }
        let tagged = TagCell()
        tagged.info = info
        let tagLine = tagged.terminalLines(width: width)[0]
        #expect(tagLine.displayWidth <= width && tagLine.plainText.contains("… +"), "\(tagLine.plainText)")
    }

    // Demo report 13, defect 7: at 100 columns an octopus merge lost its "HEAD -> master" to
    // its parents' list, which the row cut anyway.
    @Test("an octopus merge keeps its refs before its parents, whose list is shortened with a count", arguments: [140, 120, 100, 80, 60, 45])
    @MainActor func octopusKeepsItsRefs(width: Int) throws {
        let parents = ["da9a53a", "5a21a1c", "76f22db", "7a09fe2", "eb9e30c", "ecd3f5c", "e0e0e0e"].map { $0 + "0000" }
        let info = CommitInfo(hash: "aebb0ef0000", shortHash: "aebb0ef", parents: parents, author: "T",
                              day: "2026-11-24 Tue", time: "20:56", refs: ["HEAD -> master"], subject: "octopus of seven")
        let cell = MergeCell()
        cell.info = info
        cell.diffstat = "6 files +6 −0"
        let line = cell.terminalLines(width: width)[1]
        let byline = String(line.fitted(to: width).plainText.reversed().drop { $0 == " " }.reversed())
        if width >= 80 {
            #expect(byline.hasPrefix("   T · 20:56 · HEAD -> master · 6 files +6 −0 · merges da9a53a + 5a21a1c"), "\(byline)")
            // The parents that fit, then the count of the others: nothing cut.
            #expect(line.displayWidth <= width, "\(line.plainText)")
            #expect(width >= 140 ? byline.hasSuffix(" + e0e0e0e") : byline.contains(" + … +"), "\(byline)")
        } else {
            #expect(byline.hasPrefix("   T · 20:56 · +1 · 6 files +6 −0 · merges d"), "\(byline)")
        }
    }

    // Demo report 12, left: at 60 columns and less, a merge's byline lost its refs' count
    // ("… · 1 file +1 −1 · merges 62745d7 + 888…", no "+1") while the merge text was cut anyway.
    @Test("on a narrow merge row the refs' count stays, before the parents the list cuts", arguments: [60, 50, 45])
    @MainActor func refsCountOnNarrowMergeRows(width: Int) throws {
        let info = CommitInfo(hash: "a1b2c3d4e5", shortHash: "a1b2c3d", parents: ["62745d7aaaa", "8888888bbbb"], author: "Ryo Aoyama",
                              day: "2026-11-24 Tue", time: "01:29", refs: ["HEAD -> main"], subject: "merge")
        let cell = MergeCell()
        cell.info = info
        cell.diffstat = "1 file +1 −1"
        let byline = cell.terminalLines(width: width)[1].fitted(to: width).plainText
        #expect(byline.hasPrefix("   Ryo Aoyama · 01:29 · +1 · 1 file +1 −1"), "\(byline)")
    }

    // Demo report 7, item 4: run inside a repository with no PATH, the title said "CellKit · git · .".
    @Test("the title names the current directory for “.”, and any other path as given")
    func titleOfTheCurrentDirectory() {
        #expect(GitScreen.titlePath(".") == FileManager.default.currentDirectoryPath)
        #expect(GitScreen.titlePath("./") == FileManager.default.currentDirectoryPath)
        #expect(GitScreen.titlePath("../repo") == "../repo")
        #expect(GitScreen.titlePath("/tmp/x") == "/tmp/x")
    }

    @Test("piped --pages N with more history left prints N pages of rows and nothing else on standard output")
    func pagesWithMoreLeft() throws {
        // Before: standard output ended with a false "∅ No commits yet in ‘…’" row.
        let fixture = try GitFixture()
        defer { fixture.remove() }
        for (pages, rows) in [("1", 2), ("2", 4)] {
            let result = try demo(["git", fixture.repository, "--pages", pages, "--page-size", "2", "--width", "100"])
            #expect(result.status == 0, "\(result.errorOutput)")
            #expect(!result.output.contains("No commits yet"), "\(result.output)")
            #expect(commitLines(result.output).count == rows, "\(result.output)")
            let last = result.output.split(separator: "\n").last ?? ""
            #expect(last.hasPrefix("   Test Author · "), "\(result.output)")
            #expect(result.errorOutput.contains("more remain"), "\(result.errorOutput)")
        }
        let feed = try demo(["feed", "--pages", "1"])
        #expect(feed.status == 0 && !feed.output.isEmpty, "\(feed.errorOutput)")
    }

    @Test("merges are drawn as merges, tagged or not, in SHA-1 and SHA-256 repositories", arguments: ["sha1", "sha256"])
    func mergesInBothObjectFormats(_ format: String) throws {
        // Before: a tagged merge (report 6 saw it in a SHA-256 repository) was drawn as a plain commit.
        let repository = try ScratchRepository("merges-\(format)", in: "repo", script: #"""
            cd ..; rm -rf repo; git init -q -b main --object-format=\#(format) repo; cd repo
            git config user.name T; git config user.email t@example.com
            echo 1 > a; git add .; git commit -qm one
            git checkout -qb b2; echo 2 > b; git add .; git commit -qm side
            git checkout -q main; echo 3 > c; git add .; git commit -qm three
            git merge -q --no-edit -m "Tagged merge" b2; git tag v1
            git checkout -qb b3 HEAD~1; echo 4 > d; git add .; git commit -qm other
            git checkout -q main; git merge -q --no-edit -m "Plain merge" b3
            """#)
        defer { repository.remove() }
        let result = try demo(["git", repository.path, "--width", "200"])
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n")
        let parents = try Spawn.run(["git", "-C", repository.path, "log", "--merges", "--format=%p"]).output.split(separator: "\n")
        #expect(parents.count == 2)
        for (subject, parents) in zip(["Plain merge", "Tagged merge"], parents) {
            let row = try #require(lines.firstIndex { $0.contains(subject) }, "\(result.output)")
            #expect(lines[row].hasPrefix(" ⑂ "), "\(lines[row])")
            #expect(lines[row + 1].hasSuffix("merges " + parents.split(separator: " ").joined(separator: " + ")), "\(lines[row + 1])")
        }
        #expect(result.output.contains(" ◆ v1\n ⑂ "), "\(result.output)")
    }

    /// 30 commits, "v 1" to "v 30", with the commit object of "v 15" deleted: git log gives
    /// "v 30" to "v 17", then fails.
    static func unreadableCommit(_ name: String) throws -> ScratchRepository {
        try ScratchRepository(name, script: #"""
            git config user.name T; git config user.email t@example.com
            for i in $(seq 1 30); do echo $i > f$i; git add .; git commit -qm "v $i"; done
            c=$(git rev-parse HEAD~15); rm ".git/objects/$(echo $c | cut -c1-2)/$(echo $c | cut -c3-)"
            """#)
    }

    @Test("one unreadable commit: the rows git delivered before it are shown and printed, then git's fatal line")
    func rowsBeforeAnUnreadableCommit() throws {
        // Before: the page the unreadable commit fell on was dropped whole (with the default
        // page size, no row at all), and the message was git's first line ("error: Could not read").
        let repository = try Self.unreadableCommit("unreadable")
        defer { repository.remove() }
        let log = try Spawn.run(["git", "-C", repository.path, "log", "--format=%s"])
        let readable = log.output.split(separator: "\n")
        #expect(readable.count == 14 && log.status != 0, "\(log.output)")
        for pageSize in ["100", "5", "1"] {
            let result = try demo(["git", repository.path, "--page-size", pageSize, "--width", "200"])
            #expect(result.status == 1, "\(result.errorOutput)")
            #expect(commitLines(result.output).count == readable.count, "--page-size \(pageSize): \(result.output)")
            #expect(readable.allSatisfy { subject in result.output.contains(" " + subject + "\n") }, "\(result.output)")
            #expect(result.errorOutput.contains("git log failed with status 128: fatal: Failed to traverse parents of commit"), "\(result.errorOutput)")
        }
    }

    @Test("git's message is its fatal or error line, not a warning or GIT_TRACE output before it")
    func gitMessages() throws {
        #expect(GitRepository.message(stderr: "warning: unable to access '/root/.config/git/attributes': Permission denied\nerror: Could not read 1234\nfatal: Failed to traverse parents of commit 5678\n")
            == "fatal: Failed to traverse parents of commit 5678")
        #expect(GitRepository.message(stderr: "warning: unable to access 'x': Permission denied\nerror: Could not read 1234\n") == "error: Could not read 1234")
        #expect(GitRepository.message(stderr: "11:43:38.250751 git.c:460 trace: built-in: git log\nsomething odd\n") == "something odd")
        #expect(GitRepository.message(stderr: "warning: only this\n") == "warning: only this")
        let warned = GitRepository.error(path: "/r", stderr: "warning: unable to access '/root/.config/git/attributes': Permission denied\nfatal: bad config line 1 in file /r/.git/config\n")
        #expect("\(warned)" == "git cannot read ‘/r’: fatal: bad config line 1 in file /r/.git/config")
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let traced = try demo(["git", fixture.notARepository], environment: ["GIT_TRACE": "1"])
        #expect(traced.status == 1)
        #expect(!traced.errorOutput.contains("trace:") && traced.errorOutput.contains("is not a git repository (git: fatal: not a git repository"), "\(traced.errorOutput)")
    }

    @Test("interactive: the rows before an unreadable commit show, End stops on the \"Couldn't load more\" row",
          .enabled(if: TmuxAvailability.available))
    func unreadableCommitInteractive() throws {
        let repository = try Self.unreadableCommit("unreadable-tmux")
        defer { repository.remove() }
        let session = try DemoSession("git-unreadable", ["git", repository.path], columns: 100, rows: 12)
        defer { session.close() }
        try session.tmux.waitFor(text: "v 30")
        try session.tmux.send("End")
        let screen = try session.tmux.waitFor(text: "Couldn't load more")
        #expect(screen.contains { $0.contains("v 17") }, "\(screen)")
        #expect(screen.contains { $0.contains("fatal: Failed to traverse") }, "\(screen)")
        try session.quit()
    }

    @Test("a repository path that is not UTF-8 (Latin-1 bytes) reaches git unchanged, as PATH and after -C")
    func pathNotUTF8() throws {
        // Before: the path was read as text, its bytes replaced with U+FFFD: "does not exist".
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let script = #"""
            p="$1/$(printf 'lat\351 \377\376name')"
            git clone -q "$2" "$p"
            "$DEMO" git "$p" --width 100; echo "status=$?"
            "$DEMO" git -C "$p" --width 100; echo "status=$?"
            "$DEMO" git "$1/$(printf 'lat\350')"; echo "status=$?"
            """#
        let result = try Spawn.run(["sh", "-c", script, "sh", fixture.root.path, fixture.repository], environment: ["DEMO": try DemoBinary.path])
        let runs = result.output.components(separatedBy: "status=")
        #expect(runs.count == 4, "\(result.output)")
        #expect(runs.dropFirst().prefix(2).allSatisfy { $0.hasPrefix("0\n") }, "\(result.output) \(result.errorOutput)")
        #expect(result.output.components(separatedBy: "Remove the second file").count == 3, "\(result.output)")
        #expect(result.output.hasSuffix("status=1\n"), "\(result.output)")
        #expect(result.errorOutput.contains("lat\u{FFFD}’ does not exist"), "\(result.errorOutput)")
        #expect(!result.errorOutput.contains("name’ does not exist"), "\(result.errorOutput)")
    }

    // Demo report 8, item 4: with -C and a path, the path was dropped and -C shown.
    @Test("-C DIR PATH reads PATH relative to DIR, as git does (also repeated or empty -C), also with bytes that are not UTF-8; an absolute PATH wins")
    func directoryAndPath() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let script = #"""
            git init -q "$1/other" && git -C "$1/other" -c user.name=O -c user.email=o@o commit -q --allow-empty -m "only in other"
            git clone -q "$2" "$1/$(printf 'sub\351')"
            cd /
            "$DEMO" git -C "$1" other --width 100; echo "status=$?"
            "$DEMO" git -C "$1" "$(printf 'sub\351')" --width 100; echo "status=$?"
            "$DEMO" git -C "$1/other" "$2" --width 100; echo "status=$?"
            "$DEMO" git -C "$1/other" --width 100; echo "status=$?"
            "$DEMO" git -C / -C "${1#/}" -C '' other --width 100; echo "status=$?"
            cd "$1" && "$DEMO" git -C '' other --width 100; echo "status=$?"
            """#
        let result = try Spawn.run(["sh", "-c", script, "sh", fixture.root.path, fixture.repository], environment: ["DEMO": try DemoBinary.path])
        let runs = result.output.components(separatedBy: "status=")
        #expect(runs.count == 7, "\(result.output) \(result.errorOutput)")
        guard runs.count == 7 else { return }
        #expect(runs.dropFirst().allSatisfy { $0.hasPrefix("0\n") }, "\(result.output) \(result.errorOutput)")
        #expect(runs[0].contains("only in other") && !runs[0].contains("Remove the second file"), "\(runs[0])")
        #expect(runs[1].contains("Remove the second file") && !runs[1].contains("only in other"), "\(runs[1])")
        #expect(runs[2].contains("Remove the second file") && !runs[2].contains("only in other"), "\(runs[2])")
        #expect(runs[3].contains("only in other"), "\(runs[3])")
        // Demo report 9, item 7: each -C relative to the one before, an empty one changing nothing (as git).
        #expect(runs[4].contains("only in other"), "\(runs[4])")
        #expect(runs[5].contains("only in other"), "\(runs[5])")
    }

    @Test("a commit whose date git cannot read is under \"unknown date\", not an empty title")
    func unparseableDate() throws {
        // Before: an empty section title ("==  ==") and byline time ("D ·  · …").
        let repository = try ScratchRepository("dates", script: #"""
            git config user.name T; git config user.email t@example.com
            git commit -q --allow-empty -m "good date"
            printf 'tree %s\nparent %s\nauthor D <d@e> abc +0000\ncommitter D <d@e> abc +0000\n\nbad date\n' \
              "$(git rev-parse HEAD^{tree})" "$(git rev-parse HEAD)" > .git/bad-commit
            git update-ref HEAD "$(git hash-object -t commit --literally -w .git/bad-commit)"
            """#)
        defer { repository.remove() }
        let result = try demo(["git", repository.path, "--width", "100"])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.hasPrefix("== unknown date ==\n ● "), "\(result.output)")
        #expect(result.output.contains("   D · unknown time · HEAD -> main"), "\(result.output)")
        #expect(!result.output.contains("==  =="), "\(result.output)")
    }
}
