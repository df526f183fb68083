// Dispatch benchmarks: configuring cells for 100k rows of four model types through
// CellKit's DispatchTable (and the full registry + dispatch path of the controller),
// against a hand-written chain of casts, the peer measured in the same run.
// Run with `swift package benchmark --target DispatchBenchmarks` in Benchmarks/.
import Benchmark
import CellKit
import Workloads

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(10), maxIterations: 100)

    Benchmark("Dispatch: 100k rows, hand-written casts (peer)") { benchmark async in
        let fixture = await DispatchFixture(count: 100_000)
        benchmark.startMeasurement()
        blackHole(await fixture.handWritten())
    }

    Benchmark("Dispatch: 100k rows, DispatchTable.configure") { benchmark async in
        let fixture = await DispatchFixture(count: 100_000)
        benchmark.startMeasurement()
        blackHole(await fixture.dispatchTable())
    }

    Benchmark("Dispatch: 100k rows, CellRegistry binding + configure") { benchmark async in
        let fixture = await DispatchFixture(count: 100_000)
        benchmark.startMeasurement()
        blackHole(await fixture.registryPath())
    }
}
