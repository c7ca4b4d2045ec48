// swift-tools-version:6.1
import PackageDescription

// Modules, lowest first: JSON and bytes · message model and codecs (no I/O) · URLs · link detection · ICU formats and HTML cards in the reader's language ·
// libxml2 shim · what may be fetched (no I/O) · page metadata extraction and refusals · safe fetching and previews · job stores · server · the `deskkit` command.
let package = Package(
    name: "DeskKit",
    // Apple platforms, for what the code needs: `Mutex` of the Synchronization library (macOS 15, iOS 18 …).
    // Built and tested on Linux only; see the README.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "DeskKitJSON", targets: ["DeskKitJSON"]),
        .library(name: "DeskKitModel", targets: ["DeskKitModel"]),
        .library(name: "DeskKitURL", targets: ["DeskKitURL"]),
        .library(name: "DeskKitLinks", targets: ["DeskKitLinks"]),
        .library(name: "DeskKitCards", targets: ["DeskKitCards"]),
        .library(name: "DeskKitMetadata", targets: ["DeskKitMetadata"]),
        .library(name: "DeskKitPreview", targets: ["DeskKitPreview"]),
        .library(name: "DeskKitPageServer", targets: ["DeskKitPageServer"]),
        .library(name: "DeskKitJobStore", targets: ["DeskKitJobStore"]),
        .library(name: "DeskKitSharedPreviews", targets: ["DeskKitSharedPreviews"]),
        .library(name: "DeskKitServer", targets: ["DeskKitServer"]),
        .library(name: "DeskKitInvariants", targets: ["DeskKitInvariants"]),
        .executable(name: "deskkit", targets: ["deskkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.65.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.20.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.0.0"),
        // Spans (the API every library uses) and, for `deskkit serve`, their OTLP/HTTP exporter (no gRPC).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.1.0"),
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.0.0", traits: ["OTLPHTTP"]),
        // `swift package generate-documentation`: the DocC catalogues in Sources/*/Documentation.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // JSON and bytes: the tape parser, `JSONValue`, the writer, lines, base64, hex, percent-encoding,
        // UTF-8 validation. What every module that reads text builds on.
        .target(name: "DeskKitJSON"),
        .target(name: "DeskKitModel", dependencies: ["DeskKitJSON"]),
        // Time limits: the one deadline helper (answered at the deadline, the work cancelled) and `Duration`
        // in the units SwiftNIO takes. What fetching and the stores bound their waits with.
        .target(name: "DeskKitTime"),
        // URLs, pure Swift: RFC 3986 splitting and resolution, hosts, punycode. What fetching (the SSRF
        // guard), link detection and metadata all parse URLs with, in one place.
        .target(name: "DeskKitURL"),
        .target(name: "DeskKitLinks", dependencies: ["DeskKitJSON", "DeskKitURL"]),
        // Conversations and preview cards rendered as escaped, script-free HTML, for web widgets (no I/O).
        // Its interface in the languages of Strings/*.json, with ICU's plural rules, numbers and times.
        .target(
            name: "DeskKitCards", dependencies: ["DeskKitJSON", "DeskKitModel", "DeskKitLinks", "CICUFormat"],
            resources: [
                .embedInCode("Strings/en.json"), .embedInCode("Strings/zh-Hans.json"), .embedInCode("Strings/ru.json"),
                .embedInCode("Strings/ja.json"), .embedInCode("Strings/ko.json"), .embedInCode("Strings/es.json"),
                .embedInCode("Strings/de.json"), .embedInCode("Strings/ar.json"),
            ]),
        // ICU (apt `libicu-dev`, the one libxml2 links): plural rules, number and date formats, likely subtags.
        .target(
            name: "CICUFormat",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // uchardet, for pages whose declared encoding does not fit their bytes.
        .systemLibrary(
            name: "CUchardet",
            pkgConfig: "uchardet",
            providers: [.apt(["libuchardet-dev"]), .brew(["uchardet"])]
        ),
        .target(
            name: "DeskKitMetadata",
            dependencies: ["CLibXML2", "CUchardet", "DeskKitJSON", "DeskKitURL", "DeskKitLinks", "DeskKitFetchPolicy"]),
        // What may be fetched, without I/O: URLs as requests, IP addresses, the SSRF block list, fetch errors.
        // Apart from DeskKitPreview so the fuzz targets build without SwiftNIO.
        .target(
            name: "DeskKitFetchPolicy",
            dependencies: ["DeskKitJSON", "DeskKitURL"]
        ),
        .target(
            name: "DeskKitPreview",
            dependencies: [
                "DeskKitModel", "DeskKitURL", "DeskKitLinks", "DeskKitMetadata", "DeskKitFetchPolicy", "DeskKitTime",
                // The language of a file's card (`Image (PNG), 3 KB`), the one its page was asked in.
                "DeskKitCards",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // Their error types, to classify fetch failures: TLS, decompression.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                // A span for each fetch, hop, oEmbed answer, image probe and extraction.
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                // Its counters, through any swift-metrics backend.
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // A loopback web server for the demo and the tests.
        .target(
            name: "DeskKitPageServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // Where enrichment jobs live, behind one contract: memory, SQLite (embedded) or PostgreSQL (several
        // instances).
        .target(
            name: "DeskKitJobStore",
            dependencies: [
                "DeskKitModel", "DeskKitTime",
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The preview cache instances share in their PostgreSQL store's database.
        .target(
            name: "DeskKitSharedPreviews",
            dependencies: [
                "DeskKitModel", "DeskKitPreview", "DeskKitJobStore", "DeskKitTime",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // HTTP on Hummingbird 2: the enrichment server (Sendbird webhooks → previews → Platform API) and the
        // Pyrus authorization route.
        .target(
            name: "DeskKitServer",
            dependencies: [
                "DeskKitModel", "DeskKitLinks", "DeskKitPreview", "DeskKitJobStore", "DeskKitTime",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            // The routes' contract, served at /openapi.yaml and /openapi.json.
            resources: [.embedInCode("openapi.json")]
        ),
        // The properties every entry point keeps on any input: run by the libFuzzer targets in `Fuzz/`
        // and by the corpus replay in the tests; and the QA mutator (`deskkit mutate`).
        .target(
            name: "DeskKitInvariants",
            dependencies: ["DeskKitModel", "DeskKitLinks", "DeskKitMetadata", "DeskKitFetchPolicy"]
        ),
        .executableTarget(
            name: "deskkit",
            dependencies: [
                "DeskKitModel",
                "DeskKitLinks",
                "DeskKitCards",
                "DeskKitMetadata",
                "DeskKitPreview",
                "DeskKitPageServer",
                "DeskKitJobStore",
                "DeskKitSharedPreviews",
                "DeskKitServer",
                "DeskKitInvariants",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                // `serve` exports its spans over OTLP when the OTEL_* variables ask for it.
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            exclude: ["Demo/README.md"],
            // The demo's conversation, pages and pictures, compiled in: `deskkit demo` runs from anywhere.
            resources: [
                .embedInCode("Demo/order-late.jsonl"), .embedInCode("Demo/tracking-1138.html"),
                .embedInCode("Demo/help-lost-parcels.html"), .embedInCode("Demo/returns-ja.html"),
                .embedInCode("Demo/parcel-map.png"), .embedInCode("Demo/lost-parcel.png"),
            ],
            // A release build carries the Swift runtime and Foundation in itself: each run starts in about
            // 10 ms instead of 15 (no shared libraries to load and bind), a tenth of a small line job.
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]
        ),
        .testTarget(name: "DeskKitJSONTests", dependencies: ["DeskKitJSON", "DeskKitInvariants"]),
        .testTarget(name: "DeskKitURLTests", dependencies: ["DeskKitURL"]),
        .testTarget(name: "DeskKitFetchPolicyTests", dependencies: ["DeskKitFetchPolicy", "DeskKitInvariants"]),
        .testTarget(
            name: "DeskKitModelTests",
            dependencies: ["DeskKitModel", "DeskKitInvariants"]
        ),
        .testTarget(
            name: "DeskKitLinksTests",
            dependencies: ["DeskKitLinks", "DeskKitURL"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "DeskKitCardsTests",
            dependencies: ["DeskKitCards", "DeskKitModel", "DeskKitInvariants", "DeskKitTestSupport", "CPNG"]
        ),
        // libpng, for the screenshots the right-to-left card test reads.
        .systemLibrary(name: "CPNG", path: "Tests/CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .testTarget(
            name: "DeskKitMetadataTests",
            dependencies: ["DeskKitMetadata", "DeskKitURL", "DeskKitFetchPolicy"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "DeskKitPreviewTests",
            dependencies: [
                "DeskKitPreview", "DeskKitPageServer", "DeskKitModel", "DeskKitInvariants", "DeskKitCards",
                "DeskKitTestSupport",
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "DeskKitServerTests",
            dependencies: [
                "DeskKitServer", "DeskKitJobStore", "DeskKitPageServer", "DeskKitTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // A throwaway PostgreSQL cluster (initdb + pg_ctl on 127.0.0.1) for the store, server and CLI tests.
        .target(
            name: "DeskKitTestSupport", dependencies: [.product(name: "MetricsTestKit", package: "swift-metrics")],
            path: "Tests/DeskKitTestSupport"),
        .testTarget(
            name: "DeskKitJobStoreTests",
            dependencies: [
                "DeskKitJobStore", "DeskKitTestSupport",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "DeskKitSharedPreviewsTests",
            dependencies: ["DeskKitSharedPreviews", "DeskKitTestSupport", "DeskKitPageServer"]
        ),
        // Replays every file of Corpus/ through the fuzz targets' checks.
        .testTarget(
            name: "DeskKitInvariantsTests",
            dependencies: ["DeskKitInvariants"]
        ),
        // Runs the built `deskkit` executable end to end.
        .testTarget(
            name: "DeskKitCLITests",
            dependencies: [
                "deskkit", "DeskKitPageServer", "DeskKitServer", "DeskKitTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                // A real OTLP/HTTP collector for the traces `serve` exports.
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
