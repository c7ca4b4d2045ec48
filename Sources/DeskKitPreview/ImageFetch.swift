import AsyncHTTPClient
import DeskKitMetadata
import NIOCore

/// What the image proxy asks of an image's origin: the URL, and the only headers of the client's it passes on.
package struct ImageRequest: Sendable, Hashable {
    /// The image's URL.
    package var url: String
    /// The client's `If-None-Match`.
    package var ifNoneMatch: String?
    /// The client's `If-Modified-Since`.
    package var ifModifiedSince: String?

    /// A request for `url` with the client's headers that are passed on.
    package init(url: String, ifNoneMatch: String? = nil, ifModifiedSince: String? = nil) {
        self.url = url
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
    }

    /// The headers sent to the origin besides the fetcher's own: the conditional ones, when given and short.
    var conditionalHeaders: [(String, String)] {
        var headers: [(String, String)] = []
        if let ifNoneMatch, FetchConfiguration.isSendable(ifNoneMatch) {
            headers.append(("If-None-Match", ifNoneMatch))
        }
        if let ifModifiedSince, FetchConfiguration.isSendable(ifModifiedSince) {
            headers.append(("If-Modified-Since", ifModifiedSince))
        }
        return headers
    }

    /// The `Accept` sent, the same for every client: the formats every current browser draws. Not the client's:
    /// the proxy's answers are `public` to shared caches, which would hand an AVIF asked for by one browser to
    /// another that cannot draw it (an origin that ignores `Accept` may still send any format passed on).
    static let acceptHeader = "image/webp,image/png,image/jpeg,image/gif;q=0.9,image/*;q=0.5"
}

/// The image proxy's limits. Every limit has a default.
public struct ImageLimits: Sendable, Hashable {
    /// Pixels an image may have (width × height, read from its header before any byte is passed on).
    /// Default 50 million.
    public var maxPixels = 50_000_000
    /// Bytes an image may have, with or without a `Content-Length`. Default 10 MB.
    public var maxBytes = 10_000_000
    /// How long one image's fetch may take, redirects and body included. Default 30 s.
    public var timeout: Duration = .seconds(30)
    /// The default limits.
    public init() {}

    /// Why an image of `width` × `height` pixels is not passed on (more than ``maxPixels``), or nil.
    public func pixelRefusal(width: Int, height: Int) -> FetchError? {
        let pixels = width.multipliedReportingOverflow(by: height)
        guard pixels.overflow || pixels.partialValue > maxPixels else { return nil }
        return FetchError(.tooLarge, "the image claims \(width)×\(height) pixels, over the \(maxPixels) allowed")
    }
}

/// What the origin answered, as the proxy passes it on: an image whose type was read from its bytes, or
/// "not modified".
package struct ImageHead: Sendable, Hashable {
    /// 200, or 304 when the origin answered a conditional request so.
    package var status: Int
    /// The type read from the first bytes (`image/png`…); nil for a 304.
    package var mediaType: String?
    /// The pixel size read from the header; nil for a 304.
    package var width: Int?
    /// See ``width``.
    package var height: Int?
    /// The length of the body, when the origin gave it (and sent the bytes as they are).
    package var contentLength: Int?
    /// The origin's `ETag`.
    package var etag: String?
    /// The origin's `Last-Modified`.
    package var lastModified: String?
    /// How long the origin lets the image be cached (`max-age`; zero for `no-store`, `no-cache` or `private`);
    /// nil when it does not say.
    package var maxAge: Duration?
}

/// What the image proxy passes on, decided from an image's first bytes, never from its `Content-Type`: JPEG,
/// PNG, GIF, WebP, AVIF and ICO. SVG (in any encoding), HTML, XML and everything else is refused.
package enum ImageSniff {
    /// The verdict on a body's first bytes.
    package enum Verdict: Sendable, Hashable {
        /// An image of a type passed on, with its media type and (when its header says) its pixel size.
        case image(mediaType: String, width: Int?, height: Int?)
        /// More bytes are needed.
        case needMore
        /// Not an image passed on; why.
        case refused(String)
    }

    /// The verdict on `prefix`; `complete`: the body has no more bytes.
    package static func sniff(_ prefix: [UInt8], complete: Bool) -> Verdict {
        let boxed = prefix.count >= 8 && prefix[4...7].elementsEqual("ftyp".utf8)  // AVIF's first box may be 256 bytes
        if prefix.count >= 4, prefix[0] == 0, prefix[1] == 0, prefix[2] == 1, prefix[3] == 0, !boxed {
            return icon(prefix, complete: complete)
        }
        if let markup = utf16Markup(prefix) { return .refused(markup) }
        switch ImageProbe.probe(prefix, complete: complete) {
        case .needMore: return .needMore
        case .notAnImage: return .refused("the first bytes are not a JPEG, PNG, GIF, WebP, AVIF or ICO image")
        case .image(let info):
            guard passesOn(info.format) else { return .refused("an SVG image (it may run scripts)") }
            return .image(mediaType: "image/\(info.format.rawValue)", width: info.width, height: info.height)
        }
    }

    /// Whether images of `format`, as `ImageProbe` reads them, are passed on: every raster format; not SVG.
    package static func passesOn(_ format: ImageInfo.Format) -> Bool { format != .svg }

    /// A Windows icon: the largest of its images, each read from the directory (where 0 stands for 256) or, for
    /// an image stored as a PNG, from that PNG's own header — which is what a browser decodes.
    private static func icon(_ b: [UInt8], complete: Bool) -> Verdict {
        guard b.count >= 6 else { return complete ? .refused("a truncated icon file") : .needMore }
        let count = Int(b[4]) | Int(b[5]) << 8
        guard count > 0 else { return .refused("an icon file with no image in it") }
        guard b.count >= 6 + 16 * count else { return complete ? .refused("a truncated icon file") : .needMore }
        var width = 0
        var height = 0
        for i in 0..<count {
            let entry = 6 + 16 * i
            var w = b[entry] == 0 ? 256 : Int(b[entry])
            var h = b[entry + 1] == 0 ? 256 : Int(b[entry + 1])
            let offset = (0..<4).reduce(0) { $0 | Int(b[entry + 12 + $1]) << (8 * $1) }
            guard offset + 24 <= b.count else {
                return complete ? .refused("an icon whose image \(i + 1) lies past its first bytes") : .needMore
            }
            if b[offset..<offset + 8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
                let be32 = { (at: Int) in (0..<4).reduce(0) { $0 << 8 | Int(b[at + $1]) } }
                (w, h) = (be32(offset + 16), be32(offset + 20))
            }
            if Double(w) * Double(h) > Double(width) * Double(height) { (width, height) = (w, h) }
        }
        return .image(mediaType: "image/x-icon", width: width, height: height)
    }

    /// Text in UTF-16 (with or without its byte-order mark) that starts with markup: an SVG, HTML or XML.
    private static func utf16Markup(_ b: [UInt8]) -> String? {
        guard b.count >= 4 else { return nil }
        let bom = (b[0] == 0xFE && b[1] == 0xFF) || (b[0] == 0xFF && b[1] == 0xFE)
        let start = bom ? 2 : 0
        guard b.count >= start + 2 else { return nil }
        let bigEndian = bom ? b[0] == 0xFE : b[start] == 0
        var units: [UInt16] = []
        var i = start
        while i + 1 < min(b.count, 512) {
            units.append(bigEndian ? UInt16(b[i]) << 8 | UInt16(b[i + 1]) : UInt16(b[i + 1]) << 8 | UInt16(b[i]))
            i += 2
        }
        let text = String(decoding: units, as: UTF16.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        // Without a mark, only text whose every other byte is zero is taken for UTF-16.
        guard text.hasPrefix("<"), bom || b[start] == 0 || b[start + 1] == 0 else { return nil }
        return "markup in UTF-16 (an SVG, HTML or XML document)"
    }
}

extension PageFetcher {
    /// Fetches an image for the proxy, through the same guard, site policy and redirect rules as a page: gives
    /// `head` what the origin answered once the first bytes have shown the image's type and pixel size, then
    /// `chunk` each piece of the body as it arrives, as sent (so memory does not grow with the image).
    ///
    /// `deadline` is when ``ImageLimits/timeout``, counted from when the request was made, runs out, as an
    /// instant of the fetcher's clock (`ServiceClock.elapsed`; by default that limit from now): a request that
    /// waited for a place to fetch gets what is left of it.
    ///
    /// - Throws: `FetchError`: `not_an_image` for bytes of a type not passed on (an SVG, HTML…),
    ///   `too_large` for more pixels or bytes than `limits` allow (bytes past the limit are
    ///   not passed on: the answer is cut there), `http_status` for a status other than 2xx or
    ///   304, and the fetch's own errors (a refused address, a host the site policy refuses, a time-out).
    package func fetchImage(
        _ request: ImageRequest, limits: ImageLimits, deadline: Duration? = nil,
        head: @escaping @Sendable (ImageHead) async throws -> Void,
        chunk: @escaping @Sendable (ByteBuffer) async throws -> Void
    ) async throws(FetchError) {
        let url = try WebURL(request.url)
        var timed = self
        timed.configuration.totalTimeout = limits.timeout
        let fetcher = timed
        let probeBytes = configuration.maxImageProbeBytes
        let left = deadline.map { $0 - clock.elapsed() }
        try await fetcher.withTotalTimeout(left: left) { deadline in
            try await fetcher.follow(
                url, accept: ImageRequest.acceptHeader, headers: request.conditionalHeaders, compressed: false,
                deadline: deadline
            ) { response, _ in
                try await Self.passOn(response, limits: limits, probeBytes: probeBytes, head: head, chunk: chunk)
            }
        }
    }

    private static func passOn(
        _ response: HTTPClientResponse, limits: ImageLimits, probeBytes: Int,
        head: @Sendable (ImageHead) async throws -> Void, chunk: @Sendable (ByteBuffer) async throws -> Void
    ) async throws {
        let status = Int(response.status.code)
        let headers = response.headers
        var answer = ImageHead(
            status: status, etag: headers.first(name: "ETag"), lastModified: headers.first(name: "Last-Modified"),
            maxAge: headers.first(name: "Cache-Control").flatMap(Self.maxAge))
        if status == 304 {
            try await head(answer)
            return
        }
        guard (200..<300).contains(status) else { throw FetchError.httpStatus(status) }
        let encoded = headers.first(name: "Content-Encoding").map { $0.lowercased() != "identity" } ?? false
        if !encoded, let length = headers.first(name: "Content-Length").flatMap({ Int($0) }) {
            guard length <= limits.maxBytes else {
                throw FetchError(.tooLarge, "the image has \(length) bytes, over the \(limits.maxBytes) allowed")
            }
            answer.contentLength = length
        }
        // The first bytes, until they show the type and the size.
        var prefix: [UInt8] = []
        var verdict = ImageSniff.Verdict.needMore
        var body = response.body.makeAsyncIterator()
        while case .needMore = verdict, prefix.count < probeBytes, let buffer = try await body.next() {
            prefix.append(contentsOf: buffer.readableBytesView)
            verdict = ImageSniff.sniff(prefix, complete: false)
        }
        if case .needMore = verdict { verdict = ImageSniff.sniff(prefix, complete: true) }
        switch verdict {
        case .refused(let why): throw FetchError(.notAnImage, why)
        case .needMore: throw FetchError(.notAnImage, "no image type or size in the first \(prefix.count) bytes")
        case .image(let mediaType, let width, let height):
            guard let width, let height else {
                throw FetchError(.notAnImage, "no pixel size in the first \(prefix.count) bytes of the \(mediaType)")
            }
            if let refusal = limits.pixelRefusal(width: width, height: height) { throw refusal }
            answer.mediaType = mediaType
            answer.width = width
            answer.height = height
        }
        guard prefix.count <= limits.maxBytes else {
            throw FetchError(.tooLarge, "the image is over the \(limits.maxBytes) bytes allowed")
        }
        try await head(answer)
        var sent = prefix.count
        if !prefix.isEmpty { try await chunk(ByteBuffer(bytes: prefix)) }
        while let buffer = try await body.next() {
            sent += buffer.readableBytes
            guard sent <= limits.maxBytes else {
                throw FetchError(.tooLarge, "the image is over the \(limits.maxBytes) bytes allowed")
            }
            try await chunk(buffer)
        }
    }

    /// The `max-age` of a `Cache-Control` value: zero when it forbids keeping (`no-store`, `no-cache`,
    /// `private`), nil when it does not say.
    static func maxAge(_ cacheControl: String) -> Duration? {
        var age: Duration?
        for directive in cacheControl.lowercased().split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: " \t\"") }
            switch parts.first {
            case "no-store", "no-cache", "private": return .zero
            case "max-age": if parts.count == 2, let seconds = Int(parts[1]), seconds >= 0 { age = .seconds(seconds) }
            default: break
            }
        }
        return age
    }
}
