// swift-tools-version:6.2
// 6.2: public APIs take `Span` (the 6.2 compiler back-deploys it), and swift-configuration 1.4 needs it.
import Foundation
import PackageDescription

// What a package that depends on DeskKit turns on. The client products — DeskKitJSON, DeskKitURL, DeskKitModel,
// DeskKitLinks, DeskKitCards — need none and resolve no other package with `traits: []`; the rest, and every
// package they bring, sit behind these traits, all on by default (a checkout builds and tests everything).
let traits: Set<Trait> = [
    .trait(
        name: "Previews",
        description: "Fetching pages safely and building previews: DeskKitPreview and DeskKitPageServer "
            + "(SwiftNIO, AsyncHTTPClient, swift-nio-ssl, swift-distributed-tracing, swift-metrics)."),
    .trait(
        name: "Server",
        description: "The job stores and the enrichment server: DeskKitJobStore, DeskKitSharedPreviews and "
            + "DeskKitServer (Hummingbird, postgres-nio, sqlite-nio, swift-crypto, swift-configuration, …).",
        enabledTraits: ["Previews"]),
    .trait(
        name: "Command", description: "The `deskkit` command (swift-argument-parser).", enabledTraits: ["Server"]),
    .trait(
        name: "OTLPTracing", description: "`deskkit serve` exports its spans over OTLP/HTTP (swift-otel).",
        enabledTraits: ["Command"]),
    .default(enabledTraits: ["Previews", "Server", "Command", "OTLPTracing"]),
]
let previews = TargetDependencyCondition.when(traits: ["Previews"])
let server = TargetDependencyCondition.when(traits: ["Server"])
let command = TargetDependencyCondition.when(traits: ["Command"])
let otlpTracing = TargetDependencyCondition.when(traits: ["OTLPTracing"])

// `DESKKIT_DOCS=1 swift package generate-documentation`, for whoever prefers the plugin: it is no dependency of
// an app that uses DeskKit. The package's own scripts need none (Scripts/check-docs.sh, Scripts/build-docs.sh).
let documentationPlugin: [Package.Dependency] =
    ProcessInfo.processInfo.environment["DESKKIT_DOCS"] == nil
    ? [] : [.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0")]

// Modules, lowest first: JSON and bytes · message model and codecs (no I/O) · the formats as JSON Schema · URLs · link detection · ICU formats and HTML cards in the reader's language ·
// libxml2 shim · what may be fetched (no I/O) · page metadata extraction and refusals · safe fetching and previews · job stores · server · the `deskkit` command.
let package = Package(
    name: "DeskKit",
    // The floor of the client products for Apple's systems (JSON, URLs, messages, links): `Span` back-deploys
    // to iOS 12.2, and `Scripts/check-apple-floor.sh` type-checks them against the standard library's
    // availability for macOS 10.15 and iOS 13. The rest is for Linux (ICU's C API, `Mutex`): the README's
    // platform table says what is built where.
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "DeskKitJSON", targets: ["DeskKitJSON"]),
        .library(name: "DeskKitModel", targets: ["DeskKitModel"]),
        .library(name: "DeskKitSchemas", targets: ["DeskKitSchemas"]),
        .library(name: "DeskKitURL", targets: ["DeskKitURL"]),
        .library(name: "DeskKitLinks", targets: ["DeskKitLinks"]),
        .library(name: "DeskKitCards", targets: ["DeskKitCards"]),
        .library(name: "DeskKitMetadata", targets: ["DeskKitMetadata"]),
        .library(name: "DeskKitPreview", targets: ["DeskKitPreview"]),
        .library(name: "DeskKitJobStore", targets: ["DeskKitJobStore"]),
        .library(name: "DeskKitJobs", targets: ["DeskKitJobs"]),
        .library(name: "DeskKitSharedPreviews", targets: ["DeskKitSharedPreviews"]),
        .library(name: "DeskKitServer", targets: ["DeskKitServer"]),
        .executable(name: "deskkit", targets: ["deskkit"]),
        // The package's own tools, for its nested packages (Fuzz/, Benchmarks/): a leading underscore, as in
        // swift-nio's `_NIOFileSystem`, says they are not API (CONTRIBUTING.md, "The public API").
        .library(name: "_DeskKitInvariants", targets: ["DeskKitInvariants"]),
        .library(name: "_DeskKitPageServer", targets: ["DeskKitPageServer"]),
    ],
    traits: traits,
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
        // Tests only: a clock the tests move (`TestClock`).
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
    ] + documentationPlugin,
    targets: [
        // JSON and bytes: the tape parser, `JSONValue`, the writer, lines, base64, hex, percent-encoding,
        // UTF-8 validation. What every module that reads text builds on.
        .target(name: "DeskKitJSON"),
        .target(name: "DeskKitModel", dependencies: ["DeskKitJSON", "DeskKitURL"]),
        // The formats as JSON Schema (draft 2020-12): every Desk payload, the message, Sendbird's webhook, Pyrus
        // and LiveTex. The files are the source; `deskkit schema` and the server's /schemas/ serve them
        // compiled in, and Web/schemas/ ships a copy (checked equal by the tests).
        .target(
            name: "DeskKitSchemas", dependencies: ["DeskKitJSON"],
            resources: [
                .embedInCode("Schemas/common.json"), .embedInCode("Schemas/desk-data.json"),
                .embedInCode("Schemas/url-preview.json"), .embedInCode("Schemas/closure-inquiry.json"),
                .embedInCode("Schemas/customer-satisfaction.json"), .embedInCode("Schemas/bot-answers.json"),
                .embedInCode("Schemas/notification.json"), .embedInCode("Schemas/system-message.json"),
                .embedInCode("Schemas/desk-message.json"), .embedInCode("Schemas/sendbird-webhook.json"),
                .embedInCode("Schemas/pyrus-webhook.json"), .embedInCode("Schemas/pyrus-auth.json"),
                .embedInCode("Schemas/livetex-webhook.json"),
            ]),
        // Time: the one deadline helper (answered at the deadline, the work cancelled; its timer is SwiftNIO's),
        // `Duration` in the units SwiftNIO takes, and `ServiceClock`: what a queue, a preview cache, a connection
        // pool and a rate limiter wait and count on, any `Clock` (a test's `TestClock`) behind it.
        .target(
            name: "DeskKitTime",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio", condition: previews),
                .product(name: "NIOPosix", package: "swift-nio", condition: previews),
            ]),
        // URLs, pure Swift: RFC 3986 splitting and resolution, hosts, punycode. What fetching (the SSRF
        // guard), link detection and metadata all parse URLs with, in one place.
        .target(name: "DeskKitURL"),
        .target(name: "DeskKitLinks", dependencies: ["DeskKitJSON", "DeskKitURL"]),
        // The message model and link detection for web pages: C functions `Scripts/build-wasm.sh` exports from
        // `deskkit.wasm` (Embedded Swift) for `Web/index.mjs`; built natively too, so the package builds what
        // the module is made of.
        .target(name: "DeskKitWeb", dependencies: ["DeskKitJSON", "DeskKitModel", "DeskKitLinks"]),
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
        // Linked on Linux: Apple's SDKs offer apps no ICU C API (DeskKitCards is not for them).
        .target(
            name: "CICUFormat",
            linkerSettings: [
                .linkedLibrary("icui18n", .when(platforms: [.linux])),
                .linkedLibrary("icuuc", .when(platforms: [.linux])),
            ]
        ),
        // The process's resident memory and glibc's heap (`mallinfo2`, `malloc_trim`), for the server's metrics
        // and its trims after a peak.
        .target(name: "CProcessMemory"),
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
            dependencies: [
                // libxml2 is in Apple's SDKs too; uchardet is not, and there the HTML standard's rules decide alone.
                "CLibXML2", .target(name: "CUchardet", condition: .when(platforms: [.linux])), "DeskKitJSON",
                "DeskKitURL", "DeskKitLinks", "DeskKitFetchPolicy",
            ]),
        // What may be fetched, without I/O: URLs as requests, IP addresses, the SSRF block list, fetch errors.
        // Apart from DeskKitPreview so the fuzz targets build without SwiftNIO.
        .target(
            name: "DeskKitFetchPolicy",
            dependencies: ["DeskKitJSON", "DeskKitURL"]
        ),
        .target(
            name: "DeskKitPreview",
            dependencies: [
                "DeskKitJSON", "DeskKitModel", "DeskKitURL", "DeskKitLinks", "DeskKitMetadata", "DeskKitFetchPolicy",
                "DeskKitTime",
                // The language of a file's card (`Image (PNG), 3 KB`), the one its page was asked in.
                "DeskKitCards",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: previews),
                .product(name: "DequeModule", package: "swift-collections", condition: previews),
                .product(name: "NIOCore", package: "swift-nio", condition: previews),
                .product(name: "NIOPosix", package: "swift-nio", condition: previews),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: previews),
                // Their error types, to classify fetch failures: TLS, decompression.
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: previews),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras", condition: previews),
                // A span for each fetch, hop, oEmbed answer, image probe and extraction.
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: previews),
                // Its counters, through any swift-metrics backend.
                .product(name: "CoreMetrics", package: "swift-metrics", condition: previews),
            ]
        ),
        // A loopback web server for the demo and the tests.
        .target(
            name: "DeskKitPageServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio", condition: previews),
                .product(name: "NIOPosix", package: "swift-nio", condition: previews),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: previews),
            ]
        ),
        // Where enrichment jobs live, behind one contract: memory, SQLite (embedded) or PostgreSQL (several
        // instances).
        .target(
            name: "DeskKitJobStore",
            dependencies: [
                "DeskKitModel", "DeskKitTime",
                .product(name: "HeapModule", package: "swift-collections", condition: server),
                .product(name: "DequeModule", package: "swift-collections", condition: server),
                .product(name: "SQLiteNIO", package: "sqlite-nio", condition: server),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: server),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: server),
            ]
        ),
        // The queue over a job store: claims as an async sequence, workers, leases, retries, the shutdown grace.
        // No HTTP server.
        .target(
            name: "DeskKitJobs",
            dependencies: [
                "DeskKitJobStore", "DeskKitTime",
                .product(name: "DequeModule", package: "swift-collections", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: server),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: server),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: server),
            ]
        ),
        // The preview cache instances share in their PostgreSQL store's database.
        .target(
            name: "DeskKitSharedPreviews",
            dependencies: [
                "DeskKitModel", "DeskKitPreview", "DeskKitJobStore", "DeskKitTime",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: server),
            ]
        ),
        // HTTP on Hummingbird 2: the enrichment server (Sendbird webhooks → previews → Platform API) and the
        // Pyrus authorization route.
        .target(
            name: "DeskKitServer",
            dependencies: [
                "DeskKitModel", "DeskKitSchemas", "DeskKitLinks", "DeskKitCards", "DeskKitFetchPolicy",
                "DeskKitPreview",
                "DeskKitJobStore", "DeskKitJobs", "DeskKitTime", "CProcessMemory",
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: server),
                .product(name: "NIOCore", package: "swift-nio", condition: server),
                .product(name: "NIOPosix", package: "swift-nio", condition: server),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: server),
                .product(name: "DequeModule", package: "swift-collections", condition: server),
                .product(name: "Crypto", package: "swift-crypto", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: server),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: server),
                .product(name: "Prometheus", package: "swift-prometheus", condition: server),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: server),
                .product(name: "Configuration", package: "swift-configuration", condition: server),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: server),
            ],
            // The routes' contract, served at /openapi.yaml and /openapi.json; the operator's console at /console
            // (its render.mjs is a link to the web package's; its card.css is `CardHTML.styleSheet`).
            resources: [
                .embedInCode("openapi.json"), .embedInCode("Console/console.html"),
                .embedInCode("Console/console.mjs"), .embedInCode("Console/console.css"),
                .embedInCode("Console/render.mjs"),
            ]
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
                "DeskKitJSON",
                "DeskKitModel",
                "DeskKitSchemas",
                "DeskKitLinks",
                "DeskKitCards",
                "DeskKitMetadata",
                "DeskKitPreview",
                "DeskKitPageServer",
                "DeskKitJobStore",
                "DeskKitSharedPreviews",
                "DeskKitServer",
                "DeskKitInvariants",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: command),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: command),
                .product(name: "NIOCore", package: "swift-nio", condition: command),
                .product(name: "Logging", package: "swift-log", condition: command),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: command),
                // `serve` exports its spans over OTLP when the OTEL_* variables ask for it.
                .product(name: "OTel", package: "swift-otel", condition: otlpTracing),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: command),
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
            dependencies: ["DeskKitModel", "DeskKitJSON", "DeskKitInvariants", "DeskKitTestSupport"]
        ),
        // The schemas' examples decode with no problem; Web/schemas/ is the same files.
        .testTarget(name: "DeskKitSchemasTests", dependencies: ["DeskKitSchemas", "DeskKitModel"]),
        .testTarget(
            name: "DeskKitLinksTests",
            dependencies: ["DeskKitLinks", "DeskKitURL", "DeskKitModel", "DeskKitTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "DeskKitCardsTests",
            dependencies: ["DeskKitCards", "DeskKitModel", "DeskKitInvariants", "DeskKitTestSupport"]
        ),
        .testTarget(
            name: "DeskKitMetadataTests",
            dependencies: [
                "DeskKitMetadata", "DeskKitURL", "DeskKitFetchPolicy", "DeskKitModel", "DeskKitTestSupport",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "DeskKitPreviewTests",
            dependencies: [
                "DeskKitPreview", "DeskKitPageServer", "DeskKitModel", "DeskKitInvariants", "DeskKitCards",
                "DeskKitTestSupport", "DeskKitMetadata", "DeskKitJSON", "DeskKitTime",
                .product(name: "NIOHTTP1", package: "swift-nio", condition: previews),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: previews),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras", condition: previews),
                .product(name: "Clocks", package: "swift-clocks", condition: previews),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "DeskKitServerTests",
            dependencies: [
                "DeskKitServer", "DeskKitJobStore", "DeskKitPageServer", "DeskKitTestSupport",
                "DeskKitServerTestSupport",
                "DeskKitModel", "DeskKitCards", "DeskKitSchemas", "DeskKitFetchPolicy", "DeskKitPreview", "DeskKitTime",
                .product(name: "Clocks", package: "swift-clocks", condition: server),
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "NIOCore", package: "swift-nio", condition: server),
                // The client deadlines' handler on an event loop the test advances.
                .product(name: "NIOEmbedded", package: "swift-nio", condition: server),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: server),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server),
                .product(name: "Configuration", package: "swift-configuration", condition: server),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: server),
            ]
        ),
        // A throwaway PostgreSQL cluster (initdb + pg_ctl on 127.0.0.1) for the store, server and CLI tests.
        .target(
            name: "DeskKitTestSupport",
            dependencies: [
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: server),
                // Test servers stopped gracefully (GracefulServer).
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
                // Stores opened for tests whose subject is not a deadline (unhurried).
                .target(name: "DeskKitJobStore", condition: server),
            ],
            path: "Tests/DeskKitTestSupport"),
        // The server tests' fake Sendbird Platform API and their webhooks.
        .target(
            name: "DeskKitServerTestSupport",
            dependencies: [
                "DeskKitServer", "DeskKitModel", "DeskKitTestSupport", "DeskKitPageServer", "DeskKitJobStore",
                "DeskKitFetchPolicy", "DeskKitTime",
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: server),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server),
                .product(name: "NIOCore", package: "swift-nio", condition: server),
            ],
            path: "Tests/DeskKitServerTestSupport"),
        .testTarget(
            name: "DeskKitJobsTests",
            dependencies: [
                "DeskKitJobs", "DeskKitJobStore", "DeskKitTestSupport", "DeskKitTime",
                .product(name: "Clocks", package: "swift-clocks", condition: server),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
            ]
        ),
        .testTarget(
            name: "DeskKitJobStoreTests",
            dependencies: [
                "DeskKitJobStore", "DeskKitTime", "DeskKitTestSupport",
                .product(name: "Clocks", package: "swift-clocks", condition: server),
            ]
        ),
        // Replays every file of Corpus/ through the fuzz targets' checks.
        .testTarget(
            name: "DeskKitInvariantsTests",
            dependencies: [
                "DeskKitInvariants", "DeskKitModel", "DeskKitLinks", "DeskKitMetadata", "DeskKitTestSupport",
            ]
        ),
        // Integration tests: what needs a PostgreSQL cluster, a browser or other processes, in targets of their own
        // (`swift test --skip IntegrationTests` runs the unit tests alone; CONTRIBUTING.md, "Unit and integration
        // tests").
        // The stores' contract on memory, a SQLite file and PostgreSQL; PostgreSQL's store and shared preview cache.
        .testTarget(
            name: "DeskKitStoreIntegrationTests",
            dependencies: [
                "DeskKitJobStore", "DeskKitSharedPreviews", "DeskKitPreview", "DeskKitPageServer", "DeskKitModel",
                "DeskKitTime", "DeskKitTestSupport",
                .product(name: "Clocks", package: "swift-clocks", condition: server),
                .product(name: "SQLiteNIO", package: "sqlite-nio", condition: server),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: server),
            ]
        ),
        // The server on PostgreSQL (instances sharing a database, one frozen past its lease), and its memory given
        // back after a peak (the process's own pages).
        .testTarget(
            name: "DeskKitServerIntegrationTests",
            dependencies: [
                "DeskKitServer", "DeskKitJobStore", "DeskKitPageServer", "DeskKitFetchPolicy", "DeskKitModel",
                "DeskKitTime", "DeskKitTestSupport", "DeskKitServerTestSupport",
                .product(name: "Clocks", package: "swift-clocks", condition: server),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
            ]
        ),
        // A right-to-left card laid out in headless Chromium, its screenshot read with libpng.
        .testTarget(
            name: "DeskKitBrowserIntegrationTests",
            dependencies: ["DeskKitCards", "DeskKitModel", "DeskKitTestSupport", "CPNG"]
        ),
        // libpng, for the screenshots the right-to-left card test reads.
        .systemLibrary(name: "CPNG", path: "Tests/CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // Runs the built `deskkit` executable end to end, as processes.
        .testTarget(
            name: "DeskKitCLIIntegrationTests",
            dependencies: [
                "deskkit", "DeskKitPageServer", "DeskKitServer", "DeskKitTestSupport", "DeskKitCards", "DeskKitModel",
                "DeskKitInvariants",
                .product(name: "Crypto", package: "swift-crypto", condition: command),
                // A real OTLP/HTTP collector for the traces `serve` exports.
                .product(name: "Hummingbird", package: "hummingbird", condition: command),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
