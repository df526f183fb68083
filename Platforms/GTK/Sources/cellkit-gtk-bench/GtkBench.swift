import CGtk
import CellKit
import CellKitGTK
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `swift run -c release cellkit-gtk-bench [frames]` (needs a display; `xvfb-run -a` works):
/// scrolls a GTK window over 10k and 1M rows and prints, per size, the widgets created,
/// the rows bound per frame and the CPU time per frame, then the 1M ÷ 10k ratios.
/// Numbers are printed, never asserted: speed is not tested.
@main
enum GtkBench {
    struct Row: Identifiable, Sendable { let id: Int }

    struct Result {
        var rows: Int
        var shown: Int
        var bound: Int
        var rowWidgets: Int
        var cellsBuilt: Int
        var bindsPerFrame: Double
        var frameMicroseconds: Double
        var bindMicroseconds: Double
    }

    static func main() {
        let frames = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 300
        MainActor.assumeIsolated {
            guard GtkMainLoop.start() else {
                print("cellkit-gtk-bench: cannot open a display (run under xvfb-run -a)")
                exit(1)
            }
            let small = measure(rows: 10_000, frames: frames)
            let large = measure(rows: 1_000_000, frames: frames)
            print("rows       shown  bound  GTK row widgets  cells built  binds/frame  CPU µs/frame  CPU µs ÷ binds")
            for result in [small, large] {
                print(String(format: "%9d  %5d  %5d  %15d  %11d  %11.1f  %12.0f  %14.1f",
                             result.rows, result.shown, result.bound, result.rowWidgets, result.cellsBuilt,
                             result.bindsPerFrame, result.frameMicroseconds, result.bindMicroseconds))
            }
            print(String(format: "1M ÷ 10k: CPU per frame %.2f, per bind %.2f, widgets %.2f",
                         large.frameMicroseconds / small.frameMicroseconds,
                         large.bindMicroseconds / small.bindMicroseconds,
                         Double(large.rowWidgets + large.cellsBuilt) / Double(small.rowWidgets + small.cellsBuilt)))
        }
    }

    static func cpuMicroseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
    }

    @MainActor
    static func measure(rows: Int, frames: Int) -> Result {
        let window = GtkListWindow(title: "bench \(rows)")
        let controller = ListController()
        controller.register(TextCell.self, for: Row.self) { cell, row in
            cell.text = "Row \(row.id)"
            cell.detailText = "detail of row \(row.id)"
        }
        controller.attach(to: window.list)
        controller.apply(TableModel((0..<rows).map { Row(id: $0) }))
        window.present()
        let list = window.list
        GtkMainLoop.spin(maxIterations: 10_000) { list.shownRows().count > 5 }
        let adjustment = ck_list_view_vadjustment(OpaquePointer(list.listViewWidget))
        let clock = gtk_widget_get_frame_clock(window.window)
        func nextFrame() {
            let target = gdk_frame_clock_get_frame_counter(clock) + 2
            GtkMainLoop.spin(maxIterations: 1_000) { gdk_frame_clock_get_frame_counter(clock) >= target }
        }
        nextFrame()
        // Start in the middle of the list, then scroll down a third of a page per frame.
        list.scroll(to: ItemPath(item: rows / 2, section: 0))
        nextFrame()
        nextFrame()
        let bindsBefore = list.bindCount
        var samples: [Double] = []
        for _ in 0..<frames {
            let start = cpuMicroseconds()
            let page = gtk_adjustment_get_page_size(adjustment)
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + page / 3)
            nextFrame()
            samples.append(cpuMicroseconds() - start)
        }
        samples.sort()
        let binds = Double(list.bindCount - bindsBefore)
        let total = samples.reduce(0, +)
        let result = Result(
            rows: rows, shown: list.shownRows().count, bound: list.visibleItemPaths.count,
            rowWidgets: list.createdRowWidgetCount, cellsBuilt: list.createdCellCount,
            bindsPerFrame: binds / Double(frames), frameMicroseconds: samples[samples.count / 2],
            bindMicroseconds: binds > 0 ? total / binds : 0
        )
        window.close()
        GtkMainLoop.flush()
        return result
    }
}
