import CellKit
import CellKitTerminal

/// Navigation keys on a paged list: End / G load every page before going to
/// the last row, and keys that move past the loaded rows (or come while the first
/// page loads) wait for the next page instead of being dropped (keys pressed
/// meanwhile are kept, in order).
///
/// While End loads, the selection is on the load-more row at the end ("Loading
/// more…"), page after page; a page that fails stops it there, on the "Couldn't load
/// more" row, shown and selected (Enter or End retries). A key that moves up or to the
/// top (Home, ↑, PgUp, g, k, b, Ctrl-P, Ctrl-B) stops it at once: the page under way
/// still arrives, no further page is asked for, and the key moves the selection. Keys kept
/// while a page loads (typed before the first screen, or past the loaded rows) go, once it is
/// in, as if typed then: End among them starts loading every page, and one after it that
/// moves up stops it at once, as it does when typed while End loads.
///
/// ``afterKeys(_:)`` runs something once the keys kept are handled (a refresh: `r` typed
/// while keys wait for a page comes after them; a filter typed then, too).
///
/// Enter on the "Couldn't load more" row asks for the page again; once it is in, the
/// selection is on the page's first row (keys pressed meanwhile wait for it, as they
/// wait for a page that a key past the loaded rows asked for).
///
/// Under a filter (``isEnabled`` says no) the list shows the rows that match: a key that
/// moves down past the last one shown (↓, j, Ctrl-N, PgDn, Space, Ctrl-F) waits for the pages
/// that bring the next match (a page may bring none), or for the last page, and then moves,
/// as without a filter; it never selects the paging row at the list's end ("Loading more…",
/// or the screen's own, ``isTrailingRow``). When no more rows match, the selection stays on
/// the last match. A key that moves up or to the top stops that wait at once, as it stops End
/// (and as Esc does, ``stopSearching()``), and moves the selection.
@MainActor
final class PagedNavigation {
    /// The paged source's operations this needs.
    struct Pages {
        var loadNext: @MainActor () -> Task<Void, Never>?
        var loadUntil: @MainActor (_ count: Int) -> Task<Void, Never>
        var count: @MainActor () -> Int
        var hasMore: @MainActor () -> Bool
        var failed: @MainActor () -> Bool
        /// Whether the first page is loading with nothing shown yet.
        var firstLoading: @MainActor () -> Bool = { false }
        /// Told when End starts loading every page (`true`) and when it stops (`false`: once
        /// its last move is done, or once the page under way landed after a key stopped it).
        var loadingAll: @MainActor (Bool) -> Void = { _ in }
        /// Told when a key under a filter starts reading pages for the next match (`true`) and
        /// when no key does any more (`false`).
        var searching: @MainActor (Bool) -> Void = { _ in }
    }

    private let pages: Pages
    private let controller: ListController
    /// Whether keys move through the loaded pages (not while a filter shows a part of them:
    /// then only the keys that move down past the last row shown wait, for the next match).
    var isEnabled: () -> Bool = { true }
    /// Whether `row` is the screen's own paging row at the list's end (the history's "search
    /// the rest" under a filter): it counts as the "Loading more…" row does, one past the last row.
    var isTrailingRow: (ListItem) -> Bool = { _ in false }
    /// Whether End / G loads every page also while ``isEnabled`` says no (a filter that
    /// searches the rows loaded: End then has it search every page); the keys pressed while
    /// it loads wait or stop it as they do without a filter.
    var endLoadsAllWhenDisabled = false
    private var queue: [Key] = []
    private var waiting = false
    /// End's loading of every page, while it runs, and its number (see ``endRuns``).
    private var loadingAll: (task: Task<Void, Never>, run: Int)?
    /// How many times End started loading every page.
    private var endRuns = 0
    /// The End whose start the screen was told (``Pages/loadingAll``) and not its stop yet.
    private var endTold: Int?
    /// What runs once the keys kept are handled, in the order asked (``afterKeys(_:)``).
    private var afterKeysActions: [@MainActor () -> Void] = []
    /// Counts the waits given up (a key stopped End, a filter change stopped a search): a wait that
    /// ends after it was given up does nothing.
    private var abandonedWaits = 0
    /// The reading of pages for the next match that keys wait for, under a filter (see ``stopSearching()``).
    private var search: Task<Void, Never>?
    /// How many such readings run (one stopped may still wait for its page while the next starts).
    private var searches = 0

    convenience init<Item>(_ source: PaginatedDataSource<Item>, controller: ListController) {
        self.init({ source }, controller: controller)
    }

    /// Navigation over the source `source()` returns (a screen that replaces its source);
    /// `loadingAll` is told when End starts loading every page (`true`) and when it stops
    /// (`false`), for a screen that reads bigger pages meanwhile.
    convenience init<Item>(
        _ source: @escaping @MainActor () -> PaginatedDataSource<Item>, controller: ListController,
        loadingAll: @escaping @MainActor (Bool) -> Void = { _ in },
        searching: @escaping @MainActor (Bool) -> Void = { _ in }
    ) {
        self.init(pages: Pages(
            loadNext: { source().loadNextPage() },
            loadUntil: { count in source().loadUntil { $0.count > count } },
            count: { source().items.count },
            hasMore: { source().hasMore },
            failed: { source().nextPageError != nil },
            firstLoading: { source().isFetchingFirstPage && source().items.isEmpty },
            loadingAll: loadingAll,
            searching: searching
        ), controller: controller)
    }

    init(pages: Pages, controller: ListController) {
        self.pages = pages
        self.controller = controller
    }

    /// Handles `key` for `list`; returns whether it did (the list view must not).
    func handle(_ key: Key, in list: TerminalListView) -> Bool {
        let filtered = !isEnabled()
        guard Self.isNavigation(key), !filtered || waiting || (endLoadsAllWhenDisabled && Self.isEnd(key)) || Self.movesDown(key) else { return false }
        if waiting {
            if let (task, run) = loadingAll, Self.movesUp(key) {
                // Stop End: the key moves the selection now; the page under way lands where it is
                // (then the screen is told End stopped).
                task.cancel()
                loadingAll = nil
                abandonedWaits += 1
                waiting = false
                queue.removeAll()
                Task {
                    await task.value
                    endStopped(run)
                }
                // What waited for the keys runs once this one moved (the caller moves it now).
                if !afterKeysActions.isEmpty { Task { runAfterKeysIfIdle() } }
                return false
            }
            if search != nil, Self.movesUp(key) {
                // Stop the search for the next match, as Esc does: the key moves the selection now
                // (the keys kept before it are dropped; the page under way still arrives, no further
                // page is read).
                stopSearching()
                if !afterKeysActions.isEmpty { Task { runAfterKeysIfIdle() } }
                return false
            }
            queue.append(key)
            return true
        }
        if pages.firstLoading() {
            // Nothing to move through yet: the key waits for the first page (dropped if it fails).
            queue.append(key)
            wait(for: pages.loadUntil(0), in: list, then: nil) { [pages] in pages.count() > 0 }
            return true
        }
        if filtered, Self.movesDown(key) {
            return waitForMatches(key, in: list)
        }
        switch key {
        case .enter:
            // Enter on the "Couldn't load more" row asks for its page again (as the row's own retry
            // does), on the "Loading more…" row (a retry under way) waits for it; once the page is in,
            // the selection is on its first row (where the row was), not the one above, and keys
            // pressed meanwhile wait for it.
            guard pages.hasMore(), let selected = list.selectedPath, controller.displayed.sections.indices.contains(selected.section),
                  Self.isLoadMore(controller.displayed.sections[selected.section]) else { return false }
            let count = pages.count()
            guard let page = pages.failed() ? pages.loadNext() : pages.loadUntil(count) else { return false }
            wait(for: page, in: list, then: nil, restoring: contentCount) { [pages] in pages.count() > count }
            return true
        case .end, .character("G"):
            guard pages.hasMore() else { return false }
            endRuns += 1
            let run = endRuns
            let task = loadAll(followingEndOf: list, run: run)
            loadingAll = (task, run)
            // The screen hears that End stopped once its last move is done (a refresh that waited
            // for End keeps the last row selected, not the "Loading more…" row's place).
            wait(for: task, in: list, then: .end, moved: { [weak self] in self?.endStopped(run) })
            return true
        case .down, .character("j"), .control("n"), .pageDown, .character(" "), .control("f"):
            guard pages.hasMore(), !pages.failed() else { return false }
            let count = pages.count()
            // The selection stays on the row it was on (the last loaded one, or the
            // load-more row's place), whatever the list does with the load-more row meanwhile.
            let position = list.selectedPath.map(contentIndex) ?? 0
            // A row moves one row; a page about a screen of rows: the rows it needs are loaded
            // first, however many pages that takes (a small --page-size), then the key moves.
            // (Shown rows may outnumber the source's: the feed's suggestions. Loading until
            // the source has `reach` rows loads at least as many shown ones.)
            guard let reach = reach(of: key, from: position, atTheEnd: count, in: list) else { return false }
            queue.insert(key, at: 0)
            // The source may hold rows the list does not show yet (a page that just came):
            // then the rows asked for are there already, and that is progress too.
            let needed = min(count, reach)
            wait(for: pages.loadUntil(reach), in: list, then: nil, restoring: position) { [pages] in pages.count() > needed }
            return true
        default:
            return false
        }
    }

    /// Under a filter: `key` (one that moves down) past the last row shown waits for the pages
    /// that bring a row it moves to (the next match; for a page, as many as it moves over), or
    /// for the last page; returns whether it waits (else the list moves it now).
    private func waitForMatches(_ key: Key, in list: TerminalListView) -> Bool {
        guard pages.hasMore(), !pages.failed() else { return false }
        let shown = contentCount
        // The selection stays on the row it was on (the last match, or the paging row's place).
        let position = list.selectedPath.map(contentIndex) ?? 0
        guard let needed = reach(of: key, from: position, atTheEnd: shown, in: list) else { return false }
        queue.insert(key, at: 0)
        let task = loadUntilShown(moreThan: needed)
        search = task
        wait(for: task, in: list, then: nil, restoring: position) { [pages, weak self] in
            (self?.contentCount ?? 0) > shown || !pages.hasMore()
        }
        return true
    }

    /// How many rows `key` (one that moves down) needs from `position`: `atTheEnd` for a row key
    /// on the last row or past it, the row a screen further for a page key reaching past the rows
    /// shown; `nil` when the rows shown already serve it (the list moves it now).
    private func reach(of key: Key, from position: Int, atTheEnd: Int, in list: TerminalListView) -> Int? {
        switch key {
        case .down, .character("j"), .control("n"):
            return isAtEnd(list) ? atTheEnd : nil
        default:
            let reach = position + max(1, list.visibleItemPaths.count)
            return reach >= contentCount ? reach : nil
        }
    }

    /// The filter changes: keys that wait for the next match of the filter shown stop waiting (they
    /// are dropped, and the selection stays where it is; the page under way still arrives), so that
    /// the new filter applies at once, not once a search of the whole list for a rare match ended.
    func stopSearching() {
        guard waiting, let task = search else { return }
        task.cancel()
        search = nil
        abandonedWaits += 1
        waiting = false
        queue.removeAll()
    }

    /// Loads page after page until the list shows more than `needed` rows (a filter shows the
    /// rows that match: a page may bring none), none is left, or one fails or brings nothing.
    private func loadUntilShown(moreThan needed: Int) -> Task<Void, Never> {
        searches += 1
        if searches == 1 { pages.searching(true) }
        return Task { [pages, controller] in
            while !Task.isCancelled {
                await controller.settle()
                guard contentCount <= needed, pages.hasMore(), !pages.failed() else { break }
                let count = pages.count()
                // A page that loads already (asked for by the end on screen) is waited for, not asked for twice.
                let page = pages.loadUntil(count)
                // Stopped (``stopSearching()``: Esc, a new filter), the page under way still arrives
                // and the loop ends after it: cancelling the page would end the list with a
                // "Couldn't load more" row and status, as if it had failed (nothing did).
                await page.value
                if pages.count() <= count { break }
            }
            searches -= 1
            if searches == 0 { pages.searching(false) }
            await controller.settle()
        }
    }

    /// Loads page after page until none is left, with the selection on the load-more
    /// row at the end while each page loads. Stops at a page that fails (its row, failed,
    /// stays selected and on screen: it came on screen loading, so showing it does not
    /// retry the page behind the user's back), and at one that brings no row (a refresh
    /// started, or a server that repeats itself); pages fetched again after a refresh, which
    /// bring only rows shown already, are read on.
    private func loadAll(followingEndOf list: TerminalListView, run: Int) -> Task<Void, Never> {
        endTold = run
        pages.loadingAll(true)
        return Task { [pages, controller] in
            while pages.hasMore(), !Task.isCancelled {
                let count = pages.count()
                // A page that loads already (prefetched) is waited for, not asked for twice.
                let page = pages.loadNext() ?? pages.loadUntil(count)
                await controller.settle()
                if Task.isCancelled { break }
                list.handle(.end)
                await page.value
                if pages.count() <= count, !pages.failed(), pages.hasMore(), !Task.isCancelled {
                    // The pages fetched again after a refresh bring rows already shown: read on to new ones.
                    let more = pages.loadUntil(count)
                    await withTaskCancellationHandler { await more.value } onCancel: { more.cancel() }
                }
                if pages.failed() || pages.count() <= count { break }
            }
            await controller.settle()
        }
    }

    /// Tells the screen that End number `run` stopped, once (a later End that started meanwhile is still running).
    private func endStopped(_ run: Int) {
        guard endTold == run else { return }
        endTold = nil
        pages.loadingAll(false)
    }

    /// Whether keys wait for a page, or wait to be handled after one (not End's loading every page).
    var keysWait: Bool { (waiting || !queue.isEmpty) && loadingAll == nil }

    /// Runs `action` once the keys kept are handled: at once when none are kept or waiting for a
    /// page, else when the last of them moved (`r` typed while keys wait for the next page refreshes
    /// after they moved, not dropping them; a filter typed then applies after them, so that they
    /// move through the rows they were typed on). Actions asked for meanwhile run in the order asked.
    func afterKeys(_ action: @escaping @MainActor () -> Void) {
        afterKeysActions.append(action)
        runAfterKeysIfIdle()
    }

    private func runAfterKeysIfIdle() {
        while !waiting, queue.isEmpty, !afterKeysActions.isEmpty {
            afterKeysActions.removeFirst()()
        }
    }

    /// Waits for `task` and the list to show its result, then handles `key` (then tells `moved`)
    /// and the keys kept meanwhile, as if typed now: when one of them waits again, the ones
    /// after it are kept or, End running, stop it (a key that moves up).
    /// When `progressed` says nothing arrived (a failed page, a refresh running), the kept keys are
    /// dropped, but for the one that waited for a page that failed: it moves over the loaded rows
    /// (onto the "Couldn't load more" row); the other keys, past that row, ask for the page again
    /// (as the row does when it comes on screen), wait for it and go on from its first row.
    private func wait(
        for task: Task<Void, Never>, in list: TerminalListView, then key: Key?, restoring position: Int? = nil,
        progressed: @escaping @MainActor () -> Bool = { true }, moved: (@MainActor () -> Void)? = nil
    ) {
        waiting = true
        let wait = abandonedWaits
        Task {
            await task.value
            await controller.settle()
            guard wait == abandonedWaits else { return }
            loadingAll = nil
            search = nil
            waiting = false
            if let position, let path = contentPath(at: position, loadMoreAfter: true) { list.select(path) }
            // Nothing came: the keys kept meanwhile go. A failed page keeps the key that waited
            // for it, which moves over the loaded rows (as far as the "Couldn't load more" row);
            // the other keys ask for the page again and wait for it.
            if !progressed() {
                if pages.failed() && key == nil, !queue.isEmpty {
                    let first = queue.removeFirst()
                    if !handle(first, in: list) { list.handle(first) }
                    if !waiting, !queue.isEmpty {
                        // On the "Couldn't load more" row; keys pressed meanwhile still wait.
                        let shown = contentCount
                        let loaded = pages.count()
                        let at = list.selectedPath.map(contentIndex)
                        waiting = true
                        await controller.settle()
                        // The keys kept go past the row: they ask for its page again, as the row
                        // does when it comes on screen (the list shows it already when it came on
                        // screen loading, with the end of the rows in view: then nothing asks).
                        if pages.failed(), Self.isOnLoadMoreRow(list, controller) { _ = pages.loadNext() }
                        if !pages.failed(), pages.hasMore() || pages.count() > loaded {
                            // The page is asked for again: the keys wait for it and for the list to show it.
                            await pages.loadUntil(loaded).value
                            await controller.settle()
                        }
                        guard wait == abandonedWaits else { return }
                        waiting = false
                        if contentCount > shown {
                            // The page came meanwhile: the selection goes on from the first of its rows.
                            if let at, let path = contentPath(at: at) { list.select(path) }
                        } else if pages.failed() {
                            queue.removeAll()
                        }
                    }
                } else {
                    queue.removeAll()
                }
            }
            if let key { list.handle(key) }
            moved?()
            handleKept(in: list)
            runAfterKeysIfIdle()
        }
    }

    /// Handles the keys kept, in order, as if typed now: once one of them waits (a page, End),
    /// the ones after it are kept behind it, but for one that moves up while End loads, which
    /// stops End and moves (typed ahead, `End Home` goes to the top at once).
    private func handleKept(in list: TerminalListView) {
        while !waiting, !queue.isEmpty {
            let next = queue.removeFirst()
            if !handle(next, in: list) { list.handle(next) }
        }
        guard waiting, loadingAll != nil, !queue.isEmpty else { return }
        let kept = queue
        queue.removeAll()
        for key in kept {
            if !handle(key, in: list) { list.handle(key) }
        }
    }

    /// Whether the selection is on the last loaded row or after it (on the load-more row).
    private func isAtEnd(_ list: TerminalListView) -> Bool {
        guard let selected = list.selectedPath else { return false }
        return contentIndex(of: selected) >= contentCount - 1
    }

    /// The content sections shown (without the paging rows': "Loading more…", the screen's trailing row).
    private var contentSections: [TableSection] {
        controller.displayed.sections.filter { !isPaging($0) }
    }

    private var contentCount: Int { contentSections.reduce(0) { $0 + $1.items.count } }

    /// The position of `path` among the content rows; a paging row counts as one past the last.
    private func contentIndex(of path: ItemPath) -> Int {
        let sections = controller.displayed.sections
        guard sections.indices.contains(path.section) else { return contentCount }
        if isPaging(sections[path.section]) { return contentCount }
        return sections[..<path.section].reduce(0) { $0 + $1.items.count } + path.item
    }

    /// The path of the content row at `index`, or of the last row when there are fewer (with
    /// `loadMoreAfter`, of the load-more row when there is one).
    private func contentPath(at index: Int, loadMoreAfter: Bool = false) -> ItemPath? {
        var remaining = index
        var last: ItemPath?
        for (s, section) in controller.displayed.sections.enumerated() where !section.items.isEmpty {
            if isPaging(section) {
                if loadMoreAfter { last = ItemPath(item: 0, section: s) }
                continue
            }
            if remaining < section.items.count { return ItemPath(item: remaining, section: s) }
            remaining -= section.items.count
            last = ItemPath(item: section.items.count - 1, section: s)
        }
        return last
    }

    /// Whether the selection is on the load-more row.
    private static func isOnLoadMoreRow(_ list: TerminalListView, _ controller: ListController) -> Bool {
        guard let selected = list.selectedPath, controller.displayed.sections.indices.contains(selected.section) else { return false }
        return isLoadMore(controller.displayed.sections[selected.section])
    }

    /// Whether `section` is the load-more row's (its one row; reading it costs one row, not the section).
    private static func isLoadMore(_ section: TableSection) -> Bool {
        section.items.count == 1 && section.items[0].model is LoadMorePlaceholder
    }

    /// Whether `section` is a paging row's: the load-more row's, or the screen's trailing row's (``isTrailingRow``).
    private func isPaging(_ section: TableSection) -> Bool {
        section.items.count == 1 && (section.items[0].model is LoadMorePlaceholder || isTrailingRow(section.items[0]))
    }

    private static func isEnd(_ key: Key) -> Bool { key == .end || key == .character("G") }

    /// Whether `key` moves the selection down (a row or a page): under a filter, past the last match it waits for the next.
    private static func movesDown(_ key: Key) -> Bool {
        switch key {
        case .down, .character("j"), .control("n"), .pageDown, .character(" "), .control("f"):
            return true
        default:
            return false
        }
    }

    /// Whether `key` moves the selection up or to the top (it stops End's loading).
    private static func movesUp(_ key: Key) -> Bool {
        switch key {
        case .up, .pageUp, .home, .character("k"), .character("g"), .character("b"), .control("p"), .control("b"):
            return true
        default:
            return false
        }
    }

    private static func isNavigation(_ key: Key) -> Bool {
        switch key {
        case .down, .up, .pageDown, .pageUp, .home, .end, .enter,
             .character("j"), .character("k"), .character("g"), .character("G"), .character(" "), .character("b"),
             .control("n"), .control("p"), .control("f"), .control("b"):
            return true
        default:
            return false
        }
    }
}
