// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "CellKit",
    platforms: [.iOS(.v15), .macOS(.v13)],
    products: [
        .library(name: "CellKitDiff", targets: ["CellKitDiff"]),
        .library(name: "CellKit", targets: ["CellKit"]),
        .library(name: "CellKitTesting", targets: ["CellKitTesting"]),
        .library(name: "CellKitTerminal", targets: ["CellKitTerminal"]),
        .library(name: "CellKitUIKit", targets: ["CellKitUIKit"]),
        .executable(name: "cellkit-demo", targets: ["cellkit-demo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Stdlib only: the diff is the hot path.
        .target(name: "CellKitDiff"),
        // Stdlib only (plus CellKitDiff): registry, presenters, data sources, controller.
        .target(name: "CellKit", dependencies: ["CellKitDiff"]),
        .target(name: "CellKitTesting", dependencies: ["CellKit"]),
        .target(name: "CellKitTerminal", dependencies: ["CellKit"]),
        // Compiles to an empty module where UIKit is missing; type-checked with ios-typecheck.
        .target(name: "CellKitUIKit", dependencies: ["CellKit"]),
        .executableTarget(
            name: "cellkit-demo",
            dependencies: [
                "CellKit", "CellKitTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "CellKitDiffTests", dependencies: ["CellKitDiff", "CellKitTesting"]),
        .testTarget(name: "CellKitTests", dependencies: ["CellKit", "CellKitTesting"]),
        .testTarget(
            name: "CellKitTerminalTests",
            dependencies: ["CellKitTerminal", "CellKitTesting", "cellkit-demo"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
