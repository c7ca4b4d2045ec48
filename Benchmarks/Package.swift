// swift-tools-version:6.2
import PackageDescription

// Benchmarks print figures; they assert nothing. Run: swift run -c release --package-path Benchmarks deskkit-bench
// deskkit-layout is a check that is not a timing (retains counted; exit status 1 when broken), run by CI.
let package = Package(
    name: "DeskKitBenchmarks",
    // Previews: the fetch and pipeline benchmarks; the server's packages are not resolved.
    dependencies: [.package(name: "DeskKit", path: "..", traits: ["Previews"])],
    targets: [
        .executableTarget(
            name: "deskkit-bench",
            dependencies: [
                .product(name: "DeskKitJSON", package: "DeskKit"),
                .product(name: "DeskKitModel", package: "DeskKit"),
                .product(name: "_DeskKitInvariants", package: "DeskKit"),
                .product(name: "DeskKitLinks", package: "DeskKit"),
                .product(name: "DeskKitMetadata", package: "DeskKit"),
                .product(name: "DeskKitPreview", package: "DeskKit"),
                .product(name: "_DeskKitPageServer", package: "DeskKit"),
            ],
            swiftSettings: [.unsafeFlags(["-Ounchecked"])]
        ),
        .executableTarget(name: "deskkit-layout", dependencies: [.product(name: "DeskKitModel", package: "DeskKit")]),
    ],
    swiftLanguageModes: [.v6]
)
