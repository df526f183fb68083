import CGtk
import CellKit
import CellKitGTK
import Foundation

/// Someone on the sample network.
struct User: Identifiable, Equatable, Sendable {
    let id: Int
    var name: String
    var handle: String
}

/// A post of the sample feed; it refers to its author, so the author's avatar reaches it.
struct Tweet: Identifiable, Equatable, Sendable, ResourceReferencing {
    let id: Int
    var author: User
    var text: String
    /// Minutes since the start of the sample day.
    var postedAt: Int
    var likes: Int

    func refers(to object: Any) -> Bool { (object as? User)?.id == author.id }
}

/// An avatar that "downloaded": the author's initials.
struct Avatar: Equatable, Sendable {
    var initials: String
    init(_ user: User) { initials = String(user.name.split(separator: " ").compactMap(\.first).prefix(2)) }
}

/// A load of the sample feed that failed on purpose (`--fail`); the error row shows its
/// description (`LocalizedError`).
struct FeedError: LocalizedError, CustomStringConvertible {
    var description: String { "could not load the feed: the server timed out (simulated by --fail)" }
    var errorDescription: String? { description }
}

/// The bundled sample feed: the same people and topics as `cellkit-demo feed`, seeded, no network.
struct SampleFeed: Sendable {
    static let names = [
        "Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov",
        "Donald Knuth", "Margaret Hamilton", "Ken Thompson", "Radia Perlman", "Frances Allen",
        "田中 美咲", "李 明", "Chris Lattner", "Leslie Lamport", "Katherine Johnson", "John Backus",
    ]
    static let topics = [
        "diffing a million rows", "cell reuse", "header rows", "async loads", "Swift 6 concurrency",
        "GTK list views", "wide characters like 日本語", "emoji 🚀 in lists", "placeholder rows",
        "resource updates", "batch updates that never crash", "Linux builds", "Xvfb tests",
    ]
    static let openers = ["Just shipped", "Thinking about", "Hot take on", "TIL about", "Benchmarking", "Debugging", "Loving"]

    let users: [User] = names.enumerated().map { index, name in
        User(id: index + 1, name: name, handle: "user\(index + 1)")
    }
    let seed: UInt64

    /// The tweet number `n` (larger is newer), posted 7 minutes after tweet `n - 1`.
    func tweet(_ n: Int) -> Tweet {
        var state = seed &+ UInt64(n) &* 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let author = users[next(users.count)]
        let text = Self.openers[next(Self.openers.count)] + " " + Self.topics[next(Self.topics.count)]
        return Tweet(id: n, author: author, text: text, postedAt: 15 * 60 + (n - 1000) * 7, likes: next(500))
    }

    /// "Today 15:00": the hour a tweet was posted in.
    static func hourTitle(_ minutes: Int) -> String {
        let day = minutes >= 0 ? minutes / 1440 : (minutes - 1439) / 1440
        let hour = (minutes - day * 1440) / 60
        let dayName = day == 0 ? "Today" : day == -1 ? "Yesterday" : "\(-day) days ago"
        return dayName + " " + (hour < 10 ? "0" : "") + "\(hour):00"
    }

    /// Tweets grouped by hour, newest first.
    static func model(_ tweets: [Tweet]) -> TableModel {
        var model = TableModel()
        var title: String?
        for tweet in tweets {
            let hour = hourTitle(tweet.postedAt)
            if hour != title {
                model.appendSection(id: SectionID(hour), header: hour)
                title = hour
            }
            model.append([tweet])
        }
        return model
    }
}

/// The feed screen: tweets by hour, a loading row first, refresh brings new tweets on
/// top, avatars arrive for the rows GTK binds, only those rows update.
@MainActor
final class FeedScreen {
    let controller = ListController()
    let source: RemoteDataSource<Tweet>
    let feed: SampleFeed
    private var avatars: [Int: Avatar] = [:]
    private var avatarLoads: Set<Int> = []
    private let avatarDelay: Duration
    /// Called with a status line (the window's).
    var showStatus: (String) -> Void = { _ in }

    /// A feed of `count` tweets (refresh adds three), loaded after `delay`, failing the first load when `fail`.
    init(seed: UInt64 = 1, count: Int = 200, delay: Duration = .milliseconds(300), avatarDelay: Duration = .milliseconds(150), fail: Bool = false) {
        let feed = SampleFeed(seed: seed)
        self.feed = feed
        self.avatarDelay = avatarDelay
        let server = FeedServer(feed: feed, count: count, delay: delay, fail: fail)
        source = RemoteDataSource(makeModel: SampleFeed.model) { try await server.load() }
        controller.register(Self.tweetRow, for: Tweet.self)
        controller.dispatch.configure(Tweet.self) { [unowned self] (cell: GtkWidgetCell<Tweet>, tweet: Tweet) in
            TweetRow.showAvatar(avatars[tweet.author.id], in: cell.widget)
        }
        controller.onSelect(Tweet.self) { [unowned self] tweet, _ in
            showStatus("Opened @\(tweet.author.handle): \(tweet.text)")
        }
        controller.onWillDisplay { [unowned self] _, item in
            if let tweet = item.model(as: Tweet.self) { loadAvatar(tweet.author) }
        }
        controller.onRetry = { [unowned self] in server.stopFailing(); source.load() }
    }

    static let tweetRow = GtkCellBuilder<Tweet>(
        make: { TweetRow.make() },
        update: { widget, tweet in TweetRow.show(tweet, in: widget) },
        resource: { widget, _, update in
            if update.key == "avatar" { TweetRow.showAvatar(update.value as? Avatar, in: widget) }
        }
    )

    func start() {
        controller.bind(to: source)
        source.load()
    }

    func refresh() { source.refresh() }

    /// How many avatars arrived.
    var avatarCount: Int { avatars.count }

    private func loadAvatar(_ user: User) {
        guard avatars[user.id] == nil, avatarLoads.insert(user.id).inserted else { return }
        let delay = avatarDelay
        Task {
            try? await Task.sleep(for: delay)
            let avatar = Avatar(user)
            avatars[user.id] = avatar
            avatarLoads.remove(user.id)
            controller.provideResource(user, key: "avatar", value: avatar)
        }
    }
}

/// The simulated server: the newest `count` tweets after a delay; each refresh finds three new ones.
actor FeedServer {
    let feed: SampleFeed
    private let count: Int
    private let delay: Duration
    private var fail: Bool
    private var newest = 1000

    init(feed: SampleFeed, count: Int, delay: Duration, fail: Bool) {
        self.feed = feed
        self.count = count
        self.delay = delay
        self.fail = fail
    }

    nonisolated func stopFailing() { Task { await setFail(false) } }
    private func setFail(_ value: Bool) { fail = value }

    func load() async throws -> [Tweet] {
        try await Task.sleep(for: delay)
        if fail { throw FeedError() }
        defer { newest += 3 }
        let top = newest
        return (0..<(count + top - 1000)).map { feed.tweet(top - $0) }
    }
}

/// The widgets of a tweet row: an avatar, the author, the text, likes.
@MainActor
enum TweetRow {
    static func make() -> GtkWidgetPointer {
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10)!
        gtk_widget_set_margin_start(row, 8)
        gtk_widget_set_margin_end(row, 8)
        gtk_widget_set_margin_top(row, 6)
        gtk_widget_set_margin_bottom(row, 6)
        let avatar = gtk_label_new("··")!
        gtk_widget_set_size_request(avatar, 36, 36)
        ck_widget_add_css_class(avatar, "dim-label")
        gtk_box_append(ck_box(row), avatar)
        let lines = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        gtk_widget_set_hexpand(lines, 1)
        for index in 0..<3 {
            let label = gtk_label_new(nil)!
            gtk_label_set_xalign(ck_label(label), 0)
            gtk_label_set_ellipsize(ck_label(label), PANGO_ELLIPSIZE_END)
            if index == 0 { ck_widget_add_css_class(label, "heading") }
            if index == 2 { ck_widget_add_css_class(label, "dim-label") }
            gtk_box_append(ck_box(lines), label)
        }
        gtk_box_append(ck_box(row), lines)
        return row
    }

    static func show(_ tweet: Tweet, in row: GtkWidgetPointer) {
        let lines = gtk_widget_get_last_child(row)!
        var label = gtk_widget_get_first_child(lines)
        for text in ["\(tweet.author.name) @\(tweet.author.handle)", tweet.text, "♡ \(tweet.likes)"] {
            gtk_label_set_text(ck_label(label), text)
            label = gtk_widget_get_next_sibling(label)
        }
    }

    static func showAvatar(_ avatar: Avatar?, in row: GtkWidgetPointer) {
        let label = gtk_widget_get_first_child(row)!
        gtk_label_set_text(ck_label(label), avatar?.initials ?? "··")
    }
}
