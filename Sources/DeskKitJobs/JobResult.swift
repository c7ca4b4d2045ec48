/// What a job's work ended with, as the ``JobQueue`` reads it: a name for its span and its count, whether it
/// failed, whether a shutdown cut it short. Everything else in it is for the work's ``RetryStrategy`` to read
/// (the enrichment's outcome carries the Platform API's error, with its `Retry-After`).
public protocol JobResult: Sendable, CustomStringConvertible {
    /// Short and fixed: `deskkit.job.outcome` of the run's span, and how a finished job is counted in
    /// `deskkit_jobs_total{outcome}` unless its decision says otherwise.
    var name: String { get }
    /// Whether the work failed: the run's span is marked an error.
    var isFailure: Bool { get }
    /// Whether the run was cut short before it ended (a shutdown; a claim the work could not confirm): the
    /// queue puts the job back, due at once, uncounted, without asking its strategy — a write the store
    /// refuses when another claim holds the job.
    var isCancelled: Bool { get }
}
