import Foundation

/// A ``RetryStrategy``'s answer: what becomes of a job in the store, the error kept with it, and why (logged).
///
/// The queue counts it in `deskkit_jobs_total{outcome}` as ``counted`` says: by default a finished job by
/// its outcome's name (`updated`, `no_link`…), a failed one as `failed`, a retry as `retry_scheduled`.
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
    /// The `outcome` it is counted as in `deskkit_jobs_total`; nil: by the action (see the type).
    public var counted: String?

    /// A decision of `action`.
    public init(_ action: Action, error: String? = nil, reason: String? = nil, counted: String? = nil) {
        self.action = action
        self.error = error
        self.reason = reason
        self.counted = counted
    }

    /// Done, keeping `error` (what stood in for the pages, when none gave a card).
    public static func finish(error: String? = nil, counted: String? = nil) -> RetryDecision {
        RetryDecision(.finish, error: error, counted: counted)
    }
    /// Failed for good with `error`; `reason` is logged as an error.
    public static func fail(error: String?, reason: String? = nil, counted: String? = nil) -> RetryDecision {
        RetryDecision(.fail, error: error, reason: reason, counted: counted)
    }
    /// Tried again at `due`, keeping `error` until then; `reason` is logged.
    public static func retry(at due: Date, error: String?, reason: String? = nil, counted: String? = nil)
        -> RetryDecision
    {
        RetryDecision(.retry(at: due), error: error, reason: reason, counted: counted)
    }
}
