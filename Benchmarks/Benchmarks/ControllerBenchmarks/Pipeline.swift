// Issue 12, "from snapshot to screen at the speed of the bare diff": every target
// with its in-run peer. Cases are named "P<target>) ..."; run them alone with
//   swift package --scratch-path .build --allow-writing-to-package-directory benchmark --target ControllerBenchmarks --filter "P.*"
// Main-actor time and memory are custom metrics (the machine is shared, so wall
// times are noisy: compare peers of one run, or count instructions with callgrind).
import Benchmark
@_spi(Benchmarks) import CellKit
import CellKitTesting
#if canImport(Glibc)
import Glibc
#endif

/// Time spent in the controller's main-actor jobs while a bound snapshot was shown (µs).
let mainActorMetric = BenchmarkMetric.custom("main-actor µs", polarity: .prefersSmaller, useScalingFactor: false)
/// Resident bytes per row of a snapshot (growth of `VmRSS` while it is built).
let bytesPerRowMetric = BenchmarkMetric.custom("heap bytes per row", polarity: .prefersSmaller, useScalingFactor: false)
/// Peak resident memory above what was resident before the measured work (KB, `VmHWM` after resetting it).
let peakAboveMetric = BenchmarkMetric.custom("peak KB above start", polarity: .prefersSmaller, useScalingFactor: false)

/// Bytes resident now (`VmRSS`). Arrays this large are fresh mmapped pages, so the
/// growth of the resident size while a snapshot is built is the snapshot's size.
func liveHeapBytes() -> Int { procStatusKB("VmRSS") * 1_024 }

/// A field of `/proc/self/status` in KB (`VmRSS`, `VmHWM`); 0 where there is none.
func procStatusKB(_ field: String) -> Int {
    #if canImport(Glibc)
    guard let file = fopen("/proc/self/status", "r") else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix(field + ":") {
            return Int(text.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
        }
    }
    #endif
    return 0
}

/// Resets the peak resident size (`VmHWM`) to the current one; returns the current one (KB).
func resetPeakResident() -> Int {
    #if canImport(Glibc)
    if let file = fopen("/proc/self/clear_refs", "w") {
        fputs("5", file)
        fclose(file)
    }
    #endif
    return procStatusKB("VmRSS")
}

/// Four model types mixed in one feed (issue 12 target d).
struct FeedSuggestion: Identifiable, Equatable, Sendable { let id: Int; var content: Int }
struct FeedAd: Identifiable, Equatable, Sendable { let id: Int; var content: Int }
struct FeedNote: Identifiable, Equatable, Sendable { let id: Int; var content: Int }

/// The row of `item` in a heterogeneous feed: its type follows its id, so an
/// updated row keeps its type.
func feedRow(_ item: BenchItem) -> ListItem {
    switch (item.id & 0x7FFF_FFFF) % 4 {
    case 0: ListItem(item)
    case 1: ListItem(FeedSuggestion(id: item.id, content: item.content))
    case 2: ListItem(FeedAd(id: item.id, content: item.content))
    default: ListItem(FeedNote(id: item.id, content: item.content))
    }
}

/// A controller driving a headless list view, every row type at a fixed height.
@MainActor
func makeFixedHeightScreen() -> (ListController, HeadlessListView) {
    let controller = ListController(diagnostics: .ignore)
    controller.register(TextCell.self, for: BenchItem.self) { cell, item in cell.text = "\(item.id)" }
    controller.register(TextCell.self, for: FeedSuggestion.self) { cell, item in cell.text = "\(item.id)" }
    controller.register(TextCell.self, for: FeedAd.self) { cell, item in cell.text = "\(item.id)" }
    controller.register(TextCell.self, for: FeedNote.self) { cell, item in cell.text = "\(item.id)" }
    controller.rowHeights.set(BenchItem.self, .fixed(44))
    controller.rowHeights.set(FeedSuggestion.self, .fixed(44))
    controller.rowHeights.set(FeedAd.self, .fixed(44))
    controller.rowHeights.set(FeedNote.self, .fixed(44))
    let listView = HeadlessListView(viewportHeight: 800, rowHeight: 44)
    listView.isLoggingEnabled = false
    controller.attach(to: listView)
    return (controller, listView)
}

/// A fixed-height screen showing `old`, and the model to show next.
@MainActor
final class PipelineFixture {
    let controller: ListController
    let listView: HeadlessListView
    let next: TableModel

    init(old: TableModel, next: TableModel) {
        (controller, listView) = makeFixedHeightScreen()
        self.next = next
        controller.apply(old)
    }

    /// `rows` rows of `BenchItem`, then `each` rows of each kind of change (homogeneous or the 4-type feed).
    convenience init(rows: Int, each: Int, feed: Bool = false) {
        let old = benchIDs(rows).map { BenchItem(id: $0, content: 0) }
        let new = changed(old, each: each)
        if feed {
            self.init(old: TableModel(sections: [TableSection(id: 0, items: old.map(feedRow))]),
                      next: TableModel(sections: [TableSection(id: 0, items: new.map(feedRow))]))
        } else {
            self.init(old: TableModel(old), next: TableModel(new))
        }
    }

    func apply() { controller.apply(next) }

    /// Shows `next` through the bound-data-source path; returns the main-actor time it took (µs).
    func submitAndSettle() async -> Int {
        let before = controller.mainActorApplyTime
        controller.submit(ListSnapshot(next, state: .loaded))
        await controller.settle()
        let spent = controller.mainActorApplyTime - before
        return Int(spent.components.seconds * 1_000_000 + spent.components.attoseconds / 1_000_000_000_000)
    }
}

/// The two snapshots of a bare diff.
func bareDiffInput(rows: Int, each: Int) -> (old: [BenchItem], new: [BenchItem]) {
    let old = benchIDs(rows).map { BenchItem(id: $0, content: 0) }
    return (old, changed(old, each: each))
}

func pipelineBenchmarks() {
    let quick = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident, mainActorMetric, peakAboveMetric],
        maxDuration: .seconds(10), maxIterations: 20)
    let slow = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident, mainActorMetric, peakAboveMetric],
        maxDuration: .seconds(30), maxIterations: 5)

    // a) The user's path against the bare diff of the same ids and contents.
    Benchmark("Pa) bare diff: 100k rows, 10% each kind", configuration: quick) { benchmark in
        let (old, new) = bareDiffInput(rows: 100_000, each: 10_000)
        let start = resetPeakResident()
        benchmark.startMeasurement()
        let changes = StagedChangeset(from: old, to: new)
        benchmark.stopMeasurement()
        benchmark.measurement(peakAboveMetric, procStatusKB("VmHWM") - start)
        blackHole(changes)
    }
    Benchmark("Pa) apply: 100k rows, 10% each kind, fixed heights", configuration: quick) { benchmark async in
        let fixture = await PipelineFixture(rows: 100_000, each: 10_000)
        benchmark.startMeasurement()
        await fixture.apply()
        benchmark.stopMeasurement()
    }
    Benchmark("Pa) bind: 100k rows, 10% each kind, fixed heights", configuration: quick) { benchmark async in
        let fixture = await PipelineFixture(rows: 100_000, each: 10_000)
        benchmark.startMeasurement()
        let mainActor = await fixture.submitAndSettle()
        benchmark.stopMeasurement()
        benchmark.measurement(mainActorMetric, mainActor)
    }

    // b) Main-actor time of 100 changed rows (25 of each kind) through bind(to:), by list length;
    // c) the same runs give the peak above the two snapshots and the mallocs per apply.
    for rows in [10_000, 100_000, 1_000_000] {
        let label = rows == 1_000_000 ? "1M" : "\(rows / 1_000)k"
        let configuration = rows == 1_000_000 ? slow : quick
        Benchmark("Pb) bare diff: 100 changes at \(label) rows", configuration: configuration) { benchmark in
            let (old, new) = bareDiffInput(rows: rows, each: 25)
            let start = resetPeakResident()
            benchmark.startMeasurement()
            let changes = StagedChangeset(from: old, to: new)
            benchmark.stopMeasurement()
            benchmark.measurement(peakAboveMetric, procStatusKB("VmHWM") - start)
            blackHole(changes)
        }
        Benchmark("Pb) bind: 100 changes at \(label) rows, fixed heights", configuration: configuration) { benchmark async in
            let fixture = await PipelineFixture(rows: rows, each: 25)
            let start = resetPeakResident()
            benchmark.startMeasurement()
            let mainActor = await fixture.submitAndSettle()
            benchmark.stopMeasurement()
            benchmark.measurement(peakAboveMetric, procStatusKB("VmHWM") - start)
            benchmark.measurement(mainActorMetric, mainActor)
        }
    }

    // c) Memory per row of a 1M-row snapshot, against the model array itself.
    // One iteration, no warm-up: in a fresh process, large arrays are fresh mmapped pages
    // (after a free, glibc raises its mmap threshold and reuses resident heap).
    let memory = Benchmark.Configuration(metrics: [.mallocCountTotal, bytesPerRowMetric], warmupIterations: 0, maxIterations: 1)
    Benchmark("Pc) memory: 1M BenchItem array", configuration: memory) { benchmark in
        let ids = benchIDs(1_000_000)
        let before = liveHeapBytes()
        benchmark.startMeasurement()
        let items = ids.map { BenchItem(id: $0, content: 0) }
        benchmark.stopMeasurement()
        benchmark.measurement(bytesPerRowMetric, (liveHeapBytes() - before) / ids.count)
        blackHole(items)
    }
    Benchmark("Pc) memory: 1M-row TableModel", configuration: memory) { benchmark in
        let items = benchIDs(1_000_000).map { BenchItem(id: $0, content: 0) }
        let before = liveHeapBytes()
        benchmark.startMeasurement()
        let model = TableModel(items)
        benchmark.stopMeasurement()
        benchmark.measurement(bytesPerRowMetric, (liveHeapBytes() - before) / items.count)
        blackHole(model)
    }
    Benchmark("Pc) memory: 1M rows shown by controller + headless view", configuration: memory) { benchmark async in
        let items = benchIDs(1_000_000).map { BenchItem(id: $0, content: 0) }
        let before = liveHeapBytes()
        benchmark.startMeasurement()
        let shown = await PipelineFixture(old: TableModel(items), next: TableModel())
        benchmark.stopMeasurement()
        benchmark.measurement(bytesPerRowMetric, (liveHeapBytes() - before) / items.count)
        blackHole(shown)
    }

    // d) A feed of 4 model types against the homogeneous list (the Pa) apply case).
    Benchmark("Pd) apply: 100k rows of 4 model types, 10% each kind, fixed heights", configuration: quick) { benchmark async in
        let fixture = await PipelineFixture(rows: 100_000, each: 10_000, feed: true)
        benchmark.startMeasurement()
        await fixture.apply()
        benchmark.stopMeasurement()
    }
}
