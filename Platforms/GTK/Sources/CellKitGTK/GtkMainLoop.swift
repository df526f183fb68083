import CGtk
import Foundation

/// Runs GTK's main loop on the main thread while `@MainActor` work keeps running.
///
/// While GTK's loop holds the main thread, the main dispatch queue (where Swift
/// runs `@MainActor` jobs on Linux) is never drained by itself. ``GtkMainLoop``
/// installs a GLib timeout that drains it (through `RunLoop.main`) every few
/// milliseconds, so an async load finishing on the main actor updates the window.
///
/// ```swift
/// import CellKitGTK
///
/// @MainActor func runUntilClosed(_ window: GtkListWindow) {
///     window.present()
///     GtkMainLoop.run(until: { window.isClosed })
/// }
/// ```
@MainActor
public enum GtkMainLoop {
    private static var pumpSource: guint = 0

    /// Initializes GTK once (it needs a display: `DISPLAY` or `WAYLAND_DISPLAY`)
    /// and starts pumping the main actor; later calls do nothing.
    ///
    /// Returns whether GTK could open a display.
    @discardableResult
    public static func start() -> Bool {
        if pumpSource != 0 { return true }
        guard gtk_init_check() != 0 else { return false }
        pumpSource = ck_timeout_add(4, { _ in
            GtkMainLoop.drainMainQueue()
            return 1 // G_SOURCE_CONTINUE
        }, nil)
        return true
    }

    /// Runs GTK's loop until `done` returns `true` (checked after every event).
    public static func run(until done: () -> Bool) {
        start()
        while !done() {
            g_main_context_iteration(nil, 1)
        }
    }

    /// Handles pending GTK events and main-actor jobs until `condition` holds or
    /// `maxIterations` loop turns passed (each waits at most a few milliseconds);
    /// returns whether `condition` held. Tests use it to wait without sleeping.
    @discardableResult
    public static func spin(maxIterations: Int = 2_000, until condition: () -> Bool) -> Bool {
        start()
        for _ in 0..<maxIterations {
            if condition() { return true }
            g_main_context_iteration(nil, 1)
            drainMainQueue()
        }
        return condition()
    }

    /// Handles everything GTK has pending now (layout, drawing, signals), without waiting.
    public static func flush() {
        start()
        var turns = 0
        while g_main_context_pending(nil) != 0, turns < 10_000 {
            g_main_context_iteration(nil, 0)
            turns += 1
        }
        drainMainQueue()
    }

    nonisolated private static func drainMainQueue() {
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: -1))
    }
}
