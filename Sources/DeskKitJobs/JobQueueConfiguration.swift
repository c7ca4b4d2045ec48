/// A ``JobQueue``'s workers, leases, polling, dedup window and shutdown grace.
public struct JobQueueConfiguration: Sendable, Hashable {
    /// Jobs worked on at once by this instance. Default 32 (the preview service bounds fetches per host).
    public var workers = 32
    /// How long a claimed job is a worker's unless renewed; past it another worker (of any instance) takes
    /// it. A running job renews it every ``heartbeat``, so it bounds how long a dead instance's jobs wait, not
    /// how long a job may take. Default 30 s.
    public var lease: Duration = .seconds(30)
    /// How often the queue asks the store for due jobs when nothing wakes it and the store names no job due
    /// sooner (jobs of other instances that no `NOTIFY` announced). Default 1 s.
    public var pollInterval: Duration = .seconds(1)
    /// How long a message id is a duplicate (Sendbird delivers a webhook again when it got no answer in
    /// time); done jobs older than this are purged. Default 1 hour.
    public var dedupWindow: Duration = .seconds(3600)
    /// How long shutdown waits for running jobs. Default 20 s.
    public var shutdownGrace: Duration = .seconds(20)
    /// Admissions a second above which enrichment runs on one worker, so that answering webhooks gets the
    /// cores while they pour in (the jobs wait in the store; full speed resumes within a second of the rate
    /// falling under it). 0, the default, never holds enrichment back.
    public var deferEnrichmentAbove = 0

    /// The default configuration (see each property).
    public init() {}

    /// How often the leases of running jobs are renewed: a third of ``lease``, so that two renewals in a row
    /// may fail (a slow or briefly unreachable store) before another worker takes the job.
    public var heartbeat: Duration { lease / 3 }
}
