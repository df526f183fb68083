import ArgumentParser
import CellKit

/// `cellkit-demo git [PATH]`: a repository's history.
struct GitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "git",
        abstract: "Browse a git repository's history (bare repositories too).",
        discussion: """
        Commits, merges and tagged commits are different cell types, in sections by day. Pages are \
        read lazily from git log as you scroll; each commit's diffstat is computed only once its row \
        is on screen and arrives as a resource update. A PATH that is not a repository shows the error \
        row; a filter (/) that matches nothing shows the no-results row.
        """
    )

    @Argument(help: "The repository (a work tree or a bare repository).")
    var path: String = "."

    @Option(name: .long, help: "Commits per page read from git log.")
    var pageSize: Int = 100

    @OptionGroup var display: DisplayOptions

    func validate() throws {
        guard pageSize > 0 else { throw ValidationError("--page-size must be positive (got \(pageSize))") }
    }

    func run() throws {
        let display = display
        let path = path
        let pageSize = pageSize
        try MainActor.assumeIsolated {
            try ScreenRunner.run(GitScreen(path: path, pageSize: pageSize), options: display)
        }
    }
}
