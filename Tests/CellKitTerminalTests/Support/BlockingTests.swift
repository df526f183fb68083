import Foundation
import Testing

/// The threads that run the tests of a suite marked ``Trait/blocking``, a job at a time each.
final class BlockingTestThreads: TaskExecutor, @unchecked Sendable {
    /// As many threads as there are cores: the synchronous tests ran that many at a time on the
    /// cooperative pool before, and their demos and tmux servers get as much of the machine.
    static let shared = BlockingTestThreads(count: max(2, ProcessInfo.processInfo.activeProcessorCount))

    private let condition = NSCondition()
    /// Under `condition`.
    private var jobs: [UnownedJob] = []
    /// Under `condition`: the threads, as `pthread_self()` names them.
    private var threads: Set<pthread_t> = []

    /// Whether the calling thread is one of them.
    var isCurrent: Bool { condition.withLock { threads.contains(pthread_self()) } }

    private init(count: Int) {
        for _ in 0..<count {
            Thread.detachNewThread { [self] in
                condition.withLock { _ = threads.insert(pthread_self()) }
                while true {
                    condition.lock()
                    while jobs.isEmpty { condition.wait() }
                    let job = jobs.removeFirst()
                    condition.unlock()
                    job.runSynchronously(on: asUnownedTaskExecutor())
                }
            }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }
}

/// Runs a suite's tests on ``BlockingTestThreads``, not on the cooperative pool: its synchronous
/// tests wait for seconds (waitpid, usleep while polling a tmux pane), and on the pool (2 threads
/// on 2 cores) two of them left none for the other tests' work (a page's diff, a timer) for up to
/// 28 s.
struct BlockingTrait: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(BlockingTestThreads.shared) { try await function() }
    }
}

extension Trait where Self == BlockingTrait {
    /// The suite's tests block (see ``BlockingTrait``).
    static var blocking: Self { BlockingTrait() }
}
