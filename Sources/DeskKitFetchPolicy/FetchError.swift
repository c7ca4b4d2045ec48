import DeskKitJSON

/// Why a page could not be previewed. A failed preview never fails the message it belongs to.
public struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. A struct over a private code rather than an enum, so that a kind added later
    /// breaks no `switch`: match the kinds a program handles with `==` and give the rest a default.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String, CaseIterable {
            case invalidURL = "invalid_url", blockedAddress = "blocked_address"
            case tooManyRedirects = "too_many_redirects", timeout, tooLarge = "too_large", notHTML = "not_html"
            case notAnImage = "not_an_image", httpStatus = "http_status", tls, dns, connection
            case challenge, consentWall = "consent_wall", loginWall = "login_wall", errorPage = "error_page"
            case parkedDomain = "parked_domain", emptyShell = "empty_shell", notice
            case cancelled, policy
        }
        private let code: Code
        private init(_ code: Code) { self.code = code }

        /// The kind named `rawValue` (`invalid_url`, `timeout`, …), or nil for a name DeskKit does not know.
        public init?(rawValue: String) {
            guard let code = Code(rawValue: rawValue) else { return nil }
            self.code = code
        }

        /// The kind's name: short and fixed, fit for a metric label and for programs.
        public var rawValue: String { code.rawValue }
        public var description: String { code.rawValue }
        /// Every kind this version knows.
        public static var allCases: [Kind] { Code.allCases.map(Kind.init) }

        /// Not an http(s) URL with a host, or not one a request can be made of.
        public static let invalidURL = Kind(.invalidURL)
        /// The host is, or resolves to, an address the guard refuses (the detail names the rule), or the port is not allowed.
        public static let blockedAddress = Kind(.blockedAddress)
        /// More redirects than ``FetchConfiguration/maxRedirects``.
        public static let tooManyRedirects = Kind(.tooManyRedirects)
        /// A time limit ran out (the detail names the phase: connect or the whole fetch).
        public static let timeout = Kind(.timeout)
        /// A size limit was passed: the response headers or the decompressed body.
        public static let tooLarge = Kind(.tooLarge)
        /// The response is neither HTML nor XHTML, nor a file that gets a card of its own (an image, a PDF,
        /// a video, a sound).
        public static let notHTML = Kind(.notHTML)
        /// A response served as an image whose first bytes are no image of a known format, or a 1×1 pixel.
        public static let notAnImage = Kind(.notAnImage)
        /// The server answered with a status other than 2xx after redirects.
        public static let httpStatus = Kind(.httpStatus)
        /// The TLS handshake failed (certificate, protocol).
        public static let tls = Kind(.tls)
        /// The host name did not resolve.
        public static let dns = Kind(.dns)
        /// The connection was refused, reset or broken, or the response did not parse as HTTP.
        public static let connection = Kind(.connection)
        /// The caller stopped waiting (a server shutting down, a request gone): the fetch says nothing about
        /// the page, and is not cached. A time limit that runs out is ``timeout``.
        public static let cancelled = Kind(.cancelled)
        /// The operator's site policy (``SitePolicy``) refuses the host — the link's, a redirect's, an oEmbed
        /// endpoint's or an image's: nothing was fetched from it.
        public static let policy = Kind(.policy)

        // The refusals: the fetch worked, but what came back is not the page the link points to.

        /// A bot check stood in for the page: a challenge, a captcha, a WAF block (``FetchError/provider``
        /// names the vendor when it is known). Worth trying again later.
        public static let challenge = Kind(.challenge)
        /// A cookie-consent form stood in for the page (Google's, Yahoo's…).
        public static let consentWall = Kind(.consentWall)
        /// A login or sign-up form stood in for the page.
        public static let loginWall = Kind(.loginWall)
        /// An error page served as a success: "404 Not Found" with status 200.
        public static let errorPage = Kind(.errorPage)
        /// A parked domain ("This domain is for sale") or a web server's default page.
        public static let parkedDomain = Kind(.parkedDomain)
        /// An app shell with no metadata of its own: its content comes from scripts a previewer does not run.
        public static let emptyShell = Kind(.emptyShell)
        /// A notice about the visit stood in for the page — a gate, a block, a queue, a rate limit, an outage, a
        /// page that sends the reader on — known by what the site does rather than by its words: the site answers
        /// an address that cannot exist with the same page, or the page has nothing of its own and marks of a
        /// notice (it asks not to be indexed, names none of the address's words, reloads itself, says when to
        /// come back).
        public static let notice = Kind(.notice)

        /// The seven refusals, in the order above.
        public static let refusals: [Kind] = [
            .challenge, .consentWall, .loginWall, .errorPage, .parkedDomain, .emptyShell, .notice,
        ]

        /// Whether the fetch worked but the page stood in for another: one of ``refusals``.
        public var isRefusal: Bool {
            switch code {
            case .challenge, .consentWall, .loginWall, .errorPage, .parkedDomain, .emptyShell, .notice: true
            default: false
            }
        }
    }

    /// The kind of failure, fit for a metric label.
    public var kind: Kind
    /// What exactly: the rule that blocked an address, the phase that timed out, the status code…
    public var detail: String
    /// For ``Kind/httpStatus``, the status the server answered with.
    public var status: Int?
    /// For a refusal, who ran it when that is known: `cloudflare`, `datadome`, `google`… (a short, fixed
    /// name, fit for a metric label).
    public var provider: String?

    /// An error of `kind`, with the sentence that says exactly what happened.
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// A refusal of `kind` (one of ``Kind/refusals``), run by `provider` when it is known.
    public static func refused(_ kind: Kind, provider: String?, _ detail: String) -> FetchError {
        var error = FetchError(kind, detail)
        error.provider = provider
        return error
    }

    /// ``Kind/httpStatus``: the server answered `status` after redirects (`HTTP 404`).
    public static func httpStatus(_ status: Int) -> FetchError {
        var error = FetchError(.httpStatus, "HTTP \(status)")
        error.status = status
        return error
    }

    /// An error as a cache keeps it, by the name of its kind and its detail: the status of an ``Kind/httpStatus``
    /// error is read back from its detail, as ``httpStatus(_:)`` writes it. Nil for a kind this version does
    /// not know.
    package init?(kindName: String, detail: String) {
        guard let kind = Kind(rawValue: kindName) else { return nil }
        self.init(kind, detail)
        if kind == .httpStatus, detail.hasPrefix("HTTP "), let status = Int(detail.dropFirst(5)) {
            self.status = status
        }
    }

    /// `{"kind", "provider", "detail"}`, `provider` only when it is known: as `deskkit preview` prints it and
    /// `/v1/preview` answers it.
    public var json: JSONValue {
        var members: [JSONObject.Member] = [.init(key: "kind", value: .string(kind.rawValue))]
        if let provider { members.append(.init(key: "provider", value: .string(provider))) }
        members.append(.init(key: "detail", value: .string(detail)))
        return .object(JSONObject(members))
    }

    public var description: String { "\(kind.rawValue)\(provider.map { " (\($0))" } ?? ""): \(detail)" }

    package static func invalidURL(_ why: String) -> FetchError { FetchError(.invalidURL, why) }
    package static func blocked(_ what: String, rule: String) -> FetchError {
        FetchError(.blockedAddress, "\(what) is \(rule)")
    }
    package static func dns(_ host: String, _ why: String) -> FetchError { FetchError(.dns, "\(host): \(why)") }
    package static func timeout(_ phase: String, _ limit: Duration) -> FetchError {
        FetchError(.timeout, "\(phase) took longer than \(limit / .seconds(1)) s")
    }
}
