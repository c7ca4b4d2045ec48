import DeskKitJobs

/// The server's queue: DeskKitJobs' `JobQueue` whose work is the enrichment (a message's preview, ending with a
/// ``JobOutcome``) and whose retry strategy is, by default, ``EnrichmentRetry``.
public typealias EnrichmentQueue = JobQueue<JobOutcome>
