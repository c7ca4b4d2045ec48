import Clocks
import DeskKitJobStore
import DeskKitModel
import DeskKitServer
import DeskKitServerTestSupport
import DeskKitTestSupport
import DeskKitTime
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// Who may use the server's APIs: a client key for `/v1/preview` and `/v1/decode` (an operator's opens them too), an
/// operator's or a scraper's for `/metrics`, none for the webhook and `/health`; a rate per key; keys never in a log
/// line. (The kinds of key apart: `AccessKindsTests`.)
@Suite("API keys and rates")
struct APIAccessTests {
    static let key = ServerFixtures.apiKey
    static let second = "second-key_for.rotation~0123+/=="

    /// The routes a client key opens, each with a request body that works.
    static let guarded: [(method: HTTPRequest.Method, uri: String, body: String)] = [
        (.post, "/v1/preview", #"{"text": "no link here"}"#),
        (.post, "/v1/decode", #"{"message_id": 1, "type": "MESG", "message": "hi", "data": ""}"#),
    ]
    /// The operator's key of the test server.
    static let operatorKey = ServerFixtures.operatorKey

    struct Answer {
        var status: HTTPResponse.Status
        var challenge: String?
        var retryAfter: String?
        var error: String?
    }

    static func call(
        _ client: TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, body: String = "",
        authorization: [String] = ["Bearer \(key)"]
    ) async throws -> Answer {
        var headers: HTTPFields = [:]
        for value in authorization { headers.append(.init(name: .authorization, value: value)) }
        return try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: body)) {
            Answer(
                status: $0.status, challenge: $0.headers[.wwwAuthenticate], retryAfter: $0.headers[.retryAfter],
                error: (try? JSONValue.parse(String(buffer: $0.body)))?["error"]?.stringValue)
        }
    }

    @Test func withoutAKeyConfiguredTheAPIsAreClosedAndTheWebhookAndHealthOpen() async throws {
        let records = LogRecords()
        let logger = Logger(label: "capture") { _ in CapturingLogHandler(records: records) }
        try await ServerFixtures.withServer(
            {
                $0.apiKeys = .none; $0.operatorKeys = .none
            }, logger: logger
        ) {
            client, _, pages, _ async throws in
            for route in Self.guarded + [(.get, "/metrics", ""), (.get, "/v1/queue", "")] {
                let answer = try await Self.call(client, route.method, route.uri, body: route.body)
                #expect(answer.status == .unauthorized, "\(route.uri)")
                #expect(answer.challenge == #"Bearer realm="deskkit""#)
                #expect(answer.error?.contains("key configured") == true, "\(answer.error ?? "")")
            }
            let (status, json) = try await ServerFixtures.post(
                client, ServerFixtures.webhook(text: "\(pages.baseURL)/a"))
            #expect(status == .ok && json["status"] == "queued")
            #expect(try await client.execute(uri: "/health", method: .get) { $0.status } == .ok)
        }
        #expect(
            records.lines.filter { $0.contains("no client or operator key configured") }.count == 1,
            "said once, at start")
        #expect(records.lines.filter { $0.contains("no operator key configured") }.count == 1)
    }

    @Test func aKeyOfTheListOpensTheAPIsAndAnythingElseIs401() async throws {
        let records = LogRecords()
        var logger = Logger(label: "capture") { _ in CapturingLogHandler(records: records) }
        logger.logLevel = .trace
        try await ServerFixtures.withServer(
            { $0.apiKeys = try! APIKeys(parsing: " \(Self.key) , \(Self.second)") }, logger: logger
        ) { client, _, _, _ async throws in
            for route in Self.guarded {
                // Either key of the list, the scheme in any case: a key is rotated without downtime.
                for authorization in ["Bearer \(Self.key)", "bearer \(Self.second)", "BEARER   \(Self.key)"] {
                    let answer = try await Self.call(
                        client, route.method, route.uri, body: route.body, authorization: [authorization])
                    #expect(answer.status == .ok, "\(route.uri) with \(authorization)")
                }
                let refusals: [([String], String?)] = [
                    ([], nil),
                    (["Bearer \(Self.key)x"], "invalid_token"),
                    (["Bearer \(Self.key.dropLast())"], "invalid_token"),
                    (["Bearer wrong-key-of-the-right-length"], "invalid_token"),
                    (["Basic dXNlcjpwYXNz"], "invalid_request"),
                    (["Bearer"], "invalid_request"),
                    (["Bearer "], "invalid_request"),
                    (["Bearer \(Self.key) extra"], "invalid_request"),
                    (["Bearer \(Self.key),\(Self.second)"], "invalid_request"),
                    (["Bearer=\(Self.key)"], "invalid_request"),
                    (["\(Self.key)"], "invalid_request"),
                    (["Bearer \(Self.key)", "Bearer \(Self.second)"], "invalid_request"),
                    (["Bearer \u{00e9}\(Self.key)"], "invalid_request"),
                ]
                for (authorization, error) in refusals {
                    let answer = try await Self.call(
                        client, route.method, route.uri, body: route.body, authorization: authorization)
                    #expect(answer.status == .unauthorized, "\(route.uri) with \(authorization)")
                    #expect(
                        answer.challenge == #"Bearer realm="deskkit""# + (error.map { #", error="\#($0)""# } ?? ""),
                        "\(route.uri) with \(authorization)")
                    #expect(answer.error?.isEmpty == false)
                    #expect(answer.error?.contains(Self.key) == false, "the answer never echoes a key")
                }
                // A key in the URL is refused even with a good header: logs and proxies keep URLs.
                for query in ["access_token", "api_key", "KEY", "token"] {
                    let answer = try await Self.call(
                        client, route.method, "\(route.uri)?\(query)=\(Self.key)", body: route.body)
                    #expect(answer.status == .unauthorized)
                    #expect(answer.challenge?.contains("invalid_request") == true)
                    #expect(answer.error?.contains("never in the URL") == true)
                }
            }
            let metrics = try await client.execute(
                uri: "/metrics", method: .get, headers: ServerFixtures.operatorAuthorized
            ) {
                String(buffer: $0.body)
            }
            #expect(metrics.contains(#"deskkit_http_requests_total{route="/v1/decode",status="401"}"#))
        }
        #expect(!records.lines.isEmpty)
        #expect(!records.lines.contains { $0.contains(Self.key) || $0.contains(Self.second) }, "no key in a log line")
    }

    @Test func eachKeyHasItsOwnRateAndTheWebhookAndMetricsHaveNone() async throws {
        // The rate is counted on a clock the test moves: the burst, and nothing more until a second has passed.
        let clock = TestClock()
        try await ServerFixtures.withServer(
            {
                $0.apiKeys = try! APIKeys(parsing: "\(Self.key),\(Self.second)")
                $0.rateLimit.perSecond = 1
                $0.rateLimit.burst = 3
            }, clock: ServiceClock(clock)
        ) { client, _, pages, _ async throws in
            let decode = Self.guarded[1]
            // The burst, then a refusal: the two routes share the key's bucket.
            for answered in 0..<3 {
                let route = Self.guarded[answered % 2]
                #expect(try await Self.call(client, route.method, route.uri, body: route.body).status == .ok)
            }
            var limited = try await Self.call(client, .post, "/v1/decode", body: decode.body)
            #expect(limited.status == .tooManyRequests)
            await clock.advance(by: .milliseconds(999))
            #expect(try await Self.call(client, .post, "/v1/decode", body: decode.body).status == .tooManyRequests)
            await clock.advance(by: .milliseconds(1))
            #expect(try await Self.call(client, .post, "/v1/decode", body: decode.body).status == .ok, "a second on")
            limited = try await Self.call(client, .post, "/v1/decode", body: decode.body)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.retryAfter == "1")
            #expect(limited.error?.contains("1 requests a second") == true)
            // The other key has its own bucket; the metrics and the webhook are not limited.
            let other = "Bearer \(Self.second)"
            #expect(
                try await Self.call(client, .post, "/v1/decode", body: decode.body, authorization: [other]).status
                    == .ok)
            let operatorKey = ["Bearer \(Self.operatorKey)"]
            for _ in 1...5 {
                #expect(try await Self.call(client, .get, "/metrics", authorization: operatorKey).status == .ok)
            }
            for id in Int64(1)...5 {
                let (status, _) = try await ServerFixtures.post(
                    client, ServerFixtures.webhook(id: id, text: "\(pages.baseURL)/a/\(id)"))
                #expect(status == .ok)
            }
            // A second later the bucket has a token again.
            await clock.advance(by: .seconds(1))
            #expect(try await Self.call(client, .post, "/v1/decode", body: decode.body).status == .ok)
            let metrics = try await Self.call(client, .get, "/metrics", authorization: operatorKey)
            #expect(metrics.status == .ok)
        }
    }

    @Test func oneRequestPreviewsAtMostTheLinksPerMessage() async throws {
        try await ServerFixtures.withServer { client, _, pages, _ async throws in
            let text = (1...8).map { "\(pages.baseURL)/p/\($0)" }.joined(separator: " and ")
            let previews = try await client.execute(
                uri: "/v1/preview", method: .post, headers: ServerFixtures.authorized,
                body: ByteBuffer(string: #"{"text": "\#(text)"}"#)
            ) { try JSONValue.parse(String(buffer: $0.body))["previews"]?.arrayValue ?? [] }
            #expect(previews.count == 3)
            #expect(previews.map { $0["url"]?.stringValue } == (1...3).map { "\(pages.baseURL)/p/\($0)" })
        }
    }

    @Test func bucketsFillAtTheRateUpToTheBurst() async throws {
        var configuration = RateLimiter.Configuration()
        configuration.perSecond = 2
        configuration.burst = 3
        let clock = TestClock()
        let limiter = RateLimiter(configuration: configuration, clock: ServiceClock(clock))
        let keys = try APIKeys(parsing: "first-key-of-the-two,second-key-of-the-two")
        let first = try #require(keys.match(Array("first-key-of-the-two".utf8)))
        let second = try #require(keys.match(Array("second-key-of-the-two".utf8)))
        for _ in 1...3 { #expect(limiter.take(for: first) == nil) }
        #expect(limiter.take(for: first) == .milliseconds(500))
        #expect(limiter.take(for: second) == nil, "another key, another bucket")
        await clock.advance(by: .milliseconds(500))
        #expect(limiter.take(for: first) == nil)
        #expect(limiter.take(for: first) != nil)
        // A long quiet fills the bucket to the burst, not beyond.
        await clock.advance(by: .seconds(3600))
        for _ in 1...3 { #expect(limiter.take(for: first) == nil) }
        #expect(limiter.take(for: first) != nil)
        // No rate: no limit.
        configuration.perSecond = 0
        let open = RateLimiter(configuration: configuration, clock: ServiceClock(clock))
        for _ in 1...100 { #expect(open.take(for: first) == nil) }
    }

    @Test func keyListsAreCheckedAtStartWithoutShowingAKey() throws {
        let base = ["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "a"]
        func problem(_ keys: String, flag: Bool = false) -> String? {
            do {
                _ = try ServerConfiguration.resolve(
                    flags: flag ? ["DESKKIT_API_KEYS": keys] : [:],
                    environment: flag ? base : base.merging(["DESKKIT_API_KEYS": keys]) { $1 })
                return nil
            } catch { return error.description }
        }
        let long = "k" + String(repeating: "x", count: 20)
        #expect(
            problem("\(long),,\(long)")
                == "DESKKIT_API_KEYS key 2 of 3 is empty (keys are separated by commas, none blank)")
        #expect(
            problem("\(long),") == "DESKKIT_API_KEYS key 2 of 2 is empty (keys are separated by commas, none blank)")
        #expect(problem("  ")?.hasPrefix("DESKKIT_API_KEYS the key is empty") == true)
        #expect(problem("short-key") == "DESKKIT_API_KEYS the key has 9 characters; at least 16")
        #expect(
            problem("\(long), has space inside it")
                == "DESKKIT_API_KEYS key 2 of 2 has a character other than letters, digits and -._~+/ (then = padding)")
        #expect(problem("\(long)=x")?.contains("other than letters") == true)
        #expect(problem(String(repeating: "k", count: 513))?.contains("over 512") == true)
        #expect(problem("\(long),short", flag: true)?.hasPrefix("--api-keys key 2 of 2 has 5 characters") == true)
        for keys in ["\(long),,\(long)", "short-key", "\(long), has space inside it"] {
            #expect(problem(keys)?.contains(long) == false && problem(keys)?.contains("short-key") == false)
        }
        let c = try ServerConfiguration.resolve(
            environment: base.merging(["DESKKIT_API_KEYS": " \(long) ,\(long)2 "]) { $1 })
        #expect(c.apiKeys.count == 2)
        #expect(c.apiKeys.match(Array(long.utf8))?.position == 1)
        #expect(c.apiKeys.match(Array("\(long)2".utf8))?.position == 2)
        #expect(c.apiKeys.match(Array("\(long)2".utf8))?.description == "client key 2")
        #expect(c.apiKeys.match(Array(" \(long)".utf8)) == nil)
        #expect(!c.description.contains(long) && c.description.contains("2 API keys"))
        // Not set, or set empty: no key, the APIs closed.
        #expect(try ServerConfiguration.resolve(environment: base).apiKeys.count == 0)
        #expect(
            try ServerConfiguration.resolve(environment: base.merging(["DESKKIT_API_KEYS": ""]) { $1 }).apiKeys.count
                == 0)
        #expect(try ServerConfiguration.resolve(environment: base).rateLimit == RateLimiter.Configuration())
        #expect(problem("x", flag: false) != nil)
    }
}

/// An application's own request context, with a field of its own: the server's routes mount in it.
struct TenantContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var tenant: String?
    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}

struct RouterContextTests {
    /// `makeRouter(context:)` is generic over the request context: an application with a context of its own
    /// (here with a field of its own) mounts the routes, their key check included.
    @Test func theRoutesRunInAnApplicationsOwnContext() async throws {
        var configuration = ServerConfiguration(apiToken: "token", apiBase: "http://127.0.0.1:9")
        configuration.apiKeys = try APIKeys(parsing: APIAccessTests.key)
        let server = EnrichmentServer(configuration: configuration, store: MemoryJobStore())
        let router = server.makeRouter(context: TenantContext.self)
        let app = Application(router: router)
        try await app.test(.router) { client in
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            let decode = #"{"message_id": 1, "type": "MESG", "message": "hi", "data": ""}"#
            #expect(try await APIAccessTests.call(client, .post, "/v1/decode", body: decode).status == .ok)
            let refused = try await APIAccessTests.call(client, .post, "/v1/decode", body: decode, authorization: [])
            #expect(refused.status == .unauthorized)
        }
    }
}

struct MetricsBackendTests {
    /// The server counts through any swift-metrics factory, each event once where it happens: the requests
    /// by route and status, a fetch's error by kind (at the fetch). `GET /metrics` is Prometheus' and answers
    /// 404 when another backend has the metrics.
    @Test func anyBackendGetsTheCountsAndMetricsIsPrometheusOnly() async throws {
        let metrics = TestMetrics()
        var configuration = ServerConfiguration(apiToken: "token", apiBase: "http://127.0.0.1:9")
        configuration.apiKeys = try APIKeys(parsing: APIAccessTests.key)
        configuration.operatorKeys = try APIKeys(parsing: APIAccessTests.operatorKey)
        let server = EnrichmentServer(
            configuration: configuration, store: MemoryJobStore(), metrics: ServerMetrics(factory: metrics))
        try await server.makeApplication().test(.router) { client in
            let decode = #"{"message_id": 1, "type": "MESG", "message": "hi", "data": ""}"#
            #expect(try await APIAccessTests.call(client, .post, "/v1/decode", body: decode).status == .ok)
            let blocked = #"{"url": "http://10.0.0.1/"}"#
            #expect(try await APIAccessTests.call(client, .post, "/v1/preview", body: blocked).status == .ok)
            _ = try await APIAccessTests.call(client, .post, "/v1/preview", body: blocked)  // from the cache
            #expect(
                try await APIAccessTests.call(
                    client, .get, "/metrics", authorization: ["Bearer \(APIAccessTests.operatorKey)"]
                ).status == .notFound)
        }
        #expect(metrics.total("deskkit_http_requests_total", [("route", "/v1/decode"), ("status", "200")]) == 1)
        #expect(metrics.total("deskkit_preview_requests_total") == 2)
        #expect(metrics.total("deskkit_preview_cache_hits_total") == 1)
        #expect(metrics.total("deskkit_fetch_errors_total", [("kind", "blocked_address")]) == 1)
    }
}
