import Clocks
import DeskKitJobStore
import DeskKitModel
import DeskKitPageServer
import DeskKitPreview
import DeskKitServerTestSupport
import DeskKitTestSupport
import DeskKitTime
@testable import DeskKitServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// The image proxy (`GET`/`HEAD /images/{signature}/{url}`) and the site policy, live on 127.0.0.1 (AsyncHTTPClient its client, so that requests run at once), against an
/// origin on 127.0.0.2 serving the real image files of `Corpus/images` — some under a type they are not.
@Suite("Image proxy and site policy")
struct ImageProxyTests {
    static let publicURL = "https://chat-media.example.com"
    static let keys = "first-key-0123456789,second-key-0123456789"
    static let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus/images")

    static func file(_ name: String) -> [UInt8] {
        (try? [UInt8](Data(contentsOf: images.appendingPathComponent(name)))) ?? []
    }

    /// A PNG of 640×400 sent a byte every 20 ms: its first bytes take half a second to show its type, and
    /// requests for it made at once all arrive within that.
    static let slowPNG: [UInt8] =
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [
            0, 0, 2, 0x80, 0, 0, 1, 0x90,
        ]
        + Array(repeating: 7, count: 40)

    /// What the origin was asked: each request's path and headers.
    final class Requests: Sendable {
        let seen = Mutex<[(path: String, headers: [(String, String)], at: ContinuousClock.Instant)]>([])
        func arrival(_ path: String) -> ContinuousClock.Instant? { seen.withLock { $0.first { $0.path == path }?.at } }
        func count(_ path: String) -> Int { seen.withLock { $0.filter { $0.path == path }.count } }
        func headers(_ path: String) -> [(String, String)] {
            seen.withLock { $0.last { $0.path == path }?.headers ?? [] }
        }
    }

    /// A fetcher's configuration that may reach `origin` (on 127.0.0.2) and nothing else private.
    static func fetching(from origin: PageServer) -> FetchConfiguration {
        var fetch = FetchConfiguration()
        fetch.allowedAddresses = [IPAddress(host: "127.0.0.2")!]
        fetch.allowedPorts.insert(origin.port)
        return fetch
    }

    static func origin(_ requests: Requests) async throws -> PageServer {
        try await PageServer.start(host: "127.0.0.2") { path, headers in
            requests.seen.withLock { $0.append((path, headers, .now)) }
            let header: (String) -> String? = { name in headers.first { $0.0.lowercased() == name }?.1 }
            func served(_ name: String, as type: String, _ extra: [(String, String)] = []) -> PageServer.Response {
                .init(headers: [("Content-Type", type)] + extra, body: .bytes(file(name)))
            }
            switch path {
            case "/card.jpg": return served("card.jpg", as: "image/jpeg", [("Cache-Control", "public, max-age=600")])
            case "/card.png": return served("card.png", as: "image/png", [("Cache-Control", "max-age=999999999")])
            case "/card.gif": return served("card.gif", as: "image/gif")
            case "/card.webp": return served("card.webp", as: "application/octet-stream")
            case "/card.avif": return served("card.avif", as: "image/avif")
            case "/icon.ico": return served("icon.ico", as: "image/vnd.microsoft.icon")
            case "/svg-as-png": return served("script.svg", as: "image/png")
            case "/utf16.svg": return served("script-utf16.svg", as: "image/png")
            case "/utf16be.svg": return served("script-utf16be-nobom.svg", as: "image/jpeg")
            case "/html-as-jpeg": return served("page.html", as: "image/jpeg")
            case "/bomb.png": return served("bomb-30000x30000.png", as: "image/png")
            case "/30mb-with-length":
                return .init(
                    headers: [("Content-Type", "image/png")],
                    body: .bytes(file("card.png") + [UInt8](repeating: 0, count: 30_000_000)))
            case "/30mb-without-length":
                return .init(headers: [("Content-Type", "image/png")], body: .endless(chunk: file("card.png")))
            case "/to-loopback": return .redirect("http://127.0.0.1:1/card.png")
            case "/to-metadata": return .redirect("http://[::ffff:169.254.169.254]/latest/meta-data")
            case "/to-localhost": return .redirect("http://localhost/card.png")
            case "/to-file": return .redirect("file:///etc/passwd")
            case "/cookie.png":
                return served("card.png", as: "image/png", [("Set-Cookie", "track=1; Path=/"), ("ETag", "\"v1\"")])
            case "/etag.png":
                if header("if-none-match") == "\"v1\"" { return .init(status: 304, headers: [("ETag", "\"v1\"")]) }
                return served(
                    "card.png", as: "image/png",
                    [("ETag", "\"v1\""), ("Last-Modified", "Tue, 01 Sep 2026 10:00:00 GMT")])
            case "/slow.png", "/slow2.png":
                return .init(
                    headers: [("Content-Type", "image/png")], body: .drip(slowPNG, interval: .milliseconds(20)))
            case "/gone.png": return .init(status: 404)
            case "/logo.svg": return served("script.svg", as: "image/svg+xml")
            case "/svg-page": return .html(#"<title>Logo</title><meta property="og:image" content="/logo.svg">"#)
            case "/bomb-page": return .html(#"<title>Huge</title><meta property="og:image" content="/bomb.png">"#)
            case "/page":
                return .html(
                    #"<title>Order 1138</title><meta property="og:title" content="Parcel 1138"><meta property="og:image" content="/card.png">"#
                )
            default: return .init(status: 404)
            }
        }
    }

    /// Runs `body` against a live server whose proxy and fetcher may reach the origin (127.0.0.2 only).
    func withProxy(
        _ tweak: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestClientProtocol, PageServer, Requests, ImageURLSigner) async throws -> Void
    ) async throws {
        let requests = Requests()
        let origin = try await Self.origin(requests)
        var configuration = ServerConfiguration(apiToken: ServerFixtures.token, apiBase: "http://127.0.0.1:9")
        configuration.fetch.allowedAddresses = [IPAddress(host: "127.0.0.2")!]
        configuration.fetch.allowedPorts.insert(origin.port)
        configuration.apiKeys = try APIKeys(parsing: ServerFixtures.apiKey)
        configuration.operatorKeys = try APIKeys(parsing: ServerFixtures.operatorKey)
        let signer = try ImageURLSigner(keys: Self.keys, publicURL: Self.publicURL)
        configuration.imageProxy = signer
        tweak(&configuration)
        let server = EnrichmentServer(configuration: configuration, store: MemoryJobStore())
        do {
            try await server.makeApplication().test(.ahc()) { client in try await body(client, origin, requests, signer)
            }
        } catch {
            try? await origin.stop()
            throw error
        }
        try await origin.stop()
    }

    /// The path of `url`'s proxied URL under the server.
    static func path(_ signer: ImageURLSigner, _ url: String) -> String {
        String(signer.proxiedURL(for: url).dropFirst(publicURL.count))
    }

    // MARK: Signing

    @Test func signedURLsAreBase64URLOfTheHMACAndTheURLAndEveryKeyVerifies() throws {
        let signer = try ImageURLSigner(keys: Self.keys, publicURL: Self.publicURL + "/")
        let url = "https://cdn.example.org/a%20b/ü.png?x=1&y=2"
        let proxied = signer.proxiedURL(for: url)
        let parts = proxied.dropFirst(Self.publicURL.count).split(separator: "/")
        #expect(parts.count == 3 && parts[0] == "images")
        #expect(!proxied.contains("=") && !proxied.contains("+"))
        #expect(signer.verifiedURL(signature: parts[1], url: parts[2]) == url)
        // The second key verifies what it signed: keys rotate without broken cards.
        let old = try ImageURLSigner(keys: "second-key-0123456789", publicURL: Self.publicURL)
        let oldParts = old.proxiedURL(for: url).split(separator: "/").suffix(2)
        #expect(signer.verifiedURL(signature: oldParts.first!, url: oldParts.last!) == url)
        // An unknown key, another URL, a padded or standard-alphabet spelling: nothing.
        let stranger = try ImageURLSigner(keys: "third-key-0123456789", publicURL: Self.publicURL)
        let strangerParts = stranger.proxiedURL(for: url).split(separator: "/").suffix(2)
        #expect(signer.verifiedURL(signature: strangerParts.first!, url: strangerParts.last!) == nil)
        #expect(
            signer.verifiedURL(signature: parts[1], url: ImageURLSigner.encode(Array("https://x.example/".utf8))[...])
                == nil)
        #expect(signer.verifiedURL(signature: parts[1] + "=", url: parts[2]) == nil)
        // Not http(s): left as it is, and never verified.
        #expect(signer.proxiedURL(for: "data:image/png;base64,AAAA") == "data:image/png;base64,AAAA")
        #expect(signer.proxiedURL(for: "http://") == "http://")
        #expect(signer.verifiedURL(signature: signer.signature(of: "http://")[...], url: "aHR0cDovLw"[...]) == nil)
        let file = "file:///etc/passwd"
        #expect(
            signer.verifiedURL(
                signature: signer.signature(of: file)[...], url: ImageURLSigner.encode(Array(file.utf8))[...]) == nil)
        // Settings: a short key is named by its position, never shown; the public URL must be http(s).
        #expect(throws: ImageProxyError.self) {
            try ImageURLSigner(keys: "long-enough-key-0123,short", publicURL: Self.publicURL)
        }
        #expect((try? ImageURLSigner(keys: "k-0123456789abcdef", publicURL: "chat.example.com")) == nil)
    }

    @Test func configurationNeedsThePublicURLWithTheKeys() throws {
        let base = ["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "app"]
        let keysOnly = base.merging(["DESKKIT_IMAGE_PROXY_KEYS": "k-0123456789abcdef"]) { $1 }
        #expect(throws: ConfigurationError.self) { try ServerConfiguration.resolve(environment: keysOnly) }
        let both = keysOnly.merging(["DESKKIT_PUBLIC_URL": "https://media.example.com/"]) { $1 }
        #expect(try ServerConfiguration.resolve(environment: both).imageProxy?.publicURL == "https://media.example.com")
        #expect(try ServerConfiguration.resolve(environment: base).imageProxy == nil)
        let c = try ServerConfiguration.resolve(
            flags: ["DESKKIT_PREVIEW_HOSTS_DENY": "ads.example,*.tracker.example"], environment: base)
        #expect(c.fetch.sitePolicy.refusal(host: "x.ads.example")?.kind == .policy)
        #expect(c.imageLimits.maxPixels == 50_000_000 && c.imageLimits.maxBytes == 10_000_000)
        #expect(c.imageMaxAge == .seconds(86400))
        let bad = base.merging(["DESKKIT_PREVIEW_HOSTS_ALLOW": "ok.example,not a host"]) { $1 }
        #expect(throws: ConfigurationError.self) { try ServerConfiguration.resolve(environment: bad) }
    }

    // MARK: The route

    @Test func realImagesPassWithTheirExactBytesAndSafeHeaders() async throws {
        try await withProxy { client, origin, _, signer in
            for (name, type) in [
                ("card.jpg", "image/jpeg"), ("card.png", "image/png"), ("card.gif", "image/gif"),
                ("card.webp", "image/webp"), ("card.avif", "image/avif"), ("icon.ico", "image/x-icon"),
            ] {
                try await client.execute(uri: Self.path(signer, "\(origin.baseURL)/\(name)"), method: .get) {
                    response in
                    #expect(response.status == .ok, "\(name)")
                    #expect(response.headers[.contentType] == type, "\(name)")
                    #expect(Array(response.body.readableBytesView) == Self.file(name), "\(name)")
                    #expect(response.headers[.contentLength] == String(Self.file(name).count))
                    #expect(response.headers[.init("X-Content-Type-Options")!] == "nosniff")
                    #expect(
                        response.headers[.contentSecurityPolicy]
                            == "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox")
                    #expect(response.headers[.init("Referrer-Policy")!] == "no-referrer")
                    #expect(response.headers[.setCookie] == nil)
                }
            }
            // The origin's max-age, bounded by the setting (1 day).
            try await client.execute(uri: Self.path(signer, "\(origin.baseURL)/card.jpg"), method: .get) {
                #expect($0.headers[.cacheControl] == "public, max-age=600")
            }
            try await client.execute(uri: Self.path(signer, "\(origin.baseURL)/card.png"), method: .get) {
                #expect($0.headers[.cacheControl] == "public, max-age=86400")
            }
            // HEAD: the same headers, no body.
            try await client.execute(uri: Self.path(signer, "\(origin.baseURL)/card.png"), method: .head) {
                #expect($0.status == .ok)
                #expect($0.headers[.contentType] == "image/png")
                #expect($0.body.readableBytes == 0)
            }
        }
    }

    @Test func whatIsNoImageIsRefusedByItsBytes() async throws {
        try await withProxy { client, origin, _, signer in
            for path in ["/svg-as-png", "/utf16.svg", "/utf16be.svg", "/html-as-jpeg"] {
                try await client.execute(uri: Self.path(signer, origin.baseURL + path), method: .get) { response in
                    #expect(response.status == .unsupportedMediaType, "\(path)")
                    let json = try JSONValue.parse(String(buffer: response.body))
                    #expect(json["error"]?["kind"] == "not_an_image", "\(path)")
                    #expect(response.headers[.contentType] == "application/json")
                    #expect(response.headers[.init("X-Content-Type-Options")!] == "nosniff")
                }
            }
            try await client.execute(uri: Self.path(signer, origin.baseURL + "/bomb.png"), method: .get) { response in
                #expect(response.status == .badGateway)
                let json = try JSONValue.parse(String(buffer: response.body))
                #expect(json["error"]?["kind"] == "too_large")
                #expect(json["error"]?["detail"] == "the image is larger than this server passes on")
            }
            try await client.execute(uri: Self.path(signer, origin.baseURL + "/gone.png"), method: .get) {
                #expect($0.status == .badGateway)
            }
        }
    }

    @Test func theByteCapHoldsWithAndWithoutALength() async throws {
        try await withProxy { client, origin, _, signer in
            try await client.execute(uri: Self.path(signer, origin.baseURL + "/30mb-with-length"), method: .get) {
                #expect($0.status == .badGateway)
                #expect(String(buffer: $0.body).contains("too_large"))
            }
            // Without a length the answer has begun when the cap is passed: it is cut there, never completed.
            var received = 0
            do {
                try await client.execute(uri: Self.path(signer, origin.baseURL + "/30mb-without-length"), method: .get)
                { response in
                    received = response.body.readableBytes
                    #expect(response.status == .ok)
                }
                Issue.record("an answer over the cap was completed (\(received) bytes)")
            } catch {
                #expect(received <= 10_000_000)
            }
        }
    }

    @Test func badSignaturesAnswer404AndNoRequestLeaves() async throws {
        try await withProxy { client, origin, requests, signer in
            let good = Self.path(signer, "\(origin.baseURL)/card.png").split(separator: "/")
            let file = "file:///etc/passwd"
            for path in [
                "/images/\(good[1].dropLast(2))AA/\(good[2])", "/images/\(good[1])/\(good[2].dropLast())",
                "/images/not-base64!/\(good[2])",
                "/images/\(signer.signature(of: file))/\(ImageURLSigner.encode(Array(file.utf8)))",
            ] {
                try await client.execute(uri: path, method: .get) {
                    #expect($0.status == .notFound, "\(path)")
                    #expect($0.headers[.contentSecurityPolicy] != nil)
                }
            }
            #expect(origin.connectionsAccepted == 0)
            #expect(requests.count("/card.png") == 0)
        }
    }

    @Test func redirectsToPrivateAddressesAndDeniedHostsAreRefused() async throws {
        try await withProxy({ $0.fetch.sitePolicy = try! SitePolicy(deny: "localhost", allow: nil) }) {
            client, origin, _, signer in
            try await client.execute(uri: Self.path(signer, origin.baseURL + "/to-file"), method: .get) { response in
                #expect(response.status == .badGateway)
                #expect(String(buffer: response.body).contains("invalid_url"))
            }
            for (path, kind) in [
                ("/to-loopback", "blocked_address"), ("/to-metadata", "blocked_address"), ("/to-localhost", "policy"),
            ] {
                try await client.execute(uri: Self.path(signer, origin.baseURL + path), method: .get) { response in
                    #expect(response.status == .forbidden, "\(path)")
                    let json = try JSONValue.parse(String(buffer: response.body))
                    #expect(json["error"]?["kind"] == .string(kind), "\(path)")
                    // Open to anyone: the kind of refusal, and nothing of what the operator's network resolved.
                    let body = String(buffer: response.body)
                    for secret in ["127.0.0.1", "169.254", "localhost", "\(origin.port)"] {
                        #expect(!body.contains(secret), "\(path) names \(secret): \(body)")
                    }
                }
            }
        }
    }

    @Test func noCookieEitherWayAndConditionalRequestsAre304() async throws {
        try await withProxy { client, origin, requests, signer in
            let headers: HTTPFields = [
                .cookie: "session=secret", .authorization: "Bearer x", .userAgent: "Browser/1",
                .accept: "image/webp,*/*",
                .referer: "https://chat.example.com/conversation/1",
            ]
            try await client.execute(
                uri: Self.path(signer, origin.baseURL + "/cookie.png"), method: .get, headers: headers
            ) {
                #expect($0.status == .ok)
                #expect($0.headers[.setCookie] == nil)
                #expect($0.headers[.eTag] == "\"v1\"")
            }
            let sent = requests.headers("/cookie.png").map { ($0.0.lowercased(), $0.1) }
            #expect(!sent.contains { ["cookie", "authorization", "referer"].contains($0.0) })
            // One Accept for every client (the answer is public to shared caches), not the client's own.
            #expect(
                sent.first { $0.0 == "accept" }?.1 == "image/webp,image/png,image/jpeg,image/gif;q=0.9,image/*;q=0.5")
            #expect(sent.first { $0.0 == "user-agent" }?.1.hasPrefix("DeskKit/") == true)

            try await client.execute(
                uri: Self.path(signer, origin.baseURL + "/etag.png"), method: .get, headers: [.ifNoneMatch: "\"v1\""]
            ) {
                #expect($0.status == .notModified)
                #expect($0.headers[.eTag] == "\"v1\"")
                #expect($0.body.readableBytes == 0)
            }
            try await client.execute(uri: Self.path(signer, origin.baseURL + "/etag.png"), method: .get) {
                #expect($0.status == .ok)
                #expect($0.headers[.lastModified] == "Tue, 01 Sep 2026 10:00:00 GMT")
            }
        }
    }

    @Test func concurrentRequestsForOneImageShareOneFetch() async throws {
        try await withProxy { client, origin, requests, signer in
            let path = Self.path(signer, origin.baseURL + "/slow.png")
            let bodies = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await client.execute(uri: path, method: .get) { Array($0.body.readableBytesView) }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(bodies.count == 6 && bodies.allSatisfy { $0 == Self.slowPNG })
            #expect(requests.count("/slow.png") == 1)
        }
    }

    /// With one fetch to a host at a time, the second image's request reaches the origin only once the first
    /// image's body (sent a byte every 20 ms: over 1.2 s) has been passed on.
    @Test func thePerHostLimitHolds() async throws {
        try await withProxy({ $0.previews.maxConcurrentFetchesPerHost = 1 }) { client, origin, requests, signer in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for name in ["/slow.png", "/slow2.png"] {
                    group.addTask {
                        try await client.execute(uri: Self.path(signer, origin.baseURL + name), method: .get) {
                            #expect(Array($0.body.readableBytesView) == Self.slowPNG)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let (a, b) = (try #require(requests.arrival("/slow.png")), try #require(requests.arrival("/slow2.png")))
            #expect(abs((b - a) / .milliseconds(1)) >= 1000, "the second fetch began \(b - a) after the first")
        }
    }

    @Test func withoutTheSettingsThereIsNoProxy() async throws {
        try await withProxy({ $0.imageProxy = nil }) { client, origin, _, signer in
            try await client.execute(uri: Self.path(signer, origin.baseURL + "/card.png"), method: .get) {
                #expect($0.status == .notFound)
            }
            #expect(origin.connectionsAccepted == 0)
        }
    }

    // MARK: Cards

    @Test func cardsNameTheirImagesThroughTheProxyWhichServesTheirBytes() async throws {
        try await withProxy { client, origin, _, _ in
            let request = ByteBuffer(string: #"{"url": "\#(origin.baseURL)/page"}"#)
            let image = try await client.execute(
                uri: "/v1/preview", method: .post,
                headers: ServerFixtures.authorized.merging([.contentType: "application/json"]), body: request
            ) { response in
                let json = try JSONValue.parse(String(buffer: response.body))
                return try #require(json["previews"]?.arrayValue?.first?["payload"]?["body"]?["image"]?.stringValue)
            }
            #expect(image.hasPrefix(Self.publicURL + "/images/"))
            try await client.execute(uri: String(image.dropFirst(Self.publicURL.count)), method: .get) {
                #expect($0.status == .ok)
                #expect(Array($0.body.readableBytesView) == Self.file("card.png"))
            }
            // What the proxy would refuse is not on the card: no broken image in the widget.
            for (page, why) in [("/svg-page", "SVG"), ("/bomb-page", "30000×30000")] {
                let request = ByteBuffer(string: #"{"url": "\#(origin.baseURL)\#(page)"}"#)
                try await client.execute(
                    uri: "/v1/preview", method: .post,
                    headers: ServerFixtures.authorized.merging([.contentType: "application/json"]), body: request
                ) { response in
                    let item = try JSONValue.parse(String(buffer: response.body))["previews"]?.arrayValue?.first
                    #expect((item?["payload"]?["body"]?["image"]?.stringValue ?? "").isEmpty, "\(page)")
                    #expect(item?["details"]?["image_dropped"]?.stringValue?.contains(why) == true, "\(page)")
                }
            }
        }
    }

    @Test func aWebhooksCardNamesItsImageThroughTheProxy() async throws {
        let fake = FakeSendbird()
        try await fake.start()
        let base = await fake.baseURL
        try await withProxy({ $0.apiBase = base }) { client, origin, _, _ in
            let body = ServerFixtures.webhook(text: "Where is it? \(origin.baseURL)/page")
            var headers: HTTPFields = [.contentType: "application/json"]
            headers[.init("x-sendbird-signature")!] = WebhookSignature.sign(body, token: ServerFixtures.token)
            try await client.execute(
                uri: "/webhooks/sendbird", method: .post, headers: headers, body: ByteBuffer(bytes: body)
            ) {
                #expect($0.status == .ok)
            }
            let puts = try await fake.waitForPuts(1)
            let data = try #require(puts.first?.body["data"]?.stringValue)
            guard
                case .urlPreview(let preview) = DeskPayload.decode(data, customType: DeskPayload.richMessageCustomType)
                    .content
            else {
                Issue.record("no preview in \(data)")
                return
            }
            let image = try #require(preview.image)
            #expect(image.hasPrefix(Self.publicURL + "/images/"))
            try await client.execute(uri: String(image.dropFirst(Self.publicURL.count)), method: .get) {
                #expect(Array($0.body.readableBytesView) == Self.file("card.png"))
            }
        }
        await fake.stop()
    }

    // MARK: Site policy and taking cards back

    @Test func deniedHostsGetNoFetchAndATypedRefusal() async throws {
        try await withProxy({ $0.fetch.sitePolicy = try! SitePolicy(deny: nil, allow: "elsewhere.example") }) {
            client, origin, _, _ in
            let request = ByteBuffer(string: #"{"url": "\#(origin.baseURL)/page"}"#)
            try await client.execute(
                uri: "/v1/preview", method: .post,
                headers: ServerFixtures.authorized.merging([.contentType: "application/json"]), body: request
            ) { response in
                let json = try JSONValue.parse(String(buffer: response.body))
                #expect(json["previews"]?.arrayValue?.first?["error"]?["kind"] == "policy")
            }
            #expect(origin.connectionsAccepted == 0)
            let metrics = try await client.execute(
                uri: "/metrics", method: .get, headers: ServerFixtures.operatorAuthorized
            ) {
                String(buffer: $0.body)
            }
            #expect(metrics.contains(#"deskkit_previews_total{outcome="policy"} 1"#))
        }
    }

    @Test func aCardTakenBackIsFetchedAgain() async throws {
        try await withProxy { client, origin, requests, _ in
            let headers = ServerFixtures.authorized.merging([.contentType: "application/json"])
            let request = ByteBuffer(string: #"{"url": "\#(origin.baseURL)/page"}"#)
            for _ in 0..<2 {
                try await client.execute(uri: "/v1/preview", method: .post, headers: headers, body: request) {
                    #expect($0.status == .ok)
                }
            }
            #expect(requests.count("/page") == 1)
            let query =
                "/v1/previews?url=" + (origin.baseURL + "/page").addingPercentEncoding(
                    withAllowedCharacters: .alphanumerics)!
            try await client.execute(uri: query, method: .delete, headers: ServerFixtures.operatorAuthorized) {
                response in
                #expect(response.status == .ok)
                let json = try JSONValue.parse(String(buffer: response.body))
                #expect(json["memory"] == 1 && json["shared"] == .null)
            }
            try await client.execute(uri: "/v1/preview", method: .post, headers: headers, body: request) {
                #expect($0.status == .ok)
            }
            #expect(requests.count("/page") == 2)
            try await client.execute(
                uri: "/v1/previews", method: .delete, headers: ServerFixtures.operatorAuthorized
            ) {
                #expect($0.status == .badRequest)
            }
            try await client.execute(uri: query, method: .delete) { #expect($0.status == .unauthorized) }
        }
    }

    /// A fetch under way is a child of the downloads' service: when the service is cancelled (the end of a
    /// server's shutdown), the fetch ends with it — its time limit counts on a clock that never moves, so nothing else
    /// can end it — and its request hears why.
    @Test func aShutdownEndsTheFetchesUnderWay() async throws {
        let origin = try await Self.origin(Requests())
        let fetch = Self.fetching(from: origin)
        var limits = ImageLimits()
        limits.maxBytes = 1_000_000_000
        let downloads = ImageDownloads(
            fetcher: PageFetcher(configuration: fetch, clock: ServiceClock(TestClock())), limits: limits, perHost: 1)
        try await withThrowingTaskGroup { service in
            service.addTask { await downloads.run() }
            // An endless image read by no one: its fetch waits for the request, until the service ends.
            let endless = downloads.subscribe(ImageRequest(url: origin.baseURL + "/30mb-without-length"))
            let answer = await endless.head()
            guard case .success = answer else {
                Issue.record("no head: \(answer)")
                service.cancelAll()
                return
            }
            #expect(!endless.hasEnded)
            service.cancelAll()
            try await service.waitForAll()
            #expect(endless.hasEnded, "the fetch ended with the service")
            endless.leave()
        }
        #expect(downloads.count == 0)
        try await origin.stop()
    }

    /// The time limit counts from the request: one whose time went in waiting (for a place, for the service to
    /// start it) is not fetched, and its error names the whole limit, not what was left of it.
    @Test func aRequestWhoseTimeIsSpentIsNotFetched() async throws {
        let requests = Requests()
        let origin = try await Self.origin(requests)
        let fetch = Self.fetching(from: origin)
        var limits = ImageLimits()
        limits.timeout = .seconds(3)
        let fetcher = PageFetcher(configuration: fetch)
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetchImage(
                ImageRequest(url: origin.baseURL + "/30mb-without-length"), limits: limits,
                deadline: fetcher.clock.elapsed() - .milliseconds(1), head: { _ in }, chunk: { _ in })
        }
        #expect(error?.kind == .timeout)
        #expect(error?.detail == "the whole request took longer than 3.0 s")
        #expect(requests.count("/30mb-without-length") == 0)
        try await origin.stop()
    }

    /// A request that reads nothing holds its fetch back (at most 256 KiB wait for it), and the fetch's time limit
    /// still ends it: memory does not grow, and nothing hangs. The limit counts on a clock the test moves once the
    /// head has come, so the head has all the time a loaded machine takes, and the test reads nothing until then.
    @Test func aRequestThatReadsNothingHoldsNoMoreThanItsShare() async throws {
        let requests = Requests()
        let origin = try await Self.origin(requests)
        let fetch = Self.fetching(from: origin)
        let clock = TestClock()
        var limits = ImageLimits()
        limits.timeout = .seconds(10)
        limits.maxBytes = 1_000_000_000
        let fetcher = PageFetcher(configuration: fetch, clock: ServiceClock(clock))
        let downloads = ImageDownloads(fetcher: fetcher, limits: limits, perHost: 4)
        // The downloads run as children of their service, as in the server.
        try await withThrowingTaskGroup { service in
            service.addTask { await downloads.run() }
            let subscription = downloads.subscribe(ImageRequest(url: origin.baseURL + "/30mb-without-length"))
            let answer = await subscription.head()
            guard case .success(let head) = answer else {
                Issue.record("no head: \(answer)")
                service.cancelAll()
                return
            }
            #expect(head.mediaType == "image/png")
            await clock.advance(by: .seconds(10))
            try await until("the time limit ending the fetch held back") { subscription.hasEnded }
            var read = 0
            do {
                while let buffer = try await subscription.next() { read += buffer.readableBytes }
                Issue.record("the body ended without an error")
            } catch let error as FetchError {
                #expect(error.kind == .timeout)
            }
            #expect(
                read <= ImageDownloads.highWater + 512 * 1024, "\(read) bytes were kept for a request reading nothing")
            #expect(downloads.count == 0)
            subscription.leave()
            service.cancelAll()
        }
        try await origin.stop()
    }
}

extension HTTPFields {
    fileprivate func merging(_ other: HTTPFields) -> HTTPFields {
        var fields = self
        fields.append(contentsOf: other)
        return fields
    }
}
