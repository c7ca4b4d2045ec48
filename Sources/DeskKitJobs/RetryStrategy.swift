import DeskKitJobStore
import Foundation

/// What follows a job's outcome — finished, failed, or tried again at some time — as the work that made
/// the outcome decides it: the ``JobQueue`` asks its strategy and writes the answer into the store, and knows
/// no rule of its own (as swift-jobs' `JobRetryStrategy` decides `shouldRetry` and the back-off). The
/// enrichment's rules are DeskKitServer's `EnrichmentRetry`; anyone may write another and hand it to a queue.
///
/// The queue asks only of outcomes that ended a run: a run a shutdown cut short (``JobResult/isCancelled``)
/// is put back, due at once, without asking.
///
/// ```swift
/// /// Three attempts a minute apart, whatever failed.
/// struct ThreeTimes<Outcome: JobResult>: RetryStrategy {
///     func decide(_ outcome: Outcome, for job: StoredJob, now: Date) -> RetryDecision {
///         guard outcome.isFailure else { return .finish() }
///         if job.attempts >= 3 { return .fail(error: outcome.description, reason: "three attempts") }
///         return .retry(at: now.addingTimeInterval(60), error: outcome.description)
///     }
/// }
/// ```
public protocol RetryStrategy<Outcome>: Sendable {
    /// What the work of a job ends with.
    associatedtype Outcome: JobResult
    /// How `job`, whose run (its `attempts`-th) ended with `outcome`, goes on at `now`.
    func decide(_ outcome: Outcome, for job: StoredJob, now: Date) -> RetryDecision
}
