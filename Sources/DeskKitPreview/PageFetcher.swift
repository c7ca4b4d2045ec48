import AsyncHTTPClient
import DeskKitMetadata
import DeskKitTime
import DeskKitURL
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL
import Tracing

/// What a fetch brought back.
public struct FetchedPage: Sendable {
    /// The URL after redirects.
    public var finalURL: String
    /// The page's metadata; nil for a direct link to a file (``media``).
    public var metadata: PageMetadata?
    /// The response's Content-Type.
    public var contentType: String?
    /// For a direct link to an image, a PDF, a video or a sound: what the response says of the file.
    public var media: MediaInfo?
    /// For a page with nothing of its own to show (an app shell, `FetchError.Kind.emptyShell`) that names
    /// its oEmbed answer (`PageMetadata.oEmbed`): the refusal that stands unless that answer describes it.
    /// Video and photo sites serve such shells; their oEmbed answer is the card.
    public var refusalUnlessOEmbed: FetchError?
    /// What the response said besides its body: its status and headers, the URL asked and where the redirects
    /// ended (for a verdict that needs more than the page, `RefusalCheck.refusal(of:response:probe:)`).
    public var response: ResponseFacts?

    /// A fetched page or file.
    public init(
        finalURL: String, metadata: PageMetadata?, contentType: String?, media: MediaInfo? = nil,
        refusalUnlessOEmbed: FetchError? = nil, response: ResponseFacts? = nil
    ) {
        self.finalURL = finalURL
        self.metadata = metadata
        self.contentType = contentType
        self.media = media
        self.refusalUnlessOEmbed = refusalUnlessOEmbed
        self.response = response
    }

    /// Whether the URL is an image itself (`image/*`): its preview is the image.
    public var isImage: Bool { media?.image != nil }
}

/// A document fetched whole (an oEmbed answer).
public struct FetchedDocument: Sendable {
    /// The URL after redirects.
    public var finalURL: String
    /// The response's Content-Type.
    public var contentType: String?
    /// The body, decompressed.
    public var body: [UInt8]

    /// A document fetched from `finalURL`.
    public init(finalURL: String, contentType: String?, body: [UInt8]) {
        self.finalURL = finalURL
        self.contentType = contentType
        self.body = body
    }
}

/// Fetches pages for previews, safely: http(s) only, allowed ports only, every address of every hop
/// checked (and connected to as checked), bounded time, bytes, headers, decompression and redirects.
/// Connections to a host are kept alive and reused by its next pages while its address checks the same
/// (``FetchConfiguration/idleConnectionTimeout``, ``FetchConfiguration/maxIdleHosts``).
public struct PageFetcher: Sendable {
    /// Limits, the guard's settings, and the headers sent.
    public var configuration: FetchConfiguration
    /// Resolves host names; the guard checks every address it gives.
    public let resolver: any HostResolver
    /// What its idle connections' timer counts on (``FetchConfiguration/idleConnectionTimeout``), and a
    /// ``PreviewService``'s cache with it; a test drives it.
    package let clock: ServiceClock
    /// The clients, one for each host and checked address, whose connections are kept alive; shared by the
    /// fetcher's copies.
    let pools: ConnectionPools

    /// A fetcher that resolves hosts with `resolver` and runs its connections on `eventLoopGroup`.
    public init(
        configuration: FetchConfiguration = FetchConfiguration(), resolver: any HostResolver = SystemResolver(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.init(configuration: configuration, resolver: resolver, eventLoopGroup: eventLoopGroup, clock: .system)
    }

    /// A fetcher whose time limits and idle connections count on `clock` (a test's).
    package init(
        configuration: FetchConfiguration = FetchConfiguration(), resolver: any HostResolver = SystemResolver(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, clock: ServiceClock
    ) {
        self.configuration = configuration
        self.resolver = resolver
        self.clock = clock
        pools = ConnectionPools(eventLoopGroup: eventLoopGroup, clock: clock)
    }

    /// Hosts whose connections the fetcher keeps now, in use or idle (at most
    /// ``FetchConfiguration/maxIdleHosts`` idle ones).
    package var hostsWithConnections: Int { pools.count }

    /// Fetches `url`, following redirects, and reads the page's metadata as the body streams in.
    public func fetch(_ url: String) async throws(FetchError) -> FetchedPage {
        try await fetch(try WebURL(url))
    }

    /// Fetches a URL already parsed (and so already known to be one a request can be made of).
    package func fetch(_ url: WebURL) async throws(FetchError) -> FetchedPage {
        try await traced("fetch") { span throws(FetchError) in
            if span.isRecording { span.attributes["url.full"] = SpanURL.redacted(url.requestString) }
            return try await withTotalTimeout { deadline in
                try await follow(url, accept: Self.pageAccept, deadline: deadline) { response, final in
                    try await readPage(response, url: final, requested: url)
                }
            }
        }
    }

    /// Asks `url`, an address of a site that cannot exist, through the same guard, redirects and time limit as a
    /// page, and reads a 2xx HTML answer as a page is read (at most ``maxRefusedBodyBytes``), with no verdict on it:
    /// what the site answers any address (`SiteProbeAnswer`).
    package func probe(_ url: WebURL) async throws(FetchError) -> SiteProbeAnswer {
        let answer: Result<SiteProbeAnswer, FetchError> = await FetchLog.$purpose.withValue(.siteProbe) {
            do throws(FetchError) {
                return .success(
                    try await traced("site probe") { span throws(FetchError) in
                        if span.isRecording { span.attributes["url.full"] = SpanURL.redacted(url.requestString) }
                        return try await withTotalTimeout { deadline in
                            try await follow(url, accept: Self.pageAccept, deadline: deadline) { response, final in
                                try await readProbe(response, asked: url, final: final)
                            }
                        }
                    })
            } catch {
                return .failure(error)
            }
        }
        return try answer.get()
    }

    /// The answer to a made-up address: a 2xx HTML body read as a page is (at most ``maxRefusedBodyBytes``).
    private func readProbe(_ response: HTTPClientResponse, asked: WebURL, final: WebURL) async throws
        -> SiteProbeAnswer
    {
        let status = Int(response.status.code)
        let contentType = response.headers.first(name: "Content-Type")
        var page: PagePrint?
        if (200..<300).contains(status), Self.isHTML(contentType) {
            let (metadata, _) = try await parse(
                response.body, url: final, contentType: contentType,
                maxBytes: min(configuration.maxBodyBytes, Self.maxRefusedBodyBytes))
            page = PagePrint(metadata)
        }
        return SiteProbeAnswer(url: asked.requestString, status: status, finalURL: final.requestString, page: page)
    }

    /// Whether a `Content-Type` is a page's: HTML, XHTML, or none said.
    static func isHTML(_ contentType: String?) -> Bool {
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: " \t").lowercased() ?? ""
        return mediaType == "text/html" || mediaType == "application/xhtml+xml" || mediaType.isEmpty
    }

    /// Fetches a document that is not a page — an oEmbed answer — through the same guard, redirects and
    /// time limit as a page, its body read whole up to `maxBytes` (more is `too_large`).
    public func fetchDocument(_ url: String, accept: String, maxBytes: Int) async throws(FetchError) -> FetchedDocument
    {
        let parsed = try WebURL(url)
        return try await withTotalTimeout { deadline in
            try await follow(parsed, accept: accept, deadline: deadline) { response, url in
                try await Self.readDocument(response, url: url, maxBytes: maxBytes)
            }
        }
    }

    /// Runs `work` within ``FetchConfiguration/totalTimeout`` (the package's one deadline helper: answered at
    /// the limit, the work cancelled), its errors mapped onto ``FetchError``: the limit running out is
    /// ``FetchError/Kind/timeout``, the caller cancelling ``FetchError/Kind/cancelled``. `work` is given the
    /// same limit as an instant, for AsyncHTTPClient's requests (on the system clock; on a test's clock, none but
    /// the clock's): one limit, however many hops. `left`, when given, is what remains of that limit for a request
    /// that began earlier (it waited for a place): the work gets only that, and a time-out still names the whole
    /// limit.
    func withTotalTimeout<T: Sendable>(
        left: Duration? = nil, _ work: @escaping @Sendable (NIODeadline) async throws -> T
    ) async throws(FetchError) -> T {
        let total = configuration.totalTimeout
        let left = max(.zero, min(left ?? total, total))
        guard left > .zero else { throw .timeout("the whole request", total) }
        let deadline = clock.libraryDeadline(after: left)
        do {
            return try await withDeadline(left, clock: clock) { try await work(deadline) }
        } catch is DeadlineExceeded {
            throw .timeout("the whole request", total)
        } catch {
            throw Self.map(error)
        }
    }

    /// Checks the URL's host against the site policy, its port, and every address of its host; returns the
    /// address to connect to.
    private func address(for url: WebURL) async throws(FetchError) -> IPAddress {
        if let refusal = configuration.sitePolicy.refusal(host: url.host) { throw refusal }
        guard configuration.allowedPorts.contains(url.port) || configuration.allowPrivateAddresses else {
            throw FetchError(.blockedAddress, "port \(url.port) is not allowed")
        }
        if let literal = IPAddress(host: url.host) {
            try checkAddress(literal, host: url.host)
            return literal
        }
        if !configuration.allowPrivateAddresses, let rule = AddressPolicy.blockingRule(hostName: url.host) {
            throw .blocked(url.host, rule: rule)
        }
        let addresses: [IPAddress]
        do { addresses = try await resolver.resolve(url.asciiHost) } catch let e as FetchError { throw e } catch {
            throw .dns(url.host, "\(error)")
        }
        guard let first = addresses.first else { throw .dns(url.host, "no address") }
        for address in addresses { try checkAddress(address, host: url.host) }
        return first
    }

    private func checkAddress(_ address: IPAddress, host: String) throws(FetchError) {
        guard !configuration.allowPrivateAddresses, !configuration.allowedAddresses.contains(address) else { return }
        if let rule = AddressPolicy.blockingRule(address) {
            throw .blocked(host == address.description ? host : "\(host) (\(address))", rule: rule)
        }
    }

    private static let pageAccept = "text/html,application/xhtml+xml;q=0.9,image/*;q=0.8,*/*;q=0.5"

    /// Requests `start`, following redirects (each hop checked like the first), and reads the final answer
    /// with `read`.
    /// `headers`: sent besides the fetcher's own (`If-None-Match` for the image proxy); `compressed`: whether a
    /// compressed answer is asked for (not of an image passed on as it is).
    func follow<T>(
        _ start: WebURL, accept: String, headers: [(String, String)] = [], compressed: Bool = true,
        deadline: NIODeadline, read: @escaping (HTTPClientResponse, WebURL) async throws -> T
    ) async throws -> T {
        var url = start
        var redirects = 0
        let log = FetchLog.current
        while true {
            let hop = log?.begin(url.requestString)
            // A client span for each hop (OpenTelemetry's HTTP conventions); no trace header goes to the host.
            let outcome: Outcome<T>
            do {
                outcome = try await traced("GET", ofKind: .client) { span in
                    if span.isRecording {
                        span.attributes["http.request.method"] = "GET"
                        span.attributes["url.full"] = SpanURL.redacted(url.requestString)
                        span.attributes["server.address"] = url.host
                        span.attributes["server.port"] = url.port
                        if redirects > 0 { span.attributes["http.request.resend_count"] = redirects }
                    }
                    let address = try await address(for: url)
                    if span.isRecording { span.attributes["network.peer.address"] = address.description }
                    log?.update(hop) { $0.address = address.description }
                    // Pages of one host share its connections; another address checked is another client.
                    return try await pools.withClient(
                        host: url.asciiHost, address: IPAddress(host: url.host) == nil ? address : nil,
                        configuration: configuration
                    ) { client in
                        try await exchange(
                            client, url, accept: accept, headers: headers, compressed: compressed, deadline: deadline,
                            span: span, hop: hop, read: read)
                    }
                }
            } catch {
                log?.update(hop) { $0.failed(Self.map(error)) }
                throw error
            }
            log?.update(hop) { $0.duration = .now - $0.started }
            switch outcome {
            case .done(let value): return value
            case .redirect(let location):
                redirects += 1
                guard redirects <= configuration.maxRedirects else {
                    throw FetchError(.tooManyRedirects, "more than \(configuration.maxRedirects) redirects")
                }
                url = try WebURL(URLResolution.resolve(location, against: url.requestString))
            }
        }
    }

    private enum Outcome<T> {
        case done(T)
        case redirect(String)
    }

    private func exchange<T>(
        _ client: HTTPClient, _ url: WebURL, accept: String, headers: [(String, String)], compressed: Bool,
        deadline: NIODeadline, span: any Span, hop: Int?, read: (HTTPClientResponse, WebURL) async throws -> T
    ) async throws -> Outcome<T> {
        var request = HTTPClientRequest(url: url.requestString)
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        request.headers.add(name: "Accept", value: accept)
        request.headers.add(name: "Accept-Language", value: configuration.acceptLanguage.header)
        request.headers.add(name: "Accept-Encoding", value: compressed ? "gzip, deflate" : "identity")
        request.headers.add(contentsOf: headers)
        let response = try await client.execute(request, deadline: deadline)
        let headerBytes = response.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        guard headerBytes <= configuration.maxHeaderBytes else {
            throw FetchError(
                .tooLarge, "response headers of \(headerBytes) bytes, over \(configuration.maxHeaderBytes)")
        }
        let status = Int(response.status.code)
        span.attributes["http.response.status_code"] = status
        let location = [301, 302, 303, 307, 308].contains(status) ? response.headers.first(name: "Location") : nil
        FetchLog.current?.update(hop) { hop in
            hop.status = status
            hop.contentType = response.headers.first(name: "Content-Type")
            hop.redirect = location
        }
        if let location { return .redirect(location) }
        // The reader answers other statuses: a page's may be a bot check that says who ran it.
        return .done(try await read(response, url))
    }

    /// A page's metadata as its body streams in; a file's card from its headers (an image's from its
    /// first bytes too). A response that is not the page — a bot check, a login or consent form, an error
    /// page, a parked domain, an app shell — is refused (``RefusalCheck``); one with a status other than 2xx
    /// is ``FetchError/Kind/httpStatus``, or a ``FetchError/Kind/challenge`` when its page is a bot check.
    private func readPage(_ response: HTTPClientResponse, url: WebURL, requested: WebURL) async throws
        -> FetchedPage
    {
        let status = Int(response.status.code)
        let facts = ResponseFacts(
            status: status, headers: response.headers.map { ResponseFacts.Header(name: $0.name, value: $0.value) },
            requestedURL: requested.requestString, finalURL: url.requestString)
        if let refusal = RefusalCheck.refusal(of: facts) { throw refusal }
        let contentType = response.headers.first(name: "Content-Type")
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: " \t").lowercased() ?? ""
        let isHTML = mediaType == "text/html" || mediaType == "application/xhtml+xml" || mediaType.isEmpty
        guard (200..<300).contains(status) else {
            if RefusalCheck.mayHideChallenge(status: status) || RefusalCheck.mayBeMaintenance(status: status), isHTML {
                let (metadata, _) = try await parse(
                    response.body, url: url, contentType: contentType,
                    maxBytes: min(configuration.maxBodyBytes, Self.maxRefusedBodyBytes))
                // A bot check, or a site away for maintenance: what stood there, not a status.
                if RefusalCheck.mayHideChallenge(status: status),
                    let refusal = RefusalCheck.refusal(of: metadata, response: facts), refusal.kind == .challenge
                {
                    throw refusal
                }
                if let away = RefusalCheck.maintenance(of: metadata, response: facts) { throw away }
            }
            throw FetchError.httpStatus(status)
        }
        if MediaInfo.isPreviewable(mediaType) {
            var media = MediaInfo(
                mediaType: mediaType,
                fileName: response.headers.first(name: "Content-Disposition").flatMap {
                    MediaInfo.fileName(contentDisposition: $0)
                } ?? MediaInfo.fileName(url: url.requestString),
                contentLength: response.headers.first(name: "Content-Length").flatMap { Int($0) })
            // A PDF, a video or a sound is described by its headers; an image by its first bytes too.
            if mediaType.hasPrefix("image/") { media.image = try await probe(response.body, mediaType: mediaType) }
            return FetchedPage(finalURL: url.requestString, metadata: nil, contentType: contentType, media: media)
        }
        guard isHTML else { throw FetchError(.notHTML, "Content-Type \(mediaType.prefix(80))") }
        let (metadata, read) = try await parse(
            response.body, url: url, contentType: contentType, maxBytes: configuration.maxBodyBytes)
        if read >= configuration.maxBodyBytes, metadata.title == nil {
            throw FetchError(.tooLarge, "no preview in the first \(configuration.maxBodyBytes) bytes")
        }
        var pending: FetchError?
        if let refusal = RefusalCheck.refusal(of: metadata, response: facts) {
            // A shell's oEmbed answer may describe it: the card builder asks before the verdict stands.
            guard refusal.kind == .emptyShell, metadata.oEmbed != nil else { throw refusal }
            pending = refusal
        }
        return FetchedPage(
            finalURL: url.requestString, metadata: metadata, contentType: contentType, refusalUnlessOEmbed: pending,
            response: facts)
    }

    /// The most of a page with a status other than 2xx read to tell a bot check: 256 KiB (they are small).
    static let maxRefusedBodyBytes = 256 * 1024

    /// A page's metadata as its body streams in, up to `maxBytes`, and how many bytes were read.
    private func parse(_ body: HTTPClientResponse.Body, url: WebURL, contentType: String?, maxBytes: Int)
        async throws -> (PageMetadata, Int)
    {
        try await traced("extract metadata") { span in
            let parser = HTMLMetadataParser(
                pageURL: url.requestString, contentType: contentType, limits: configuration.extraction)
            var read = 0
            for try await buffer in body {
                let take = min(buffer.readableBytes, maxBytes - read)
                read += take
                let done = parser.feed(buffer.readableBytesView.prefix(take))
                if done || read >= maxBytes { break }
            }
            let metadata = parser.finish()
            if let log = FetchLog.current {
                log.updateLast { hop in
                    hop.bytesRead = read
                    hop.charset = metadata.charset
                }
                log.read(metadata)
            }
            if span.isRecording {
                span.attributes["deskkit.extract.bytes"] = read
                span.attributes["deskkit.extract.charset"] = metadata.charset.name
            }
            return (metadata, read)
        }
    }

    /// A body read whole, up to `maxBytes`.
    private static func readDocument(_ response: HTTPClientResponse, url: WebURL, maxBytes: Int) async throws
        -> FetchedDocument
    {
        let status = Int(response.status.code)
        guard (200..<300).contains(status) else { throw FetchError.httpStatus(status) }
        var body: [UInt8] = []
        for try await buffer in response.body {
            guard body.count + buffer.readableBytes <= maxBytes else {
                throw FetchError(.tooLarge, "the answer is over \(maxBytes) bytes")
            }
            body.append(contentsOf: buffer.readableBytesView)
        }
        FetchLog.current?.updateLast { [count = body.count] in $0.bytesRead = count }
        return FetchedDocument(
            finalURL: url.requestString, contentType: response.headers.first(name: "Content-Type"), body: body)
    }

    /// An image's type and pixel size from the first bytes of its body (at most
    /// ``FetchConfiguration/maxImageProbeBytes``, never the whole file): a body that is no image, or an
    /// image of 1×1 pixel (a tracking pixel), is refused as ``FetchError/Kind/notAnImage``.
    private func probe(_ body: HTTPClientResponse.Body, mediaType: String) async throws -> ImageInfo {
        let cap = min(configuration.maxImageProbeBytes, configuration.maxBodyBytes)
        var prefix: [UInt8] = []
        var result = ImageProbe.Result.needMore
        for try await buffer in body {
            prefix.append(contentsOf: buffer.readableBytesView.prefix(cap - prefix.count))
            result = ImageProbe.probe(prefix)
            if result != .needMore || prefix.count >= cap { break }
        }
        if result == .needMore { result = ImageProbe.probe(prefix, complete: true) }
        FetchLog.current?.updateLast { [count = prefix.count] in $0.bytesRead = count }
        guard case .image(let info) = result else {
            throw FetchError(
                .notAnImage, "served as \(mediaType.prefix(40)), the first \(prefix.count) bytes are no image")
        }
        guard !info.isPixel else {
            throw FetchError(.notAnImage, "a \(info.format.rawValue) of 1×1 pixel (a tracking pixel)")
        }
        return info
    }

    /// Maps AsyncHTTPClient and NIO errors onto ``FetchError``.
    package static func map(_ error: any Error) -> FetchError {
        if let e = error as? FetchError { return e }
        if let e = error as? HTTPClientError {
            switch e {
            case .connectTimeout: return FetchError(.timeout, "connecting took too long")
            case .deadlineExceeded, .readTimeout: return FetchError(.timeout, "the response took too long")
            case .cancelled: return FetchError(.cancelled, "the caller stopped waiting")
            case .remoteConnectionClosed: return FetchError(.connection, "the server closed the connection")
            default: return FetchError(.connection, "\(e)")
            }
        }
        // Classified by their types (the TLS library's, the decompressor's, the HTTP parser's), never by text.
        switch error {
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError, is NIOSSLCloseTimedOutError:
            return FetchError(.tls, "\(error)")
        case is NIOHTTPDecompression.DecompressionError, is NIOHTTPDecompression.ExtraDecompressionError:
            return FetchError(.tooLarge, "the decompressed body grew too much (\(error))")
        case let e as HTTPParserError where e == .headerOverflow:
            return FetchError(.tooLarge, "response headers (\(error))")
        case is HTTPParserError:
            return FetchError(.connection, "the answer is not HTTP (\(error))")
        default:
            break
        }
        if error is CancellationError { return FetchError(.cancelled, "the caller stopped waiting") }
        if error is PlaceWaitExpired { return FetchError(.timeout, "no fetch to the host could start in time") }
        if let e = error as? IOError, e.errnoCode == ECONNREFUSED {
            return FetchError(.connection, "connection refused")
        }
        if let e = error as? NIOConnectionError,
            e.connectionErrors.contains(where: { ($0.error as? IOError)?.errnoCode == ECONNREFUSED })
        {
            return FetchError(.connection, "connection refused")
        }
        return FetchError(.connection, "\(error)")
    }
}
