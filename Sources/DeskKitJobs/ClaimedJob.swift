import DeskKitJobStore

/// A job as its worker holds it: the job, which attempt this is, and the claim it runs under — which the
/// worker confirms (``confirm()``) right before an effect outside the store, such as a message update.
///
/// The store refuses every write of a claim once another worker has taken the job (`JobStore`'s fenced
/// writes), so a worker that lost its job cannot change it; ``confirm()`` extends the same guarantee to what
/// the worker does elsewhere: a worker that paused past its lease (a process stopped by the kernel or a
/// hypervisor, a long stall, a partition from the database) learns that its job is gone before it acts.
public struct ClaimedJob: Sendable {
    /// The job as admitted.
    public let job: EnrichmentJob
    /// Which attempt this is, from 1.
    public let attempt: Int
    /// The claim's token (`StoredJob.claimToken`): unique to this claim of this job, and larger than any
    /// earlier claim's in a PostgreSQL store (a fencing token a downstream service may check).
    public let claimToken: Int64
    private let confirmation: @Sendable () async -> Bool

    /// The job of `claim`, confirmed by `confirmation`.
    package init(_ claim: StoredJob, confirmation: @escaping @Sendable () async -> Bool) {
        job = claim.job
        attempt = claim.attempts
        claimToken = claim.claimToken
        self.confirmation = confirmation
    }

    /// A job held under no store's claim (a tool running one job by hand): always confirmed.
    public init(job: EnrichmentJob, attempt: Int = 1) {
        self.job = job
        self.attempt = attempt
        claimToken = 0
        confirmation = { true }
    }

    /// Whether the job is still this worker's: renews its lease in the store, for a whole lease from now.
    /// False when another worker has claimed it since (or it ended, or an operator changed it) — then the
    /// worker must not act on it — and when the store cannot answer (the job goes back to the queue, or to
    /// the next claim once its lease runs out). After a true answer the job stays this worker's for at least
    /// the lease, unless this process stalls for longer than that.
    public func confirm() async -> Bool { await confirmation() }
}
