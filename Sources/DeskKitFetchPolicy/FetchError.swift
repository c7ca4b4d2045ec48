/// Why a page could not be previewed. A failed preview never fails the message it belongs to.
public struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure; `label` is short and fixed, fit for a metric label.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case invalidURL = "invalid_url"
        case blockedAddress = "blocked_address"
        case tooManyRedirects = "too_many_redirects"
        case timeout
        case tooLarge = "too_large"
        case notHTML = "not_html"
        case httpStatus = "http_status"
        case tls
        case dns
        case connection
    }

    public var kind: Kind
    /// What exactly: the rule that blocked an address, the phase that timed out, the status code…
    public var detail: String

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
