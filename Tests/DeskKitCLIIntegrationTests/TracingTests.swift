import DeskKitPageServer
import DeskKitTestSupport
import Foundation
import Hummingbird
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `deskkit serve` with the standard `OTEL_*` variables: its spans reach a real OTLP/HTTP collector on
/// 127.0.0.1, one trace from the webhook to the Platform API's PUT; `/v1/preview` continues a caller's
/// `traceparent`; the Platform API is told the trace and no page is; log lines name their span. Without the
/// variables, nothing is exported and no trace header goes anywhere.
@Suite("deskkit serve traces")
struct TracingTests {
    /// An OTLP/HTTP collector that keeps every span posted to `/v1/traces` as JSON.
    final class Collector: Sendable {
        struct Span: Sendable {
            var traceID: String
            var spanID: String
            var parentID: String
            var name: String
            var kind: Int
            var attributes: [String: String]
            var isError: Bool
        }

        let spans = Mutex<[Span]>([])
        let posts = Atomic<Int>(0)

        /// Starts it.
        func start() async throws -> GracefulServer {
            let router = Router()
            router.post("/v1/traces") { request, _ -> Response in
                var request = request
                let body = try await request.collectBody(upTo: 16 << 20)
                self.posts.add(1, ordering: .relaxed)
                self.keep(Data(body.readableBytesView))
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: "{}")))
            }
            return try await GracefulServer.start { listening in
                Application(
                    router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: { listening($0.localAddress?.port ?? 0) }, logger: GracefulServer.quietLogger)
            }
        }

        /// OTLP/JSON: `resourceSpans[].scopeSpans[].spans[]`; ids hex, or base64 as protobuf's JSON writes bytes.
        private func keep(_ body: Data) {
            guard let root = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return }
            var found: [Span] = []
            for resource in root["resourceSpans"] as? [[String: Any]] ?? [] {
                for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                    for span in scope["spans"] as? [[String: Any]] ?? [] {
                        var attributes: [String: String] = [:]
                        for attribute in span["attributes"] as? [[String: Any]] ?? [] {
                            guard let key = attribute["key"] as? String,
                                let value = (attribute["value"] as? [String: Any])?.values.first
                            else { continue }
                            attributes[key] = "\(value)"
                        }
                        let status = span["status"] as? [String: Any]
                        found.append(
                            Span(
                                traceID: Self.hex(span["traceId"]), spanID: Self.hex(span["spanId"]),
                                parentID: Self.hex(span["parentSpanId"]), name: span["name"] as? String ?? "",
                                kind: span["kind"] as? Int ?? 0, attributes: attributes,
                                isError: (status?["code"] as? Int) == 2))
                    }
                }
            }
            spans.withLock { $0 += found }
        }

        private static func hex(_ value: Any?) -> String {
            guard let text = value as? String, !text.isEmpty else { return "" }
            if text.count == 32 || text.count == 16, text.allSatisfy(\.isHexDigit) { return text.lowercased() }
            guard let bytes = Data(base64Encoded: text) else { return text }
            return bytes.map { String(format: "%02x", $0) }.joined()
        }

        /// Waits until a span named `name` arrived; the spans then.
        func waitFor(_ name: String) async throws -> [Span] {
            try await until("a span named \(name)") {
                let now = spans.withLock { $0 }
                return now.contains(where: { $0.name == name }) ? now : nil
            }
        }
    }

    /// The headers each request to the page server came with, by path.
    final class Requests: Sendable {
        let seen = Mutex<[(path: String, headers: [String: String])]>([])
        func record(_ path: String, _ headers: [(String, String)]) {
            seen.withLock {
                $0.append(
                    (path, Dictionary(headers.map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { a, _ in a })))
            }
        }
        var all: [(path: String, headers: [String: String])] { seen.withLock { $0 } }
    }

    /// A shop: `/r` redirects to `/order`, whose page points to its picture and its oEmbed answer (the
    /// query holds a token); `/v3/…` is the Platform API.
    static func startSite(_ requests: Requests) async throws -> PageServer {
        let png = try Array(
            Data(contentsOf: CLI.repositoryRoot.appendingPathComponent("Sources/deskkit/Demo/parcel-map.png")))
        return try await PageServer.start { path, headers in
            requests.record(path, headers)
            if path.hasPrefix("/v3/") { return .init(status: 200, body: .bytes(Array("{}".utf8))) }
            if path == "/r" { return .redirect("/order") }
            if path == "/map.png" { return .init(headers: [("Content-Type", "image/png")], body: .bytes(png)) }
            if path.hasPrefix("/oembed") {
                return .init(
                    headers: [("Content-Type", "application/json")],
                    body: .bytes(Array(#"{"version":"1.0","type":"rich","provider_name":"Parcel Shop"}"#.utf8)))
            }
            return .html(
                """
                <html><head><title>Order 1138 — on its way</title>
                <meta property="og:title" content="Order 1138 — on its way">
                <meta property="og:description" content="Your parcel left the depot this morning and arrives tomorrow.">
                <meta property="og:image" content="/map.png">
                <link rel="alternate" type="application/json+oembed" href="/oembed?url=order&amp;token=s3cret">
                </head><body><h1>Order 1138</h1><p>Your parcel left the depot this morning.</p></body></html>
                """)
        }
    }

    /// Runs `deskkit serve` on `site` with `environment` added, sends one webhook and one `/v1/preview`
    /// (with a caller's `traceparent`), waits for the PUT; the server's log.
    static func exercise(site: PageServer, requests: Requests, environment: [String: String]) async throws -> String {
        let (process, port, log) = try await CrashRecoveryTests.serveLogged(
            ["--store", "memory", "--api-base", site.baseURL], in: FileManager.default.temporaryDirectory,
            environment: ["DESKKIT_API_KEYS": Self.apiKey].merging(environment) { $1 })
        defer { if process.isRunning { process.terminate() } }

        let (status, _) = try await CrashRecoveryTests.sendWebhook(id: 77, link: "\(site.baseURL)/r", to: port)
        #expect(status == 200)
        try await until("the message's update at the Platform API") {
            requests.all.contains { $0.path.hasPrefix("/v3/") }
        }
        var preview = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/preview")!)
        preview.httpMethod = "POST"
        preview.httpBody = Data(#"{"url":"\#(site.baseURL)/order?page=2"}"#.utf8)
        preview.setValue("application/json", forHTTPHeaderField: "Content-Type")
        preview.setValue("Bearer \(Self.apiKey)", forHTTPHeaderField: "Authorization")
        preview.setValue(Self.callerParent, forHTTPHeaderField: "traceparent")
        let (_, answer) = try await URLSession.shared.data(for: preview)
        #expect((answer as? HTTPURLResponse)?.statusCode == 200)
        // The last spans are exported when the server stops; its log holds its last lines once it has exited.
        process.interrupt()
        await CLI.exit(of: process)
        return log.text
    }

    static let apiKey = "tracing-test-key-0123456789"
    static let callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let callerSpan = "00f067aa0ba902b7"
    static let callerParent = "00-\(callerTrace)-\(callerSpan)-01"

    @Test func oneTraceFromWebhookToPut() async throws {
        try await HeavyTests.oneAtATime {
            let collector = Collector()
            let collected = try await collector.start()
            try await collected.scoped {
                let endpoint = collected.baseURL
                let requests = Requests()
                let site = try await Self.startSite(requests)
                try await site.scoped {
                    let log = try await Self.exercise(
                        site: site, requests: requests,
                        environment: [
                            "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
                            "OTEL_BSP_SCHEDULE_DELAY": "100",
                        ])
                    let spans = try await collector.waitFor("update message")
                    let names = Set(spans.map(\.name))

                    // One trace from the webhook's server span to the PUT.
                    let webhook = try #require(
                        spans.first { $0.name == "/webhooks/sendbird" }, "spans: \(names.sorted())")
                    #expect(webhook.kind == 2, "a server span")
                    #expect(webhook.attributes["http.response.status_code"] == "200")
                    let trace = spans.filter { $0.traceID == webhook.traceID }
                    for name in [
                        "admit job", "run job", "preview", "fetch", "GET", "extract metadata", "oembed", "probe image",
                        "update message",
                    ] {
                        #expect(
                            trace.contains { $0.name == name },
                            "\(name) in the webhook's trace; spans: \(names.sorted())")
                    }
                    let byID = Dictionary(trace.map { ($0.spanID, $0) }, uniquingKeysWith: { a, _ in a })
                    let run = try #require(trace.first { $0.name == "run job" })
                    #expect(run.kind == 5, "a consumer span")
                    #expect(
                        byID[run.parentID] != nil, "the job's run hangs under the webhook's trace, across the store")
                    #expect(run.attributes["deskkit.job.outcome"] == "updated")
                    // Every span but the webhook's has its parent in the trace.
                    for span in trace where span.spanID != webhook.spanID {
                        #expect(byID[span.parentID] != nil, "\(span.name)'s parent is in the trace")
                    }
                    // The redirect is a hop of its own; each hop a client span.
                    let hops = trace.filter { $0.name == "GET" }
                    #expect(hops.allSatisfy { $0.kind == 3 }, "\(hops)")
                    #expect(hops.contains { $0.attributes["http.response.status_code"] == "302" })
                    #expect(hops.contains { $0.attributes["http.request.resend_count"] == "1" })
                    // No query secret in any span.
                    let oembed = try #require(trace.first { $0.name == "oembed" })
                    #expect(oembed.attributes["url.full"]?.hasSuffix("/oembed?url=REDACTED&token=REDACTED") == true)
                    #expect(!spans.contains { $0.attributes.values.contains { $0.contains("s3cret") } })

                    // The Platform API is told the trace; no page is.
                    let puts = requests.all.filter { $0.path.hasPrefix("/v3/") }
                    #expect(puts.count == 1)
                    let parent = try #require(puts.first?.headers["traceparent"], "the PUT carries traceparent")
                    #expect(parent.split(separator: "-")[1] == webhook.traceID)
                    for request in requests.all where !request.path.hasPrefix("/v3/") {
                        #expect(request.headers["traceparent"] == nil, "\(request.path) got no traceparent")
                        #expect(request.headers["tracestate"] == nil)
                    }

                    // /v1/preview continues the caller's trace.
                    let preview = try #require(spans.first { $0.name == "/v1/preview" })
                    #expect(preview.traceID == Self.callerTrace)
                    #expect(preview.parentID == Self.callerSpan)
                    #expect(spans.contains { $0.traceID == Self.callerTrace && $0.name == "fetch" })

                    // A log line written in a span names it.
                    let enriched = try #require(
                        log.split(separator: "\n").first { $0.contains("message enriched") }, "\(log)")
                    #expect(enriched.contains("trace_id=\(webhook.traceID)"))
                    #expect(enriched.contains("span_id="))
                }
            }
        }
    }

    /// An exporter deskkit does not have is refused at start, named; `none` and `OTEL_SDK_DISABLED` turn tracing off.
    @Test func anExporterOtherThanOTLPIsRefused() async throws {
        // A store that cannot open: a run that gets past tracing stops there.
        let arguments = ["serve", "--port", "0", "--store", "sqlite:/nonexistent-deskkit-dir/state.sqlite"]
        let console = try await CLI.run(
            arguments,
            environment: ["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "app", "OTEL_TRACES_EXPORTER": "console"])
        #expect(console.status == 64)
        #expect(console.stderr.contains("OTEL_TRACES_EXPORTER=console"), "\(console.stderr)")
        for off in [
            ["OTEL_TRACES_EXPORTER": "none"], ["OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "console"],
        ] {
            let result = try await CLI.run(
                arguments, environment: ["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "app"].merging(off) { $1 })
            #expect(result.stderr.contains("cannot open the job store"), "\(off): \(result.stderr)")
            #expect(!result.stderr.contains("swift-otel"), "\(off): no tracer bootstrapped")
        }
    }

    @Test func withoutTheVariablesNothingIsTraced() async throws {
        try await HeavyTests.oneAtATime {
            let requests = Requests()
            let site = try await Self.startSite(requests)
            try await site.scoped {
                let log = try await Self.exercise(site: site, requests: requests, environment: [:])
                #expect(requests.all.contains { $0.path.hasPrefix("/v3/") }, "the message was updated: \(log)")
                for request in requests.all {
                    #expect(request.headers["traceparent"] == nil, "\(request.path) got no traceparent")
                }
                #expect(!log.contains("trace_id="))
            }
        }
    }
}
