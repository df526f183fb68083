#if canImport(UIKit)
import Foundation

/// Fake network for the feed: pages of tweets, and newer tweets on refresh.
actor FeedService {
    private var newest = 1000
    private var failNext = false

    /// The first page.
    func load() async throws -> [Tweet] {
        try await Task.sleep(nanoseconds: 600_000_000)
        return (0..<40).map { Self.tweet(1000 - $0) }
    }

    /// Tweets newer than the newest one shown (prepended: the row being read stays put).
    func refresh() async throws -> [Tweet] {
        try await Task.sleep(nanoseconds: 400_000_000)
        let fresh = (1...3).map { Self.tweet(newest + $0) }.reversed()
        newest += 3
        return Array(fresh)
    }

    private static func tweet(_ id: Int) -> Tweet {
        Tweet(id: id, author: "@user\(id % 17)", text: "Tweet number \(id): lists are easier with a cell factory.", likes: id % 23)
    }
}

/// Fake network for the users list: the users, then their avatars one by one.
actor UserService {
    /// Shown to the user by the error row or background (`LocalizedError`).
    struct Offline: LocalizedError {
        var errorDescription: String? { "The network is unreachable." }
    }

    private var attempts = 0

    /// The users; the first attempt fails, to show the error placeholder and its retry.
    func loadUsers() async throws -> [User] {
        attempts += 1
        try await Task.sleep(nanoseconds: 500_000_000)
        if attempts == 1 { throw Offline() }
        return (0..<30).map { User(id: $0, name: "User \($0)", byline: "Follows \($0 * 3) lists") }
    }

    /// The avatar of `user`.
    func avatar(for user: User) async throws -> Avatar {
        try await Task.sleep(nanoseconds: UInt64(100_000_000 + 20_000_000 * (user.id % 10)))
        return Avatar(symbolName: user.id.isMultiple(of: 2) ? "person.crop.circle.fill" : "person.crop.square.fill")
    }
}
#endif
