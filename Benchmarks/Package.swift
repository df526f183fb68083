// swift-tools-version: 6.2
import PackageDescription

// Benchmarks live in their own package so that the library never depends on the
// benchmark harness. Run from this folder:
//   swift package --scratch-path .build --allow-writing-to-package-directory benchmark --target DiffBenchmarks
// (ControllerBenchmarks and TerminalBenchmarks likewise; no --target runs all three)
let package = Package(
    name: "CellKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "CellKit", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Inputs and fixtures shared by the benchmarks and the instruction-count probe.
        .target(
            name: "Workloads",
            dependencies: [
                .product(name: "CellKit", package: "CellKit"),
                .product(name: "CellKitTesting", package: "CellKit"),
            ],
            path: "Benchmarks/Workloads"
        ),
        // One measured call per run, for callgrind (Scripts/instructions).
        .executableTarget(
            name: "cellkit-probe",
            dependencies: [
                "Workloads",
                .product(name: "CellKit", package: "CellKit"),
                .product(name: "CellKitTesting", package: "CellKit"),
            ],
            path: "Benchmarks/Probe"
        ),
        .executableTarget(
            name: "DiffBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CellKitDiff", package: "CellKit"),
            ],
            path: "Benchmarks/DiffBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ControllerBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CellKit", package: "CellKit"),
                .product(name: "CellKitTesting", package: "CellKit"),
                "Workloads",
            ],
            path: "Benchmarks/ControllerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "DispatchBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CellKit", package: "CellKit"),
                "Workloads",
            ],
            path: "Benchmarks/DispatchBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "TerminalBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CellKit", package: "CellKit"),
                .product(name: "CellKitTerminal", package: "CellKit"),
            ],
            path: "Benchmarks/TerminalBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
