@testable import cellkit_demo
import Foundation
import Testing

/// The interactive history's diffstats: computed once per commit, memory bounded, and no
/// `git show` outliving the demo (demo report 4, items 3 and 6).
@Suite("cellkit-demo git: diffstats", .enabled(if: GitFixture.isAvailable))
struct GitDiffstatTests {
    /// A directory with a `git` that records each `git show` in `calls` (its process id, then
    /// its arguments) and runs the real git; with `hang`, `git show` sleeps instead.
    private func showRecordingGit(in root: URL, hang: Bool) throws -> FakeGit {
        try FakeGit(in: root) { _, calls in
            """
            case " $* " in
            *" show "*)
              echo "$$ $*" >> '\(calls)'
              \(hang ? "exec sleep 60" : "") ;;
            esac
            """
        }
    }

    private func recordedShows(_ calls: String) -> [(pid: pid_t, arguments: String)] {
        let text = (try? String(contentsOfFile: calls, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let space = line.firstIndex(of: " "), let pid = pid_t(line[..<space]) else { return nil }
            return (pid, String(line[line.index(after: space)...]))
        }
    }

    // Failed before the fix (demo report 4, item 6): the diffstat `git show` processes
    // still running at q, Ctrl-C or a signal were left behind, orphaned, burning CPU.
    @Test("no git show outlives the demo: q, Ctrl-C, SIGTERM, SIGHUP", .enabled(if: TmuxAvailability.available), .blocking,
          arguments: ["q", "C-c", "TERM", "HUP"])
    func diffstatProcessesEndWithTheDemo(_ way: String) throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let git = try showRecordingGit(in: fixture.root, hang: true)
        let session = try DemoSession("git-show-exit-\(way)", ["git", fixture.repository], columns: 100, rows: 12, environment: ["PATH": git.path])
        defer { session.close() }
        try session.tmux.waitFor(text: "Remove the second file")
        let deadline = Date().addingTimeInterval(20)
        while recordedShows(git.calls).isEmpty && Date() < deadline { usleep(20_000) }
        let shows = recordedShows(git.calls).map(\.pid)
        #expect(!shows.isEmpty, "no git show started")
        defer { for pid in shows where !processIsGone(pid) { kill(pid, SIGKILL) } }
        switch way {
        case "TERM": kill(try session.demoPID(), SIGTERM)
        case "HUP": kill(try session.demoPID(), SIGHUP)
        default: try session.tmux.send(way)
        }
        // Gone by the time the demo has exited (looked at before the pane closes, which would end them too).
        try session.tmux.waitFor("the demo to exit") { $0.contains { $0.hasPrefix("exit=") } }
        #expect(shows.allSatisfy(processIsGone), "git show processes outlived the demo: \(shows.filter { !processIsGone($0) })")
        _ = try session.waitForExitAndCheckTerminal()
    }

    // Demo report 9, left: Enter on a commit whose diffstat was still being computed showed
    // the status line without it, for good.
    @Test("Enter before the diffstat is computed: the status line takes it when it comes", .enabled(if: TmuxAvailability.available), .blocking)
    func enterTakesTheDiffstatWhenItComes() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        let gate = fixture.root.appendingPathComponent("gate").path
        let git = try FakeGit(in: fixture.root) { _, _ in
            """
            case " $* " in
            *" show "*) while [ ! -e '\(gate)' ]; do sleep 0.05; done ;;
            esac
            """
        }
        let session = try DemoSession("git-enter-diffstat", ["git", fixture.repository], columns: 120, rows: 12, environment: ["PATH": git.path])
        defer { session.close() }
        try session.tmux.waitFor(text: "Remove the second file")
        try session.tmux.send("Enter")
        try session.tmux.waitFor("the status line without a diffstat") { screen in
            screen.last { $0.contains("Remove the second file —") }.map { !$0.contains(" · ") } == true
        }
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        try session.tmux.waitFor("the diffstat on the status line") { screen in
            screen.last { $0.contains("Remove the second file —") }?.contains("Sat 14:00 · 1 file") == true
        }
        try session.quit()
    }

    // Failed before the fix (demo report 4, item 3): every row that came on screen again
    // started its diffstat again (a load cancelled as the row left was thrown away): about 12
    // `git show` per commit while j/k were held.
    @Test("holding j then k: each commit's diffstat is computed at most once", .enabled(if: TmuxAvailability.available), .blocking)
    func diffstatOncePerCommit() throws {
        let fixture = try GitFixture()
        defer { fixture.remove() }
        try fixture.addLinearCommits(60)
        let git = try showRecordingGit(in: fixture.root, hang: false)
        let session = try DemoSession("git-show-once", ["git", fixture.repository], columns: 100, rows: 10, environment: ["PATH": git.path])
        defer { session.close() }
        let tmux = session.tmux
        try tmux.waitFor(text: "Linear commit 60")
        for _ in 0..<3 {
            for _ in 0..<6 { try tmux.send(String(repeating: "j", count: 10), literal: true) }
            for _ in 0..<6 { try tmux.send(String(repeating: "k", count: 10), literal: true) }
        }
        try tmux.waitFor("the selection back on the first row") { statusPosition($0)?.hasPrefix("1/") == true }
        try tmux.waitFor("the diffstats of the rows shown") { !$0.contains { $0.contains("diffstat…") } }
        try session.quit()
        let shows = recordedShows(git.calls).map(\.arguments)
        let hashes = shows.compactMap { $0.split(separator: " ").dropLast().last.map(String.init) }
        let repeated = Dictionary(grouping: hashes, by: { $0 }).filter { $0.value.count > 1 }
        #expect(!shows.isEmpty)
        #expect(repeated.isEmpty, "diffstats computed more than once: \(repeated.mapValues(\.count))")
    }

    @Test("a diffstat asked again after its request was cancelled mid-way is not computed again")
    func storeComputesOnce() async throws {
        let gate = Gate()
        let store = DiffstatStore(limit: 10, concurrency: 1) { hash in
            gate.wait()
            return "stat of " + hash
        }
        let first = Task { await store.value(for: "a") }
        while store.computations == 0 { await Task.yield() }
        first.cancel()
        #expect(await first.value == nil)
        // Asked while waiting for a slot, then cancelled: never computed.
        let queued = Task { await store.value(for: "b") }
        while store.counts.jobs < 2 { await Task.yield() }
        queued.cancel()
        #expect(await queued.value == nil)
        gate.open()
        #expect(await store.value(for: "a") == "stat of a")
        #expect(store.computations == 1)
        #expect(store.cachedValue("a") == "stat of a")
        #expect(store.counts.waiting == 0 && store.counts.jobs == 0)
    }

    @Test("the store keeps at most its limit of diffstats, the least recently used going first")
    func storeIsBounded() async {
        let store = DiffstatStore(limit: 8, concurrency: 2) { "stat of " + $0 }
        _ = await store.value(for: "keep")
        for index in 0..<100 {
            _ = await store.value(for: "c\(index)")
            _ = store.cachedValue("keep")
            #expect(store.counts.kept <= 8)
        }
        #expect(store.cachedValue("keep") == "stat of keep")
        #expect(store.computations == 101)
    }
}

/// A gate that blocks threads until opened.
private final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func wait() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }
}
