import DeskKitJobStore
import Foundation

/// The enrichment's rules for what follows a job's outcome, given to the ``JobQueue``: a failed Platform API
/// call is tried again by the ``RetryPolicy`` (a refusal fails at once), a bot check by the ``ChallengeRetry``
/// (then the job ends as `no_preview`), neither past the retry horizon counted from the webhook; a run cut
/// short by a shutdown is put back, due at once.
public struct EnrichmentRetry: RetryStrategy {
    /// When and how long a failed Platform API call is tried again.
    public var retry: RetryPolicy
    /// When a job whose pages a bot check stood in for is tried again.
    public var challengeRetry: ChallengeRetry

    /// The rules of `retry` and `challengeRetry`.
    public init(retry: RetryPolicy = RetryPolicy(), challengeRetry: ChallengeRetry = ChallengeRetry()) {
        self.retry = retry
        self.challengeRetry = challengeRetry
    }

    /// The rules of a queue's configuration.
    public init(_ configuration: JobQueue.Configuration) {
        self.init(retry: configuration.retry, challengeRetry: configuration.challengeRetry)
    }

    public func end(of claimed: StoredJob, after outcome: JobOutcome, now: Date) -> JobEnd {
        let error = outcome.storedError
        switch outcome.code {
        case .updated: return .updated
        case .noLink: return .noLink
        case .noPreview: return .noPreview()
        case .cancelled: return .again(at: now)
        case .permanent: return .failed(error: error)
        case .retryable:
            let delay = retry.delay(after: claimed.attempts, retryAfter: outcome.apiError?.retryAfter)
            let due = now.addingTimeInterval(delay / .seconds(1))
            guard withinHorizon(due, claimed) else { return .failed(error: error, reason: "retry horizon passed") }
            return .retry(at: due, error: error)
        case .challenged:
            let due = challengeRetry.delay(after: claimed.attempts).map { now.addingTimeInterval($0 / .seconds(1)) }
            guard let due, withinHorizon(due, claimed) else { return .noPreview(error: error) }
            return .challengeRetry(at: due, error: error)
        }
    }

    /// Whether an attempt due at `due` falls within the retry horizon, counted from the job's webhook.
    private func withinHorizon(_ due: Date, _ claimed: StoredJob) -> Bool {
        due.timeIntervalSince(claimed.acceptedAt) <= retry.horizon / .seconds(1)
    }
}
