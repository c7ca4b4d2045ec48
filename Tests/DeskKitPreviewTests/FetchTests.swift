import Synchronization
import DeskKitTime
import DeskKitTestSupport
import Clocks
import DeskKitModel
import DeskKitPageServer
@testable import DeskKitPreview
import Foundation
import NIOHTTP1
import NIOHTTPCompression
import NIOSSL
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Testing

/// The test web server: on 127.0.0.2, so that a redirect to 127.0.0.1 is a redirect elsewhere.
enum TestServer {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let address = IPAddress.v4(0x7F00_0002)

    static func start() async throws -> PageServer {
        try await PageServer.start(host: "127.0.0.2") { path in route(path) }
    }

    static func route(_ path: String) -> PageServer.Response {
        let og =
            #"<html><head><meta property="og:title" content="OG page"><meta property="og:description" content="D"><meta property="og:image" content="/i.png"></head><body>"#
        switch path {
        case "/page": return .html(og + "</body></html>")
        case "/sjis":
            let html = #"<html><head><title>日本語のページ</title></head><body><p>本文</p></body></html>"#
            return PageServer.Response(
                headers: [("Content-Type", "text/html; charset=Shift_JIS")], body: .bytes(sjis(html)))
        case "/koi8":
            let bytes: [UInt8] =
                Array("<html><head><title>".utf8) + [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4]
                + Array("</title></head></html>".utf8)
            return PageServer.Response(headers: [("Content-Type", "text/html; charset=koi8-r")], body: .bytes(bytes))
        case let p where p.hasPrefix("/redirect/"):
            let n = Int(p.dropFirst("/redirect/".count)) ?? 0
            return n == 0 ? .redirect("/page") : .redirect("/redirect/\(n - 1)", status: n % 2 == 0 ? 301 : 307)
        case "/loop": return .redirect("/loop")
        case "/to-loopback": return .redirect("http://127.0.0.1/page")
        case "/to-metadata": return .redirect("http://169.254.169.254/latest/meta-data/")
        case "/to-mapped": return .redirect("http://[::ffff:127.0.0.1]/page")
        case "/to-decimal": return .redirect("http://2130706433/page")
        case "/drip":
            return PageServer.Response(
                headers: [("Content-Type", "text/html")],
                body: .drip(Array((og + String(repeating: " ", count: 100)).utf8), interval: .milliseconds(100)))
        case "/endless":
            return PageServer.Response(
                headers: [("Content-Type", "text/html")],
                body: .endless(chunk: Array(String(repeating: "<div>filler filler filler</div>", count: 500).utf8)))
        case "/endless-after-head":
            return PageServer.Response(
                headers: [("Content-Type", "text/html")], body: .endless(chunk: Array((og + "</body>").utf8)))
        case "/bomb": return gzip("bomb.html.gz")
        case "/zipped": return gzip("page.html.gz")
        case "/archive.zip":
            return PageServer.Response(
                headers: [("Content-Type", "application/zip")], body: .bytes(Array("PK\u{3}\u{4}".utf8)))
        case "/image.png":
            return PageServer.Response(
                headers: [("Content-Type", "image/png")], body: .bytes(MediaFiles.png(64, 48)))
        case "/missing":
            return PageServer.Response(
                status: 404, headers: [("Content-Type", "text/html")], body: .bytes(Array("<title>404</title>".utf8)))
        case "/broken": return PageServer.Response(status: 500)
        case "/huge-headers":
            return PageServer.Response(
                headers: [("Content-Type", "text/html")]
                    + (0..<70).map { ("X-Filler-\($0)", String(repeating: "x", count: 1000)) },
                body: .bytes(Array(og.utf8)))
        default: return PageServer.Response(status: 404)
        }
    }

    static func gzip(_ file: String) -> PageServer.Response {
        let bytes = [UInt8]((try? Data(contentsOf: fixtures.appendingPathComponent(file))) ?? Data())
        return PageServer.Response(
            headers: [("Content-Type", "text/html"), ("Content-Encoding", "gzip")], body: .bytes(bytes))
    }

    static func sjis(_ s: String) -> [UInt8] {
        [UInt8](s.data(using: .shiftJIS) ?? Data(s.utf8))
    }

    /// A configuration that lets this server (and only it) past the guard.
    static func configuration(_ server: PageServer) -> FetchConfiguration {
        var c = FetchConfiguration()
        c.allowedAddresses = [address]
        c.allowedPorts = [server.port, 80]
        return c
    }

    /// A clock that never moves, for a fetcher whose limits are not the test's subject: no limit of a fetch runs
    /// out on it (AsyncHTTPClient's connect time-out, on real time, is not set on a clock other than the system's),
    /// so a slow answer on a loaded machine is slow, not a time-out; a fetch that hangs ends at its suite's time
    /// limit. A test of a limit moves a `TestClock` of its own.
    static var still: ServiceClock { ServiceClock(TestClock()) }
}

func expectFailure(
    _ kind: FetchError.Kind, _ body: () async throws(FetchError) -> FetchedPage,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    do {
        let page = try await body()
        Issue.record("expected \(kind), got a page at \(page.finalURL)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
    }
}

@Suite("Fetching against a real server on 127.0.0.2", .serialized, .timeLimit(.minutes(10)))
struct FetchTests {
    @Test func fetchesAndExtracts() async throws {
        let server = try await TestServer.start()
        try await server.scoped {
            let fetcher = PageFetcher(configuration: TestServer.configuration(server), clock: TestServer.still)
            let page = try await fetcher.fetch(server.baseURL + "/page")
            #expect(page.metadata?.title == "OG page")
            #expect(page.metadata?.image == server.baseURL + "/i.png")
            let sjis = try await fetcher.fetch(server.baseURL + "/sjis")
            #expect(sjis.metadata?.title == "日本語のページ")
            #expect(sjis.metadata?.charset.source == .httpHeader)
            let koi8 = try await fetcher.fetch(server.baseURL + "/koi8")
            #expect(koi8.metadata?.title == "Привет")
            let zipped = try await fetcher.fetch(server.baseURL + "/zipped")
            #expect(zipped.metadata?.title == "Zipped")
            let image = try await fetcher.fetch(server.baseURL + "/image.png")
            #expect(image.isImage)
        }
    }

    /// The page's title is the User-Agent the server saw: the default names DeskKit, its version and a URL;
    /// an operator's replaces it.
    @Test func theUserAgentIsDeskKitsOrTheOperatorsOwn() async throws {
        let server = try await PageServer.start(host: "127.0.0.2") { _, headers in
            let agents = headers.filter { $0.0.lowercased() == "user-agent" }.map(\.1)
            return .html("<title>\(agents.joined(separator: " | "))</title>")
        }
        try await server.scoped {
            var configuration = TestServer.configuration(server)
            let page = try await PageFetcher(configuration: configuration, clock: TestServer.still).fetch(
                server.baseURL + "/")
            #expect(page.metadata?.title == FetchConfiguration.defaultUserAgent)
            #expect(FetchConfiguration.defaultUserAgent.hasPrefix("DeskKit/\(DeskKitVersion.current) (+https://"))
            configuration.userAgent = "AcmeSupportBot/2.0 (+https://acme.example/bot)"
            let own = try await PageFetcher(configuration: configuration, clock: TestServer.still).fetch(
                server.baseURL + "/")
            #expect(own.metadata?.title == "AcmeSupportBot/2.0 (+https://acme.example/bot)")
            #expect(!FetchConfiguration.isValidUserAgent("a\r\nX-Injected: 1"))
            #expect(!FetchConfiguration.isValidUserAgent(""))
            #expect(FetchConfiguration.isValidUserAgent("Mozilla/5.0 (compatible; DeskKit)"))
        }
    }

    @Test func theDefaultPolicyRefusesTheTestServerItself() async throws {
        let server = try await TestServer.start()
        try await server.scoped {
            var c = FetchConfiguration()
            c.allowedPorts = [server.port]
            await expectFailure(.blockedAddress) { () async throws(FetchError) in
                try await PageFetcher(configuration: c, clock: TestServer.still).fetch(server.baseURL + "/page")
            }
            var ports = TestServer.configuration(server)
            ports.allowedPorts = [80, 443]
            await expectFailure(.blockedAddress) { () async throws(FetchError) in
                try await PageFetcher(configuration: ports, clock: TestServer.still).fetch(server.baseURL + "/page")
            }
        }
    }

    @Test func redirectsAreFollowedAndEachHopChecked() async throws {
        let server = try await TestServer.start()
        try await server.scoped {
            let fetcher = PageFetcher(configuration: TestServer.configuration(server), clock: TestServer.still)
            let page = try await fetcher.fetch(server.baseURL + "/redirect/4")
            #expect(page.finalURL == server.baseURL + "/page")
            await expectFailure(.tooManyRedirects) { () async throws(FetchError) in
                try await fetcher.fetch(server.baseURL + "/redirect/6")
            }
            await expectFailure(.tooManyRedirects) { () async throws(FetchError) in
                try await fetcher.fetch(server.baseURL + "/loop")
            }
            for hop in ["/to-loopback", "/to-metadata", "/to-mapped", "/to-decimal"] {
                await expectFailure(.blockedAddress) { () async throws(FetchError) in
                    try await fetcher.fetch(server.baseURL + hop)
                }
            }
        }
    }

    /// Failures are classified by the error's type: TLS spoken to a server that answers in plain HTTP is a
    /// `tls` failure, and an answer that is not HTTP a `connection` one.
    @Test func failuresAreClassifiedByType() async throws {
        let server = try await TestServer.start()
        try await server.scoped {
            let fetcher = PageFetcher(configuration: TestServer.configuration(server), clock: TestServer.still)
            await expectFailure(.tls) { () async throws(FetchError) in
                try await fetcher.fetch(server.baseURL.replacingOccurrences(of: "http://", with: "https://") + "/page")
            }
            #expect(PageFetcher.map(HTTPParserError.invalidVersion).kind == .connection)
            #expect(PageFetcher.map(HTTPParserError.headerOverflow).kind == .tooLarge)
            #expect(PageFetcher.map(NIOHTTPDecompression.DecompressionError.limit).kind == .tooLarge)
            #expect(PageFetcher.map(NIOSSLError.handshakeFailed(.sslError([]))).kind == .tls)
        }
    }

    @Test func limits() async throws {
        let drips = Atomic(0)
        let server = try await PageServer.start(host: "127.0.0.2") { path in
            if path == "/drip" { drips.add(1, ordering: .relaxed) }
            return TestServer.route(path)
        }
        try await server.scoped {
            var c = TestServer.configuration(server)
            c.maxBodyBytes = 100_000
            c.totalTimeout = .seconds(30)
            // The time limits count on a clock the test moves: a loaded machine cannot turn a check into a time-out.
            let clock = TestClock()
            let fetcher = PageFetcher(configuration: c, clock: ServiceClock(clock))
            // The total timeout: a slow-drip server (about 40 s of page) cannot hold the request past it.
            var short = c
            short.totalTimeout = .seconds(1)
            let dripping = Task { () async -> FetchError? in
                do throws(FetchError) {
                    _ = try await PageFetcher(configuration: short, clock: ServiceClock(clock)).fetch(
                        server.baseURL + "/drip")
                    return nil
                } catch { return error }
            }
            try await until("the drip's request") { drips.load(ordering: .relaxed) == 1 }
            await clock.advance(by: .seconds(1))
            let timedOut = await dripping.value
            #expect(timedOut?.kind == .timeout, "\(String(describing: timedOut))")
            // A caller that stops waiting cancels the fetch: that is `cancelled`, not a time-out (its clock stands
            // still: the 30 s limit cannot run out).
            let waiting = Task { () async -> FetchError? in
                do throws(FetchError) {
                    _ = try await fetcher.fetch(server.baseURL + "/drip")
                    return nil
                } catch { return error }
            }
            try await until("the second drip's request") { drips.load(ordering: .relaxed) == 2 }
            waiting.cancel()
            let cancelled = await waiting.value
            #expect(cancelled?.kind == .cancelled, "\(String(describing: cancelled))")
            await expectFailure(.tooLarge) { () async throws(FetchError) in
                try await fetcher.fetch(server.baseURL + "/endless")
            }
            let early = try await fetcher.fetch(server.baseURL + "/endless-after-head")
            #expect(early.metadata?.title == "OG page", "reading stops once the head is in")
            await expectFailure(.tooLarge) { () async throws(FetchError) in
                try await fetcher.fetch(server.baseURL + "/bomb")
            }
            await expectFailure(.tooLarge) { () async throws(FetchError) in
                try await fetcher.fetch(server.baseURL + "/huge-headers")
            }
            await expectFailure(.notHTML) { () async throws(FetchError) in
                try await fetcher.fetch(server.baseURL + "/archive.zip")
            }
            await expectFailure(.httpStatus) { () async throws(FetchError) in
                try await fetcher.fetch(server.baseURL + "/missing")
            }
            await expectFailure(.httpStatus) { () async throws(FetchError) in
                try await fetcher.fetch(server.baseURL + "/broken")
            }
            await expectFailure(.invalidURL) { () async throws(FetchError) in
                try await fetcher.fetch("javascript:alert(1)")
            }
            await expectFailure(.invalidURL) { () async throws(FetchError) in
                try await fetcher.fetch("ftp://example.com/")
            }
        }
    }

    @Test func connectTimeoutAndRefusal() async throws {
        var c = FetchConfiguration()
        c.allowedAddresses = [.v4(0x7F00_0003)]
        c.allowedPorts = [9]
        // No limit runs out on this clock: only the refusal can end the fetch.
        await expectFailure(.connection) { () async throws(FetchError) in
            try await PageFetcher(configuration: c, clock: TestServer.still).fetch("http://127.0.0.3:9/")
        }
    }
}

/// Answers `first` on the first lookup and `then` on every later one (a DNS rebinding attack).
final class RebindingResolver: HostResolver, @unchecked Sendable {
    // The lock guards `calls`.
    private let lock = NSLock()
    private var calls = 0
    let first: IPAddress
    let then: IPAddress

    init(first: IPAddress, then: IPAddress) {
        self.first = first
        self.then = then
    }

    var lookups: Int { lock.withLock { calls } }

    func resolve(_ host: String) async throws -> [IPAddress] {
        lock.withLock {
            calls += 1
            return [calls == 1 ? first : then]
        }
    }
}

@Suite("DNS", .serialized, .timeLimit(.minutes(10)))
struct ResolverTests {
    @Test func connectsOnlyToTheAddressItChecked() async throws {
        let server = try await TestServer.start()
        try await server.scoped {
            // The first answer is "public" (the test server, allowed); a second lookup would say 10.0.0.1.
            let resolver = RebindingResolver(first: TestServer.address, then: .v4(0x0A00_0001))
            let fetcher = PageFetcher(
                configuration: TestServer.configuration(server), resolver: resolver, clock: TestServer.still)
            let page = try await fetcher.fetch("http://rebind.example:\(server.port)/page")
            #expect(page.metadata?.title == "OG page")
            #expect(resolver.lookups == 1, "the connection used the checked address, no second lookup")
        }
    }

    @Test func aPrivateAnswerIsRefused() async throws {
        let resolver = RebindingResolver(first: .v4(0xA9FE_A9FE), then: .v4(0x5DB8_D822))
        await expectFailure(.blockedAddress) { () async throws(FetchError) in
            try await PageFetcher(resolver: resolver).fetch("http://metadata.example/")
        }
    }

    @Test func anyPrivateAddressAmongManyIsRefused() async throws {
        struct Mixed: HostResolver {
            func resolve(_ host: String) async throws -> [IPAddress] { [.v4(0x5DB8_D822), .v4(0x7F00_0001)] }
        }
        await expectFailure(.blockedAddress) { () async throws(FetchError) in
            try await PageFetcher(resolver: Mixed()).fetch("http://mixed.example/")
        }
    }
}

/// A listener on 127.0.0.4 whose accept queue is full and never served: new connections hang in SYN.
final class SilentListener {
    let port: Int
    private var fds: [Int32] = []

    init?() {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0004).bigEndian
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 0) == 0 else { return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        fds.append(listener)
        // Fill the accept queue.
        for _ in 0..<4 {
            let c = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(c, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            fds.append(c)
        }
        // The kernel completes these handshakes on its own time and tells no one: a pause lets the queue fill (were
        // it not full yet, the fetch would connect and the test fail, never pass wrongly).
        usleep(100_000)
    }

    deinit { for fd in fds { close(fd) } }
}

@Suite("Connect timeout", .serialized, .timeLimit(.minutes(10)))
struct ConnectTimeoutTests {
    @Test func aServerThatNeverAnswersTheHandshakeTimesOut() async throws {
        let listener = try #require(SilentListener())
        var c = FetchConfiguration()
        c.allowedAddresses = [.v4(0x7F00_0004)]
        c.allowedPorts = [listener.port]
        c.connectTimeout = .seconds(1)
        // The connect limit is AsyncHTTPClient's, on real time: it holds on the system clock only, where the total
        // limit counts real time too. Far past the connect limit, the total one (10 minutes, the suite's time limit)
        // is not what the error names.
        c.totalTimeout = .seconds(600)
        do {
            let page = try await PageFetcher(configuration: c).fetch(
                "http://127.0.0.4:\(listener.port)/")
            Issue.record("a server that never answers the handshake gave a page at \(page.finalURL)")
        } catch {
            #expect(error.kind == .timeout && error.detail == "connecting took too long", "\(error)")
        }
        withExtendedLifetime(listener) {}
    }

    /// What AsyncHTTPClient is handed for a limit it counts itself, on real time: the limit on the system clock;
    /// none on a test's (a year; no deadline), where the limits the clock counts are the only ones.
    @Test func aLibrarysOwnLimitHoldsOnTheSystemClockOnly() {
        let still = TestServer.still
        #expect(ServiceClock.system.libraryTimeout(.seconds(5)) == .seconds(5))
        #expect(still.libraryTimeout(.seconds(5)) == .hours(24 * 365))
        #expect(still.libraryDeadline(after: .seconds(5)) == .distantFuture)
        #expect(ServiceClock.system.libraryDeadline(after: .seconds(5)) != .distantFuture)
    }
}
