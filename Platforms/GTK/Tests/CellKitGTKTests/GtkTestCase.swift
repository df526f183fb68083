import CGtk
import CellKit
import CellKitGTK
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Window tests: a real GTK window on the X display (Xvfb in `Scripts/test`),
/// driven with `xdotool`, checked through GTK's own widget tree, one screenshot
/// per scenario kept in `Platforms/GTK/Artifacts/` (or `$CELLKIT_GTK_ARTIFACTS`).
///
/// XCTest, not Swift Testing: GTK must run on the process main thread, and XCTest
/// runs test methods there.
// XCTest runs every test method on the main thread; the tests hop onto the main actor
// with `MainActor.assumeIsolated`, so the case is only ever used from there.
class GtkTestCase: XCTestCase, @unchecked Sendable {
    /// Skips when there is no display; `Scripts/test` always provides one.
    func requireDisplay() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: run Platforms/GTK/Scripts/test (it starts Xvfb)")
        }
        let started = MainActor.assumeIsolated { GtkMainLoop.start() }
        guard started else { throw XCTSkip("GTK could not open the display \(ProcessInfo.processInfo.environment["DISPLAY"] ?? "")") }
    }

    /// Runs GTK and the main actor until `condition` holds; fails naming `what` if it never does.
    @MainActor
    func waitFor(_ what: String, maxIterations: Int = 3_000, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
        if !GtkMainLoop.spin(maxIterations: maxIterations, until: condition) {
            XCTFail("timed out waiting for \(what)", file: file, line: line)
        }
    }

    /// Lets GTK lay out and draw (a bounded number of loop turns, no sleeping).
    @MainActor
    func settle(_ turns: Int = 30) {
        var count = 0
        GtkMainLoop.spin(maxIterations: turns) { count += 1; return count > turns }
        GtkMainLoop.flush()
    }

    /// Runs `command` through `/bin/sh` and returns its standard output (trimmed) and status.
    @discardableResult
    nonisolated func shell(_ command: String) -> (output: String, status: Int32) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("cellkit-gtk-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out").path
        defer { unlink(outputPath) }
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", "(\(command)) >'\(outputPath)' 2>&1"]
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, &cArguments, environ)
        guard spawned == 0 else { return ("posix_spawn failed: \(spawned)", -1) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return (output.trimmingCharacters(in: .whitespacesAndNewlines), (status >> 8) & 0xff)
    }

    /// The X window id of the visible window titled `title`.
    func windowID(_ title: String) -> String {
        shell("xdotool search --onlyvisible --name '^\(title)$' | head -1").output
    }

    /// Focuses the window titled `title` and sends `keys` (xdotool key names).
    @MainActor
    func press(_ keys: String, in title: String) {
        settle(20)
        let id = windowID(title)
        XCTAssertFalse(id.isEmpty, "no visible window titled \(title)")
        let result = shell("xdotool windowfocus --sync \(id) key --delay 30 \(keys)")
        XCTAssertEqual(result.status, 0, result.output)
        settle(20)
    }

    /// Moves the pointer to (`x`, `y`) inside the window titled `title` and clicks `button` (4/5: wheel).
    @MainActor
    func click(x: Int, y: Int, button: Int = 1, repeat count: Int = 1, in title: String) {
        settle(20)
        let id = windowID(title)
        let result = shell("xdotool mousemove --window \(id) \(x) \(y) click --repeat \(count) --delay 20 \(button)")
        XCTAssertEqual(result.status, 0, result.output)
        settle(20)
    }

    /// Saves a screenshot of the window titled `title` as `<name>.png` in the artifacts folder.
    @MainActor
    func screenshot(_ name: String, of title: String, file: StaticString = #filePath, line: UInt = #line) {
        settle()
        let folder = Self.artifactsFolder
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name + ".png"
        let id = windowID(title)
        let result = shell("import -window \(id) '\(path)'")
        XCTAssertEqual(result.status, 0, "screenshot \(name): \(result.output)", file: file, line: line)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "no screenshot at \(path)", file: file, line: line)
    }

    static var artifactsFolder: String {
        if let folder = ProcessInfo.processInfo.environment["CELLKIT_GTK_ARTIFACTS"] { return folder }
        // Tests/CellKitGTKTests/GtkTestCase.swift → Platforms/GTK/Artifacts
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Artifacts").path
    }

    /// A new window titled `title`, shown.
    @MainActor
    func makeWindow(_ title: String, width: Int = 480, height: Int = 640) -> GtkListWindow {
        let window = GtkListWindow(title: title, width: width, height: height)
        window.present()
        addTeardownBlock { @MainActor in
            window.close()
            GtkMainLoop.flush()
        }
        // Input sent before GTK handled the window's mapping is lost: wait for it.
        waitFor("the window mapped") { gtk_widget_get_mapped(window.window) != 0 && !windowID(title).isEmpty }
        settle(50)
        return window
    }

    /// The texts of the rows GTK shows, one string per row ("a | b").
    @MainActor
    func shownTexts(_ window: GtkListWindow) -> [String] {
        window.list.shownRows().map { $0.texts.joined(separator: " | ") }
    }
}

/// A plain row model for list tests.
struct Row: Identifiable, Hashable, Sendable, CustomStringConvertible {
    let id: Int
    var text: String
    var description: String { text }
    init(_ id: Int, _ text: String? = nil) {
        self.id = id
        self.text = text ?? "Row \(id)"
    }
}
