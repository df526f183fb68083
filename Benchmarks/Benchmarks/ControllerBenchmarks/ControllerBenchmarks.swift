// Controller benchmarks: a 100k-row update through controller and headless list
// view, scrolling 10k / 100k / 1M rows of varying height, memory of a 1M-row
// snapshot. Run with `swift package benchmark --target ControllerBenchmarks` in Benchmarks/.
import Benchmark
import CellKit
import CellKitTesting
import Workloads

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], maxDuration: .seconds(10), maxIterations: 50)

    pipelineBenchmarks()

    // Peer in the same run: the diff alone, on the same data.
    Benchmark("Diff alone: 100k rows, 10% each deleted/inserted/moved/updated") { benchmark in
        let old = benchIDs(100_000).map { BenchItem(id: $0, content: 0) }
        let new = tenPercentChanged(old)
        let oldSections = [DiffSection(id: 0, content: 0, elements: old.map { ListItem($0) })]
        let newSections = [DiffSection(id: 0, content: 0, elements: new.map { ListItem($0) })]
        benchmark.startMeasurement()
        blackHole(StagedChangeset(from: oldSections, to: newSections))
    }

    Benchmark("Apply: 100k rows, 10% each deleted/inserted/moved/updated, controller + headless view") { benchmark async in
        let fixture = await ApplyFixture(rows: 100_000)
        benchmark.startMeasurement()
        await fixture.applyUpdate()
        benchmark.stopMeasurement()
    }

    for count in [10_000, 100_000, 1_000_000] {
        Benchmark("Scroll: 1,000 frames through \(count) rows of varying height (controller + headless view)",
                  configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(20), maxIterations: 10)) { benchmark async in
            let fixture = await ScrollFixture(rows: count)
            benchmark.startMeasurement()
            blackHole(await fixture.scroll(frames: 1_000))
            benchmark.stopMeasurement()
        }
        Benchmark("Row offset index: 100,000 frames through \(count) rows") { benchmark in
            let index = RowOffsetIndex(heights: (0..<count).map { 30 + Double($0 % 7) * 9 })
            benchmark.startMeasurement()
            blackHole(indexFrames(index, frames: 100_000))
        }
    }

    Benchmark("Memory: a 1M-row snapshot (compare: 1M ids alone = 8 MB)",
              configuration: .init(metrics: [.peakMemoryResident, .mallocCountTotal], maxIterations: 3)) { benchmark in
        let ids = benchIDs(1_000_000)
        benchmark.startMeasurement()
        blackHole(TableModel(ids.map { BenchItem(id: $0, content: 0) }))
    }
}

/// A controller and headless view showing `rows` rows, and the 10% update to apply.
@MainActor
final class ApplyFixture {
    let controller: ListController
    let listView: HeadlessListView
    let update: TableModel

    init(rows: Int) {
        (controller, listView) = makeBenchScreen()
        let old = benchIDs(rows).map { BenchItem(id: $0, content: 0) }
        update = TableModel(tenPercentChanged(old))
        controller.apply(TableModel(old))
    }

    func applyUpdate() { controller.apply(update) }
}

/// A controller and headless view showing `rows` rows of varying height.
@MainActor
final class ScrollFixture {
    let controller: ListController
    let listView: HeadlessListView

    init(rows: Int) {
        (controller, listView) = makeBenchScreen()
        controller.apply(TableModel(benchIDs(rows).map { BenchItem(id: $0, content: 0) }))
    }

    func scroll(frames: Int) -> Int { scrollFrames(listView, frames: frames) }
}
