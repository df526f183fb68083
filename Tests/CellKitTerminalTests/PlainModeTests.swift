import Foundation
import Testing

/// The demo without a terminal: rows printed plainly, no escape codes, exit 0 (1 when loading failed).
@Suite("cellkit-demo without a terminal", .blocking)
struct PlainModeTests {
    private func demo(_ arguments: [String], environment: [String: String] = [:]) throws -> Finished {
        try Spawn.run([try DemoBinary.path] + arguments, environment: environment)
    }

    @Test("feed prints the first page plainly and exits 0, the same for the same seed")
    func feed() throws {
        let first = try demo(["feed", "--seed", "7", "--width", "60"])
        #expect(first.status == 0, "\(first.errorOutput)")
        #expect(!first.output.contains("\u{1B}"), "escape codes in plain output")
        #expect(first.output.contains("== Today 15:00 =="))
        #expect(first.output.contains("Who to follow:"))
        #expect(first.output.split(separator: "\n").allSatisfy { $0.count <= 60 })
        try assertSnapshot(first.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), named: "plain-feed-seed7-60")
        let again = try demo(["feed", "--seed", "7", "--width", "60"])
        #expect(again.output == first.output)
        let other = try demo(["feed", "--seed", "8", "--width", "60"])
        #expect(other.output != first.output)
    }

    @Test("the default mode is the feed")
    func defaultMode() throws {
        let result = try demo([], environment: ["COLUMNS": "70"])
        #expect(result.status == 0)
        #expect(result.output == (try demo(["feed", "--width", "70"])).output)
    }

    @Test("--fail-rate 1 prints the error row and exits 1")
    func failure() throws {
        let result = try demo(["feed", "--fail-rate", "1"])
        #expect(result.status == 1)
        #expect(result.output.contains("could not load the first page of the feed"))
    }

    @Test("--interactive without a terminal is a clear error, exit 64 (bad options)")
    func interactiveWithoutTerminal() throws {
        let result = try demo(["feed", "--interactive"])
        #expect(result.status == 64)
        #expect(result.errorOutput.contains("--interactive needs a terminal"))
        #expect(result.errorOutput.contains("not a tty"))
        #expect(result.output.isEmpty)
    }

    @Test("--help documents every mode")
    func help() throws {
        let result = try demo(["--help"])
        #expect(result.status == 0)
        for word in ["feed", "git", "--fail-rate", "--seed", "--interactive", "--plain", "not a terminal"] {
            #expect(result.output.contains(word), "--help does not mention \(word)")
        }
        let feed = try demo(["feed", "--help"])
        for word in ["--fail-rate", "--seed", "--interactive", "--plain", "--width", "byline", "loading row"] {
            #expect(feed.output.contains(word), "feed --help does not mention \(word)")
        }
        let git = try demo(["git", "--help"])
        for word in ["<path>", "bare", "diffstat", "error", "no-results", "--page-size"] {
            #expect(git.output.contains(word), "git --help does not mention \(word)")
        }
    }

    @Test("git prints the history by day; errors and empty repositories are rows", .enabled(if: GitFixture.isAvailable))
    func git() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let history = try demo(["git", fixture.repository, "--width", "72"])
        #expect(history.status == 0, "\(history.errorOutput)")
        #expect(!history.output.contains("\u{1B}"))
        let withoutHashes = history.output.replacing(/[0-9a-f]{7}/, with: "<hash>")
        try assertSnapshot(withoutHashes.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), named: "plain-git-72")
        let bare = try demo(["git", fixture.bare, "--width", "72"])
        #expect(bare.output == history.output)
        let error = try demo(["git", fixture.notARepository])
        #expect(error.status == 1)
        #expect(error.output.contains("plain’ is not a git"))
        let empty = try demo(["git", fixture.empty])
        #expect(empty.output.contains("No commits yet"))
    }
}
