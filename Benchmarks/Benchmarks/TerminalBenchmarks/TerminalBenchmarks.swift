// Terminal list view benchmarks: the cost of one frame while scrolling a 1k-row
// and a 1M-row feed (the same, because the work follows the screen, not the
// list), and the bytes a frame writes when one visible row changes versus a
// full redraw. Lists are built outside the measured region.

import Benchmark
import CellKit
import CellKitTerminal

struct FeedRow: Identifiable, Equatable, Sendable {
    let id: Int
    var title: String
}

/// A two-line cell with a badge that a "resource update" changes.
final class FeedRowCell: ListCell, TerminalRenderable {
    var row: FeedRow?
    var badge = ""
    init() {}
    func terminalLines(width: Int) -> [StyledLine] {
        guard let row else { return [] }
        var first = StyledLine(" " + row.title, style: .bold)
        first.append(badge, style: .dim)
        return [first, StyledLine("   detail of row \(row.id) · 日本語 🚀", style: .dim)]
    }
}

/// A 80×24 list of `rows` rows with the screen buffer a terminal would use.
@MainActor
final class ScrollingList {
    let list = TerminalListView(columns: 80, rows: 24)
    let controller = ListController(diagnostics: .ignore)
    var screen = ScreenBuffer()
    private var step = 0

    init(rows: Int) {
        controller.register(FeedRowCell.self, for: FeedRow.self) { cell, row in
            cell.row = row
            cell.badge = ""
        }
        controller.height(for: FeedRow.self) { _ in 2 }
        var model = TableModel()
        let perSection = 1_000
        for start in stride(from: 0, to: rows, by: perSection) {
            model.appendSection(id: SectionID(start), header: "Rows from \(start)")
            model.append((start..<min(rows, start + perSection)).map { FeedRow(id: $0, title: "Row \($0)") })
        }
        controller.attach(to: list)
        controller.apply(model)
        _ = screen.update(list.renderFrame(), columns: 80)
    }

    /// One scroll step (down 300 rows, then up 300, and again) and its frame; returns the bytes written.
    func scrollStep() -> Int {
        list.handle((step / 300) % 2 == 0 ? .down : .up)
        step += 1
        return screen.update(list.renderFrame(), columns: 80).count
    }

    /// One visible row changes (as a resource update would change it); returns the bytes written.
    func changeOneRow() -> Int {
        step += 1
        let path = list.visibleItemPaths[list.visibleItemPaths.count / 2]
        (list.cell(at: path) as? FeedRowCell)?.badge = step % 2 == 0 ? "  [avatar]" : ""
        list.cellDidChange(at: path, reason: .resource("avatar"))
        return screen.update(list.renderFrame(), columns: 80).count
    }

    /// The whole screen redrawn; returns the bytes written.
    func fullRedraw() -> Int {
        screen.invalidate()
        return screen.update(list.renderFrame(), columns: 80).count
    }
}

let bytesWritten = BenchmarkMetric.custom("bytes written", polarity: .prefersSmaller, useScalingFactor: true)

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 30
    )

    for rows in [1_000, 1_000_000] {
        Benchmark("Frame while scrolling \(rows) rows") { benchmark in
            nonisolated(unsafe) let benchmark = benchmark
            await MainActor.run {
                let list = ScrollingList(rows: rows)
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { blackHole(list.scrollStep()) }
                benchmark.stopMeasurement()
            }
        }
    }

    Benchmark("Bytes: one visible row changes", configuration: .init(metrics: [.wallClock, bytesWritten])) { benchmark in
        nonisolated(unsafe) let benchmark = benchmark
        await MainActor.run {
            let list = ScrollingList(rows: 1_000)
            var total = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { total += list.changeOneRow() }
            benchmark.stopMeasurement()
            benchmark.measurement(bytesWritten, total)
        }
    }

    Benchmark("Bytes: full redraw", configuration: .init(metrics: [.wallClock, bytesWritten])) { benchmark in
        nonisolated(unsafe) let benchmark = benchmark
        await MainActor.run {
            let list = ScrollingList(rows: 1_000)
            var total = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { total += list.fullRedraw() }
            benchmark.stopMeasurement()
            benchmark.measurement(bytesWritten, total)
        }
    }
}
