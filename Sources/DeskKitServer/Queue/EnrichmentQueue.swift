import DeskKitJobStore
import DeskKitJobs
import Foundation

/// The server's queue: DeskKitJobs' `JobQueue` whose work is the enrichment (a message's preview, ending with a
/// `JobOutcome`) and whose retry strategy is `EnrichmentRetryStrategy`.
package typealias EnrichmentQueue = JobQueue<JobOutcome>

/// The queue's retry strategy: the rules of ``EnrichmentRetry`` (the server's configuration) applied to a
/// `JobOutcome`.
package struct EnrichmentRetryStrategy: RetryStrategy {
    /// The rules.
    package var rules: EnrichmentRetry

    /// The strategy of `rules`.
    package init(_ rules: EnrichmentRetry) { self.rules = rules }

    /// ``EnrichmentRetry``'s decision on `outcome`.
    package func decide(_ outcome: JobOutcome, for job: StoredJob, now: Date) -> RetryDecision {
        rules.decide(outcome, for: job, now: now)
    }
}
