import Foundation

/// Why a Platform API call failed.
public struct PlatformAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The ways a call fails. A struct over a private code rather than an enum, so that a kind added later
    /// breaks no `switch`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String { case rejected, retryable, cancelled }
        private let code: Code

        /// A status that is not worth another attempt (400, 401, 403, 404, …).
        public static let rejected = Kind(code: .rejected)
        /// A status worth another attempt later (429, 5xx) or a transport error.
        public static let retryable = Kind(code: .retryable)
        /// The work was cancelled (shutdown) before the call was answered.
        public static let cancelled = Kind(code: .cancelled)

        /// The kind's name: `rejected`, `retryable`, `cancelled`.
        public var description: String { code.rawValue }
    }

    /// Why the call failed.
    public var kind: Kind
    /// The HTTP status, when there was a response.
    public var status: Int?
    /// How long the server asked to wait (`Retry-After`), when it did.
    public var retryAfter: Duration?
    /// The error, or the start of the response body.
    public var detail: String

    /// An error of `kind`.
    public init(_ kind: Kind, status: Int? = nil, retryAfter: Duration? = nil, detail: String) {
        self.kind = kind
        self.status = status
        self.retryAfter = retryAfter
        self.detail = detail
    }

    /// Whether a status is worth another attempt: 429 and 5xx.
    package static func isRetryable(status: Int) -> Bool { status == 429 || (500...599).contains(status) }

    /// A `Retry-After` value (seconds, or an HTTP date) as a delay from `now`.
    package static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return .milliseconds(max(0, Int64(date.timeIntervalSince(now) * 1000)))
    }

    public var description: String { "\(kind)\(status.map { ", HTTP \($0)" } ?? ""): \(detail)" }
}
