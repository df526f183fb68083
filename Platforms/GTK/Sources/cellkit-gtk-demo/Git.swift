import CellKit
import Foundation

/// One commit as `git log` reports it.
struct Commit: Identifiable, Equatable, Sendable {
    var id: String { hash }
    var hash: String
    var author: String
    /// "2026-11-21", the author date's day.
    var day: String
    var time: String
    var subject: String
}

/// Why the history could not be read: names the path and what git said; the error row
/// shows it (`LocalizedError`).
struct GitError: LocalizedError, CustomStringConvertible {
    var path: String
    var detail: String
    var description: String { "could not read the history of ‘\(path)’: \(detail)" }
    var errorDescription: String? { description }
}

/// The git history screen: commits by day, as `cellkit-demo git` shows them.
@MainActor
final class GitScreen {
    let controller = ListController()
    let source: RemoteDataSource<Commit>

    init(path: String, limit: Int = 500) {
        source = RemoteDataSource(makeModel: GitScreen.model) { try await GitScreen.log(path: path, limit: limit) }
        controller.register(TextCell.self, for: Commit.self) { cell, commit in
            cell.text = commit.subject
            cell.detailText = "\(commit.hash.prefix(8)) · \(commit.author) · \(commit.time)"
        }
    }

    func start() {
        controller.bind(to: source)
        source.load()
    }

    func refresh() { source.refresh() }

    /// Commits grouped by day, newest first.
    static func model(_ commits: [Commit]) -> TableModel {
        var model = TableModel()
        var day: String?
        for commit in commits {
            if commit.day != day {
                model.appendSection(id: SectionID(commit.day), header: commit.day)
                day = commit.day
            }
            model.append([commit])
        }
        return model
    }

    /// The newest `limit` commits of the repository at `path`, read with `git log`.
    nonisolated static func log(path: String, limit: Int) async throws -> [Commit] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "--no-pager", "-C", path, "log", "-n", "\(limit)", "--date=format:%Y-%m-%d %a\t%H:%M", "--format=%H\t%an\t%ad\t%s"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw GitError(path: path, detail: "\(error)") }
        // Read both pipes before waiting, so a chatty git cannot block on a full pipe.
        async let text = output.fileHandleForReading.readToEnd()
        async let problem = errors.fileHandleForReading.readToEnd()
        let (data, errorData) = try await (text, problem)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GitError(path: path, detail: String(decoding: errorData ?? Data(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return String(decoding: data ?? Data(), as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5 else { return nil }
            return Commit(hash: fields[0], author: fields[1], day: fields[2], time: fields[3], subject: fields[4])
        }
    }
}
