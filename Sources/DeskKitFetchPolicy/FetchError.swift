/// Why a page could not be previewed. A failed preview never fails the message it belongs to.
public struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure; `label` is short and fixed, fit for a metric label.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Not an http(s) URL with a host, or not one a request can be made of.
        case invalidURL = "invalid_url"
        /// The host is, or resolves to, an address the guard refuses (the detail names the rule), or the port is not allowed.
        case blockedAddress = "blocked_address"
        /// More redirects than ``FetchConfiguration/maxRedirects``.
        case tooManyRedirects = "too_many_redirects"
        /// A time limit ran out (the detail names the phase: connect or the whole fetch).
        case timeout
        /// A size limit was passed: the response headers or the decompressed body.
        case tooLarge = "too_large"
        /// The response is neither HTML nor XHTML, nor a file that gets a card of its own (an image, a PDF,
        /// a video, a sound).
        case notHTML = "not_html"
        /// A response served as an image whose first bytes are no image of a known format, or a 1×1 pixel.
        case notAnImage = "not_an_image"
        /// The server answered with a status other than 2xx after redirects.
        case httpStatus = "http_status"
        /// The TLS handshake failed (certificate, protocol).
        case tls
        /// The host name did not resolve.
        case dns
        /// The connection was refused, reset or broken, or the response did not parse as HTTP.
        case connection
    }

    /// The kind of failure, fit for a metric label.
    public var kind: Kind
    /// What exactly: the rule that blocked an address, the phase that timed out, the status code…
    public var detail: String

    /// An error of `kind`, with the sentence that says exactly what happened.
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
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
