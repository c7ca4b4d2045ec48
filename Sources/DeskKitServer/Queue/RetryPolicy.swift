import Foundation

/// When a job whose Platform API call failed (429, 5xx, a transport error) is tried again: the one back-off
/// of the ``JobQueue``, whatever the store. Each claim makes one call; a failure puts the job back in the
/// store, due after ``delay(after:retryAfter:)``, until the ``horizon`` passes.
public struct RetryPolicy: Sendable, Hashable {
    /// How long failures are retried, counted from the webhook; then the job fails with its last error
    /// (`DESKKIT_RETRY_HORIZON`). Default 24 hours.
    public var horizon: Duration = .seconds(24 * 3600)
    /// The wait after the first failure; each next one doubles, with 50–100 % jitter. Default 1 s.
    public var firstDelay: Duration = .seconds(1)
    /// The longest wait computed. Default 10 minutes.
    public var maxDelay: Duration = .seconds(600)
    /// The longest `Retry-After` honoured; a longer one is cut to this. Default 10 minutes.
    public var maxRetryAfter: Duration = .seconds(600)

    /// The default policy (see each property).
    public init() {}

    /// Whether a status is worth another attempt: 429 and 5xx.
    public static func isRetried(_ status: Int) -> Bool { status == 429 || (500...599).contains(status) }

    /// The wait before attempt `attempts + 1`: ``firstDelay`` doubled per attempt after the first, capped at
    /// ``maxDelay``, with jitter — or the server's `Retry-After` (capped at ``maxRetryAfter``) when longer.
    public func delay(after attempts: Int, retryAfter: Duration? = nil) -> Duration {
        let exponential = firstDelay * (1 << Swift.min(Swift.max(attempts - 1, 0), 20))
        let backoff = Swift.min(exponential, maxDelay) * Double.random(in: 0.5...1.0)
        guard let retryAfter else { return backoff }
        return Swift.max(backoff, Swift.min(retryAfter, maxRetryAfter))
    }

    /// A `Retry-After` value (seconds, or an HTTP date) as a delay from `now`.
    public static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return .milliseconds(max(0, Int64(date.timeIntervalSince(now) * 1000)))
    }
}
