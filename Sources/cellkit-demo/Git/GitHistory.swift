import CellKit
import Dispatch
import Foundation

/// HEAD's history, read page by page from one running `git log`.
///
/// Reading the history costs one pass, however long it is: the first page starts
/// `git log`, and each next page reads on from its output (git waits while the
/// pages it wrote are not asked for). Page 0 starts over (a load or a refresh reads
/// the history as it is now); a page asked out of turn (after a failure, or after a
/// refresh that kept later rows) is reached by reading on, or by a new `git log`
/// from that commit. ``stop()`` ends the running `git log` (quitting, a reload).
///
/// With diffstats (piped output), a commit whose diffstat git cannot compute (an object
/// missing from the repository) says "diffstat unavailable", as in the interactive list,
/// and the history goes on from the next commit.
final class GitHistory: @unchecked Sendable {
    /// What a commit whose diffstat git could not compute shows.
    static let unavailable = "diffstat unavailable"

    let repository: GitRepository
    let pageSize: Int
    let diffstats: Bool

    /// Reads one page at a time, in the order they are asked.
    private let queue = DispatchQueue(label: "cellkit-demo.git-history")
    private let lock = NSLock()
    /// The running `git log`, if any (under `lock`: ``stop()`` may come from any thread).
    private var stream: StreamingProcess?
    /// Bumped by ``stop()`` and page 0: reads asked before it end as cancelled (under `lock`).
    private var generation = 0
    /// How many commits of the history the stream has passed (read on `queue` only).
    private var position = 0
    /// Where each page read so far starts (read on `queue` only): pages may differ in size.
    private var starts = [0]
    /// Whether the last page 0 held the loaded commits a refresh kept (on `queue` only): the next
    /// page 0 has the usual size, not that page's.
    private var joinedFirstPage = false
    /// The size of the last page read (on `queue` only).
    private var lastSize: Int
    /// Whether pages grow (under `lock`).
    private var grows = false

    /// The largest page while pages grow.
    static let largestPage = 25_600

    /// How many commits a page that grew reads from git at a time: once pages stop growing
    /// (Esc during "search the rest"), the page under way ends after the part read, with at
    /// least ``pageSize`` commits, instead of reading its thousands to the end.
    static let growingChunk = 500

    /// Called on the reading thread after each part of a page that grew is read (for the tests).
    var afterGrowingChunk: (@Sendable () -> Void)?

    /// While true (End, searching the rest of the history), each page read is twice the
    /// last, up to ``largestPage``: the list takes in a long history in a few large pages
    /// instead of hundreds (each page costs the list a pass over all its rows). Set to false
    /// while such a page is read, that page ends early (see ``growingChunk``).
    var growing: Bool {
        get { lock.withLock { grows } }
        set { lock.withLock { grows = newValue } }
    }
    /// How many `git log` processes were started (under `lock`).
    private var started = 0
    /// The least size of the next page 0 (under `lock`; used once).
    private var firstPageLeast = 0

    /// The least size of the next page 0, once: a refresh that must reach the head shown
    /// reads all the new commits and that head in its first page (set before the refresh).
    var nextFirstPageSize: Int {
        get { lock.withLock { firstPageLeast } }
        set { lock.withLock { firstPageLeast = newValue } }
    }

    /// The commits loaded below the head a refresh found new commits on top of, for the next
    /// page 0 (once, under `lock`): see ``keepBelowNextFirstPage(_:newCommits:hasMore:)``.
    private var kept: (commits: [CommitInfo], newCount: Int, hasMore: Bool)?

    /// The next page 0 (a refresh that found `newCommits` commits on top of the head shown, the
    /// history below it unchanged) reads from git only its usual size (at least the new commits
    /// and the head shown, whose refs moved) and ends with the rest of `loaded` (the commits
    /// loaded, newest first) as they are: the pages below are not read again. The next page
    /// after it reads on from git below them (when `hasMore`). When git's commits do not meet
    /// the loaded ones (the history changed again meanwhile), the page is read as usual.
    func keepBelowNextFirstPage(_ loaded: [CommitInfo], newCommits: Int, hasMore: Bool) {
        lock.withLock { kept = (loaded, newCommits, hasMore) }
    }

    /// How many `git log` processes were started (for the tests: one per pass, not one per page).
    var processesStarted: Int { lock.withLock { started } }

    /// The refs as they were just before the last page 0 was read (its decorations are at
    /// least as new); nil before one, or when git could not say (under `lock`).
    private var refsAtFirstPage: GitRepository.RefsState?
    var firstPageRefs: GitRepository.RefsState? { lock.withLock { refsAtFirstPage } }

    init(repository: GitRepository, pageSize: Int, diffstats: Bool) {
        self.repository = repository
        self.pageSize = pageSize
        self.diffstats = diffstats
        lastSize = pageSize
    }

    deinit { stream?.terminate() }

    /// The commits of page `page` (`pageSize` of them, more while ``growing``), and whether more follow.
    ///
    /// - Throws: ``GitError/noCommits(path:)`` for an empty repository, ``GitError/failed(command:status:detail:)``
    ///   with git's message, or `CancellationError` when ``stop()`` or a new page 0 came first.
    func page(_ page: Int) async throws -> Page<CommitInfo> {
        let generation = lock.withLock {
            if page == 0 {
                // A load or refresh: the history as it is now.
                self.generation += 1
                stream?.terminate()
                stream = nil
            }
            return self.generation
        }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try self.read(page, generation: generation) }) }
        }
    }

    /// Ends the running `git log`; reads in progress end as cancelled.
    func stop() {
        lock.withLock {
            generation += 1
            stream?.terminate()
            stream = nil
        }
    }

    private func read(_ page: Int, generation: Int) throws -> Page<CommitInfo> {
        let least = page == 0 ? lock.withLock { defer { firstPageLeast = 0 }; return firstPageLeast } : 0
        let keep = page == 0 ? lock.withLock { defer { kept = nil }; return kept } : nil
        if page == 0 {
            // Before the decorations are read: a ref that moves after this makes the next `r` read again.
            let refs = repository.refsStateNow()
            lock.withLock { refsAtFirstPage = refs }
        }
        // A page never read (only after a refresh kept later rows) starts where pages of
        // the usual size after the last known one would.
        let start = page < starts.count ? starts[page] : starts[starts.count - 1] + (page - starts.count + 1) * pageSize
        // A page read before keeps its size (a retry, a page after a refresh): pages stay numbered alike.
        let grows = page > 0 && page + 1 >= starts.count && growing
        let size = max(least, page == 0 && joinedFirstPage ? pageSize : page + 1 < starts.count ? max(1, starts[page + 1] - start)
            : grows ? min(Self.largestPage, max(pageSize, lastSize * 2)) : pageSize)
        if position > start || lock.withLock({ stream == nil }) {
            // Behind the stream, or none runs: a new git log from the first commit of the page.
            try restart(at: start, generation: generation)
        }
        if position < start { _ = try take(start - position, generation: generation) }
        if page == 0 { joinedFirstPage = false }
        if let keep, page == 0, let joined = try readJoining(keep, size: size, generation: generation) {
            return joined
        }
        let (commits, ended) = try take(size, generation: generation, endsWhenGrowingStops: grows && size > pageSize)
        lastSize = size
        if page + 1 < starts.count {
            starts[page + 1] = position
        } else if page + 1 == starts.count {
            starts.append(position)
        }
        return Page(commits, hasMore: !ended)
    }

    /// Page 0 of `size` commits from git, ending with the loaded commits of `keep` below them (see
    /// ``keepBelowNextFirstPage(_:newCommits:hasMore:)``); nil when git's commits do not meet
    /// them (the stream is then at the start again, for a usual page 0).
    private func readJoining(_ keep: (commits: [CommitInfo], newCount: Int, hasMore: Bool), size: Int, generation: Int) throws -> Page<CommitInfo>? {
        // The new commits and the loaded ones that the usual first page holds, from git.
        let fromGit = min(size, keep.newCount + keep.commits.count)
        let (commits, ended) = try take(fromGit, generation: generation)
        let below = fromGit - keep.newCount
        guard commits.count == fromGit, below > 0, commits.last?.hash == keep.commits[below - 1].hash,
              !ended || (below == keep.commits.count && !keep.hasMore) else {
            try restart(at: 0, generation: generation)
            return nil
        }
        let all = commits + keep.commits[below...]
        lastSize = size
        // The pages after this one start below every commit it holds; the stream stops (the
        // next page starts a git log from there, with no commit read twice).
        starts = [0, all.count]
        joinedFirstPage = true
        lock.withLock {
            stream?.terminate()
            stream = nil
        }
        position = all.count
        return Page(all, hasMore: keep.hasMore)
    }

    /// Starts a `git log` from commit `skip` (the stream is then at `skip`).
    private func restart(at skip: Int, generation: Int) throws {
        let arguments = repository.command(GitRepository.logArguments(skip: skip, diffstats: diffstats))
        let process: StreamingProcess
        do {
            process = try StreamingProcess(arguments, environment: GitRepository.environment)
        } catch {
            throw GitError.failed(command: "git log", status: -1, detail: error.text)
        }
        try lock.withLock {
            guard self.generation == generation else {
                process.terminate()
                throw CancellationError()
            }
            stream?.terminate()
            stream = process
            self.started += 1
        }
        position = skip
    }

    /// Commit `index` of the history without its diffstat (git could not compute it); nil when
    /// git cannot read that commit either, or the history ends before it.
    private func commit(at index: Int) throws -> CommitInfo? {
        var arguments = GitRepository.logArguments(skip: index, diffstats: false)
        arguments.insert("--max-count=1", at: 1)
        let result = Subprocess.runBlocking(repository.command(arguments), environment: GitRepository.environment)
        guard result.status == 0, result.outputBytes.first == GitRepository.recordSeparator,
              var commit = GitRepository.commit(record: Array(result.outputBytes.dropFirst()), diffstats: false) else { return nil }
        commit.diffstat = Self.unavailable
        return commit
    }

    /// Reads up to `count` commits; `ended` when the history ends after them. With
    /// `endsWhenGrowingStops` (a page that grew), reads ``growingChunk`` at a time and ends early,
    /// with at least ``pageSize`` commits, once ``growing`` is false.
    private func take(_ count: Int, generation: Int, endsWhenGrowingStops: Bool = false) throws -> (commits: [CommitInfo], ended: Bool) {
        var commits: [CommitInfo] = []
        while commits.count < count {
            if endsWhenGrowingStops, commits.count >= pageSize, !growing { break }
            guard let stream = lock.withLock({ self.generation == generation ? stream : nil }) else {
                if lock.withLock({ self.generation != generation }) { throw CancellationError() }
                try restart(at: position, generation: generation)
                continue
            }
            let part = endsWhenGrowingStops ? min(count - commits.count, Self.growingChunk) : count - commits.count
            let chunk = stream.readRecords(part, separator: GitRepository.recordSeparator, perRecord: GitRepository.fieldsPerRecord)
            if chunk.cancelled { throw CancellationError() }
            var read = chunk.records.compactMap { GitRepository.commit(record: $0, diffstats: diffstats) }
            position += chunk.records.count
            guard let end = chunk.end else {
                commits += read
                if endsWhenGrowingStops { afterGrowingChunk?() }
                continue
            }
            lock.withLock { if self.stream === stream { self.stream = nil } }
            if end.status == 0 {
                return (commits + read, true)
            }
            if diffstats {
                // git stopped at a diffstat it cannot compute (an object missing from the
                // repository), after writing that commit or before: the last commit read
                // may lack its diffstat, or the next one is the one.
                if let last = read.indices.last {
                    let stat = repository.diffstatNow(read[last].hash)
                    read[last].diffstat = stat ?? Self.unavailable
                    commits += read
                    if stat == nil { continue }
                }
                if commits.count >= count { continue }
                if let next = try commit(at: position) {
                    commits.append(next)
                    position += 1
                    continue
                }
                if lock.withLock({ self.generation != generation }) { throw CancellationError() }
            } else {
                commits += read
            }
            guard commits.isEmpty else {
                // git failed after these (a commit it cannot read): the page shows them, and the
                // next page, read by a new git log from the commit git stopped at, fails there
                // (the "Couldn't load more" row, as for any page that fails).
                return (commits, false)
            }
            if position == 0, repository.hasNoCommits() { throw GitError.noCommits(path: repository.path) }
            throw GitError.failed(command: "git log", status: end.status, detail: GitRepository.message(stderr: end.errorOutput))
        }
        return (commits, false)
    }
}
