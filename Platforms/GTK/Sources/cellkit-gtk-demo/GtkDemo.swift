import CellKit
import CellKitGTK
import Foundation

/// `swift run cellkit-gtk-demo [feed | git [path]] [--fail]`: the sample feed or a
/// repository's history in a GTK window.
@main
enum GtkDemo {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("--help") || arguments.contains("-h") {
            print("""
            usage: cellkit-gtk-demo [feed [--fail] | git [path]]
              feed   a Twitter-style sample feed by hour (default); the refresh button brings new tweets,
                     avatars arrive for the rows on screen; --fail makes the first load fail (activate
                     the error row to retry)
              git    the history of the repository at path (default: the current directory), by day
            Enter or a double click opens a row; the arrow keys move the selection.
            """)
            return
        }
        MainActor.assumeIsolated {
            guard GtkMainLoop.start() else {
                FileHandle.standardError.write(Data("cellkit-gtk-demo: cannot open a display (set DISPLAY, or run under xvfb-run)\n".utf8))
                exit(1)
            }
            let window: GtkListWindow
            var keepAlive: AnyObject
            if arguments.first == "git" {
                let path = arguments.dropFirst().first ?? FileManager.default.currentDirectoryPath
                window = GtkListWindow(title: "CellKit · git history")
                let screen = GitScreen(path: path)
                screen.controller.attach(to: window.list)
                window.onRefresh = { screen.refresh() }
                screen.start()
                keepAlive = screen
            } else {
                window = GtkListWindow(title: "CellKit · feed")
                let screen = FeedScreen(fail: arguments.contains("--fail"))
                screen.showStatus = { window.status = $0 }
                screen.controller.attach(to: window.list)
                window.onRefresh = { screen.refresh() }
                screen.start()
                keepAlive = screen
            }
            window.present()
            GtkMainLoop.run(until: { window.isClosed })
            withExtendedLifetime(keepAlive) {}
        }
    }
}
