import CellKit
import CellKitTerminal

/// The feed screen: tweets by hour, user suggestions in the byline style, pages
/// loaded as you scroll, refresh at the top, avatars downloaded for visible rows.
///
/// The rows come from a ``PaginatedDataSource`` over the simulated ``FeedServer``,
/// shaped into hour sections with suggestions and the filter by a ``ShapedDataSource``.
@MainActor
final class FeedScreen: DemoScreen {
    let controller = ListController()
    let title = "CellKit · feed"
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
    let rowName = "tweet"
    let defaultPlainPages: Int? = 1

    private let server: FeedServer
    private let feed: SampleFeed
    private let avatarDelay: Int
    private let source: ShapedDataSource
    private let pages: PaginatedDataSource<Tweet>
    private let navigation: PagedNavigation
    private var avatars: [Int: Avatar] = [:]
    private var avatarLoads: Set<Int> = []
    private var firstLoadDone = false
    private var firstLoadWaiters: [CheckedContinuation<Void, Never>] = []
    private var lastActivity = ListActivity.idle
    private let refreshScope: RefreshScope

    /// Whether the next first page reads the feed to its end (a refresh with every page loaded).
    @MainActor final class RefreshScope {
        var toEnd = false
        func takeToEnd() -> Bool {
            defer { toEnd = false }
            return toEnd
        }
    }

    init(seed: UInt64, failRate: Double, timing: FeedServer.Timing = FeedServer.Timing(), avatarDelay: Int = 150) {
        let server = FeedServer(seed: seed, failRate: failRate, timing: timing)
        self.server = server
        feed = server.feed
        self.avatarDelay = avatarDelay
        let refreshScope = RefreshScope()
        self.refreshScope = refreshScope
        let pages = PaginatedDataSource<Tweet>(prefetchDistance: 1) { page in
            try await server.page(page, toEnd: page == 0 ? await refreshScope.takeToEnd() : false)
        }
        let feed = server.feed
        self.pages = pages
        source = ShapedDataSource(pages) { loaded, filter, _ in FeedScreen.shape(loaded, filter: filter, feed: feed) }
        navigation = PagedNavigation(pages, controller: controller)

        controller.register(TweetCell.self, for: Tweet.self) { [weak self] cell, tweet in
            cell.tweet = tweet
            guard let self else { return }
            cell.avatar = avatars[tweet.author.id]
            cell.now = tweet.clock
        }
        controller.height(for: Tweet.self) { _ in 3 }
        controller.dispatch.onResource(Tweet.self) { (cell: TweetCell, _, update) in
            if update.key == "avatar" { cell.avatar = update.value as? Avatar }
        }
        controller.onSelect(Tweet.self) { [weak self] tweet, _ in
            guard let self else { return }
            status.showSelection("Selected @\(tweet.author.handle): \(tweet.text)", in: controller)
        }
        controller.addPresenter(
            UserPresenter(
                avatars: { [weak self] id in self?.avatars[id] },
                selectedUser: { [weak self] user in
                    guard let self else { return }
                    status.showSelection("Selected @\(user.handle) (\(user.followers) followers)", in: controller)
                }
            ),
            style: .byline
        )
        // Avatars are a resource of the user: one download reaches every visible row showing or naming them.
        controller.onWillDisplay { [weak self] _, item in
            guard let self else { return }
            if let tweet = item.model(as: Tweet.self) { loadAvatar(tweet.author) }
            if let user = item.model(as: User.self) { loadAvatar(user) }
        }
        source.onPublish = { [weak self] snapshot in self?.published(snapshot) }
        // Before the rows show: the no-results row counts the tweets searched so far (as the git screen's).
        source.willPublish = { [weak self] loaded in self?.updateNoResults(loaded: loaded.model.itemCount, all: !loaded.hasMore) }
        navigation.isEnabled = { [weak self] in self?.source.filter.isEmpty ?? false }
        // With a filter too, End reads every page: the filter then searches the whole feed.
        navigation.endLoadsAllWhenDisabled = true
    }

    func start() {
        controller.bind(to: source)
        source.load()
    }

    func firstLoadFinished() async {
        if !firstLoadDone { await withCheckedContinuation { firstLoadWaiters.append($0) } }
        await controller.settle()
    }

    /// Loads new tweets on top; nothing while the first page loads (it is the newest already,
    /// and none of it is new: nothing was shown before it) or a refresh runs (as on the git
    /// screen: a second one would start it over, and stop End reading the pages meanwhile).
    /// While keys wait for a page (also keys typed before the first screen), the refresh comes
    /// once they moved.
    func refresh() {
        // Keys wait for a page (past the loaded rows, or typed before the first screen): they
        // move first, then the refresh brings the new tweets (it would drop them). Checked before
        // the first page's guard: `End r` typed ahead reads every page, then refreshes.
        if navigation.keysWait {
            navigation.afterKeys { [weak self] in self?.refresh() }
            return
        }
        guard firstLoadDone, !pages.isFetchingFirstPage else { return }
        // On the first page's error row, the refresh brings the first page: none of it is new.
        refreshBringsFirstPage = pages.items.isEmpty
        // Every page loaded: the refresh reads the feed to its end at once (the tweets below the
        // new ones are those shown), not page after page again behind a "Loading more…" row.
        refreshScope.toEnd = !pages.hasMore && !pages.items.isEmpty && !pages.isFetching
        source.refresh()
    }

    /// Whether the refresh running now reads the first page (nothing was shown before it).
    private var refreshBringsFirstPage = false

    func handleListKey(_ key: Key, in list: TerminalListView) -> Bool {
        // Once the keys of this batch moved the selection, a selected row's line goes.
        Task { [weak self] in
            guard let self else { return }
            status.selectionMayHaveMoved(in: controller)
        }
        if filtersShowing > 0 {
            heldKeys.append((key, list))
            return true
        }
        return navigation.handle(key, in: list)
    }

    /// Filter changes the list does not show yet: list keys wait for them (a key right
    /// after Esc moves through the unfiltered rows, not the filtered ones).
    private var filtersShowing = 0
    private var heldKeys: [(Key, TerminalListView)] = []

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
        // The no-results row and the status line say what was searched (see `willPublish`).
        source.filter = text
        Task { [controller] in
            await controller.settle()
            // Keys typed ahead with the filter's Enter, before the first page shows, wait for it
            // (with a filter, the navigation would hand them to a list with no rows yet).
            await firstLoadFinished()
            filtersShowing -= 1
            while filtersShowing == 0, !heldKeys.isEmpty {
                let (key, list) = heldKeys.removeFirst()
                if !navigation.handle(key, in: list) { list.handle(key) }
            }
        }
    }

    // MARK: Status

    /// The no-results row under a filter: what it searched, the `loaded` tweets (`all` of them).
    private func updateNoResults(loaded: Int, all: Bool) {
        guard !source.filter.isEmpty else { return }
        controller.placeholders.noResults = NoResultsPlaceholder(
            message: "No tweets or people match “\(source.filter)” in \(Self.searched(loaded, all: all))")
    }

    /// The tweets a filter searched: "the 20 loaded tweets", "all 1000 tweets".
    static func searched(_ loaded: Int, all: Bool) -> String {
        let tweets = "tweet\(loaded == 1 ? "" : "s")"
        return all ? "all \(loaded) \(tweets)" : "the \(loaded) loaded \(tweets)"
    }

    private func published(_ snapshot: ListSnapshot) {
        let count = snapshot.model.sections.reduce(0) { $0 + $1.items.count { $0.model is Tweet } }
        switch (snapshot.state, snapshot.activity) {
        case (.loading, _):
            showStatus("Loading the feed…")
        case (_, _) where snapshot.nextPageError != nil:
            showStatus("Could not load more tweets; Enter on the last row or End retries")
        case (.failed(let error), _):
            // The error's text starts lower-case (it follows a colon elsewhere): a sentence here.
            let text = "\(error)"
            showStatus(snapshot.model.isEmpty ? "Loading failed; select the error row to retry" : text.prefix(1).uppercased() + text.dropFirst())
        case (_, .refreshing):
            showStatus("Refreshing…")
        case (_, .loadingMore):
            showStatus("Loading more tweets… \(pages.items.count) so far")
        default:
            if lastActivity == .refreshing, !refreshBringsFirstPage, let fresh = pages.lastRefreshNewItemCount, fresh > 0 {
                showStatus("\(fresh) new tweet\(fresh == 1 ? "" : "s") at the top")
            } else if source.filter.isEmpty {
                showStatus("\(count) tweet\(count == 1 ? "" : "s")")
            } else {
                // Say what the filter searched (the rows are tweets and people).
                let matches = snapshot.model.itemCount
                showStatus("\(matches) row\(matches == 1 ? " matches" : "s match") in \(Self.searched(pages.items.count, all: !pages.hasMore))")
            }
        }
        if !snapshot.state.isLoading && !firstLoadDone {
            firstLoadDone = true
            for waiter in firstLoadWaiters { waiter.resume() }
            firstLoadWaiters.removeAll()
        }
        lastActivity = snapshot.activity
    }

    // MARK: Shaping

    /// Tweets grouped by hour; after every eighth tweet, a user to follow (each user once).
    ///
    /// One clock for every row, from the newest tweet loaded: the ages and the hour sections
    /// count from it, so a refresh that brings newer tweets moves them all on (the rows on
    /// screen are drawn again), and the old rows go under "Yesterday" once the new ones are
    /// posted after midnight.
    static func shape(_ loaded: TableModel, filter: String, feed: SampleFeed) -> TableModel {
        var model = TableModel()
        let query = filter.lowercased()
        var suggested: Set<Int> = []
        var currentTitle: String?
        let items = loaded.sections.flatMap(\.items)
        let newest = items.lazy.compactMap { $0.model(as: Tweet.self)?.id }.max() ?? 1000
        let clock = feed.clock(newest: newest)
        for item in items {
            guard var tweet = item.model(as: Tweet.self) else { continue }
            tweet.clock = clock
            var rows: [ListItem] = []
            if shownText(of: tweet.text, tweet.author.name, tweet.author.handle, contains: query) { rows.append(ListItem(tweet)) }
            if tweet.id % 8 == 0 {
                let user = feed.users[(tweet.id / 8) % feed.users.count]
                if suggested.insert(user.id).inserted, shownText(of: user.name, user.handle, user.bio, contains: query) {
                    rows.append(ListItem(user))
                }
            }
            guard !rows.isEmpty else { continue }
            let title = SampleFeed.hourTitle(tweet.postedAt, clock: clock)
            if title != currentTitle {
                model.appendSection(id: SectionID(title), header: title)
                currentTitle = title
            }
            model.append(rows)
        }
        return model
    }

    // MARK: Avatars

    private func loadAvatar(_ user: User) {
        guard avatars[user.id] == nil, avatarLoads.insert(user.id).inserted else { return }
        let delay = avatarDelay + (user.id * 53) % 250
        Task {
            try? await Task.sleep(for: .milliseconds(delay))
            let avatar = Avatar(user: user)
            avatars[user.id] = avatar
            avatarLoads.remove(user.id)
            controller.provideResource(user, key: "avatar", value: avatar)
        }
    }
}
