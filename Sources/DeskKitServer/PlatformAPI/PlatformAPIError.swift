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

    public var description: String { "\(kind)\(status.map { ", HTTP \($0)" } ?? ""): \(detail)" }
}
