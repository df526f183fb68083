import CellKit
import CellKitTerminal
import Foundation

/// The history screen: commits by day, pages read lazily, diffstats for visible rows only.
///
/// Pages come from a ``PaginatedDataSource`` over `git log`, shaped into day
/// sections and cell types by a ``ShapedDataSource``; diffstats come from a
/// ``ResourceLoader`` that runs `git show --shortstat` for rows as they show, once per
/// commit (a ``DiffstatStore``).
@MainActor
final class GitScreen: DemoScreen {
    let controller = ListController()
    var title: String { "CellKit · git · " + Self.titlePath(repository.path) }

    /// The repository as the title names it: the current directory's path for "." (run
    /// inside a repository with no PATH, the title said only "."), else the path given.
    nonisolated static func titlePath(_ path: String) -> String {
        path == "." || path == "./" ? FileManager.default.currentDirectoryPath : path
    }
    /// Shows a status line (through the sink the app sets), remembering it in ``status``.
    var showStatus: (String?) -> Void {
        get { { [weak self] in self?.status.show($0) } }
        set { status.sink = newValue }
    }
    /// The status line, and a selected row's line (Enter) that goes when the selection moves.
    private let status = StatusLine()
    var filterPasses: Int { source.filterPasses }
    var loadedSnapshot: ListSnapshot { source.innerSnapshot }
    func loadNextPage() -> Task<Void, Never>? { source.loadNextPage() }
    func loadPagesOnlyWhenAsked() { pages.prefetchDistance = 0 }
    let rowName = "commit"
    let defaultPlainPages: Int? = nil

    private let repository: GitRepository
    private let source: ShapedDataSource
    /// The pages read so far; replaced by a new source when a refresh finds the history rewritten.
    private var pages: PaginatedDataSource<CommitInfo> {
        get { currentPages.pages }
        set { currentPages.pages = newValue }
    }
    /// Holds ``pages`` for End's navigation, whose page loads may outlive the screen.
    private let currentPages: PagesBox
    /// The running `git log` behind `pages`.
    private(set) var history: GitHistory
    private let pageSize: Int
    private let withDiffstats: Bool
    private var navigation: PagedNavigation!
    private let diffstats: ResourceLoader<any CommitRow, String>
    /// The diffstats computed, by commit id.
    let diffstatStore: DiffstatStore
    private var firstLoadDone = false
    private var firstLoadWaiters: [CheckedContinuation<Void, Never>] = []
    private var lastActivity = ListActivity.idle
    private var searchingRest = false
    /// Plain output: the commits printed, left out of the shaped rows from the next page on.
    private let printed: ShapeStartBox
    /// What the status line says once the refresh running now ends ("3 new commits").
    private var refreshMessage: String?
    /// What the last refresh said, kept in the status line through the pages that follow its
    /// first one (they re-read rows shown) until a key or a filter comes.
    private var refreshShown: String?
    /// Whether a refresh runs (from `r` until its first page is in).
    private(set) var refreshing = false
    /// List keys pressed while a refresh ran or a filter change was not shown yet, handled once
    /// both ended (a key right after Esc moves through the unfiltered rows, not the filtered ones).
    private var heldKeys: [(Key, TerminalListView)] = []
    /// Filter changes the list does not show yet.
    private var filtersShowing = 0
    /// Whether End reads every page.
    private var loadingAll = false
    /// `r` was pressed while End or "search the rest" read every page: the refresh starts when it ends.
    private var refreshAfterEnd = false
    /// The row selected when the filter started, selected again when Esc clears the filter
    /// with no commit selected (on the "search the rest" row, or while it searches).
    private var selectedBeforeFilter: ItemID?

    /// A screen on the repository at `path`; with `diffstats`, pages are read with their diffstats
    /// (for piped output, which shows every row at once) instead of per visible row.
    init(path: String, location: [UInt8]? = nil, pageSize: Int, diffstats withDiffstats: Bool = false) {
        let repository = GitRepository(path: path, location: location)
        self.repository = repository
        self.pageSize = pageSize
        self.withDiffstats = withDiffstats
        let (pages, history) = Self.makePages(repository, pageSize: pageSize, diffstats: withDiffstats)
        currentPages = PagesBox(pages)
        self.history = history
        let printed = ShapeStartBox()
        self.printed = printed
        source = ShapedDataSource(pages) { loaded, filter, hasMore in
            // No "search the rest" row when a refresh counted every commit and they are all loaded.
            let more = hasMore && printed.knownTotal.map { loaded.itemCount < $0 } ?? true
            return GitScreen.shape(loaded, filter: filter, hasMore: more, from: printed.start)
        }
        // Each commit's diffstat is computed once (rows that flash past cost none) and kept
        // by commit id, within a bound: holding j costs neither a git show per row nor memory.
        // The key holds the parents too: a graft gives a commit other parents (another diffstat)
        // under the same id.
        let store = DiffstatStore(concurrency: 2) { key in repository.diffstatNow(CommitInfo.hash(ofDiffstatKey: key)) ?? GitHistory.unavailable }
        diffstatStore = store
        diffstats = ResourceLoader(key: "diffstat", cacheLimit: 1_000) { row in
            guard let value = await store.value(for: row.info.diffstatKey) else { throw CancellationError() }
            return value
        }
        // End, and a key past the last match under a filter (a rare one may be far down), read in pages that grow.
        navigation = PagedNavigation({ [currentPages] in currentPages.pages }, controller: controller, loadingAll: { [weak self] on in
            guard let self else { return }
            history.growing = on
            loadingAll = on
            if !on && refreshAfterEnd {
                refreshAfterEnd = false
                refresh()
            }
        }, searching: { [weak self] on in
            guard let self, !loadingAll, !searchingRest else { return }
            history.growing = on
        })
        // Pages read with their diffstats (piped) need none per row.
        if !withDiffstats { controller.addResourceLoader(diffstats) }
        controller.placeholders.noResults = NoResultsPlaceholder(message: "No commits yet in ‘\(path)’")
        register(CommitCell.self, for: Commit.self, height: 2)
        register(MergeCell.self, for: Merge.self, height: 2)
        register(TagCell.self, for: TaggedCommit.self, height: 3)
        controller.register(SearchRestCell.self, for: SearchRest.self) { cell, row in cell.row = row }
        controller.onSelect(SearchRest.self) { [weak self] _, _ in self?.searchRest() }
        source.onPublish = { [weak self] snapshot in self?.published(snapshot) }
        // Before the rows show: the no-results row counts the commits searched so far.
        source.willPublish = { [weak self] loaded in self?.updateNoResults(loaded: loaded.model.itemCount) }
        navigation.isEnabled = { [weak self] in self?.source.filter.isEmpty ?? false }
        // Under a filter, "search the rest" ends the list as "Loading more…" does: a key past the
        // last match waits for the next one, and does not select it.
        navigation.isTrailingRow = { $0.model is SearchRest }
    }

    /// A paged source over a new `git log` of `repository`.
    private static func makePages(_ repository: GitRepository, pageSize: Int, diffstats: Bool) -> (PaginatedDataSource<CommitInfo>, GitHistory) {
        let history = GitHistory(repository: repository, pageSize: pageSize, diffstats: diffstats)
        let pages = PaginatedDataSource<CommitInfo>(prefetchDistance: 1) { page in
            if page == 0 { try await repository.check() }
            do {
                return try await history.page(page)
            } catch GitError.noCommits {
                return Page([], hasMore: false)
            }
        }
        return (pages, history)
    }

    private func register<Model: CommitRow & Identifiable, Cell: CommitCellBase>(_ cell: Cell.Type, for model: Model.Type, height: Double) where Model.ID: Sendable {
        controller.register(cell, for: model) { [weak self] cell, row in
            cell.info = row.info
            guard let self else { return }
            cell.diffstat = row.info.diffstat ?? diffstats.cachedValue(for: ItemID(row)) ?? diffstatStore.cachedValue(row.info.diffstatKey)
        }
        controller.height(for: model) { _ in height }
        controller.dispatch.onResource(model) { (cell: Cell, _, update) in
            if update.key == "diffstat" { cell.diffstat = update.value as? String }
        }
        controller.onSelect(model) { [weak self] row, _ in
            guard let self else { return }
            let diffstat = row.info.diffstat ?? diffstats.cachedValue(for: ItemID(row)) ?? diffstatStore.cachedValue(row.info.diffstatKey)
            let line = "\(row.info.shortHash) \(row.info.subject) — \(CommitCellBase.byline(row.info.author)), \(row.info.day) \(row.info.time)"
            status.showSelection(line + (diffstat.map { " · " + $0 } ?? ""), in: controller)
            guard diffstat == nil else { return }
            // Not computed yet: the status line takes it when it comes, unless it says something else by then.
            Task { [weak self, diffstatStore] in
                guard let value = await diffstatStore.value(for: row.info.diffstatKey), let self, self.status.shown == line else { return }
                self.status.showSelection(line + " · " + value, in: self.controller)
            }
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

    /// The rows shown were printed: they leave the source (all but the last, so that the list
    /// is not empty meanwhile) and later pages shape only the commits after them, so each page
    /// costs the same however long the history printed before it (also with `--page-size 1`).
    func rowsPrinted() {
        let items = pages.items
        guard printed.start.index < items.count else { return }
        printed.start.advance(over: items[printed.start.index...])
        // Not after the last page: the list would end empty, and say "No commits yet".
        let dropped = items.count - 1
        guard dropped > 0, pages.hasMore else { return }
        printedAndDropped += dropped
        printed.start.index -= dropped
        pages.edit { $0.removeFirst(dropped) }
    }

    /// Commits printed and dropped from the source (plain output).
    private var printedAndDropped = 0

    var rowsRead: Int { printedAndDropped + pages.items.count }

    /// Ends the running `git log` (quitting).
    func stop() {
        source.cancel()
        history.stop()
    }

    /// Reads the history again. New commits (not in the history shown, newer than its
    /// head) go on top and are counted; when the history was rewound or rewritten
    /// (`git reset`, a rebase), or a graft or a shallower fetch made commits shown go (with
    /// new commits on top or not), it is read again from the top, without the commits it lost.
    ///
    /// `r` while End or "search the rest" reads every page refreshes once that is done (End's
    /// move to the last row included); `r` while keys wait for the next page refreshes once they
    /// moved (also keys typed before the first screen: `End r` reads every page, then refreshes);
    /// list keys pressed while a refresh runs wait for it (End right after `r` reads every
    /// page of the new history).
    func refresh() {
        if loadingAll || searchingRest {
            refreshAfterEnd = true
            if searchingRest { showStatus(Self.searching(source.filter, read: loadedCount, refreshAfter: true)) }
            return
        }
        guard !refreshing else { return }
        // Keys wait for a page (past the loaded rows, or typed before the first screen): they
        // move first, then the refresh starts (it would drop them, and the selection it keeps
        // would be the one before them). Checked before the first page's guard: `End r` typed
        // ahead reads every page, then refreshes, as if typed then.
        if navigation.keysWait {
            navigation.afterKeys { [weak self] in self?.refresh() }
            return
        }
        // The first page loads (at the start, or its retry from the error row): no head is
        // shown to count new commits from yet, and a refresh now would cancel that page.
        // `r` does nothing, as the feed's does.
        guard !(pages.isFetchingFirstPage && pages.items.isEmpty) else { return }
        retryDiffstats()
        // A next page loading (the end on screen asked for it, as after keys that moved past
        // the loaded rows) does not skip git's count: the refresh goes as a plain `r` does and
        // says what it found (its first page takes the place of that page, which comes again).
        guard let shownHead = pages.items.first?.hash else {
            // Nothing shown (no commits yet, or the first page failed): git counts the new
            // commits (the first page holds only `pageSize` of them).
            refreshing = true
            refreshShown = nil
            showStatus("Refreshing…")
            Task { [weak self, repository] in
                let count = await repository.commitCount()
                guard let self else { return }
                defer { self.refreshEnded() }
                self.refreshMessage = count.map { $0 == 0 ? "Up to date" : Self.newCommits($0) }
                self.printed.knownTotal = nil
                await self.source.refresh().value
            }
            return
        }
        refreshing = true
        refreshShown = nil
        showStatus("Refreshing…")
        let shown = pages.items.map(\.hash)
        let shownAll = !pages.hasMore
        // The commits the history had below the ones loaded: those of the loaded commits' parents not loaded.
        let loaded = Set(shown)
        let boundary = shownAll ? [] : Array(Set(pages.items.lazy.flatMap(\.parents)).subtracting(loaded)).sorted()
        let selectedRow = (controller.listView as? TerminalListView)?.selectedPath.flatMap { controller.displayed.item(at: $0) }
        let selected = selectedRow.flatMap { row in (row.model as? any CommitRow).map { (id: row.id, hash: $0.info.hash) } }
        Task { [weak self, repository] in
            // Read before the refresh reads the history: a ref that moves after it makes the next `r` read again.
            let refs = await repository.refsState()
            let change = await repository.change(since: shownHead)
            guard let self else { return }
            defer { self.refreshEnded() }
            guard self.pages.items.first?.hash == shownHead else { return }
            // The refs as the first page read them: a ref that came, went or moved since on a
            // commit loaded below the rows the refresh's first page reads again leaves that row
            // wrong (the pages after the first keep their rows): every loaded page is read again.
            let refsShown = self.history.firstPageRefs
            func decorationsMovedBelow(_ firstRows: Int) -> Bool {
                guard let refs, let refsShown else { return false }
                let moved = refs.commitsDecoratedDifferently(from: refsShown)
                return shown.dropFirst(max(1, firstRows)).contains { moved.contains(Substring($0)) }
            }
            /// A graft, or a shallow clone's boundary moved: commits shown may have gone from the
            /// history (`git replace --graft`, `git fetch --depth=2`), also under `newOnTop` new
            /// commits. When some did, the history is read again from the top, and the status says
            /// what went and what came; returns whether it did.
            @MainActor func reloadedWithoutCommitsGone(newOnTop: Int) async -> Bool {
                guard let refs, let refsShown, refs.reshapesHistory(from: refsShown), let now = await repository.historyHashes() else { return false }
                let kept = Set(now)
                guard shown.contains(where: { !kept.contains($0) }) else { return false }
                // New commits on top are git's count (those of `now` not shown may be older ones too).
                let message = Self.replacedMessage(shown: shown, shownAll: shownAll, now: now, notOlder: shownAll && newOnTop == 0 ? now : nil)
                self.refreshMessage = newOnTop > 0 ? message.map { $0 + ", " + Self.newCommits(newOnTop) } : message
                await self.reload(keepingSelection: selected, readingUpTo: shown.count + newOnTop).value
                return true
            }
            switch change {
            case .unchanged:
                if let refs, refs == refsShown {
                    // The history, its refs and a shallow clone's boundary are as shown: nothing
                    // to read again (reading a long history again costs what End did).
                    self.refreshMessage = nil
                    self.refreshShown = "Up to date"
                    self.showStatus("Up to date")
                    return
                }
                if await reloadedWithoutCommitsGone(newOnTop: 0) { return }
                // Every commit loaded, and more now below them: a shallow clone deepened
                // (`git fetch --deepen`), its boundary commits given parents.
                let total = shownAll ? await repository.commitCount() : nil
                let older = total.map { $0 - shown.count } ?? 0
                self.refreshMessage = older > 0 ? Self.olderCommits(older) : "Up to date"
                if older == 0, decorationsMovedBelow(self.pageSize) {
                    await self.reload(keepingSelection: selected, readingUpTo: shown.count, readingAll: true).value
                    return
                }
                self.printed.knownTotal = older > 0 ? total : shownAll ? shown.count : nil
                // Only refs moved, on the commits the first page reads again: the rows below stay.
                if older == 0 { self.history.keepBelowNextFirstPage(self.pages.items, newCommits: 0, hasMore: self.pages.hasMore) }
                // With the end on screen, the source asks for the older commits (it awaits the end).
                await self.source.refresh().value
                await self.keepSelection(selected)
            case .added(let count):
                // Commits may have gone under the new ones (a graft made with them): checked as
                // under an unchanged head.
                if await reloadedWithoutCommitsGone(newOnTop: count) { return }
                // Every commit loaded, and more now below them too (a graft undone, a deepen, made
                // with the new commits): counted and read, as under an unchanged head.
                var total: Int?
                if shownAll, let refs, let refsShown, refs.reshapesHistory(from: refsShown) { total = await repository.commitCount() }
                let older = total.map { max(0, $0 - shown.count - count) } ?? 0
                self.refreshMessage = (count == 0 ? "Up to date" : Self.newCommits(count)) + (older > 0 ? ", " + Self.olderCommits(older) : "")
                if decorationsMovedBelow(self.pageSize - count) {
                    await self.reload(keepingSelection: selected, readingUpTo: shown.count + count, readingAll: true).value
                    return
                }
                // The first page reaches the head shown: no new commit is left for a later page;
                // the commits loaded below it are kept as they are (not read again).
                self.history.nextFirstPageSize = count + 1
                self.history.keepBelowNextFirstPage(self.pages.items, newCommits: count, hasMore: self.pages.hasMore || older > 0)
                // Every commit was loaded: the rows the refresh keeps below its first page are
                // the rest, but for the older ones counted (the source says more may follow until
                // a page confirms them).
                self.printed.knownTotal = shownAll ? older > 0 ? total : shown.count + count : nil
                await self.source.refresh().value
                await self.keepSelection(selected)
            case .rewritten(let removed, let added):
                var message = "The history was rewritten: \(Self.commits(removed)) gone"
                if added > 0 { message += ", " + Self.newCommits(added) }
                self.refreshMessage = message
                await self.reload(keepingSelection: selected, readingUpTo: shown.count).value
            case .replaced:
                let now = await repository.historyHashes()
                // Not all loaded: the commits of HEAD's history the old one did not reach
                // (nil when a commit below the loaded ones is gone too: not countable).
                let notOlder = shownAll ? now : boundary.isEmpty ? nil : await repository.historyHashes(excluding: boundary)
                self.refreshMessage = Self.replacedMessage(shown: shown, shownAll: shownAll, now: now, notOlder: notOlder)
                await self.reload(keepingSelection: selected, readingUpTo: shown.count).value
            case .unknown:
                self.refreshMessage = nil
                self.printed.knownTotal = nil
                await self.source.refresh().value
            }
        }
    }

    /// A refresh computes again the diffstats git could not compute (a partial clone's blobs
    /// fetched since, a pack put back) and those of root commits (a shallow clone's boundary,
    /// which `git fetch --deepen` gives parents): for the rows on screen now, the others
    /// when they show. Costs a `git show` per such row on screen, not per commit loaded.
    private func retryDiffstats() {
        guard !withDiffstats else { return }
        let roots = Set(pages.items.lazy.filter(\.parents.isEmpty).map(\.diffstatKey))
        let forgotten = diffstatStore.forget { hash, value in value == GitHistory.unavailable || roots.contains(hash) }
        guard !forgotten.isEmpty else { return }
        // The loader's copies go too: the rows load again from the store as they show.
        diffstats.removeAllCachedValues()
        guard let list = controller.listView else { return }
        for path in list.visibleItemPaths {
            guard let row = controller.displayed.item(at: path)?.model as? any CommitRow, forgotten.contains(row.info.diffstatKey) else { continue }
            Task { [weak self, diffstatStore] in
                guard let value = await diffstatStore.value(for: row.info.diffstatKey) else { return }
                self?.controller.provideResource(row, key: "diffstat", value: value)
            }
        }
    }

    /// What the status line says when the head shown is gone from the repository (pruned):
    /// the commits shown that HEAD's history (`now`) lacks, and its new ones: those of
    /// `notOlder` (the commits of `now` the old history did not reach below the ones shown;
    /// `now` itself when every commit was shown) not shown. When the oldest commit loaded is
    /// gone too, older ones not loaded may be: "at least"; with no `notOlder` (a commit below
    /// the ones loaded is gone), the new ones are not counted.
    static func replacedMessage(shown: [String], shownAll: Bool, now: [String]?, notOlder: [String]?) -> String? {
        guard let now else { return nil }
        let kept = Set(now)
        let gone = shown.count { !kept.contains($0) }
        let exact = shownAll || shown.last.map(kept.contains) == true
        var message = "The history was rewritten: \(exact ? "" : "at least ")\(Self.commits(gone)) gone"
        if let notOlder {
            let old = Set(shown)
            let added = notOlder.count { !old.contains($0) }
            if added > 0 { message += ", " + Self.newCommits(added) }
        }
        return message
    }

    /// A refresh ended: the list keys pressed meanwhile are handled.
    private func refreshEnded() {
        refreshing = false
        handleHeldKeys()
    }

    /// Handles the list keys held, once no refresh runs and the list shows the filter typed last.
    private func handleHeldKeys() {
        while !refreshing, filtersShowing == 0, !heldKeys.isEmpty {
            let (key, list) = heldKeys.removeFirst()
            if !navigation.handle(key, in: list) { list.handle(key) }
        }
    }

    /// Reads the history from the top with a new source (the rows shown go); the row
    /// `selected` (a commit a rewind kept) is selected again when the history still has it:
    /// past the first page, the pages are read on (growing, as End reads them) until it is
    /// loaded or `count` commits (as many as were loaded before) are; with `readingAll`, until
    /// `count` commits are (a ref moved on a commit far down: the rows loaded are read again).
    @discardableResult private func reload(keepingSelection selected: (id: ItemID, hash: String)? = nil, readingUpTo count: Int = 0,
                                           readingAll: Bool = false) -> Task<Void, Never> {
        printed.knownTotal = nil
        // The rows' diffstats as the list loaded them are kept by row (commit id): a commit a
        // graft gave other parents would keep its old one. They load again from the store,
        // which keeps them by commit and parents (computed again only for such a commit).
        diffstats.removeAllCachedValues()
        history.stop()
        (pages, history) = Self.makePages(repository, pageSize: pageSize, diffstats: withDiffstats)
        source.replace(pages)
        let load = source.load()
        let pages = pages
        let history = history
        return Task { [controller] in
            await load.value
            if readingAll, pages.hasMore, pages.items.count < count {
                history.growing = true
                await pages.loadUntil { items in items.count >= count }.value
                history.growing = false
            }
            guard let selected else { return }
            let hash = selected.hash
            if !pages.items.contains(where: { $0.hash == hash }), pages.hasMore, pages.items.count < count {
                history.growing = true
                await pages.loadUntil { items in items.count >= count || items.contains { $0.hash == hash } }.value
                history.growing = false
            }
            await controller.settle()
            if let list = controller.listView as? TerminalListView, let path = Self.path(ofCommit: selected.hash, in: controller.displayed) {
                list.select(path)
            }
        }
    }

    /// The last commit row of `model` (not the "search the rest" row), if any.
    static func lastCommitPath(in model: TableModel) -> ItemPath? {
        for (s, section) in model.sections.enumerated().reversed() {
            if let i = section.items.lastIndex(where: { $0.model is any CommitRow }) { return ItemPath(item: i, section: s) }
        }
        return nil
    }

    /// The row of the commit `hash` in `model`, whatever its row type (a commit that gains or
    /// loses a tag becomes another row type: another identity for the list).
    static func path(ofCommit hash: String, in model: TableModel) -> ItemPath? {
        for (s, section) in model.sections.enumerated() {
            for (i, item) in section.items.enumerated() where (item.model as? any CommitRow)?.info.hash == hash {
                return ItemPath(item: i, section: s)
            }
        }
        return nil
    }

    /// After a refresh that kept the rows: the commit selected before it is selected again when a
    /// tag it gained or lost made its row another row type (the list moved the selection on).
    private func keepSelection(_ selected: (id: ItemID, hash: String)?) async {
        guard let selected, let list = controller.listView as? TerminalListView else { return }
        await controller.settle()
        let now = list.selectedPath.flatMap { controller.displayed.item(at: $0)?.model as? any CommitRow }
        guard now?.info.hash != selected.hash, let path = Self.path(ofCommit: selected.hash, in: controller.displayed) else { return }
        list.select(path)
    }

    func handleListKey(_ key: Key, in list: TerminalListView) -> Bool {
        refreshShown = nil
        // Once the keys of this batch moved the selection, a selected row's line goes.
        Task { [weak self] in
            guard let self else { return }
            status.selectionMayHaveMoved(in: controller)
        }
        if refreshing || filtersShowing > 0 {
            heldKeys.append((key, list))
            return true
        }
        return navigation.handle(key, in: list)
    }

    func filter(_ text: String) {
        // Keys typed after the filter wait for it.
        filtersShowing += 1
        // Keys that wait for the next match of the filter shown stop (a rare match may be far down);
        // keys typed before the filter that wait for a page move first, through the rows they were typed on.
        navigation.stopSearching()
        navigation.afterKeys { [weak self] in self?.show(filter: text) }
    }

    /// Filters the rows with `text`; the keys held meanwhile go once the list shows them.
    private func show(filter text: String) {
        let list = controller.listView as? TerminalListView
        let selected = list?.selectedPath.flatMap { controller.displayed.item(at: $0) }
        if source.filter.isEmpty {
            selectedBeforeFilter = selected?.id
        }
        // Esc with no commit selected (the "search the rest" row): back to the row selected before.
        let restore = text.isEmpty && !(selected?.model is any CommitRow) ? selectedBeforeFilter : nil
        // A selection that was not on "search the rest" does not land on it: the selected commit
        // does not match, nor does any after it (the list puts the selection on the row after the
        // last match above it): the last match takes it, as when a match follows.
        let keepOffSearchRest = !text.isEmpty && !(selected?.model is SearchRest)
        refreshShown = nil
        if searchingRest, !loadingAll {
            // "Search the rest" stops: the page under way, which may be thousands of commits, ends
            // after the part read (not a page more, with "Reading more history…" for seconds).
            history.growing = false
        }
        searchingRest = false
        filterText = text
        updateNoResults(loaded: loadedCount)
        source.filter = text
        Task { [controller] in
            await controller.settle()
            // Keys typed ahead with the filter's Enter, before the first page shows, wait for it
            // (with a filter, the navigation would hand them to a list with no rows yet).
            await firstLoadFinished()
            if let restore, let list, let path = controller.displayed.indexPath(of: restore) { list.select(path) }
            if keepOffSearchRest, let list, let path = list.selectedPath, controller.displayed.item(at: path)?.model is SearchRest,
               let last = Self.lastCommitPath(in: controller.displayed) {
                list.select(last)
            }
            filtersShowing -= 1
            handleHeldKeys()
        }
    }

    /// The filter typed last (the no-results row names it).
    private var filterText = ""

    /// The no-results row: what the filter searched, `loaded` commits.
    private func updateNoResults(loaded: Int) {
        // The filter cleared with commits loaded: the rows are on their way, and the row shown
        // stays until they land (a "No commits yet" row would flash in between).
        guard !filterText.isEmpty || loaded == 0 else { return }
        controller.placeholders.noResults = NoResultsPlaceholder(
            message: filterText.isEmpty ? "No commits yet in ‘\(repository.path)’" : "No commits match “\(filterText)” in all \(Self.commits(loaded))")
    }

    var loadedCount: Int { source.innerSnapshot.model.itemCount }

    /// The commit rows of `model` (not the "search the rest" row).
    static func commitCount(_ model: TableModel) -> Int {
        model.sections.reduce(0) { $0 + $1.items.count { $0.model is any CommitRow } }
    }

    /// "matches" for one, "match" for other counts.
    static func match(_ count: Int) -> String { count == 1 ? "matches" : "match" }

    /// "1 new commit", "3 new commits".
    static func newCommits(_ count: Int) -> String { "\(count) new commit\(count == 1 ? "" : "s")" }

    /// "1 older commit", "10 older commits": commits below the ones loaded that came since (a deepen).
    static func olderCommits(_ count: Int) -> String { "\(count) older commit\(count == 1 ? "" : "s")" }

    /// "1 commit", "3,046 commits".
    static func commits(_ count: Int) -> String { "\(count) commit\(count == 1 ? "" : "s")" }

    /// Loads the pages not loaded yet, so the filter searches the whole history (Enter on the "search the rest" row).
    private func searchRest() {
        guard !searchingRest, !source.filter.isEmpty else { return }
        searchingRest = true
        let query = source.filter
        let history = history
        history.growing = true
        Task { [weak self] in
            defer {
                history.growing = false
                self?.searchEnded()
            }
            // A page the list's end asked for may be loading: it is waited for, not taken for the end.
            while let self, self.searchingRest, self.source.filter == query, let page = self.source.loadNextPage() ?? self.pageLoading() {
                self.showStatus(Self.searching(query, read: self.loadedCount, refreshAfter: self.refreshAfterEnd))
                await page.value
                if case .failed = self.source.innerSnapshot.state { break }
            }
            guard let self, self.source.filter == query else { return }
            self.searchingRest = false
            let matches = Self.commitCount(self.source.snapshot.model)
            let all = self.moreToRead ? "the \(Self.commits(self.loadedCount)) read" : "all \(Self.commits(self.loadedCount))"
            self.showStatus("\(Self.commits(matches)) \(Self.match(matches)) “\(query)” in \(all)")
        }
    }

    /// Waits for the next page under way (asked for by the list's end on screen); nil when none is.
    private func pageLoading() -> Task<Void, Never>? {
        guard pages.pageInFlight != nil else { return nil }
        let count = pages.items.count
        return pages.loadUntil { items in items.count != count }
    }

    /// Whether commits are left to read: the source has more pages, and no refresh counted
    /// every commit with all of them loaded (its first page leaves the rest unconfirmed).
    private var moreToRead: Bool {
        pages.hasMore && printed.knownTotal.map { pages.items.count < $0 } ?? true
    }

    /// The status line while "search the rest" reads; shorter when `r` waits for it (a refresh follows).
    static func searching(_ query: String, read: Int, refreshAfter: Bool) -> String {
        refreshAfter ? "Searching for “\(query)”… \(commits(read)) read, refresh after" : "Searching the history for “\(query)”… \(commits(read)) read"
    }

    /// "Search the rest" ended (done, failed or stopped by Esc): `r` pressed meanwhile refreshes now.
    private func searchEnded() {
        guard refreshAfterEnd, !loadingAll else { return }
        refreshAfterEnd = false
        // Once the list shows the search's last page: the refresh keeps the commit selected then
        // (the match the search ended on, read on to after a rewrite), not the "search the rest"
        // row the selection was on while it read (no commit: the search was thrown away).
        Task { [weak self] in
            await self?.controller.settle()
            self?.refresh()
        }
    }

    private func published(_ snapshot: ListSnapshot) {
        let count = pages.items.count
        switch (snapshot.state, snapshot.activity) {
        case (.loading, _):
            showStatus("Reading \(repository.path)…")
        case (_, _) where snapshot.nextPageError != nil:
            showStatus("Could not read more history; Enter on the last row or End retries")
        case (.failed(let error), _):
            showStatus("\(error)")
        case (_, .refreshing):
            showStatus("Refreshing…")
        case (_, .loadingMore):
            showStatus("Reading more history… \(count) commits so far")
        default:
            if let message = refreshMessage {
                // Counted by git before the refresh: commits newer than the head shown, not
                // rows the refresh reached that were not loaded before.
                refreshMessage = nil
                refreshShown = message
                showStatus(message)
            } else if let message = refreshShown {
                // A page after the refresh's first one (a short list shows the rows it reaches,
                // a rewind reads on to the rows loaded before): the status line still says what
                // the refresh found, not the count, with a filter kept too (the position counts the matches).
                showStatus(message)
            } else if lastActivity == .refreshing {
                let fresh = pages.lastRefreshNewItemCount ?? 0
                showStatus(fresh == 0 ? "Up to date" : Self.newCommits(fresh))
            } else if source.filter.isEmpty {
                let more = moreToRead
                showStatus("\(count)\(more ? "+" : "") commit\(count == 1 && !more ? "" : "s")")
            } else if !searchingRest {
                // Say what the filter searched.
                let matches = Self.commitCount(snapshot.model)
                let loaded = loadedCount
                showStatus("\(Self.commits(matches)) \(Self.match(matches)) in \(moreToRead ? "the \(loaded) loaded" : "all \(Self.commits(loaded))")")
            }
        }
        if !snapshot.state.isLoading && !firstLoadDone {
            firstLoadDone = true
            for waiter in firstLoadWaiters { waiter.resume() }
            firstLoadWaiters.removeAll()
        }
        if source.filter.isEmpty { searchingRest = false }
        lastActivity = snapshot.activity
    }

    /// Commits in sections by day; tagged commits, merges and plain commits as their own row types.
    ///
    /// A section is a run of commits of one day: histories are not in date order, so a
    /// day can come back later; its second run gets the id "DAY #2" (the header stays the day),
    /// and section ids are unique on any history. While filtering with pages left to load,
    /// a last row says what was searched and offers to search the rest.
    static func shape(_ loaded: TableModel, filter: String, hasMore: Bool = false, from start: ShapeStart = ShapeStart()) -> TableModel {
        var model = TableModel()
        let query = filter.lowercased()
        var currentDay = start.currentDay
        var runs = start.runs
        var loadedCount = 0
        var skip = start.index
        for section in loaded.sections {
            if skip >= section.items.count {
                skip -= section.items.count
                continue
            }
            for item in section.items.dropFirst(skip) {
                guard let info = item.model(as: CommitInfo.self) else { continue }
                loadedCount += 1
                if !query.isEmpty {
                    guard shownText(of: info.subject, info.author, info.shortHash, contains: query)
                        || info.refs.contains(where: { shownText(of: $0, contains: query) }) else { continue }
                }
                if info.day != currentDay {
                    let run = runs[info.day, default: 0] + 1
                    runs[info.day] = run
                    model.appendSection(id: sectionID(day: info.day, run: run), header: info.day)
                    currentDay = info.day
                } else if model.sections.isEmpty {
                    // The day the printed rows ended on goes on: its section, without a second header.
                    model.appendSection(id: sectionID(day: info.day, run: runs[info.day, default: 1]))
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
            skip = 0
        }
        if !query.isEmpty && hasMore {
            let matches = model.itemCount
            model.appendSection(id: SectionID("search-rest"))
            model.append([ListItem(SearchRest(query: filter, matches: matches, loaded: loadedCount))])
        }
        return model
    }
}

extension GitScreen {
    /// Where ``shape(_:filter:hasMore:from:)`` starts: the commits before `index` were
    /// printed (plain output) and are left out; the day they ended on goes on without a
    /// second header, and a day that comes back later still gets its own section.
    struct ShapeStart {
        var index = 0
        var currentDay: String?
        var runs: [String: Int] = [:]

        /// This start moved over `commits` (the ones from `index` on).
        mutating func advance<Commits: Sequence<CommitInfo>>(over commits: Commits) {
            for info in commits {
                index += 1
                if info.day != currentDay {
                    runs[info.day, default: 0] += 1
                    currentDay = info.day
                }
            }
        }
    }

    /// The id of the `run`th section of `day` ("2026-11-21 Sat", then "2026-11-21 Sat #2").
    static func sectionID(day: String, run: Int) -> SectionID { SectionID(run == 1 ? day : "\(day) #\(run)") }
}

extension CommitInfo {
    /// What the diffstat store keeps this commit's diffstat under: its id and its parents
    /// (`git replace --graft` gives a commit other parents, and another diffstat, under the same id).
    var diffstatKey: String { parents.isEmpty ? hash : hash + " " + parents.joined(separator: " ") }

    /// The commit id of a ``diffstatKey``.
    static func hash(ofDiffstatKey key: String) -> String { String(key.prefix { $0 != " " }) }
}

/// Holds where shaping starts and the commits a refresh counted, for the shaping closure.
@MainActor
/// The screen's current pages, for closures that must not hold the screen.
final class PagesBox {
    var pages: PaginatedDataSource<CommitInfo>
    init(_ pages: PaginatedDataSource<CommitInfo>) { self.pages = pages }
}

final class ShapeStartBox {
    var start = GitScreen.ShapeStart()
    /// How many commits the history has, when a refresh counted them with every one loaded.
    var knownTotal: Int?
}

/// The last row while filtering a history with pages left: what was searched, and the offer to search the rest.
struct SearchRest: Identifiable, Hashable, Sendable {
    var query: String
    var matches: Int
    var loaded: Int
    var id: String { "search-rest" }
}

/// Draws ``SearchRest``: "No commits match “x” in the 200 loaded — Enter searches the rest of the history".
final class SearchRestCell: ListCell, TerminalRenderable {
    var row: SearchRest?
    required init() {}

    func terminalLines(width: Int) -> [StyledLine] {
        guard let row else { return [] }
        let found = row.matches == 0 ? "No commits match “\(row.query)”" : "\(GitScreen.commits(row.matches)) above \(GitScreen.match(row.matches)) “\(row.query)”"
        var line = StyledLine("  ⌕ " + found + " in the \(row.loaded) loaded", style: .dim)
        line.append(" — Enter searches the rest of the history", style: TextStyle(foreground: .cyan))
        return [line]
    }
}
