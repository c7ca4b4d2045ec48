import DeskKitFetchPolicy
import DeskKitJobStore
import DeskKitModel
import DeskKitPageServer
import DeskKitServer
import DeskKitTestSupport
import DeskKitTime
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore

/// The server tests' harness: a server on a fake Sendbird Platform API and a page server (``withServer(_:logger:handBack:store:clock:_:)``),
/// its keys, what it serves and what the tests send it (a Sendbird webhook and its signed POST), and what they read
/// back (`/metrics`, `/health`).
package enum ServerFixtures {
    /// The Platform API token the servers of the tests are given (and sign webhooks with).
    package static let token = "test-api-token-0123456789"
    /// A page with an OpenGraph card whose picture is `/map.png`.
    package static let page = """
        <html><head><title>Order 1138</title><meta property="og:title" content="Parcel 1138 is on its way">
        <meta property="og:description" content="Arrives Tuesday"><meta property="og:image" content="/map.png"></head></html>
        """

    /// A Sendbird webhook's body.
    package static func webhook(
        category: String = SendbirdWebhook.messageSend, id: Int64 = 1001, text: String, type: String = "MESG",
        customType: String = "", data: String = ""
    ) -> [UInt8] {
        var writer = JSONWriter()
        writer.write([
            "category": .string(category), "type": .string(type), "app_id": "APP-1", "custom_type": .string(customType),
            "sender": ["user_id": "cust-ann", "nickname": "Ann"],
            "payload": [
                "message_id": .integer(id), "message": .string(text), "custom_type": .string(customType),
                "data": .string(data), "created_at": 1_700_000_000_000,
            ],
            "channel": ["channel_url": "sendbird_group_channel_1138", "name": "Order 1138"],
        ])
        return writer.bytes
    }

    /// POSTs `body` to `/webhooks/sendbird`, signed with ``token`` unless `signature` says otherwise (`nil`: no
    /// header); returns the status and the JSON answer.
    @discardableResult
    package static func post(
        _ client: TestClientProtocol, _ body: [UInt8], signature: String?? = .none
    ) async throws -> (HTTPResponse.Status, JSONValue) {
        var headers: HTTPFields = [.contentType: "application/json"]
        switch signature {
        case .none: headers[.init("x-sendbird-signature")!] = WebhookSignature.sign(body, token: token)
        case .some(.some(let s)): headers[.init("x-sendbird-signature")!] = s
        case .some(.none): break
        }
        return try await client.execute(
            uri: "/webhooks/sendbird", method: .post, headers: headers, body: ByteBuffer(bytes: body)
        ) {
            ($0.status, (try? JSONValue.parse(String(buffer: $0.body))) ?? .null)
        }
    }

    /// The API key the servers of these tests accept.
    /// A client key: a chat backend's.
    package static let apiKey = "test-api-key-abcdefghijklmnop"
    /// The `Authorization` header with ``apiKey``.
    package static let authorized: HTTPFields = [.authorization: "Bearer \(apiKey)"]
    /// The operator's key, named "ops": the console's routes and the metrics.
    package static let operatorKey = "test-operator-key-abcdefghijk"
    /// The `Authorization` header with ``operatorKey``.
    package static let operatorAuthorized: HTTPFields = [.authorization: "Bearer \(operatorKey)"]
    /// The page's picture: a PNG of 640×400 (its first bytes are what the probe reads).
    package static let mapPNG: [UInt8] =
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [
            0, 0, 2, 0x80, 0, 0, 1, 0x90,
        ]
        + Array(repeating: 0, count: 64)

    /// Runs `body` with a server whose API base is a fake Sendbird and whose fetcher may reach the page server;
    /// returns the fake, for what it recorded by the end (after the server's shutdown).
    @discardableResult
    package static func withServer(
        _ tweak: (inout ServerConfiguration) -> Void = { _ in }, logger: Logger = Logger(label: "test"),
        handBack: EnrichmentQueue.HandBack? = nil, store: (any JobStore)? = nil, clock: ServiceClock = .system,
        _ body: @Sendable (TestClientProtocol, FakeSendbird, PageServer, EnrichmentServer) async throws -> Void
    ) async throws -> FakeSendbird {
        let fake = FakeSendbird()
        try await fake.start()
        let pages = try await PageServer.start(host: "127.0.0.1") { path in
            switch path {
            case "/missing": .init(status: 404)
            // A bot check (Cloudflare's header) and a login wall: no card, a refusal each.
            case "/challenge":
                .init(
                    status: 403, headers: [("Content-Type", "text/html"), ("cf-mitigated", "challenge")],
                    body: .bytes(Array("<title>Just a moment...</title>".utf8)))
            case "/orders/7": .html("<title>Sign in</title><form><input type=password></form>")
            // Served with 200 and nothing on it: no card with nothing in it.
            case "/blank": .html("<html><head></head><body><div></div></body></html>")
            case "/silent": .init(body: .silent)  // accepts the connection and never answers
            case "/map.png": .init(headers: [("Content-Type", "image/png")], body: .bytes(Self.mapPNG))
            // A page whose own tags leave its title to its oEmbed answer.
            case "/video":
                .html(
                    #"<title>Watch</title><meta name="description" content="A clip"><link rel="alternate" type="application/json+oembed" href="/oembed.json">"#
                )
            case "/oembed.json":
                .init(
                    headers: [("Content-Type", "application/json")],
                    body: .bytes(
                        Array(
                            #"{"type": "video", "version": "1.0", "title": "Unboxing the parcel", "provider_name": "ClipHost", "html": "<iframe></iframe>", "width": 640, "height": 360}"#
                                .utf8)))
            case "/pixel": .html(#"<title>Tracked</title><meta property="og:image" content="/px.gif">"#)
            case "/px.gif":
                .init(
                    headers: [("Content-Type", "image/gif")],
                    body: .bytes(Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + Array(repeating: 0, count: 30)))
            default: .html(ServerFixtures.page)
            }
        }
        var configuration = ServerConfiguration(apiToken: ServerFixtures.token, apiBase: await fake.baseURL)
        configuration.fetch.allowedAddresses = [IPAddress(host: "127.0.0.1")!]
        configuration.fetch.allowedPorts.insert(pages.port)
        configuration.retry.firstDelay = .milliseconds(10)
        configuration.queue.pollInterval = .milliseconds(50)
        configuration.queue.shutdownGrace = .seconds(5)
        configuration.apiKeys = try APIKeys(parsing: Self.apiKey)
        configuration.operatorKeys = try APIKeys(parsing: "ops:\(Self.operatorKey)")
        // No rate limit: tests look at the API until a state is reached (`until`), faster than a key's 20 a second
        // (a console test's retry was answered 429 on CI). The limiter's own tests set one.
        configuration.rateLimit.perSecond = 0
        configuration.inspectRate.perSecond = 0
        tweak(&configuration)
        let server = EnrichmentServer(
            configuration: configuration, store: store ?? MemoryJobStore(configuration: configuration.memory),
            logger: logger, handBack: handBack, clock: clock)
        try await Self.test(server, fake, pages) { client in try await body(client, fake, pages, server) }
        return fake
    }

    /// Runs `body` against `server`'s routes, then stops the fake Platform API and the page server, whatever
    /// `body` did.
    package static func test(
        _ server: EnrichmentServer, _ fake: FakeSendbird, _ pages: PageServer,
        _ body: @Sendable (TestClientProtocol) async throws -> Void
    ) async throws {
        do {
            try await server.makeApplication().test(.router, body)
        } catch {
            await fake.stop()
            try? await pages.stop()
            throw error
        }
        await fake.stop()
        try await pages.stop()
    }

    /// `/metrics`, once it shows `line` (the work behind an answered webhook happens afterwards).
    package static func metrics(_ client: TestClientProtocol, once line: String) async throws -> String {
        try await until("/metrics showing \(line)") {
            let text = try await metrics(client)
            return text.contains(line) ? text : nil
        }
    }

    /// `/metrics` now.
    package static func metrics(_ client: TestClientProtocol) async throws -> String {
        try await client.execute(uri: "/metrics", method: .get, headers: operatorAuthorized) { String(buffer: $0.body) }
    }

    /// The jobs by state, as `/health` shows them (`queued`, `running`, `done`, `failed`).
    package static func jobs(_ client: TestClientProtocol) async throws -> JSONValue {
        try await client.execute(uri: "/health", method: .get) {
            (try? JSONValue.parse(String(buffer: $0.body))) ?? .null
        }[
            "jobs"] ?? .null
    }

    /// Whether the queue holds nothing that could still call the Platform API: no job queued or running.
    /// (A job done or failed is never run again by itself: checked this way, "nothing more happens" needs no wait.)
    package static func idle(_ client: TestClientProtocol) async throws -> Bool {
        let jobs = try await jobs(client)
        return jobs["queued"] == 0 && jobs["running"] == 0
    }

    // MARK: Signature
}
