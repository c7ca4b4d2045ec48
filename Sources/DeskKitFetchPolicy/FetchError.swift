/// Why a page could not be previewed. A failed preview never fails the message it belongs to.
public struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. A struct over a private code rather than an enum, so that a kind added later
    /// breaks no `switch`: match the kinds a program handles with `==` and give the rest a default.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String, CaseIterable {
            case invalidURL = "invalid_url", blockedAddress = "blocked_address"
            case tooManyRedirects = "too_many_redirects", timeout, tooLarge = "too_large", notHTML = "not_html"
            case notAnImage = "not_an_image", httpStatus = "http_status", tls, dns, connection
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
    }

    /// The kind of failure, fit for a metric label.
    public var kind: Kind
    /// What exactly: the rule that blocked an address, the phase that timed out, the status code…
    public var detail: String
    /// For ``Kind/httpStatus``, the status the server answered with.
    public var status: Int?

    /// An error of `kind`, with the sentence that says exactly what happened.
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
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

    public var description: String { "\(kind.rawValue): \(detail)" }

    package static func invalidURL(_ why: String) -> FetchError { FetchError(.invalidURL, why) }
    package static func blocked(_ what: String, rule: String) -> FetchError {
        FetchError(.blockedAddress, "\(what) is \(rule)")
    }
    package static func dns(_ host: String, _ why: String) -> FetchError { FetchError(.dns, "\(host): \(why)") }
    package static func timeout(_ phase: String, _ seconds: Double) -> FetchError {
        FetchError(.timeout, "\(phase) took longer than \(seconds) s")
    }
}
