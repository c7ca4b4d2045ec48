import DeskKitJobStore
import Foundation

/// What follows a job's outcome — finished, failed, or tried again at some time — as the work that made
/// the outcome decides it: the ``JobQueue`` asks its strategy and writes the answer into the store, and knows
/// no rule of its own (as swift-jobs' `JobRetryStrategy` decides `shouldRetry` and the back-off). The
/// enrichment's rules are ``EnrichmentRetry``; anyone may write another and hand it to the queue.
///
/// The queue asks only of outcomes that ended a run: a run cut short by a shutdown
/// (``JobOutcome/cancelled``) is put back, due at once, without asking.
///
/// ```swift
/// /// Three attempts a minute apart, whatever failed.
/// struct ThreeTimes: RetryStrategy {
///     func decide(_ outcome: JobOutcome, for job: StoredJob, now: Date) -> RetryDecision {
///         guard outcome.isFailure else { return .finish() }
///         if job.attempts >= 3 { return .fail(error: outcome.description, reason: "three attempts") }
///         return .retry(at: now.addingTimeInterval(60), error: outcome.description)
///     }
/// }
/// ```
public protocol RetryStrategy: Sendable {
    /// How `job`, whose run (its ``StoredJob/attempts``-th) ended with `outcome`, goes on at `now`.
    func decide(_ outcome: JobOutcome, for job: StoredJob, now: Date) -> RetryDecision
}

/// A ``RetryStrategy``'s answer: what becomes of a job in the store, the error kept with it, and why (logged).
///
/// The queue counts it in `deskkit_jobs_total{outcome}` by the outcome it answers: a finished job as
/// `updated`, `no_link` or `no_preview`; a failed one as `api_failed`; a retry as `challenge_retry` after a
/// bot check, else `retry_scheduled`.
public struct RetryDecision: Sendable, Hashable {
    /// What becomes of the job.
    public enum Action: Sendable, Hashable {
        /// Done: nothing more to do.
        case finish
        /// Failed for good (`deskkit jobs retry` can queue it again).
        case fail
        /// Queued again, due at the date.
        case retry(at: Date)
    }

    /// What becomes of the job.
    public var action: Action
    /// The error the store keeps with the job (`deskkit jobs` shows it), if any.
    public var error: String?
    /// Why, logged with the job's id when given: as an error for ``Action/fail``, else as information.
    public var reason: String?

    /// A decision of `action`.
    public init(_ action: Action, error: String? = nil, reason: String? = nil) {
        self.action = action
        self.error = error
        self.reason = reason
    }

    /// Done, keeping `error` (what stood in for the pages, when none gave a card).
    public static func finish(error: String? = nil) -> RetryDecision { RetryDecision(.finish, error: error) }
    /// Failed for good with `error`; `reason` is logged as an error.
    public static func fail(error: String?, reason: String? = nil) -> RetryDecision {
        RetryDecision(.fail, error: error, reason: reason)
    }
    /// Tried again at `due`, keeping `error` until then; `reason` is logged.
    public static func retry(at due: Date, error: String?, reason: String? = nil) -> RetryDecision {
        RetryDecision(.retry(at: due), error: error, reason: reason)
    }
}
