import Foundation

/// When to try a Platform API call again.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included. Default 4.
    public var maxAttempts = 4
    /// The first back-off; each next one doubles, with jitter (50–100 %). Default 250 ms.
    public var baseDelay: Duration = .milliseconds(250)
    /// The longest back-off computed. Default 8 s.
    public var maxDelay: Duration = .seconds(8)
    /// The longest `Retry-After` honoured; a longer one is cut to this. Default 30 s.
    public var maxRetryAfter: Duration = .seconds(30)
    /// The deadline of one attempt. Default 10 s.
    public var requestTimeout: Duration = .seconds(10)

    /// The default policy (see each property).
    public init() {}

    /// Whether a status is worth another attempt: 429 and 5xx.
    public static func isRetried(_ status: Int) -> Bool { status == 429 || (500...599).contains(status) }

    /// The back-off before attempt `attempt + 1` (attempt counts from 1).
    func backoff(after attempt: Int) -> Duration { Self.backoff(first: baseDelay, max: maxDelay, after: attempt) }

    /// `first` doubled per attempt after the first, capped at `max`, with 50–100 % jitter: the Platform API
    /// client's quick retries and the durable queue's later ones.
    static func backoff(first: Duration, max: Duration, after attempt: Int) -> Duration {
        let exponential = first * (1 << Swift.min(Swift.max(attempt - 1, 0), 20))
        return Swift.min(exponential, max) * Double.random(in: 0.5...1.0)
    }

    /// A `Retry-After` value (seconds, or an HTTP date) as a delay, capped at ``maxRetryAfter``.
    func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return min(.seconds(seconds), maxRetryAfter) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return min(.milliseconds(max(0, Int64(date.timeIntervalSince(now) * 1000))), maxRetryAfter)
    }
}
