@testable import cellkit_demo
import Foundation
import Testing

/// Repositories made to fool or trap the demo (report 6): commit text with the bytes a
/// record format could take as structure, promisor remotes, odd configs and object formats.
@Suite("cellkit-demo git: hostile repositories", .enabled(if: GitFixture.isAvailable))
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
            #expect(result.output.contains("Ev␟e␞3333333333333333333333333333333333333333␟FAKE"), "\(result.output)")
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
}
