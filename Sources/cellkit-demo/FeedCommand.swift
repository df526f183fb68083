import ArgumentParser
import CellKit

/// `cellkit-demo feed`: the sample feed.
struct FeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "A Twitter-style feed on bundled sample data (the default mode; no network).",
        discussion: """
        Tweets grouped by hour, with "who to follow" users in the byline style; their ages ("9m") and the hours' \
        days ("Today", "Yesterday") count from the newest tweet's time, for every row, after each r too. The loading row shows \
        while the first page loads (keys pressed meanwhile wait for it); more tweets load when the last row \
        comes on screen, down to the feed's end (1,000 tweets in 50 pages); r brings new \
        tweets at the top without moving the row you are on (with every page loaded, at once: the pages below \
        are not read again); / filters the loaded tweets and people, the status line says how many rows match \
        in how many tweets; the filtered list's last row on screen loads more pages while they bring rows, \
        a key that moves down past the last match waits for the pages that bring the next one, \
        and End then loads every page too; avatars download (simulated) for the rows \
        on screen only. --fail-rate makes loads fail (the error row, Enter retries), the same way for the same --seed.
        """
    )

    @Option(name: .long, parsing: .unconditional, help: "Seed of the sample data and of the simulated failures.")
    var seed: UInt64 = 1

    @Option(name: .long, parsing: .unconditional, help: "Probability (0...1) that a load fails.")
    var failRate: Double = 0

    @OptionGroup var display: DisplayOptions

    func validate() throws {
        guard (0...1).contains(failRate) else { throw ValidationError("--fail-rate must be between 0 and 1 (got \(failRate))") }
    }

    func run() throws {
        let display = display
        let seed = seed
        let failRate = failRate
        try MainActor.assumeIsolated {
            try ScreenRunner.run(FeedScreen(seed: seed, failRate: failRate), options: display)
        }
    }
}
