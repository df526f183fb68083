import Foundation
import Testing

/// The tests' blocking work (git, tmux, waiting for processes) leaves the main actor and the
/// cooperative pool to the other tests running meanwhile.
@Suite("Blocking work in the tests")
struct BlockingWorkTests {
    @Test("a program a test of the main actor runs leaves the main actor free while it runs")
    @MainActor
    func programsLeaveTheMainActor() async throws {
        let flag = FileManager.default.temporaryDirectory.appendingPathComponent("cellkit-main-actor-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: flag) }
        // The main actor makes the file the program waits for (at most 60 s).
        Task { @MainActor in FileManager.default.createFile(atPath: flag, contents: nil) }
        let result = try await Spawn.run(["sh", "-c", "i=0; while [ ! -e \"$1\" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done; [ -e \"$1\" ]", "sh", flag])
        #expect(result.status == 0, "the file was not made while the program ran")
    }

    @Test("blockingWork runs each work on a thread of its own: more wait together than the cooperative pool has threads")
    func blockingWorksRunTogether() async throws {
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let arrivals = Arrivals()
        let allMet = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask { try await blockingWork { arrivals.arriveAndWait(for: count, timeout: 60) } }
            }
            return try await group.reduce(true) { $0 && $1 }
        }
        #expect(allMet, "fewer than \(count) works ran at a time")
    }

    @Test("a test marked .blocking runs on the blocking tests' threads", .blocking)
    func blockingTraitThreads() {
        #expect(BlockingTestThreads.shared.isCurrent)
    }
}

/// Counts the works that arrived; each waits until `count` did.
private final class Arrivals: @unchecked Sendable {
    private let condition = NSCondition()
    /// Under `condition`.
    private var arrived = 0

    /// Arrives, then waits (at most `timeout` seconds) until `count` arrived; whether they did.
    func arriveAndWait(for count: Int, timeout: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        let deadline = Date().addingTimeInterval(timeout)
        while arrived < count {
            guard condition.wait(until: deadline) else { return arrived >= count }
        }
        return true
    }
}
