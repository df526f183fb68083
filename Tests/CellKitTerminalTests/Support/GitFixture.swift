import Foundation

/// A small repository made for the tests: two days of history with a tag, a
/// branch and a merge; its bare clone; an empty repository; a plain directory.
///
/// What runs git has an async twin that runs it on a thread of its own (``blockingWork(_:)``):
/// async code, a test on the main actor above all, gets that one (the compiler picks it and asks
/// for `await`), so that the other tests' screens go on meanwhile.
struct GitFixture {
    let root: URL
    var repository: String { root.appendingPathComponent("repo").path }
    var bare: String { root.appendingPathComponent("bare.git").path }
    var empty: String { root.appendingPathComponent("empty").path }
    var notARepository: String { root.appendingPathComponent("plain").path }

    static var isAvailable: Bool { Spawn.isAvailable("git") }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("cellkit-git-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let script = """
        set -e
        cd "$1"
        mkdir plain
        git init -q -b main empty
        git init -q -b main repo
        cd repo
        git config user.name "Test Author"
        git config user.email author@example.com
        commit() { GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" git commit -q -m "$2"; }
        echo one > one.txt; git add one.txt; commit "2024-03-01T09:00:00+0000" "Add the first file"
        printf 'two\\nlines\\n' > two.txt; git add two.txt; commit "2024-03-01T10:30:00+0000" "Add a second file"
        GIT_COMMITTER_DATE="2024-03-01T10:31:00+0000" git tag -a v1.0 -m "Version 1.0"
        git checkout -q -b feature
        echo feature >> one.txt; git add one.txt; commit "2024-03-02T11:00:00+0000" "Work on the feature"
        git checkout -q main
        echo main > three.txt; git add three.txt; commit "2024-03-02T12:00:00+0000" "Add a third file on main"
        GIT_AUTHOR_DATE="2024-03-02T13:00:00+0000" GIT_COMMITTER_DATE="2024-03-02T13:00:00+0000" git merge -q --no-ff --no-edit -m "Merge branch 'feature'" feature
        rm two.txt; git add -A; commit "2024-03-02T14:00:00+0000" "Remove the second file"
        cd ..
        git clone -q --bare repo bare.git
        """
        let result = try Spawn.run(["sh", "-c", script, "sh", root.path])
        guard result.status == 0 else { throw TestFailure("could not create the test repository: \(result.errorOutput)") }
    }

    /// ``init()`` on a thread of its own.
    init() async throws {
        self = try await makeRepository { try GitFixture() }
    }

    /// Adds a commit on main (for refresh tests).
    func addCommit(_ subject: String) throws {
        let script = """
        set -e
        cd "$1"
        echo "$2" >> four.txt; git add four.txt
        GIT_AUTHOR_DATE="2024-03-02T15:00:00+0000" GIT_COMMITTER_DATE="2024-03-02T15:00:00+0000" git commit -q -m "$2"
        """
        let result = try Spawn.run(["sh", "-c", script, "sh", repository, subject])
        guard result.status == 0 else { throw TestFailure("could not commit: \(result.errorOutput)") }
    }

    /// ``addCommit(_:)`` on a thread of its own.
    func addCommit(_ subject: String) async throws {
        try await blockingWork { try addCommit(subject) }
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

/// How many repositories the async twins make at a time: as many as there are cores. Made all at
/// once (some 30 tests of the main actor start together), they slowed everything else on the 2
/// cores, the main actor's own work included: a test of it that takes 0.3 s alone took 20 s.
private let repositorySlots = DispatchSemaphore(value: max(2, ProcessInfo.processInfo.activeProcessorCount))

/// `make()` (it makes a repository, or commits to one) on a thread of its own, once one of the
/// ``repositorySlots`` is free.
func makeRepository<Value: Sendable>(_ make: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await blockingWork {
        repositorySlots.wait()
        defer { repositorySlots.signal() }
        return try make()
    }
}

/// The demo's git mode in a terminal on a fresh ``GitFixture``; ``close()`` ends the
/// session, then removes the fixture.
final class GitDemo {
    let fixture: GitFixture
    let session: DemoSession
    var tmux: TmuxSession { session.tmux }

    /// Makes a fixture with `linearCommits` commits added (see
    /// ``GitFixture/addLinearCommits(_:from:)``), then starts `cellkit-demo git` on its
    /// `repository` with `arguments` after it, in a `columns` × `rows` pane.
    init(_ name: String, repository: KeyPath<GitFixture, String> = \.repository, linearCommits: Int = 0,
         arguments: [String] = [], columns: Int = 80, rows: Int = 24) throws {
        let fixture = try GitFixture()
        do {
            if linearCommits > 0 { try fixture.addLinearCommits(linearCommits) }
            session = try DemoSession(name, ["git", fixture[keyPath: repository]] + arguments, columns: columns, rows: rows)
        } catch {
            fixture.remove()
            throw error
        }
        self.fixture = fixture
    }

    func close() {
        session.close()
        fixture.remove()
    }
}

/// A repository a test makes itself, in a new directory; ``remove()`` deletes the directory.
struct ScratchRepository {
    /// The directory made for it.
    let root: URL
    /// The repository: `root`, or the folder named in `init` inside it.
    let url: URL
    var path: String { url.path }

    /// Makes the repository (in `root`, or in its folder `subfolder`) with `script`, run by
    /// sh in it (its path is `$1` too) after `set -e` and `git init -q -b main .`; throws
    /// with the script's errors when it fails.
    init(_ name: String, in subfolder: String? = nil, script: String) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cellkit-\(name)-\(UUID().uuidString)")
        self.root = root
        url = subfolder.map { root.appendingPathComponent($0) } ?? root
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let result = try Spawn.run(["sh", "-c", "set -e; cd \"$1\"; git init -q -b main .\n" + script, "sh", url.path])
            guard result.status == 0 else { throw TestFailure("could not make the repository: \(result.errorOutput)") }
        } catch {
            remove()
            throw error
        }
    }

    /// ``init(_:in:script:)`` on a thread of its own.
    init(_ name: String, in subfolder: String? = nil, script: String) async throws {
        self = try await makeRepository { try ScratchRepository(name, in: subfolder, script: script) }
    }

    /// Runs `script` with sh in the repository, after `set -e`; throws with its errors when it fails.
    func run(_ script: String) async throws {
        let result = try await Spawn.run(["sh", "-c", "set -e; cd \"$1\"; " + script, "sh", path])
        guard result.status == 0 else { throw TestFailure("git failed: \(result.errorOutput)") }
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

/// A `git` of a test's own, first on `path`: a shell script in `root/bin` whose middle
/// part, `body(real, calls)`, decides what each run does (usually it records the run in
/// the file `calls`, then runs the real git at `real`, which the script ends with).
struct FakeGit {
    /// A `PATH` that finds the fake git first.
    let path: String
    /// The file the script records calls in (it exists once a run wrote to it).
    let calls: String

    init(in root: URL, _ body: (_ real: String, _ calls: String) -> String) throws {
        let real = try Spawn.run(["sh", "-c", "command -v git"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let bin = root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        calls = root.appendingPathComponent("calls").path
        let script = "#!/bin/sh\n" + body(real, calls) + "\nexec '\(real)' \"$@\"\n"
        try writeExecutable(script, to: bin.appendingPathComponent("git").path)
        path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }
}

extension ScratchRepository {
    /// A repository of 30 empty commits, "Commit number 01" to "Commit number 30".
    static func thirtyCommits(_ name: String) throws -> ScratchRepository {
        try ScratchRepository(name, script: thirtyCommitsScript)
    }

    /// ``thirtyCommits(_:)`` on a thread of its own.
    static func thirtyCommits(_ name: String) async throws -> ScratchRepository {
        try await ScratchRepository(name, script: thirtyCommitsScript)
    }

    private static let thirtyCommitsScript = """
        git config user.name T; git config user.email t@example.com
        for n in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
          git commit -q --allow-empty -m "Commit number $n"
        done
        """
}

extension FakeGit {
    /// A git that records its runs and whose `git log` holds its end (the last page) until
    /// the file `go` exists (at most 20 s).
    static func holdingLogEnd(in root: URL, until go: String) throws -> FakeGit {
        try FakeGit(in: root) { real, calls in
            """
            echo "$*" >> '\(calls)'
            case " $* " in
            *" log "*)
              '\(real)' "$@" || exit $?
              i=0
              while [ ! -e '\(go)' ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
              exit 0 ;;
            esac
            """
        }
    }
}
