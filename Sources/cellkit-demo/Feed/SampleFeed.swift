import CellKit
import Foundation

/// Someone on the sample network.
struct User: Identifiable, Equatable, Sendable {
    let id: Int
    var name: String
    var handle: String
    var bio: String
    var followers: Int
}

/// A post on the sample network; it refers to its author, so the author's avatar reaches it.
struct Tweet: Identifiable, Equatable, Sendable, ResourceReferencing {
    let id: Int
    var author: User
    var text: String
    /// Minutes since the start of the sample day (negative: days before).
    var postedAt: Int
    var likes: Int
    var retweets: Int
    /// The screen's clock when the row shows (minutes, as ``postedAt``): its age ("9m") and
    /// its hour section ("Today 15:00") count from it. Set by the screen's shaping, so a new
    /// clock changes every row (they are drawn again); 0 as the server sends it.
    var clock = 0

    func refers(to object: Any) -> Bool { (object as? User)?.id == author.id }
}

/// A load of the sample feed that failed on purpose (`--fail-rate`); the error row
/// shows its description (`LocalizedError`).
struct FeedError: LocalizedError, CustomStringConvertible {
    var what: String
    var failRate: Double
    var description: String { "could not load \(what): the server timed out (simulated by --fail-rate \(failRate))" }
    var errorDescription: String? { description }
}

/// The bundled sample network: users and a seeded stream of 1,000 tweets (more arrive with each refresh). No network.
struct SampleFeed: Sendable {
    let users: [User]
    private let seed: UInt64

    static let names = [
        "Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov",
        "Donald Knuth", "Margaret Hamilton", "Ken Thompson", "Radia Perlman", "Frances Allen",
        "田中 美咲", "山本 翔", "李 明", "王 芳", "김 민준", "박 서연",
        "Chris Lattner", "Leslie Lamport", "Katherine Johnson", "John Backus",
    ]
    static let topics = [
        "diffing a million rows", "cell reuse", "sticky headers", "async loads", "Swift 6 concurrency",
        "terminal raw mode", "wide characters like 日本語", "emoji 🚀 in lists", "placeholder rows",
        "pagination", "resource updates", "batch updates that never crash", "Linux builds", "tmux tests",
    ]
    static let openers = [
        "Just shipped", "Thinking about", "Hot take on", "TIL about", "Wrote a thread on",
        "Benchmarking", "Refactoring", "Reading up on", "Debugging", "Loving",
    ]
    static let closers = [
        "", " ☕", " 🎉", " — more soon.", " Thoughts?", " 🚀", " (long story)", " 👀", " 次回に続く。", " #swift",
    ]

    init(seed: UInt64) {
        self.seed = seed
        var rng = SeededRandom.derived(seed: seed, stream: 1)
        users = Self.names.enumerated().map { index, name in
            let handle = name.split(separator: " ").last.map { String($0).lowercased() } ?? "user"
            let ascii = handle.unicodeScalars.allSatisfy(\.isASCII) ? handle : "user\(index)"
            return User(
                id: index + 1, name: name, handle: ascii,
                bio: "Writes about " + Self.topics[Int(rng.next() % UInt64(Self.topics.count))],
                followers: Int(rng.next() % 50_000)
            )
        }
    }

    /// The tweet with sequence number `n` (larger is newer), posted at a seeded time.
    func tweet(_ n: Int) -> Tweet {
        var rng = SeededRandom.derived(seed: seed, stream: 1000 + UInt64(bitPattern: Int64(n)))
        let author = users[Int(rng.next() % UInt64(users.count))]
        let text = Self.openers[Int(rng.next() % UInt64(Self.openers.count))] + " "
            + Self.topics[Int(rng.next() % UInt64(Self.topics.count))]
            + Self.closers[Int(rng.next() % UInt64(Self.closers.count))]
        return Tweet(
            id: n, author: author, text: text, postedAt: postedAt(n),
            likes: Int(rng.next() % 500), retweets: Int(rng.next() % 80)
        )
    }

    /// Tweet n is posted 7 minutes after tweet n-1 (tweet 1000 at 15:00 on the sample day).
    func postedAt(_ n: Int) -> Int { 15 * 60 + (n - 1000) * 7 }

    /// The screen's clock while `newest` is the newest tweet shown: two minutes after it was posted.
    func clock(newest: Int) -> Int { postedAt(newest) + 2 }

    /// "Today 15:00"-style header of the hour a tweet was posted in (`minutes`), as seen at
    /// `clock` (its day is "Today"; the day before "Yesterday").
    static func hourTitle(_ minutes: Int, clock: Int = 0) -> String {
        func dayOf(_ minutes: Int) -> Int { minutes >= 0 ? minutes / 1440 : (minutes - 1439) / 1440 }
        let posted = dayOf(minutes)
        let hour = (minutes - posted * 1440) / 60
        let day = posted - dayOf(clock)
        let dayName: String
        switch day {
        case 0: dayName = "Today"
        case -1: dayName = "Yesterday"
        case 1...: dayName = "Day +\(day)"
        default: dayName = "\(-day) days ago"
        }
        return dayName + " " + (hour < 10 ? "0" : "") + "\(hour):00"
    }
}
