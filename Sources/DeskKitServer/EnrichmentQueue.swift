import DeskKitJobStore
import DeskKitModel
import NIOCore
import ServiceLifecycle

/// A bounded queue of enrichment work with a fixed number of workers and a window of message ids
/// already accepted (Sendbird delivers a webhook again when it got no answer in time).
///
/// Run it as a service: on graceful shutdown it stops accepting, lets the workers finish what is queued
/// within ``Configuration/shutdownGrace``, then cancels them and hands back every job not finished.
public actor EnrichmentQueue: JobQueue {
    /// Capacity, workers, deduplication and shutdown of a queue in memory.
    public struct Configuration: Sendable, Hashable {
        /// Jobs waiting at most; beyond, ``submit(_:)`` answers ``JobAdmission/full``. Default 10,000.
        public var capacity = 10_000
        /// Jobs worked on at once. Default 32 (the preview service bounds fetches per host).
        public var workers = 32
        /// Message ids remembered to drop deliveries of the same message. Default 100,000.
        public var dedupCapacity = 100_000
        /// How long a message id is remembered. Default 1 hour (Sendbird retries within minutes).
        public var dedupTTL: Duration = .seconds(3600)
        /// How long shutdown waits for queued and running jobs. Default 20 s.
        public var shutdownGrace: Duration = .seconds(20)
        /// The default configuration (see each property).
        public init() {}
    }

    /// What ``submit(_:)`` answers.
    public typealias Admission = JobAdmission

    /// Does a job; returns false when it could not finish (cancelled), so it is handed back.
    public typealias Worker = @Sendable (EnrichmentJob) async -> Bool
    /// Receives the jobs not finished at shutdown.
    public typealias HandBack = @Sendable ([EnrichmentJob]) async -> Void

    /// Capacity, workers, deduplication and shutdown.
    public nonisolated let configuration: Configuration
    private let work: Worker
    private let handBack: HandBack
    private var pending = CircularBuffer<EnrichmentJob>()
    private var inFlight: [Int64: EnrichmentJob] = [:]
    private var waiters = CircularBuffer<CheckedContinuation<EnrichmentJob?, Never>>()
    private var closed = false
    private var closedWaiters: [CheckedContinuation<Void, Never>] = []
    /// Accepted message ids, when accepted; `seenOrder` holds them oldest first, to forget beyond capacity.
    private var seen: [Int64: ContinuousClock.Instant] = [:]
    private var seenOrder = CircularBuffer<Int64>()

    /// A queue whose workers run `work` and which gives the jobs not finished at shutdown to `handBack`.
    public init(configuration: Configuration = Configuration(), work: @escaping Worker, handBack: @escaping HandBack) {
        self.configuration = configuration
        self.work = work
        self.handBack = handBack
    }

    /// Jobs waiting.
    public var depth: Int { pending.count }
    /// Jobs being worked on.
    public var running: Int { inFlight.count }

    public func figures() -> QueueFigures { QueueFigures(depth: depth, running: running, states: nil, storeError: nil) }

    /// Queues `job` unless it is a duplicate, the queue is full or closed.
    public func submit(_ job: EnrichmentJob) -> Admission {
        guard !closed else { return .closed }
        let now = ContinuousClock.now
        if let at = seen[job.messageID], now - at < configuration.dedupTTL { return .duplicate }
        guard depth < configuration.capacity else { return .full }
        remember(job.messageID, at: now)
        if !waiters.isEmpty {
            inFlight[job.messageID] = job
            waiters.removeFirst().resume(returning: job)
        } else {
            pending.append(job)
        }
        return .accepted
    }

    private func remember(_ id: Int64, at now: ContinuousClock.Instant) {
        if seen.updateValue(now, forKey: id) == nil { seenOrder.append(id) }
        while seen.count > configuration.dedupCapacity, let oldest = seenOrder.popFirst() { seen[oldest] = nil }
    }

    /// The next job for a worker, or nil when the queue is closed and empty (or the worker is cancelled).
    private func next() async -> EnrichmentJob? {
        if Task.isCancelled { return nil }
        if let job = pending.popFirst() {
            inFlight[job.messageID] = job
            return job
        }
        if closed { return nil }
        return await withCheckedContinuation { waiters.append($0) }
    }

    private func finished(_ job: EnrichmentJob) { inFlight[job.messageID] = nil }

    /// Stops accepting; idle workers end once the queue is empty.
    public func close() {
        guard !closed else { return }
        closed = true
        while let waiter = waiters.popFirst() { waiter.resume(returning: nil) }
        for waiter in closedWaiters { waiter.resume() }
        closedWaiters = []
    }

    private func untilClosed() async {
        if closed { return }
        await withCheckedContinuation { closedWaiters.append($0) }
    }

    private func workerLoop() async {
        while let job = await next() {
            if await work(job) { finished(job) }
        }
    }

    /// Runs the workers until graceful shutdown (or cancellation), then drains as described above.
    public func run() async throws {
        let workers = Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<max(1, configuration.workers) { group.addTask { await self.workerLoop() } }
            }
        }
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await untilClosed()
            } onGracefulShutdown: {
                Task { await self.close() }
            }
        } onCancel: {
            Task { await self.close() }
        }
        // Closed: the workers drain the queue; past the grace (or when this task is cancelled) they are
        // cancelled, and what they did not finish is handed back.
        let grace = configuration.shutdownGrace
        let timer = Task {
            try await Task.sleep(for: grace)
            workers.cancel()
        }
        await withTaskCancellationHandler {
            await workers.value
        } onCancel: {
            workers.cancel()
        }
        timer.cancel()
        let leftovers = Array(pending) + inFlight.values.sorted { $0.messageID < $1.messageID }
        pending.removeAll()
        inFlight = [:]
        if !leftovers.isEmpty { await handBack(leftovers) }
    }
}
