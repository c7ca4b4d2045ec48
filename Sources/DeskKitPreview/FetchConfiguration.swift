import DeskKitMetadata
import DeskKitModel

/// The limits and identity of preview fetches. Every limit has a default and a test.
public struct FetchConfiguration: Sendable {
    /// Time to open a connection. Default 5 s. AsyncHTTPClient counts it, on real time (on the clock of a
    /// package test's fetcher it is not set, and ``totalTimeout``, counted on that clock, bounds the connect).
    public var connectTimeout: Duration = .seconds(5)
    /// Time for the whole fetch, redirects and body included: a server that drips bytes cannot hold it
    /// longer. Default 10 s.
    public var totalTimeout: Duration = .seconds(10)
    /// Body bytes read at most (after decompression). Default 2 MB.
    public var maxBodyBytes: Int = 2_000_000
    /// Response header bytes accepted at most. Default 64 KiB.
    public var maxHeaderBytes: Int = 64 * 1024
    /// Bytes a compressed body may inflate to (a gzip bomb trips it; memory stays bounded). Default 4 MB.
    public var maxDecompressedBytes: Int = 4_000_000
    /// Redirects followed at most, each checked like the first request. Default 5.
    public var maxRedirects: Int = 5
    /// Ports a URL may name. Default 80 and 443.
    public var allowedPorts: Set<Int> = [80, 443]
    /// Addresses allowed even though the address policy blocks them (a test or demo server). Default none.
    public var allowedAddresses: Set<IPAddress> = []
    /// The sites the operator lets DeskKit fetch from (`preview_hosts_deny`, `preview_hosts_allow`), checked
    /// on every request: the link's, each redirect's, an oEmbed endpoint's, an image's. Default: every site.
    public var sitePolicy = SitePolicy()
    /// Skip the address policy altogether (`--allow-private`: for trusted networks only). Default off.
    public var allowPrivateAddresses = false
    /// The `User-Agent` sent (`--user-agent`, `DESKKIT_USER_AGENT`). Default ``defaultUserAgent``.
    public var userAgent = Self.defaultUserAgent
    /// Whether `text` can be sent as a `User-Agent`: 1 to 512 printable ASCII characters (no line break that
    /// would split the header).
    public static func isValidUserAgent(_ text: String) -> Bool { isSendable(text) }

    /// Whether `value` may be sent as a header's value: 1 to 512 printable ASCII bytes, nothing that would split
    /// the header (a `User-Agent`, a client's `Accept` or `If-None-Match` passed on by the image proxy).
    package static func isSendable(_ value: String) -> Bool {
        (1...512).contains(value.utf8.count) && value.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// Names DeskKit, its version and where to read about it, so that a site's operator can tell who
    /// fetches its pages.
    public static let defaultUserAgent =
        "DeskKit/\(DeskKitVersion.current) (+https://github.com/deskkit/DeskKit; link previews for support chat)"
    /// How many bytes of an image are read at most to find its type and pixel size. Default 256 KiB (a JPEG
    /// may put large metadata before its size; past this it keeps its type without a size).
    public var maxImageProbeBytes = 256 * 1024
    /// How many bytes an oEmbed answer may have (more is refused as too large, and the card is the page's own).
    /// Default 128 KiB.
    public var maxOEmbedBytes = 128 * 1024
    /// The `Accept-Language` sent (`--accept-language`, `DESKKIT_ACCEPT_LANGUAGE`), unless a request asks for
    /// its own language. Default `AcceptLanguage.default`: English, then any language.
    public var acceptLanguage: AcceptLanguage = .default
    /// How long a host's kept-alive connections (and the client that holds them) stay open without a fetch.
    /// Default 2 s: a burst of pages of one site (a message's links, a redirect chain, a backlog drained
    /// after an outage) shares connections. A longer one keeps more memory while new hosts pour in: a client
    /// and its connections stay in memory a while after they close (about 7 KB each, AsyncHTTPClient's), in
    /// proportion to this timeout (`Scripts/resource-test.sh`).
    public var idleConnectionTimeout: Duration = .seconds(2)
    /// Hosts whose idle connections are kept at most; past it the least recently used host's are closed.
    /// Default 64.
    public var maxIdleHosts = 64
    /// Extraction limits for the page.
    public var extraction: ExtractionLimits = .default

    /// The default configuration (see each property).
    public init() {}
}
