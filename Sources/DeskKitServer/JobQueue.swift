import ServiceLifecycle

/// Where the server puts the jobs it accepts: ``EnrichmentQueue`` in memory, or
/// ``DurableEnrichmentQueue`` over a `JobStore`. Runs as a service next to the HTTP server.
public protocol JobQueue: Service {
    /// Queues `job`: the webhook is answered 200 only for ``JobAdmission/accepted`` and
    /// ``JobAdmission/duplicate``.
    func submit(_ job: EnrichmentJob) async -> JobAdmission
    /// Depth, work in flight and, for stores, the jobs per state, for `/health` and `/metrics`.
    func figures() async -> QueueFigures
}

/// What became of a submitted job.
public enum JobAdmission: String, Sendable, Hashable {
    /// Queued (in a durable store: committed).
    case accepted
    /// The same message id was accepted within the dedup window: not queued again.
    case duplicate
    /// The queue is at capacity: answer 503 so the sender retries later.
    case full
    /// The queue is shutting down.
    case closed
    /// The store could not commit the job: answer 503 so the sender retries later.
    case unavailable
}

/// A queue's figures at one moment.
public struct QueueFigures: Sendable, Hashable {
    /// Jobs waiting (for a store: queued, due or not).
    public var depth: Int
    /// Jobs being worked on by this instance.
    public var running: Int
    /// Jobs per state in the store (all instances), when there is a store and it answered.
    public var states: [JobState: Int]?
    /// Why the store did not answer, when it did not.
    public var storeError: String?
}
