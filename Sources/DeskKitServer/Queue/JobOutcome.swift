import DeskKitFetchPolicy
import DeskKitJobs

/// How the work on one job ended, which decides what the queue does with it. A struct over a private code
/// rather than an enum, so that an outcome added later breaks no `switch`; the errors it carries are typed.
public struct JobOutcome: JobResult, Hashable {
    /// What the queue switches on, exhaustively (inside the module, a new outcome must be handled).
    enum Code: String {
        case updated, noLink = "no_link", noPreview = "no_preview", retryable, permanent, challenged, cancelled
        case unconfirmed
    }
    let code: Code
    /// The Platform API's error, for ``retryable(_:)`` and ``permanent(_:)``.
    public let apiError: PlatformAPIError?
    /// What stood in for the message's pages, for ``challenged(_:)``.
    public let fetchError: FetchError?

    private init(_ code: Code, apiError: PlatformAPIError? = nil, fetchError: FetchError? = nil) {
        self.code = code
        self.apiError = apiError
        self.fetchError = fetchError
    }

    /// The message was updated with its previews.
    public static let updated = JobOutcome(.updated)
    /// The message has no link to preview.
    public static let noLink = JobOutcome(.noLink)
    /// No link of the message gave a preview.
    public static let noPreview = JobOutcome(.noPreview)
    /// Cancelled (shutdown) before the message was updated: the job is run again.
    public static let cancelled = JobOutcome(.cancelled)
    /// The worker could not confirm its claim before the update (`ClaimedJob.confirm()`): another worker
    /// holds the job, or the store did not answer. The message was not updated; as a cancelled run, the job
    /// goes back (a write its store refuses when another claim holds it), uncounted.
    public static let unconfirmed = JobOutcome(.unconfirmed)

    /// The Platform API failed in a way worth another try later (429, 5xx, transport); the error's
    /// `retryAfter` is how long the server asked to wait.
    public static func retryable(_ error: PlatformAPIError) -> JobOutcome { JobOutcome(.retryable, apiError: error) }
    /// The Platform API refused the update for good (a 4xx other than 429).
    public static func permanent(_ error: PlatformAPIError) -> JobOutcome { JobOutcome(.permanent, apiError: error) }
    /// No link gave a card, and a bot check stood in for a page (`FetchError.Kind.challenge`): tried again
    /// later on the ``EnrichmentRetry/Challenge`` schedule, then finished as `no_preview`.
    public static func challenged(_ error: FetchError) -> JobOutcome { JobOutcome(.challenged, fetchError: error) }

    /// The outcome's name (`deskkit.job.outcome` in a span): `updated`, `no_link`, `no_preview`, `retryable`,
    /// `permanent`, `challenged`, `cancelled`, `unconfirmed`.
    public var name: String { code.rawValue }

    public var description: String {
        if let apiError { return "\(name): \(apiError)" }
        if let fetchError { return "\(name): \(fetchError)" }
        return name
    }

    /// Whether the run was cut short before the update: by a shutdown (``cancelled``), or because the claim
    /// could not be confirmed (``unconfirmed``).
    public var isCancelled: Bool { code == .cancelled || code == .unconfirmed }

    /// Whether the message was not updated because the Platform API failed (``retryable(_:)``,
    /// ``permanent(_:)``).
    public var isFailure: Bool { code == .retryable || code == .permanent }

    /// The error the store keeps for the job: the Platform API's, or what stood in for its pages.
    var storedError: String? { apiError?.description ?? fetchError?.description }
}
