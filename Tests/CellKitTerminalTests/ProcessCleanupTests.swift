import Foundation
import Testing

/// Nothing a test starts outlives it: the tmux server and the demo end when the
/// test closes its session, and also when the test runner itself is killed.
@Suite("Processes started by the tests end with them", .enabled(if: TmuxAvailability.available, "tmux is not installed"), .blocking)
struct ProcessCleanupTests {
    @Test("closing a session ends its tmux server, the pane's shell and the demo")
    func closeEndsEverything() throws {
        let session = try DemoSession("cleanup-close", ["feed"], columns: 80, rows: 24)
        defer { session.close() }
        try session.tmux.waitFor(text: "@")
        let pids = [try session.tmux.serverPID(), try session.tmux.panePID(), try session.demoPID()]
        #expect(pids.allSatisfy { $0 > 0 })
        session.close()
        #expect(waitUntilGone(pids), "still running after close: \(pids.filter { !processIsGone($0) })")
    }

    @Test("a session whose owner process is killed ends by itself")
    func killedOwnerEndsEverything() throws {
        // A stand-in for the test runner: the session belongs to it, and it is killed.
        let owner = try Spawn.start(["sleep", "600"])
        var reaped = false
        defer {
            if !reaped {
                kill(owner, SIGKILL)
                var status: Int32 = 0
                _ = waitpid(owner, &status, 0)
            }
        }
        let session = try DemoSession("cleanup-owner", ["feed"], columns: 80, rows: 24, owner: owner)
        defer { session.close() }
        try session.tmux.waitFor(text: "@")
        let pids = [try session.tmux.serverPID(), try session.tmux.panePID(), try session.demoPID()]
        #expect(!pids.contains(where: processIsGone))
        kill(owner, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(owner, &status, 0)
        reaped = true
        #expect(waitUntilGone(pids), "still running after the owner was killed: \(pids.filter { !processIsGone($0) })")
    }
}
