/// Why a Platform API call failed for good.
public struct PlatformAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The ways a call fails for good.
    public enum Kind: String, Sendable, Hashable {
        /// A status that is not retried (400, 401, 403, 404, …).
        case rejected
        /// Every attempt failed with a retried status or a transport error.
        case exhausted
        /// The work was cancelled (shutdown) before an attempt succeeded.
        case cancelled
    }

    /// Why the call failed for good.
    public var kind: Kind
    /// The last HTTP status, when there was a response.
    public var status: Int?
    /// How many attempts were made.
    public var attempts: Int
    /// The last error or the start of the last response body.
    public var detail: String

    public var description: String {
        "\(kind.rawValue) after \(attempts) attempt\(attempts == 1 ? "" : "s")\(status.map { ", HTTP \($0)" } ?? ""): \(detail)"
    }
}
