import Dispatch
import Foundation

/// Each commit's diffstat, computed once: results are kept by commit id (the least recently
/// used go first past ``limit``), and a computation runs at most once per commit at a time.
///
/// Rows that flash past (j held down) ask and cancel at once: a request cancelled before its
/// computation started drops it, so only the rows that stay on screen cost a `git show`; one
/// that started runs to its end and is kept, so the row gets it at once when it shows again.
/// At most ``concurrency`` computations run at once, in the order asked.
final class DiffstatStore: @unchecked Sendable {
    /// Computes the diffstat of a commit; blocks the calling thread.
    typealias Compute = @Sendable (_ hash: String) -> String

    /// How many diffstats are kept.
    let limit: Int
    /// How many computations run at once.
    let concurrency: Int
    private let compute: Compute
    private let lock = NSLock()
    private var cache: [String: (value: String, tick: Int)] = [:]
    private var tick = 0
    private var jobs: [String: Job] = [:]
    /// The commits whose computation waits to start, in the order asked (no cancelled ones).
    private var waiting: [String] = []
    private var running = 0
    private var started = 0
    private var nextWaiter = 0

    private struct Job {
        var started = false
        var waiters: [Int: CheckedContinuation<String?, Never>] = [:]
    }

    init(limit: Int = 10_000, concurrency: Int = 2, compute: @escaping Compute) {
        self.limit = max(1, limit)
        self.concurrency = max(1, concurrency)
        self.compute = compute
    }

    /// How many computations were started (for the tests: one per commit).
    var computations: Int { lock.withLock { started } }
    /// How many diffstats are kept, and how many requests wait (for the tests: both stay bounded).
    var counts: (kept: Int, waiting: Int, jobs: Int) { lock.withLock { (cache.count, waiting.count, jobs.count) } }

    /// The diffstat of `hash` if it was computed.
    func cachedValue(_ hash: String) -> String? {
        lock.withLock { cachedLocked(hash) }
    }

    /// Forgets the kept diffstats that `shouldForget` picks (given each commit and its
    /// diffstat): they are computed again when asked next. Returns their commits.
    @discardableResult
    func forget(where shouldForget: (_ hash: String, _ value: String) -> Bool) -> Set<String> {
        lock.withLock {
            let gone = Set(cache.filter { shouldForget($0.key, $0.value.value) }.keys)
            for hash in gone { cache[hash] = nil }
            return gone
        }
    }

    /// The diffstat of `hash`, computed if it was not; nil when the calling task is cancelled first.
    func value(for hash: String) async -> String? {
        let id = lock.withLock {
            nextWaiter += 1
            return nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                lock.withLock {
                    if let value = cachedLocked(hash) {
                        continuation.resume(returning: value)
                    } else if Task.isCancelled {
                        continuation.resume(returning: nil)
                    } else {
                        if jobs[hash] == nil {
                            jobs[hash] = Job()
                            waiting.append(hash)
                        }
                        jobs[hash]?.waiters[id] = continuation
                    }
                }
                pump()
            }
        } onCancel: {
            lock.withLock {
                guard var job = jobs[hash], let continuation = job.waiters.removeValue(forKey: id) else { return }
                continuation.resume(returning: nil)
                if job.waiters.isEmpty && !job.started {
                    // Nobody waits for it any more: it never runs.
                    jobs[hash] = nil
                    if let index = waiting.firstIndex(of: hash) { waiting.remove(at: index) }
                } else {
                    jobs[hash] = job
                }
            }
        }
    }

    private func cachedLocked(_ hash: String) -> String? {
        guard let entry = cache[hash] else { return nil }
        tick += 1
        cache[hash]?.tick = tick
        return entry.value
    }

    /// Starts waiting computations while fewer than ``concurrency`` run.
    private func pump() {
        let hashes: [String] = lock.withLock {
            var hashes: [String] = []
            while running < concurrency, !waiting.isEmpty {
                let hash = waiting.removeFirst()
                jobs[hash]?.started = true
                running += 1
                started += 1
                hashes.append(hash)
            }
            return hashes
        }
        for hash in hashes {
            DispatchQueue.global().async { [self] in
                finish(hash, compute(hash))
            }
        }
    }

    private func finish(_ hash: String, _ value: String) {
        let waiters: [CheckedContinuation<String?, Never>] = lock.withLock {
            running -= 1
            tick += 1
            cache[hash] = (value, tick)
            if cache.count > limit {
                // Down to three quarters at once: trimming costs a sort per limit/4 diffstats.
                let evicted = cache.sorted { $0.value.tick < $1.value.tick }.prefix(cache.count - limit * 3 / 4)
                for (key, _) in evicted { cache[key] = nil }
            }
            return jobs.removeValue(forKey: hash).map { Array($0.waiters.values) } ?? []
        }
        for waiter in waiters { waiter.resume(returning: value) }
        pump()
    }
}
