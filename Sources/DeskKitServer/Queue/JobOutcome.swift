import DeskKitFetchPolicy
import DeskKitJobs

/// How the work on one job ended, which decides what the queue does with it. A struct over a private code
/// rather than an enum, so that an outcome added later breaks no `switch`; the errors it carries are typed.
package struct JobOutcome: JobResult, Hashable {
    /// What the queue switches on, exhaustively (inside the module, a new outcome must be handled).
    enum Code: String {
        case updated, noLink = "no_link", noPreview = "no_preview", retryable, permanent, challenged, cancelled
        case unconfirmed
    }
    let code: Code
    /// The Platform API's error, for ``retryable(_:)`` and ``permanent(_:)``.
    package let apiError: PlatformAPIError?
    /// What stood in for the message's pages, for ``challenged(_:)``.
    package let fetchError: FetchError?

    private init(_ code: Code, apiError: PlatformAPIError? = nil, fetchError: FetchError? = nil) {
        self.code = code
        self.apiError = apiError
        self.fetchError = fetchError
    }

    /// The message was updated with its previews.
    package static let updated = JobOutcome(.updated)
    /// The message has no link to preview.
    package static let noLink = JobOutcome(.noLink)
    /// No link of the message gave a preview.
    package static let noPreview = JobOutcome(.noPreview)
    /// Cancelled (shutdown) before the message was updated: the job is run again.
    package static let cancelled = JobOutcome(.cancelled)
    /// The worker could not confirm its claim before the update (`ClaimedJob.confirm()`): another worker
    /// holds the job, or the store did not answer. The message was not updated; as a cancelled run, the job
    /// goes back (a write its store refuses when another claim holds it), uncounted.
    package static let unconfirmed = JobOutcome(.unconfirmed)

    /// The Platform API failed in a way worth another try later (429, 5xx, transport); the error's
    /// `retryAfter` is how long the server asked to wait.
    package static func retryable(_ error: PlatformAPIError) -> JobOutcome { JobOutcome(.retryable, apiError: error) }
    /// The Platform API refused the update for good (a 4xx other than 429).
    package static func permanent(_ error: PlatformAPIError) -> JobOutcome { JobOutcome(.permanent, apiError: error) }
    /// No link gave a card, and a bot check stood in for a page (`FetchError.Kind.challenge`): tried again
    /// later on the ``EnrichmentRetry/Challenge`` schedule, then finished as `no_preview`.
    package static func challenged(_ error: FetchError) -> JobOutcome { JobOutcome(.challenged, fetchError: error) }

    /// The outcome's name (`deskkit.job.outcome` in a span): `updated`, `no_link`, `no_preview`, `retryable`,
    /// `permanent`, `challenged`, `cancelled`, `unconfirmed`.
    package var name: String { code.rawValue }

    package var description: String {
        if let apiError { return "\(name): \(apiError)" }
        if let fetchError { return "\(name): \(fetchError)" }
        return name
    }

    /// Whether the run was cut short before the update: by a shutdown (``cancelled``), or because the claim
    /// could not be confirmed (``unconfirmed``).
    package var isCancelled: Bool { code == .cancelled || code == .unconfirmed }

    /// Whether the message was not updated because the Platform API failed (``retryable(_:)``,
    /// ``permanent(_:)``).
    package var isFailure: Bool { code == .retryable || code == .permanent }

    /// The error the store keeps for the job: the Platform API's, or what stood in for its pages.
    var storedError: String? { apiError?.description ?? fetchError?.description }
}
