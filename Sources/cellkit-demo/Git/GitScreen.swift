import CellKit
import CellKitTerminal

/// The history screen: commits by day, pages read lazily, diffstats for visible rows only.
@MainActor
final class GitScreen: DemoScreen {
    let controller = ListController()
    var title: String { "CellKit · git · " + repository.path }
    var showStatus: (String?) -> Void = { _ in }

    private let repository: GitRepository
    private let pageSize: Int
    private var commits: [CommitInfo] = []
    private var exhausted = false
    private var isLoading = false
    private var firstLoadDone = false
    private var firstLoadWaiters: [CheckedContinuation<Void, Never>] = []
    private var filterText = ""
    private var diffstats: [String: String] = [:]
    private var diffstatQueue: [any CommitRow & Identifiable] = []
    private var diffstatsRunning = 0
    private var diffstatsRequested: Set<String> = []

    init(path: String, pageSize: Int) {
        repository = GitRepository(path: path)
        self.pageSize = pageSize
        register(CommitCell.self, for: Commit.self, height: 2)
        register(MergeCell.self, for: Merge.self, height: 2)
        register(TagCell.self, for: TaggedCommit.self, height: 3)
        controller.onRetry = { [unowned self] in loadFirstPage() }
    }

    private func register<Model: CommitRow, Cell: CommitCellBase>(_ cell: Cell.Type, for model: Model.Type, height: Double) {
        controller.register(cell, for: model) { [unowned self] cell, row in
            cell.info = row.info
            cell.diffstat = diffstats[row.info.hash]
        }
        controller.height(for: model) { _ in height }
        controller.dispatch.onResource(model) { (cell: Cell, _, update) in
            if update.key == "diffstat" { cell.diffstat = update.value as? String }
        }
        controller.onSelect(model) { [unowned self] row, _ in
            showStatus("\(row.info.shortHash) \(row.info.subject) — \(row.info.author), \(row.info.day) \(row.info.time)")
        }
    }

    func start() { loadFirstPage() }

    func firstLoadFinished() async {
        if firstLoadDone { return }
        await withCheckedContinuation { firstLoadWaiters.append($0) }
    }

    private func finishFirstLoad() {
        firstLoadDone = true
        for waiter in firstLoadWaiters { waiter.resume() }
        firstLoadWaiters.removeAll()
    }

    // MARK: Loads

    private func loadFirstPage() {
        guard !isLoading else { return }
        isLoading = true
        controller.apply(TableModel(), state: .loading)
        showStatus("Reading \(repository.path)…")
        Task {
            defer { isLoading = false; finishFirstLoad() }
            do throws(GitError) {
                try await repository.check()
                let page = try await repository.page(skip: 0, count: pageSize)
                commits = page
                exhausted = page.count < pageSize
                applyModel()
                showStatus("\(commits.count)\(exhausted ? "" : "+") commits")
            } catch .noCommits {
                commits = []
                exhausted = true
                controller.placeholders.noResults = NoResultsPlaceholder(message: "No commits yet in ‘\(repository.path)’")
                controller.apply(TableModel(), state: .empty)
                showStatus("No commits yet")
            } catch {
                controller.apply(TableModel(), state: .failed(error))
                showStatus("\(error)")
            }
        }
    }

    private func loadNextPage() {
        guard !isLoading, !exhausted, !commits.isEmpty else { return }
        isLoading = true
        showStatus("Reading more history…")
        Task {
            defer { isLoading = false }
            do {
                let page = try await repository.page(skip: commits.count, count: pageSize)
                exhausted = page.count < pageSize
                let known = Set(commits.map(\.hash))
                commits += page.filter { !known.contains($0.hash) }
                applyModel()
                showStatus("\(commits.count)\(exhausted ? "" : "+") commits")
            } catch {
                showStatus("Could not read more history: \(error)")
            }
        }
    }

    func refresh() {
        guard !isLoading else { return }
        guard !commits.isEmpty else {
            loadFirstPage()
            return
        }
        isLoading = true
        showStatus("Refreshing…")
        Task {
            defer { isLoading = false }
            do {
                let page = try await repository.page(skip: 0, count: pageSize)
                if let top = commits.first, let index = page.firstIndex(where: { $0.hash == top.hash }) {
                    let fresh = page[..<index]
                    commits.insert(contentsOf: fresh, at: 0)
                    keepingSelection(of: controller) { applyModel() }
                    showStatus(fresh.isEmpty ? "Up to date" : "\(fresh.count) new commit\(fresh.count == 1 ? "" : "s")")
                } else {
                    // History was rewritten: start again from this page.
                    commits = page
                    exhausted = page.count < pageSize
                    keepingSelection(of: controller) { applyModel() }
                    showStatus("History changed; reloaded")
                }
            } catch {
                controller.apply(controller.model, state: .failed(error))
                showStatus("Refresh failed: \(error)")
            }
        }
    }

    func filter(_ text: String) {
        filterText = text
        controller.placeholders.noResults = NoResultsPlaceholder(message: "No commits match “\(text)”")
        applyModel()
    }

    // MARK: Model

    private func applyModel() {
        var model = TableModel()
        let query = filterText.lowercased()
        var currentDay: String?
        for info in commits {
            if !query.isEmpty {
                let haystack = [info.subject, info.author, info.shortHash] + info.refs
                guard haystack.contains(where: { $0.lowercased().contains(query) }) else { continue }
            }
            if info.day != currentDay {
                model.appendSection(id: SectionID(info.day), header: info.day)
                currentDay = info.day
            }
            let item: ListItem
            if !info.tags.isEmpty {
                item = ListItem(TaggedCommit(info: info))
            } else if info.parents.count > 1 {
                item = ListItem(Merge(info: info))
            } else {
                item = ListItem(Commit(info: info))
            }
            model.append([item])
        }
        controller.apply(model, state: model.isEmpty ? .empty : .loaded)
    }

    // MARK: Visible rows

    func visibleRowsChanged(_ paths: [ItemPath]) {
        for path in paths {
            guard let row = controller.displayed.model(at: path) as? any CommitRow & Identifiable else { continue }
            let hash = row.info.hash
            guard diffstats[hash] == nil, diffstatsRequested.insert(hash).inserted else { continue }
            diffstatQueue.append(row)
        }
        runDiffstats()
        if filterText.isEmpty, let last = paths.last,
           let lastSection = controller.displayed.sections.indices.last,
           last.section == lastSection, last.item >= controller.displayed.sections[lastSection].items.count - 1 {
            loadNextPage()
        }
    }

    private func runDiffstats() {
        while diffstatsRunning < 3, !diffstatQueue.isEmpty {
            let row = diffstatQueue.removeFirst()
            diffstatsRunning += 1
            Task {
                let stat = await repository.diffstat(row.info.hash) ?? "diffstat unavailable"
                diffstatsRunning -= 1
                diffstats[row.info.hash] = stat
                controller.provideResource(row, key: "diffstat", value: stat)
                runDiffstats()
            }
        }
    }
}
