/// How the work on one job ended, which decides what the queue does with it.
public enum JobOutcome: Sendable, Hashable {
    /// How a job finished.
    public enum Finish: String, Sendable, Hashable {
        /// The message was updated with its previews.
        case updated
        /// The message has no link to preview.
        case noLink = "no_link"
        /// No link of the message gave a preview.
        case noPreview = "no_preview"
    }

    /// Finished: counted as `deskkit_jobs_total{outcome}` (`updated`, `no_link`, `no_preview`).
    case finished(Finish)
    /// The Platform API failed in a way worth another try later (429, 5xx, transport), with how long the
    /// server asked to wait (`Retry-After`).
    case retryable(String, retryAfter: Duration?)
    /// The Platform API refused the update for good (a 4xx other than 429).
    case permanent(String)
    /// No link gave a card, and a bot check stood in for a page (`FetchError.Kind.challenge`): tried again
    /// later by the ``ChallengeRetry`` policy, then finished as `no_preview`.
    case challenged(String)
    /// Cancelled (shutdown) before the message was updated.
    case cancelled
}

extension JobOutcome {
    /// The outcome's name in a span (`deskkit.job.outcome`): the finish's name, or `retryable`, `permanent`,
    /// `challenged`, `cancelled`.
    var name: String {
        switch self {
        case .finished(let finish): finish.rawValue
        case .retryable: "retryable"
        case .permanent: "permanent"
        case .challenged: "challenged"
        case .cancelled: "cancelled"
        }
    }

    /// Whether the message was not updated because the Platform API failed.
    var isFailure: Bool {
        switch self {
        case .retryable, .permanent: true
        case .finished, .challenged, .cancelled: false
        }
    }
}
