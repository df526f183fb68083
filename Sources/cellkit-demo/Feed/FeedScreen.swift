import CellKit
import CellKitTerminal

/// The feed screen: tweets by hour, user suggestions in the byline style, pages
/// loaded as you scroll, refresh at the top, avatars downloaded for visible rows.
@MainActor
final class FeedScreen: DemoScreen {
    let controller = ListController()
    let title = "CellKit · feed"
    var showStatus: (String?) -> Void = { _ in }

    struct Timing {
        var firstPage = 600
        var page = 300
        var refresh = 400
        var avatar = 150
    }

    private let feed: SampleFeed
    private let failRate: Double
    private let timing: Timing
    private var failures: SeededRandom
    private var refreshSizes: SeededRandom
    private let pageSize = 20

    /// Sequence numbers of the tweets loaded, newest first.
    private var tweets: [Tweet] = []
    private var newest = 1000
    private var suggestions: [Int: User] = [:]
    private var suggestedUsers: Set<Int> = []
    private var avatars: [Int: Avatar] = [:]
    private var avatarLoads: Set<Int> = []
    private var isLoadingPage = false
    private var isRefreshing = false
    private var firstLoadDone = false
    private var firstLoadWaiters: [CheckedContinuation<Void, Never>] = []
    private var filterText = ""

    init(seed: UInt64, failRate: Double, timing: Timing = Timing()) {
        feed = SampleFeed(seed: seed)
        self.failRate = failRate
        self.timing = timing
        failures = SeededRandom.derived(seed: seed, stream: 2)
        refreshSizes = SeededRandom.derived(seed: seed, stream: 3)

        controller.register(TweetCell.self, for: Tweet.self) { [unowned self] cell, tweet in
            cell.tweet = tweet
            cell.avatar = avatars[tweet.author.id]
            cell.now = feed.postedAt(newest) + 2
        }
        controller.height(for: Tweet.self) { _ in 3 }
        controller.dispatch.onResource(Tweet.self) { (cell: TweetCell, _, update) in
            if update.key == "avatar" { cell.avatar = update.value as? Avatar }
        }
        controller.onSelect(Tweet.self) { [unowned self] tweet, _ in
            showStatus("Selected @\(tweet.author.handle): \(tweet.text)")
        }
        controller.addPresenter(
            UserPresenter(
                avatars: { [unowned self] id in avatars[id] },
                selectedUser: { [unowned self] user in showStatus("Selected @\(user.handle) (\(user.followers) followers)") }
            ),
            style: .byline
        )
        controller.onRetry = { [unowned self] in loadFirstPage() }
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

    private func shouldFail() -> Bool {
        failRate > 0 && failures.unit() < failRate
    }

    private func sleep(_ milliseconds: Int) async {
        try? await Task.sleep(for: .milliseconds(milliseconds))
    }

    // MARK: Loads

    private func loadFirstPage() {
        guard !isLoadingPage else { return }
        isLoadingPage = true
        controller.apply(TableModel(), state: .loading)
        showStatus("Loading the feed…")
        Task {
            await sleep(timing.firstPage)
            isLoadingPage = false
            if shouldFail() {
                controller.apply(TableModel(), state: .failed(FeedError(what: "the first page of the feed", failRate: failRate)))
                showStatus("Loading failed; select the error row to retry")
            } else {
                tweets = (0..<pageSize).map { feed.tweet(newest - $0) }
                applyModel()
                showStatus("\(tweets.count) tweets")
            }
            finishFirstLoad()
        }
    }

    private func loadNextPage() {
        guard !isLoadingPage, let oldest = tweets.last?.id else { return }
        isLoadingPage = true
        showStatus("Loading more tweets…")
        Task {
            await sleep(timing.page)
            isLoadingPage = false
            if shouldFail() {
                showStatus("Could not load more tweets (simulated failure); scroll to the end to try again")
                return
            }
            tweets += (1...pageSize).map { feed.tweet(oldest - $0) }
            applyModel()
            showStatus("\(tweets.count) tweets")
        }
    }

    func refresh() {
        if tweets.isEmpty {
            loadFirstPage()
            return
        }
        guard !isRefreshing else { return }
        isRefreshing = true
        showStatus("Refreshing…")
        Task {
            await sleep(timing.refresh)
            isRefreshing = false
            if shouldFail() {
                controller.apply(controller.model, state: .failed(FeedError(what: "new tweets", failRate: failRate)))
                showStatus("Refresh failed (simulated); the feed is unchanged. Press r to try again")
                return
            }
            let count = 1 + Int(refreshSizes.next() % 4)
            let fresh = (1...count).map { feed.tweet(newest + $0) }.reversed()
            newest += count
            tweets.insert(contentsOf: fresh, at: 0)
            keepingSelection(of: controller) { applyModel() }
            showStatus("\(count) new tweet\(count == 1 ? "" : "s") at the top")
        }
    }

    func filter(_ text: String) {
        filterText = text
        controller.placeholders.noResults = NoResultsPlaceholder(message: "No tweets or people match “\(text)”")
        applyModel()
    }

    // MARK: Model

    private func applyModel() {
        let model = buildModel()
        controller.apply(model, state: model.isEmpty ? .empty : .loaded)
    }

    private func suggestion(after tweet: Tweet) -> User? {
        guard tweet.id % 8 == 0 else { return nil }
        if let user = suggestions[tweet.id] { return user }
        let index = (tweet.id / 8) % feed.users.count
        let user = feed.users[index]
        guard suggestedUsers.insert(user.id).inserted else { return nil }
        suggestions[tweet.id] = user
        return user
    }

    private func buildModel() -> TableModel {
        var model = TableModel()
        let query = filterText.lowercased()
        func matches(_ text: String...) -> Bool {
            query.isEmpty || text.contains { $0.lowercased().contains(query) }
        }
        var currentTitle: String?
        for tweet in tweets {
            let title = SampleFeed.hourTitle(tweet.postedAt)
            var rows: [ListItem] = []
            if matches(tweet.text, tweet.author.name, tweet.author.handle) { rows.append(ListItem(tweet)) }
            if let user = suggestion(after: tweet), matches(user.name, user.handle, user.bio) { rows.append(ListItem(user)) }
            guard !rows.isEmpty else { continue }
            if title != currentTitle {
                model.appendSection(id: SectionID(title), header: title)
                currentTitle = title
            }
            model.append(rows)
        }
        return model
    }

    // MARK: Visible rows

    func visibleRowsChanged(_ paths: [ItemPath]) {
        for path in paths {
            guard let model = controller.displayed.model(at: path) else { continue }
            if let tweet = model as? Tweet { loadAvatar(tweet.author) }
            if let user = model as? User { loadAvatar(user) }
        }
        // The last row came on screen: the next page (not while filtering).
        if filterText.isEmpty, !tweets.isEmpty, let last = paths.last,
           let lastSection = controller.displayed.sections.indices.last,
           last.section == lastSection, last.item >= controller.displayed.sections[lastSection].items.count - 1 {
            loadNextPage()
        }
    }

    private func loadAvatar(_ user: User) {
        guard avatars[user.id] == nil, avatarLoads.insert(user.id).inserted else { return }
        let delay = timing.avatar + (user.id * 53) % 250
        Task {
            await sleep(delay)
            let avatar = Avatar(user: user)
            avatars[user.id] = avatar
            avatarLoads.remove(user.id)
            controller.provideResource(user, key: "avatar", value: avatar)
        }
    }
}
