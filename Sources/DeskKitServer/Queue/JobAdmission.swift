/// What became of a job submitted to the ``JobQueue``.
public enum JobAdmission: String, Sendable, Hashable {
    /// Committed to the store.
    case accepted
    /// The same message id was accepted within the dedup window: not queued again.
    case duplicate
    /// The store holds as many unfinished jobs as it may (the memory store's capacity): answer 503 so the
    /// sender retries later.
    case full
    /// The queue is shutting down.
    case closed
    /// The store could not commit the job: answer 503 so the sender retries later.
    case unavailable
}
