import CellKit

/// The simulated feed service: pages of the seeded sample feed after a delay,
/// failing at `--fail-rate`, the same way for the same seed. Each refresh of
/// the first page finds a few new tweets on top.
actor FeedServer {
    struct Timing: Sendable {
        var firstPage = 600
        var page = 300
    }

    nonisolated let feed: SampleFeed
    private let failRate: Double
    private let timing: Timing
    private var failures: SeededRandom
    private var arrivals: SeededRandom
    private var firstPageServed = false
    /// The furthest page served (pages after the first never change: a page up to it is read again).
    private var furthestPage = 0
    /// The newest tweet's number; tweets 1000 and below were there from the start.
    private(set) var newest = 1000
    static let pageSize = 20

    init(seed: UInt64, failRate: Double, timing: Timing = Timing()) {
        feed = SampleFeed(seed: seed)
        self.failRate = failRate
        self.timing = timing
        failures = SeededRandom.derived(seed: seed, stream: 2)
        arrivals = SeededRandom.derived(seed: seed, stream: 3)
    }

    /// Page 0: every tweet newer than page 1; page n: twenty older tweets, from the start's top down,
    /// down to tweet 1 (the feed's real end, page 49). With `toEnd`, page 0 holds every tweet, down
    /// to tweet 1, and says no page follows: a refresh of a client that loaded every page (the
    /// pages after the first never change, so nothing below the new tweets needs reading again).
    func page(_ n: Int, toEnd: Bool = false) async throws -> Page<Tweet> {
        try await Task.sleep(for: .milliseconds(n == 0 && !firstPageServed ? timing.firstPage : timing.page))
        if failRate > 0 && failures.unit() < failRate {
            // A page up to the furthest served is one a refresh reads again (the source confirms the
            // rows it kept below the new tweets): the error says so, not only its number.
            let again = n > 0 && n <= furthestPage ? " again (a refresh reads pages 2–\(furthestPage + 1) again)" : ""
            throw FeedError(what: n == 0 ? (firstPageServed ? "new tweets" : "the first page of the feed") : "page \(n + 1) of the feed" + again, failRate: failRate)
        }
        furthestPage = max(furthestPage, n)
        if n == 0 {
            if firstPageServed { newest += 1 + Int(arrivals.next() % 4) }
            firstPageServed = true
            let top = newest
            if toEnd { return Page((1...top).reversed().map { feed.tweet($0) }, hasMore: false) }
            return Page((0...(top - 1000 + Self.pageSize - 1)).map { feed.tweet(top - $0) }, hasMore: true)
        }
        let top = 1000 - Self.pageSize * n
        return Page((0..<Self.pageSize).map { feed.tweet(top - $0) }, hasMore: top - Self.pageSize > 0)
    }
}
