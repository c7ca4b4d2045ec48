// swift-tools-version:6.2
import PackageDescription

// A chat client's use of DeskKit, as an app adds it: the message model and link detection, with no trait
// on — so no other package is resolved (CI builds this from clean and fails if Package.resolved lists any).
let package = Package(
    name: "ChatClient",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    dependencies: [
        // An app writes `.package(url: "https://github.com/deskkit/DeskKit.git", from: "0.1.0", traits: [])`.
        .package(name: "DeskKit", path: "../..", traits: [])
    ],
    targets: [
        .executableTarget(
            name: "ChatClient",
            dependencies: [
                .product(name: "DeskKitModel", package: "DeskKit"),
                .product(name: "DeskKitLinks", package: "DeskKit"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
