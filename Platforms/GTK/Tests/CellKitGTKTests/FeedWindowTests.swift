@testable import cellkit_gtk_demo
import CellKit
@testable import CellKitGTK
import Foundation
import XCTest

/// The demo's screens in a window: the feed and the git history.
final class FeedWindowTests: GtkTestCase, @unchecked Sendable {
    /// The feed: loading row, tweets by hour with header rows, avatars reaching only their rows, refresh on top.
    func testFeedLoadsAvatarsAndRefreshes() throws {
        try requireDisplay()
        MainActor.assumeIsolated {
            let window = makeWindow("feed")
            let screen = FeedScreen(count: 60, delay: .milliseconds(50), avatarDelay: .milliseconds(20))
            screen.controller.attach(to: window.list)
            window.onRefresh = { screen.refresh() }
            screen.start()
            waitFor("the loading row") { shownTexts(window) == ["Loading…"] || shownTexts(window).first == "Today 15:00" }
            waitFor("the tweets") { shownTexts(window).first == "Today 15:00" }
            let binds = window.list.bindCount
            // Avatars arrive for the bound rows; they update those rows in place, no rebind.
            waitFor("avatars on screen") { (window.list.shownRows().dropFirst().first?.texts.first).map { $0 != "··" } ?? false }
            XCTAssertEqual(window.list.bindCount, binds, "a resource rebound rows")
            let first = window.list.shownRows()[1].texts
            let tweet = screen.feed.tweet(1000)
            XCTAssertEqual(first, [Avatar(tweet.author).initials, "\(tweet.author.name) @\(tweet.author.handle)", tweet.text, "♡ \(tweet.likes)"])
            screenshot("feed", of: "feed")

            // New tweets arrive above; GTK keeps the rows on screen where they were.
            let shownBefore = shownTexts(window)
            click(x: 27, y: 27, in: "feed") // the refresh button in the header bar
            waitFor("the refresh applied") { screen.controller.displayed.sections.first?.items.first?.model(as: Tweet.self)?.id == 1003 }
            settle()
            XCTAssertTrue(shownTexts(window).contains(shownBefore[2]), "\(shownTexts(window))")
            let newest = screen.feed.tweet(1003)
            window.list.scroll(to: ItemPath(item: 0, section: 0))
            waitFor("the newest tweet on top") { shownTexts(window).contains { $0.contains(newest.text) && $0.contains(newest.author.name) } }
        }
    }

    /// A first load that fails shows the error row; activating it retries and the tweets show.
    func testFeedErrorRowRetries() throws {
        try requireDisplay()
        MainActor.assumeIsolated {
            let window = makeWindow("feed error")
            let screen = FeedScreen(count: 20, delay: .milliseconds(20), fail: true)
            screen.controller.attach(to: window.list)
            screen.start()
            waitFor("the error row") { shownTexts(window).first?.contains("server timed out") == true }
            screenshot("feed-error", of: "feed error")
            // Double click: the first click selects the row, the second activates it.
            click(x: 200, y: Int(window.list.shownRows()[0].y) + 10 + 50, repeat: 2, in: "feed error")
            waitFor("the tweets after a retry") { shownTexts(window).first == "Today 15:00" }
        }
    }

    /// The git history of this repository, by day.
    func testGitHistory() throws {
        try requireDisplay()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: root + "/.git") else { throw XCTSkip("not a git checkout: \(root)") }
        MainActor.assumeIsolated {
            let window = makeWindow("git history")
            let screen = GitScreen(path: root, limit: 50)
            screen.controller.attach(to: window.list)
            screen.start()
            waitFor("the commits") { shownTexts(window).count >= 2 }
            let texts = shownTexts(window)
            XCTAssertNotNil(texts.first?.range(of: #"^\d{4}-\d\d-\d\d \w+$"#, options: .regularExpression), "first row is a day header: \(texts)")
            XCTAssertTrue(texts.dropFirst().first?.contains(" · ") == true, "\(texts)")
            screenshot("git-history", of: "git history")
        }
    }
}
