// swift-tools-version: 6.0
import PackageDescription

// CellKit on GTK 4, in its own package so that the root package builds and tests on
// machines without GTK. Needs Debian's libgtk-4-dev (4.8 or later); see the README.
//   swift run cellkit-gtk-demo          the sample feed and the git history in a window
//   Scripts/test                        the window tests under Xvfb
let package = Package(
    name: "CellKitGTK",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "CellKitGTK", targets: ["CellKitGTK"]),
        .executable(name: "cellkit-gtk-demo", targets: ["cellkit-gtk-demo"]),
        .executable(name: "cellkit-gtk-bench", targets: ["cellkit-gtk-bench"]),
    ],
    dependencies: [
        .package(name: "CellKit", path: "../.."),
    ],
    targets: [
        // GTK 4's headers, plus inline C for what Swift cannot import (macros, signals).
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        // A GListModel that holds only a count: rows cost no memory until GTK binds them.
        .target(name: "CGtkRowModel", dependencies: ["CGtk"]),
        .target(
            name: "CellKitGTK",
            dependencies: ["CGtk", "CGtkRowModel", .product(name: "CellKit", package: "CellKit")]
        ),
        .executableTarget(
            name: "cellkit-gtk-demo",
            dependencies: ["CellKitGTK", .product(name: "CellKit", package: "CellKit")]
        ),
        .executableTarget(
            name: "cellkit-gtk-bench",
            dependencies: ["CellKitGTK", .product(name: "CellKit", package: "CellKit")]
        ),
        // XCTest, run under xvfb-run by Scripts/test: Swift Testing's @MainActor tests
        // do not run on the process main thread on Linux, and GTK must.
        .testTarget(
            name: "CellKitGTKTests",
            dependencies: [
                "CellKitGTK", "cellkit-gtk-demo",
                .product(name: "CellKit", package: "CellKit"), .product(name: "CellKitTesting", package: "CellKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
