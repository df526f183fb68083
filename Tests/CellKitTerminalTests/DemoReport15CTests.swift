@testable import cellkit_demo
import CellKit
@testable import CellKitTerminal
import Foundation
import Testing

private func runGit(_ repository: ScratchRepository, _ script: String) throws {
    let result = try Spawn.run(["sh", "-c", "set -e; cd \"$1\"; " + script, "sh", repository.path])
    guard result.status == 0 else { throw TestFailure("git failed: \(result.errorOutput)") }
}

/// The "N/M" at the status line's end.
private func position(_ status: String) -> (row: Int, of: Int)? {
    guard let last = status.split(separator: " ").last else { return nil }
    let parts = last.split(separator: "/")
    guard parts.count == 2, let row = Int(parts[0]), let of = Int(parts[1]) else { return nil }
    return (row, of)
}

/// Demo report 15, defect C: `End r` typed before the first screen showed lost the `r` (the
/// refresh did nothing while the first page loaded, before it looked at the keys kept).
@Suite("cellkit-demo: report 15 C, `End r` typed ahead")
@MainActor
struct DemoReport15TypedAheadRefreshTests {
    @Test("git: `End r` typed while the first page loads: End reads every page, then r refreshes", .enabled(if: GitFixture.isAvailable))
    func git() async throws {
        let repository = try ScratchRepository.emptyCommits("typeahead-end-r", 60)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 5)) {
            $0.app.handle([.end, .character("r")])
        }
        // Without the r, End ends on "60 commits"; the r after it says what it found.
        try await session.waitFor("End, then the refresh") { $0.hasPrefix(" Up to date") && $0.hasSuffix(" 60/60") }
        let status = try await session.settled()
        #expect(status.hasPrefix(" Up to date") && status.hasSuffix(" 60/60"), "\(status)")
        #expect(session.selectedSubject == "c 1")
    }

    @Test("feed: `End r` typed while the first page loads: End reads every page, then r brings new tweets")
    func feed() async throws {
        let feed = FeedScreen(seed: 1, failRate: 0, timing: FeedServer.Timing(firstPage: 50, page: 1), avatarDelay: 0)
        let session = await AppSession(feed) { $0.app.handle([.end, .character("r")]) }
        try await session.waitFor("End, then the refresh") { $0.contains("new tweet") }
        let status = try await session.settled()
        #expect(status.contains("new tweet"), "\(status)")
        // The selection stays on the last row End went to (tweet 1), the new tweets above it.
        #expect((session.selected as? Tweet)?.id == 1, "\(status)")
        let at = try #require(position(status), "\(status)")
        #expect(at.row == at.of && at.of > 1_000, "\(status)")
    }
}
