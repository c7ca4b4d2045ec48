import DeskKitJobStore

/// The ``JobQueue``'s figures at one moment, for `/health` and `/metrics`.
public struct QueueFigures: Sendable, Hashable {
    /// Jobs waiting in the store (queued, due or not).
    public var depth: Int
    /// Jobs being worked on by this instance.
    public var running: Int
    /// Jobs per state in the store (all instances), when it answered.
    public var states: [JobState: Int]?
    /// Why the store did not answer, when it did not.
    public var storeError: JobStoreError?
}
