import CellKit
import CellKitTerminal

/// The history screen: commits by day, pages read lazily, diffstats for visible rows only.
///
/// Pages come from a ``PaginatedDataSource`` over `git log`, shaped into day
/// sections and cell types by a ``ShapedDataSource``; diffstats come from a
/// ``ResourceLoader`` that runs `git show --shortstat` for rows as they show.
@MainActor
final class GitScreen: DemoScreen {
    let controller = ListController()
    var title: String { "CellKit · git · " + repository.path }
    var showStatus: (String?) -> Void = { _ in }
    var filterPasses: Int { source.filterPasses }

    private let repository: GitRepository
    private let source: ShapedDataSource
    private let diffstats: ResourceLoader<any CommitRow, String>
    private var firstLoadDone = false
    private var firstLoadWaiters: [CheckedContinuation<Void, Never>] = []
    private var lastCount = 0
    private var lastActivity = ListActivity.idle

    init(path: String, pageSize: Int) {
        let repository = GitRepository(path: path)
        self.repository = repository
        let pages = PaginatedDataSource<CommitInfo>(prefetchDistance: 1) { page in
            if page == 0 { try await repository.check() }
            do throws(GitError) {
                let commits = try await repository.page(skip: page * pageSize, count: pageSize)
                return Page(commits, hasMore: commits.count == pageSize)
            } catch .noCommits {
                return Page([], hasMore: false)
            } catch {
                throw error
            }
        }
        source = ShapedDataSource(pages) { loaded, filter in GitScreen.shape(loaded, filter: filter) }
        diffstats = ResourceLoader(key: "diffstat", cacheLimit: 1_000) { row in
            await repository.diffstat(row.info.hash) ?? "diffstat unavailable"
        }
        controller.addResourceLoader(diffstats)
        controller.placeholders.noResults = NoResultsPlaceholder(message: "No commits yet in ‘\(path)’")
        register(CommitCell.self, for: Commit.self, height: 2)
        register(MergeCell.self, for: Merge.self, height: 2)
        register(TagCell.self, for: TaggedCommit.self, height: 3)
        source.onPublish = { [unowned self] snapshot in published(snapshot) }
    }

    private func register<Model: CommitRow & Identifiable, Cell: CommitCellBase>(_ cell: Cell.Type, for model: Model.Type, height: Double) where Model.ID: Sendable {
        controller.register(cell, for: model) { [unowned self] cell, row in
            cell.info = row.info
            cell.diffstat = diffstats.cachedValue(for: ItemID(row))
        }
        controller.height(for: model) { _ in height }
        controller.dispatch.onResource(model) { (cell: Cell, _, update) in
            if update.key == "diffstat" { cell.diffstat = update.value as? String }
        }
        controller.onSelect(model) { [unowned self] row, _ in
            showStatus("\(row.info.shortHash) \(row.info.subject) — \(row.info.author), \(row.info.day) \(row.info.time)")
        }
    }

    func start() {
        controller.bind(to: source)
        source.load()
    }

    func firstLoadFinished() async {
        if !firstLoadDone { await withCheckedContinuation { firstLoadWaiters.append($0) } }
        await controller.settle()
    }

    func refresh() { source.refresh() }

    func filter(_ text: String) {
        controller.placeholders.noResults = NoResultsPlaceholder(
            message: text.isEmpty ? "No commits yet in ‘\(repository.path)’" : "No commits match “\(text)”")
        source.filter = text
    }

    private func published(_ snapshot: ListSnapshot) {
        let count = snapshot.model.itemCount
        switch (snapshot.state, snapshot.activity) {
        case (.loading, _):
            showStatus("Reading \(repository.path)…")
        case (.failed(let error), _):
            showStatus("\(error)")
        case (_, .refreshing):
            showStatus("Refreshing…")
        case (_, .loadingMore):
            showStatus("Reading more history…")
        default:
            if lastActivity == .refreshing {
                let fresh = count - lastCount
                showStatus(fresh <= 0 ? "Up to date" : "\(fresh) new commit\(fresh == 1 ? "" : "s")")
            } else if source.filter.isEmpty {
                showStatus("\(count)\(snapshot.hasMore ? "+" : "") commits")
            }
        }
        if !snapshot.state.isLoading && !firstLoadDone {
            firstLoadDone = true
            for waiter in firstLoadWaiters { waiter.resume() }
            firstLoadWaiters.removeAll()
        }
        if source.filter.isEmpty { lastCount = count }
        lastActivity = snapshot.activity
    }

    /// Commits in sections by day; tagged commits, merges and plain commits as their own row types.
    static func shape(_ loaded: TableModel, filter: String) -> TableModel {
        var model = TableModel()
        let query = filter.lowercased()
        var currentDay: String?
        for item in loaded.sections.flatMap(\.items) {
            guard let info = item.model(as: CommitInfo.self) else { continue }
            if !query.isEmpty {
                let haystack = [info.subject, info.author, info.shortHash] + info.refs
                guard haystack.contains(where: { $0.lowercased().contains(query) }) else { continue }
            }
            if info.day != currentDay {
                model.appendSection(id: SectionID(info.day), header: info.day)
                currentDay = info.day
            }
            let row: ListItem
            if !info.tags.isEmpty {
                row = ListItem(TaggedCommit(info: info))
            } else if info.parents.count > 1 {
                row = ListItem(Merge(info: info))
            } else {
                row = ListItem(Commit(info: info))
            }
            model.append([row])
        }
        return model
    }
}
