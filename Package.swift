// swift-tools-version:6.0
import PackageDescription

// Modules, lowest first: message model and codecs (no I/O) · link detection · libxml2 shim ·
// page metadata extraction · safe fetching and previews · server · the `deskkit` command.
let package = Package(
    name: "DeskKit",
    products: [
        .library(name: "DeskKitModel", targets: ["DeskKitModel"]),
        .library(name: "DeskKitLinks", targets: ["DeskKitLinks"]),
        .library(name: "DeskKitMetadata", targets: ["DeskKitMetadata"]),
        .executable(name: "deskkit", targets: ["deskkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .target(name: "DeskKitModel"),
        .target(name: "DeskKitLinks", dependencies: ["DeskKitModel"]),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .target(name: "DeskKitMetadata", dependencies: ["CLibXML2", "DeskKitModel", "DeskKitLinks"]),
        .executableTarget(
            name: "deskkit",
            dependencies: [
                "DeskKitModel",
                "DeskKitLinks",
                "DeskKitMetadata",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "DeskKitModelTests",
            dependencies: ["DeskKitModel"]
        ),
        .testTarget(
            name: "DeskKitLinksTests",
            dependencies: ["DeskKitLinks"]
        ),
        .testTarget(
            name: "DeskKitMetadataTests",
            dependencies: ["DeskKitMetadata"]
        ),
        // Runs the built `deskkit` executable end to end.
        .testTarget(
            name: "DeskKitCLITests",
            dependencies: ["deskkit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
