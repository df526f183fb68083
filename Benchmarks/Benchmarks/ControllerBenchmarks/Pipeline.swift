// Issue 12, "from snapshot to screen at the speed of the bare diff": every target
// with its in-run peer. Cases are named "P<target>) ..."; run them alone with
//   swift package --scratch-path .build --allow-writing-to-package-directory benchmark --target ControllerBenchmarks --filter "P.*"
// Main-actor time and memory are custom metrics (the machine is shared, so wall
// times are noisy: compare peers of one run, or count instructions with callgrind).
import Benchmark
@_spi(Benchmarks) import CellKit
import CellKitTesting
import Workloads
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
///
/// Freed heap is given back to the kernel first, and blocks of 64 KB or more are
/// always mapped fresh (glibc's threshold fixed, see ``fixMmapThreshold()``), so the
/// growth of the resident size while the work runs is what the work allocates at
/// its peak, not what an earlier iteration left free in the heap.
func resetPeakResident() -> Int {
    #if canImport(Glibc)
    glibc("malloc_trim", as: (@convention(c) (Int) -> Int32).self).map { _ = $0(0) }
    if let file = fopen("/proc/self/clear_refs", "w") {
        fputs("5", file)
        fclose(file)
    }
    #endif
    return procStatusKB("VmRSS")
}

/// Makes glibc map every block of 64 KB or more afresh and unmap it when freed (its
/// default raises that threshold after the first large free, and keeps freed blocks).
func fixMmapThreshold() {
    #if canImport(Glibc)
    let M_MMAP_THRESHOLD: Int32 = -3  // <malloc.h>, which the Glibc module does not import
    glibc("mallopt", as: (@convention(c) (Int32, Int32) -> Int32).self).map { _ = $0(M_MMAP_THRESHOLD, 64 * 1_024) }
    #endif
}

#if canImport(Glibc)
/// A function of the C library by name (for <malloc.h>'s, which Swift does not import).
func glibc<F>(_ name: String, as type: F.Type) -> F? {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
    return unsafeBitCast(symbol, to: type)
}
#endif

/// The peer of the P cases: the bare diff of `rows` rows with `each` changes of each
/// kind, its wall time and its peak above what was resident before.
func measureBareDiff(_ benchmark: Benchmark, rows: Int, each: Int) {
    let (old, new) = bareDiffInput(rows: rows, each: each)
    let start = resetPeakResident()
    benchmark.startMeasurement()
    let changes = StagedChangeset(from: old, to: new)
    benchmark.stopMeasurement()
    benchmark.measurement(peakAboveMetric, procStatusKB("VmHWM") - start)
    blackHole(changes)
}

/// A b) case: waits `settleMilliseconds` for the fixture's first-load frees, then times one
/// `bind` of 100 changes, with its main-actor time and its peak above what was resident.
func measureBind(_ benchmark: Benchmark, _ fixture: PipelineFixture, settleMilliseconds: Int) async {
    // The first load's snapshots are freed on a background task: let that finish first, so
    // that the measured jobs do not share the machine with it.
    try? await Task.sleep(for: .milliseconds(settleMilliseconds))
    let start = resetPeakResident()
    benchmark.startMeasurement()
    let mainActor = await fixture.submitAndSettle()
    benchmark.stopMeasurement()
    benchmark.measurement(peakAboveMetric, procStatusKB("VmHWM") - start)
    benchmark.measurement(mainActorMetric, mainActor)
}

func pipelineBenchmarks() {
    if getenv("CELLKIT_BENCH_DEFAULT_MALLOC") == nil { fixMmapThreshold() }
    let quick = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident, mainActorMetric, peakAboveMetric],
        maxDuration: .seconds(10), maxIterations: 20)
    // 1M rows: an iteration takes about a second (building the fixture); 15 of them, so that
    // the median of the main-actor time (a hundred µs of it) does not rest on five samples.
    let slow = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident, mainActorMetric, peakAboveMetric],
        maxDuration: .seconds(60), maxIterations: 15)

    // a) The user's path against the bare diff of the same ids and contents.
    Benchmark("Pa) bare diff: 100k rows, 10% each kind", configuration: quick) { benchmark in
        measureBareDiff(benchmark, rows: 100_000, each: 10_000)
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
            measureBareDiff(benchmark, rows: rows, each: 25)
        }
        Benchmark("Pb) bind: 100 changes at \(label) rows, fixed heights", configuration: configuration) { benchmark async in
            await measureBind(benchmark, await PipelineFixture(rows: rows, each: 25), settleMilliseconds: rows / 5_000 + 20)
        }
    }

    // b) The control of the cases above: 10k rows whose diff sweeps 256 MB (SweepingItem), so
    // that the main-actor jobs start with caches and TLB as cold as after a 1M-row diff. The
    // same main-actor work as at 10k rows, the starting state of the caches of 1M rows.
    Benchmark("Pb) bind: 100 changes at 10k rows, fixed heights, caches swept by the diff", configuration: quick) { benchmark async in
        await measureBind(benchmark, await PipelineFixture(sweepingRows: 10_000, each: 25), settleMilliseconds: 22)
    }

    // b) The second control: 10k rows whose diff keeps the main actor idle 20 ms (IdlingItem
    // sleeps on the diff's thread, about as long as the 1M-row diff takes), reading nothing:
    // the same main-actor work as at 10k rows after as long a pause as at 1M rows.
    Benchmark("Pb) bind: 100 changes at 10k rows, fixed heights, main actor idle 20 ms during the diff", configuration: quick) { benchmark async in
        await measureBind(benchmark, await PipelineFixture(idlingRows: 10_000, each: 25), settleMilliseconds: 22)
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
