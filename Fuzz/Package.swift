// swift-tools-version:6.2
import PackageDescription

// libFuzzer targets, one per DeskKit entry point. Each runs the checks of `DeskKitInvariants`, which
// the main package's tests also replay over `Corpus/`. Build and run: `Fuzz/run.sh TARGET SECONDS`.
let package = Package(
    name: "DeskKitFuzz",
    // No trait: the fuzz targets need none of what DeskKit's traits bring, so no other package is resolved.
    dependencies: [.package(name: "DeskKit", path: "..", traits: [])],
    targets: [
        .executableTarget(
            name: "FuzzMessageData", dependencies: [.product(name: "_DeskKitInvariants", package: "DeskKit")]),
        .executableTarget(
            name: "FuzzEnvelope", dependencies: [.product(name: "_DeskKitInvariants", package: "DeskKit")]),
        .executableTarget(
            name: "FuzzValidate", dependencies: [.product(name: "_DeskKitInvariants", package: "DeskKit")]),
        .executableTarget(name: "FuzzLinks", dependencies: [.product(name: "_DeskKitInvariants", package: "DeskKit")]),
        .executableTarget(
            name: "FuzzExtract", dependencies: [.product(name: "_DeskKitInvariants", package: "DeskKit")]),
        .executableTarget(
            name: "FuzzAddress", dependencies: [.product(name: "_DeskKitInvariants", package: "DeskKit")]),
        .executableTarget(
            name: "FuzzWebhooks", dependencies: [.product(name: "_DeskKitInvariants", package: "DeskKit")]),
    ],
    swiftLanguageModes: [.v6]
)
