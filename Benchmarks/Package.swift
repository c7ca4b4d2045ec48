// swift-tools-version:6.0
import PackageDescription

// Benchmarks print figures; they assert nothing. Run: swift run -c release --package-path Benchmarks deskkit-bench
let package = Package(
    name: "DeskKitBenchmarks",
    dependencies: [.package(name: "DeskKit", path: "..")],
    targets: [
        .executableTarget(
            name: "deskkit-bench",
            dependencies: [
                .product(name: "DeskKitModel", package: "DeskKit"),
                .product(name: "DeskKitInvariants", package: "DeskKit"),
                .product(name: "DeskKitLinks", package: "DeskKit"),
                .product(name: "DeskKitMetadata", package: "DeskKit"),
                .product(name: "DeskKitPreview", package: "DeskKit"),
                .product(name: "DeskKitPageServer", package: "DeskKit"),
            ],
            swiftSettings: [.unsafeFlags(["-Ounchecked"])]
        )
    ],
    swiftLanguageModes: [.v6]
)
