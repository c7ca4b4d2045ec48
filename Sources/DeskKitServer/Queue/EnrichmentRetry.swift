import DeskKitJobStore
import DeskKitJobs
import Foundation

/// When the enrichment tries a job again (the queue's `RetryStrategy` reads it): a Platform API call that failed in a
/// way worth another try (429, 5xx, a transport error) is tried again with a doubling, jittered back-off that yields to
/// the server's `Retry-After`; a refusal fails at once; a job whose pages a bot check stood in for is tried again on
/// the ``challenge`` schedule, then finished as `no_preview`. Nothing is tried again past the ``horizon``, counted from
/// the webhook. Every store keeps the same schedule: each attempt is one claim. Its decisions are counted in
/// `deskkit_jobs_total{outcome}` as `updated`, `no_link`, `no_preview`, `api_failed`, `retry_scheduled` and
/// `challenge_retry`.
public struct EnrichmentRetry: Sendable, Hashable {
    /// How long failures are retried, counted from the webhook; then the job fails with its last error
    /// (`DESKKIT_RETRY_HORIZON`). Default 24 hours.
    public var horizon: Duration = .seconds(24 * 3600)
    /// The wait after the first failed call; each next one doubles, with 50–100 % jitter. Default 1 s.
    public var firstDelay: Duration = .seconds(1)
    /// The longest wait computed. Default 10 minutes.
    public var maxDelay: Duration = .seconds(600)
    /// The longest `Retry-After` honoured; a longer one is cut to this. Default 10 minutes.
    public var maxRetryAfter: Duration = .seconds(600)
    /// When a job whose pages a bot check stood in for is tried again.
    public var challenge = Challenge()

    /// The default rules (see each property).
    public init() {}

    package func decide(_ outcome: JobOutcome, for job: StoredJob, now: Date) -> RetryDecision {
        let error = outcome.storedError
        switch outcome.code {
        case .updated, .noLink, .noPreview, .cancelled, .unconfirmed: return .finish()
        case .permanent: return .fail(error: error, counted: "api_failed")
        case .retryable:
            let due = now + delay(after: job.attempts, retryAfter: outcome.apiError?.retryAfter)
            guard withinHorizon(due, job) else {
                return .fail(error: error, reason: "retry horizon passed", counted: "api_failed")
            }
            return .retry(at: due, error: error)
        case .challenged:
            guard let wait = challenge.delay(after: job.attempts), withinHorizon(now + wait, job) else {
                return .finish(error: error, counted: "no_preview")
            }
            return .retry(
                at: now + wait, error: error,
                reason: "a bot check stood in for the message's pages; it will be tried again",
                counted: "challenge_retry")
        }
    }

    /// The wait before attempt `attempts + 1` of a failed call: ``firstDelay`` doubled per attempt after
    /// the first, capped at ``maxDelay``, with jitter — or the server's `Retry-After` (capped at
    /// ``maxRetryAfter``) when longer.
    package func delay(after attempts: Int, retryAfter: Duration? = nil) -> Duration {
        let exponential = firstDelay * (1 << Swift.min(Swift.max(attempts - 1, 0), 20))
        let backoff = Swift.min(exponential, maxDelay) * Double.random(in: 0.5...1.0)
        guard let retryAfter else { return backoff }
        return Swift.max(backoff, Swift.min(retryAfter, maxRetryAfter))
    }

    /// Whether an attempt due at `due` falls within the horizon, counted from the job's webhook.
    private func withinHorizon(_ due: Date, _ job: StoredJob) -> Bool {
        due.timeIntervalSince(job.acceptedAt) <= horizon / .seconds(1)
    }
}

extension Date {
    fileprivate static func + (date: Date, duration: Duration) -> Date {
        date.addingTimeInterval(duration / .seconds(1))
    }
}
