import DeskKitJobStore
import DeskKitPreview
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Tracing

/// The server's one queue of enrichment work, over any `JobStore` (as swift-jobs' `JobQueue` over its
/// drivers): a webhook's job is committed before the webhook is answered, workers claim due jobs with a
/// lease, Platform API failures are retried by the ``RetryPolicy`` over its horizon, across restarts, and a
/// job whose worker died is claimed again when its lease runs out. It alone counts jobs in the metrics.
///
/// On graceful shutdown it stops taking new jobs and lets running ones finish within the grace, then
/// cancels them and puts them back in the store, due at once. A durable store keeps them for the next
/// start. Over a `MemoryJobStore` the queue first goes on with the queued jobs during the grace, and
/// hands back what is left.
public actor JobQueue: Service {
    /// Workers, leases, retries and shutdown.
    public struct Configuration: Sendable, Hashable {
        /// Jobs worked on at once by this instance. Default 32 (the preview service bounds fetches per host).
        public var workers = 32
        /// How long a claimed job is a worker's unless renewed; past it another worker (of any instance)
        /// takes it. A running job renews it every ``heartbeat``, so it bounds how long a dead instance's
        /// jobs wait, not how long a job may take. Default 30 s.
        public var lease: Duration = .seconds(30)
        /// When and how long a failed Platform API call is tried again.
        public var retry = RetryPolicy()
        /// When a job whose pages a bot check stood in for is tried again.
        public var challengeRetry = ChallengeRetry()
        /// How often the store is asked for due jobs when nothing wakes the workers (jobs of other
        /// instances, expired leases). Default 1 s.
        public var pollInterval: Duration = .seconds(1)
        /// How long a message id is a duplicate (Sendbird delivers a webhook again when it got no answer in
        /// time); done jobs older than this are purged. Default 1 hour.
        public var dedupWindow: Duration = .seconds(3600)
        /// How long shutdown waits for running jobs. Default 20 s.
        public var shutdownGrace: Duration = .seconds(20)
        /// Admissions a second above which enrichment runs on one worker, so that answering webhooks gets
        /// the cores while they pour in (the jobs wait in the store; full speed resumes within a second
        /// of the rate falling under it). 0, the default, never holds enrichment back.
        public var deferEnrichmentAbove = 0
        /// The default configuration (see each property).
        public init() {}

        /// How often the leases of running jobs are renewed: a third of ``lease``, so that two renewals in a
        /// row may fail (a slow or briefly unreachable store) before another worker takes the job.
        public var heartbeat: Duration { lease / 3 }
    }

    /// Receives the jobs a store that does not outlive the process still holds at shutdown.
    public typealias HandBack = @Sendable ([EnrichmentJob]) async -> Void

    /// Workers, leases, retries and shutdown.
    public nonisolated let configuration: Configuration
    /// Where the jobs live.
    public nonisolated let store: any JobStore
    private let work: @Sendable (EnrichmentJob) async -> JobOutcome
    private let handBack: HandBack?
    /// Counts the shutdown grace from when the server was asked to stop, shared with its requests.
    private let grace: ShutdownGrace
    private let metrics: ServerMetrics
    private let logger: Logger
    /// The claims of the jobs running, each a child task of ``run()``'s task group.
    private var running: [Int64: StoredJob] = [:]
    /// Jobs whose end is being written: a renewal that no longer finds them running lost nothing.
    private var ending: Set<Int64> = []
    private var closed = false
    /// Set by a graceful shutdown (or a cancellation) of ``run()``, from any thread: the dispatcher closes
    /// the queue when it wakes.
    private let stopRequested = StopRequest()
    /// When the shutdown grace ends, once closed.
    private var graceEnd: ContinuousClock.Instant?
    /// Admissions in the current second and in the one before, for ``Configuration/deferEnrichmentAbove``.
    private var admissionsNow = 0, admissionsBefore = 0
    private var second = ContinuousClock.now
    /// Wakes the dispatcher: a job admitted or ended, a timer, a shutdown. At most one wake-up waits.
    private let wakeups: AsyncStream<Void>
    private let waker: AsyncStream<Void>.Continuation
    /// The earliest timer child of ``run()`` due to wake the dispatcher, and those asked for since (a retry
    /// due sooner than the next poll), which the dispatcher starts.
    private var timerDue: ContinuousClock.Instant?
    private var alarms: [ContinuousClock.Instant] = []

    /// A queue over `store` whose workers run `work` on each job claimed.
    ///
    /// - Parameters:
    ///   - store: where the jobs live.
    ///   - configuration: workers, leases, retries and shutdown.
    ///   - metrics: where jobs are counted (`deskkit_jobs_total`).
    ///   - logger: what the queue logs to.
    ///   - handBack: with a store that does not outlive the process, receives the jobs left at shutdown
    ///     (each is also logged as an error with its channel and message id, and counted as `handed_back`).
    ///   - grace: the shutdown grace shared with the server's requests (by default the queue's own, of
    ///     ``Configuration/shutdownGrace``), begun by whichever is asked to stop first.
    ///   - work: what a worker does with a job; its ``JobOutcome`` decides what the queue does next.
    public init(
        store: any JobStore, configuration: Configuration = Configuration(), metrics: ServerMetrics = ServerMetrics(),
        logger: Logger = Logger(label: "deskkit.queue"), handBack: HandBack? = nil, grace: ShutdownGrace? = nil,
        work: @escaping @Sendable (EnrichmentJob) async -> JobOutcome
    ) {
        self.grace = grace ?? ShutdownGrace(configuration.shutdownGrace)
        self.store = store
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        self.handBack = handBack
        self.work = work
        (wakeups, waker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Commits `job` unless it is a duplicate, the store is full or unavailable, or the queue is closed.
    /// The webhook is answered 200 only for ``JobAdmission/accepted`` and ``JobAdmission/duplicate``.
    ///
    /// A job without a `EnrichmentJob.traceContext` is given the current trace's (the webhook request's
    /// span), so that its runs continue that trace; the admission is a span of its own (`admit job`).
    public func submit(_ job: EnrichmentJob) async -> JobAdmission {
        var job = job
        if job.traceContext.isEmpty { job.traceContext = TraceFields.fields() }
        return await traced("admit job") { span in
            span.attributes["deskkit.message_id"] = "\(job.messageID)"
            let admission = await admit(job)
            span.attributes["deskkit.job.admission"] = admission.rawValue
            if admission == .unavailable { span.setStatus(.init(code: .error, message: "the store cannot commit")) }
            return admission
        }
    }

    private func admit(_ job: EnrichmentJob) async -> JobAdmission {
        guard !closed, !stopRequested.isSet else { return .closed }
        do {
            guard try await store.admit(job, now: Date(), dedupWindow: configuration.dedupWindow) else {
                return .duplicate
            }
        } catch {
            if error.kind == .full { return .full }
            logger.error(
                "cannot commit a job",
                metadata: ["message_id": "\(job.messageID)", "error": .string(error.description)])
            return .unavailable
        }
        countAdmission()
        // Only a free worker needs the dispatcher now; a busy one's end wakes it.
        if running.count < workersNow { wake() }
        return .accepted
    }

    /// Moves the admission counts on to the current second.
    private func rollSecond() {
        let elapsed = ContinuousClock.now - second
        guard elapsed >= .seconds(1) else { return }
        admissionsBefore = elapsed < .seconds(2) ? admissionsNow : 0
        admissionsNow = 0
        second = second + .seconds(Int64(elapsed.components.seconds))
    }

    private func countAdmission() {
        guard configuration.deferEnrichmentAbove > 0 else { return }
        rollSecond()
        admissionsNow += 1
    }

    /// The workers that may run now: one while admissions come faster than
    /// ``Configuration/deferEnrichmentAbove`` a second, else all of them.
    private var workersNow: Int {
        guard configuration.deferEnrichmentAbove > 0 else { return configuration.workers }
        rollSecond()
        let busy = max(admissionsNow, admissionsBefore) > configuration.deferEnrichmentAbove
        return busy ? 1 : configuration.workers
    }

    /// Depth, work in flight and the jobs per state, for `/health` and `/metrics`.
    public func figures() async -> QueueFigures {
        do {
            let states = try await store.counts()
            return QueueFigures(depth: states[.queued] ?? 0, running: running.count, states: states, storeError: nil)
        } catch {
            return QueueFigures(depth: 0, running: running.count, states: nil, storeError: error.description)
        }
    }

    // MARK: The dispatcher

    /// Takes back what a previous process left claimed (when the store is this server's alone), then
    /// claims due jobs while workers are free and renews the leases of those running, until graceful
    /// shutdown (or cancellation). The workers, the lease renewals and the timers are child tasks of one
    /// task group: when it returns, nothing of the queue runs.
    public func run() async throws {
        do {
            let recovered = try await store.recoverAbandoned(now: Date())
            if recovered > 0 {
                logger.notice("took back jobs a previous process left running", metadata: ["count": "\(recovered)"])
            }
        } catch {
            logger.error("cannot take back abandoned jobs", metadata: ["error": .string(error.description)])
        }
        let (grace, stopRequested, waker) = (grace, stopRequested, waker)
        let stop: @Sendable () -> Void = {
            stopRequested.set()
            waker.yield()
        }
        await withDiscardingTaskGroup { group in
            group.addTask { await self.renewLeases() }
            await withTaskCancellationHandler {
                await withGracefulShutdownHandler {
                    await dispatch(&group)
                } onGracefulShutdown: {
                    grace.begin()
                    stop()
                }
            } onCancel: {
                stop()
            }
            await drain(&group)
            group.cancelAll()  // the lease renewals and the timers
        }
        await handBackLostJobs()
    }

    /// Hands back the unfinished jobs that end with the process (``JobStore/jobsLostAtExit()``: the memory
    /// store's; a database keeps them for the next start).
    private func handBackLostJobs() async {
        let left = await store.jobsLostAtExit()
        guard !left.isEmpty else {
            logger.info("stopped; unfinished jobs stay in the store")
            return
        }
        metrics.job(.handedBack, count: left.count)
        for job in left {
            logger.error(
                "job handed back at shutdown",
                metadata: ["channel_url": .string(job.channelURL), "message_id": "\(job.messageID)"])
        }
        await handBack?(left)
    }

    /// Every ``Configuration/heartbeat``, renews the lease of every job this instance runs, in one
    /// statement. A job whose lease was lost meanwhile (the store was unreachable for a whole lease, and
    /// another worker took it) is logged: its update may then be done twice (at least once).
    private func renewLeases() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: configuration.heartbeat)
            let running = Array(self.running.values)
            guard !running.isEmpty, !Task.isCancelled else { continue }
            let now = Date()
            do {
                let renewed = try await store.renew(
                    running, until: now.addingTimeInterval(configuration.lease / .seconds(1)))
                for claim in running
                where !renewed.contains(claim.job.messageID) && self.running[claim.job.messageID] != nil
                    && !ending.contains(claim.job.messageID)
                {
                    logger.warning(
                        "a running job's lease was lost (another worker may take it)",
                        metadata: ["message_id": "\(claim.job.messageID)"])
                }
            } catch {
                logger.warning(
                    "cannot renew the leases of running jobs", metadata: ["error": .string(error.description)])
            }
        }
    }

    private func dispatch(_ group: inout DiscardingTaskGroup) async {
        var lastPurge = ContinuousClock.now
        var storeDown = false
        while !Task.isCancelled {  // cancelled: a hard stop, the workers are cancelled with it
            if stopRequested.isSet { close() }
            // Closed, until the grace ends, only jobs that would be lost are claimed (the memory store's).
            if closed, (graceEnd.map { ContinuousClock.now >= $0 } ?? true) { return }
            let free = workersNow - running.count
            if free > 0 {
                do {
                    let (now, lease) = (Date(), configuration.lease)
                    let jobs =
                        try await closed
                        ? store.claimBeforeStop(limit: free, now: now, lease: lease)
                        : store.claim(limit: free, now: now, lease: lease)
                    if storeDown { logger.notice("the job store answers again") }
                    storeDown = false
                    for job in jobs { start(job, in: &group) }
                    if jobs.count == free { continue }  // there may be more
                    if closed && running.isEmpty { return }  // nothing due is left
                } catch {
                    if !storeDown { logger.error("cannot claim jobs", metadata: ["error": .string(error.description)]) }
                    storeDown = true
                }
            }
            if ContinuousClock.now - lastPurge > .seconds(60) {
                lastPurge = .now
                let done = try? await store.purge(
                    doneBefore: Date().addingTimeInterval(-(configuration.dedupWindow / .seconds(1))))
                if let done, done > 0 { logger.debug("purged done jobs", metadata: ["count": "\(done)"]) }
            }
            var until = ContinuousClock.now + configuration.pollInterval
            if closed, let end = graceEnd { until = min(until, end) }
            await nap(until: until, in: &group)
        }
    }

    /// Runs `claimed` in a child task of the group.
    private func start(_ claimed: StoredJob, in group: inout DiscardingTaskGroup) {
        running[claimed.job.messageID] = claimed
        let work = self.work
        group.addTask {
            // A consumer span in the trace of the webhook that made the job, whichever process claimed it.
            let outcome = await traced(
                "run job", ofKind: .consumer, context: TraceFields.context(from: claimed.job.traceContext)
            ) { span in
                span.attributes["deskkit.message_id"] = "\(claimed.job.messageID)"
                span.attributes["deskkit.job.attempt"] = claimed.attempts
                let outcome = await work(claimed.job)
                span.attributes["deskkit.job.outcome"] = outcome.name
                if outcome.isFailure { span.setStatus(.init(code: .error, message: outcome.name)) }
                return outcome
            }
            await self.settle(claimed, outcome)
        }
    }

    /// Records how a job ended, frees its worker, wakes the dispatcher.
    private func settle(_ claimed: StoredJob, _ outcome: JobOutcome) async {
        let id = claimed.job.messageID
        // A fresh task: the worker's may be cancelled (shutdown), and its end must still be written.
        ending.insert(id)
        await Task { await record(claimed, outcome) }.value
        ending.remove(id)
        running[id] = nil
        wake()
    }

    private func record(_ claimed: StoredJob, _ outcome: JobOutcome) async {
        let id = claimed.job.messageID
        let now = Date()
        do {
            let error = outcome.storedError
            func finished(as label: ServerMetrics.Job) async throws(JobStoreError) {
                metrics.job(label)
                try await store.finish(id, as: .done, error: nil, now: now)
            }
            switch outcome.code {
            case .updated: try await finished(as: .updated)
            case .noLink: try await finished(as: .noLink)
            case .noPreview: try await finished(as: .noPreview)
            case .cancelled:
                try await store.reschedule(id, dueAt: now, error: nil, now: now)
            case .permanent:
                metrics.job(.apiFailed)
                try await store.finish(id, as: .failed, error: error, now: now)
            case .retryable:
                let delay = configuration.retry.delay(after: claimed.attempts, retryAfter: outcome.apiError?.retryAfter)
                let due = now.addingTimeInterval(delay / .seconds(1))
                if !withinHorizon(due, claimed) {
                    metrics.job(.apiFailed)
                    logger.error(
                        "job failed: retry horizon passed",
                        metadata: ["message_id": "\(id)", "error": .string(error ?? "")])
                    try await store.finish(id, as: .failed, error: error, now: now)
                } else {
                    metrics.job(.retryScheduled)
                    try await store.reschedule(id, dueAt: due, error: error, now: now)
                    wake(after: delay)
                }
            case .challenged:
                let due = configuration.challengeRetry.delay(after: claimed.attempts).map {
                    now.addingTimeInterval($0 / .seconds(1))
                }
                if let due, withinHorizon(due, claimed) {
                    metrics.job(.challengeRetry)
                    logger.info(
                        "a bot check stood in for the message's pages; it will be tried again",
                        metadata: ["message_id": "\(id)", "due": "\(due)", "error": .string(error ?? "")])
                    try await store.reschedule(id, dueAt: due, error: error, now: now)
                } else {
                    metrics.job(.noPreview)
                    try await store.finish(id, as: .done, error: error, now: now)
                }
            }
        } catch {
            // The lease runs out and the job is claimed again: at least once.
            logger.error(
                "cannot record a job's end", metadata: ["message_id": "\(id)", "error": .string(error.description)])
        }
    }

    /// Whether an attempt due at `due` falls within the retry horizon, counted from the job's webhook.
    private func withinHorizon(_ due: Date, _ claimed: StoredJob) -> Bool {
        due.timeIntervalSince(claimed.acceptedAt) <= configuration.retry.horizon / .seconds(1)
    }

    // MARK: Waking and stopping

    private func wake() { waker.yield() }

    /// Wakes the dispatcher after `delay` when that is sooner than its next poll: a retry due soon is
    /// claimed when it is due.
    private func wake(after delay: Duration) {
        guard delay < configuration.pollInterval else { return }
        alarms.append(.now + delay)
        wake()
    }

    /// Waits for a wake-up, at the latest at `until` (or at an alarm before it): a timer child of the group
    /// wakes the dispatcher then, unless one due no later is already set.
    private func nap(until: ContinuousClock.Instant, in group: inout DiscardingTaskGroup) async {
        for due in alarms + [until] where timerDue.map({ due < $0 }) ?? true {
            timerDue = due
            let waker = self.waker
            group.addTask {
                do { try await Task.sleep(until: due) } catch { return }
                await self.timerFired(due)
                waker.yield()
            }
        }
        alarms = []
        var next = wakeups.makeAsyncIterator()
        _ = await next.next()
    }

    private func timerFired(_ due: ContinuousClock.Instant) {
        if timerDue == due { timerDue = nil }
    }

    /// Stops taking new jobs and starts the grace; running jobs go on until ``run()`` drains them.
    public func close() {
        guard !closed else { return }
        closed = true
        graceEnd = grace.begin()
        wake()
    }

    /// Waits for running jobs until the grace ends, then cancels them (they put themselves back in the
    /// store).
    private func drain(_ group: inout DiscardingTaskGroup) async {
        let end = graceEnd ?? grace.begin()
        while !running.isEmpty {
            guard ContinuousClock.now < end, !Task.isCancelled else {
                group.cancelAll()
                break
            }
            await nap(until: end, in: &group)
        }
    }
}

/// A stop asked for from a graceful-shutdown or cancellation handler, which may run on any thread.
private final class StopRequest: Sendable {
    private let requested = Mutex(false)
    var isSet: Bool { requested.withLock { $0 } }
    func set() { requested.withLock { $0 = true } }
}
