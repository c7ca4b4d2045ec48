import DeskKitJobStore
import DeskKitPreview
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Tracing

/// The server's one queue of enrichment work, over any `JobStore` (as swift-jobs' `JobQueue` over its
/// drivers): a webhook's job is committed before the webhook is answered; ``Configuration/workers`` workers,
/// children of one task group, each claim the next due job from the store with a lease (those that ask at
/// once, in one statement); what follows a job's
/// outcome is its ``retry`` strategy's to say (the enrichment's: ``EnrichmentRetry``), across restarts; a job
/// whose worker died is claimed again when its lease runs out. It alone counts jobs in the metrics.
///
/// Idle workers wait on a `Doorbell`: a job admitted — here, or on another instance that shares the store
/// (`JobStore.waitForArrivals(_:)`, PostgreSQL's `LISTEN`) — wakes one, and one of them waits with a deadline —
/// the store's next due job (`JobStore.nextDue()`) or ``Configuration/pollInterval``, whichever is sooner
/// — for what no admission announces (retries, other instances' jobs, expired leases).
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
        /// How often an idle worker asks the store for due jobs when nothing wakes the workers and the store
        /// names no job due sooner (jobs of other instances). Default 1 s.
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
    /// What follows each outcome.
    public nonisolated let retry: any RetryStrategy
    private let handBack: HandBack?
    /// Counts the shutdown grace from when the server was asked to stop, shared with its requests.
    private let grace: ShutdownGrace
    private let metrics: ServerMetrics
    private let logger: Logger
    /// The claims of the jobs running, for the lease renewals and the figures.
    private var running: [Int64: StoredJob] = [:]
    /// Jobs whose end is being written: a renewal that no longer finds them running lost nothing.
    private var ending: Set<Int64> = []
    private var closed = false
    /// Set by a graceful shutdown (or a cancellation) of ``run()``, from any thread: the queue closes when
    /// its workers or its supervisor next look.
    private let stopRequested = StopRequest()
    /// When the shutdown grace ends, once closed.
    private var graceEnd: ContinuousClock.Instant?
    /// Admissions in the current second and in the one before, for ``Configuration/deferEnrichmentAbove``.
    private var admissionsNow = 0, admissionsBefore = 0
    private var second = ContinuousClock.now
    /// Wakes idle workers.
    private let doorbell = Doorbell()
    /// Wakes ``run()``'s supervision: a stop asked for, the grace's end, the last worker gone.
    private let supervisor = Doorbell()
    private var workersLeft = 0
    /// Whether the last claim failed (logged once until the store answers again).
    private var storeDown = false
    /// The workers' claims, one job each, in one statement for those that ask at once (`true`: the queue is
    /// closed, and only jobs that would be lost are claimed).
    private let claims: GroupCommit<Bool, StoredJob?>

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
    ///   - retry: what follows each outcome of `work`; by default the enrichment's rules
    ///     (``EnrichmentRetry``).
    ///   - work: what a worker does with a job.
    public init(
        store: any JobStore, configuration: Configuration = Configuration(), metrics: ServerMetrics = ServerMetrics(),
        logger: Logger = Logger(label: "deskkit.queue"), handBack: HandBack? = nil, grace: ShutdownGrace? = nil,
        retry: any RetryStrategy = EnrichmentRetry(), work: @escaping @Sendable (EnrichmentJob) async -> JobOutcome
    ) {
        self.grace = grace ?? ShutdownGrace(configuration.shutdownGrace)
        self.store = store
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        self.handBack = handBack
        self.retry = retry
        self.work = work
        let lease = configuration.lease
        claims = GroupCommit(
            maxBatch: configuration.workers, describe: { $0 as? JobStoreError ?? .init(.unavailable, "\($0)") }
        ) { batch in
            let (now, limit) = (Date(), batch.count)
            let jobs =
                try await batch.contains(true)
                ? store.claimBeforeStop(limit: limit, now: now, lease: lease)
                : store.claim(limit: limit, now: now, lease: lease)
            return batch.indices.map { $0 < jobs.count ? jobs[$0] : nil }
        }
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
        doorbell.ring()
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

    // MARK: Running

    /// Takes back what a previous process left claimed (when the store is this server's alone), then runs
    /// the workers, the lease renewals and the purge of done jobs — child tasks of one task group — until a
    /// graceful shutdown (or cancellation): then no job is claimed that the store keeps, running ones go on
    /// until the grace ends and are cancelled then (their worker puts them back in the store). When it
    /// returns, nothing of the queue runs.
    public func run() async throws {
        do {
            let recovered = try await store.recoverAbandoned(now: Date())
            if recovered > 0 {
                logger.notice("took back jobs a previous process left running", metadata: ["count": "\(recovered)"])
            }
        } catch {
            logger.error("cannot take back abandoned jobs", metadata: ["error": .string(error.description)])
        }
        let (grace, stopRequested, doorbell, supervisor) = (grace, stopRequested, doorbell, supervisor)
        let stop: @Sendable () -> Void = {
            stopRequested.set()
            supervisor.ring()
            doorbell.ringAll()
        }
        await withDiscardingTaskGroup { group in
            group.addTask { await self.renewLeases() }
            group.addTask { await self.purgeDoneJobs() }
            // Another instance's admissions (PostgreSQL's NOTIFY) wake an idle worker here too.
            group.addTask { await self.store.waitForArrivals { doorbell.ring() } }
            await withTaskCancellationHandler {
                await withGracefulShutdownHandler {
                    await runWorkers()
                } onGracefulShutdown: {
                    grace.begin()
                    stop()
                }
            } onCancel: {
                stop()
            }
            group.cancelAll()  // the lease renewals, the purge and the listener
        }
        await handBackLostJobs()
    }

    /// Runs the workers until each has left (the queue closed and nothing left to claim), or the grace
    /// has ended: then those still at work are cancelled.
    private func runWorkers() async {
        workersLeft = configuration.workers
        await withDiscardingTaskGroup { workers in
            for index in 0..<configuration.workers {
                workers.addTask {
                    await self.runWorker(index)
                    await self.workerLeft()
                }
            }
            while workersLeft > 0, !Task.isCancelled {
                if stopRequested.isSet { close() }
                if let graceEnd, ContinuousClock.now >= graceEnd { break }
                await supervisor.wait(until: nil)
            }
            workers.cancelAll()
        }
    }

    private func workerLeft() {
        workersLeft -= 1
        if workersLeft == 0 { supervisor.ring() }
    }

    /// One worker: claims the next due job, runs it, writes how it ended — until the queue has nothing
    /// more for it.
    private nonisolated func runWorker(_ index: Int) async {
        while let claimed = await nextJob(for: index) {
            let work = self.work
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
            await end(claimed, outcome)
        }
    }

    /// The next job for worker `index`, waiting for one; nil when the queue has no more for it (closed, and
    /// nothing due that would be lost; or the grace is over; or cancelled).
    private func nextJob(for index: Int) async -> StoredJob? {
        while !Task.isCancelled {
            if stopRequested.isSet { close() }
            if closed, let graceEnd, ContinuousClock.now >= graceEnd { return nil }
            // Held back while webhooks pour in: looks again within a second.
            if index >= workersNow {
                await doorbell.wait(until: .now + .seconds(1))
                continue
            }
            do {
                // Closed, only jobs that would be lost are claimed (the memory store's).
                let claimed = try await claims.submit(closed)
                if storeDown { logger.notice("the job store answers again") }
                storeDown = false
                if let claimed {
                    running[claimed.job.messageID] = claimed
                    doorbell.ring()  // another may be due: the next idle worker looks
                    return claimed
                }
                if closed { return nil }
            } catch {
                if !storeDown { logger.error("cannot claim jobs", metadata: ["error": .string(error.description)]) }
                storeDown = true
            }
            await doorbell.wait(until: await pollDeadline(), polls: true)
        }
        return nil
    }

    /// Until when an idle worker waits when no admission wakes it: none when another idle worker polls
    /// already; else the store's next due job or the poll interval, whichever is sooner.
    private func pollDeadline() async -> ContinuousClock.Instant? {
        guard !doorbell.isPolled else { return nil }
        let poll = ContinuousClock.now + configuration.pollInterval
        guard !storeDown, let due = try? await store.nextDue() else { return poll }
        // At least a millisecond: a job due now that a claim just missed is another worker's.
        let wait = Duration.milliseconds(max(1, Int64(due.timeIntervalSinceNow * 1000)))
        return min(poll, .now + wait)
    }

    /// Writes how `claimed` ended, as ``retry`` decides; a run cut short by a shutdown goes back, due at
    /// once, uncounted. The store writes it even when this worker is cancelled
    /// (`JobStore.finish(_:as:error:now:)`): a job cut short at the grace's end goes back.
    private func end(_ claimed: StoredJob, _ outcome: JobOutcome) async {
        let id = claimed.job.messageID
        ending.insert(id)
        defer {
            ending.remove(id)
            running[id] = nil
        }
        let now = Date()
        let decision =
            outcome.code == .cancelled ? RetryDecision(.retry(at: now)) : retry.decide(outcome, for: claimed, now: now)
        if outcome.code != .cancelled { metrics.job(Self.counted(decision, outcome)) }
        if let reason = decision.reason {
            let level: Logger.Level = decision.action == .fail ? .error : .info
            logger.log(
                level: level, "\(reason)", metadata: ["message_id": "\(id)", "error": .string(decision.error ?? "")])
        }
        do {
            switch decision.action {
            case .finish: try await store.finish(id, as: .done, error: decision.error, now: now)
            case .fail: try await store.finish(id, as: .failed, error: decision.error, now: now)
            case .retry(let due):
                try await store.reschedule(id, dueAt: due, error: decision.error, now: now)
                let wait = due.timeIntervalSince(now)
                if wait < configuration.pollInterval / .seconds(1) {
                    doorbell.ring(at: .now + .milliseconds(Int64(max(0, wait) * 1000)))
                }
            }
        } catch {
            // The lease runs out and the job is claimed again: at least once.
            logger.error(
                "cannot record a job's end", metadata: ["message_id": "\(id)", "error": .string(error.description)])
        }
    }

    /// How a decision on `outcome` is counted in `deskkit_jobs_total{outcome}`.
    private static func counted(_ decision: RetryDecision, _ outcome: JobOutcome) -> ServerMetrics.Job {
        switch decision.action {
        case .finish:
            switch outcome.code {
            case .updated: .updated
            case .noLink: .noLink
            default: .noPreview
            }
        case .fail: .apiFailed
        case .retry: outcome.code == .challenged ? .challengeRetry : .retryScheduled
        }
    }

    /// Hands back the unfinished jobs that end with the process (`JobStore.jobsLostAtExit()`: the memory
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

    /// Once a minute, deletes the done jobs older than the dedup window.
    private func purgeDoneJobs() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: .seconds(60)) } catch { return }
            let done = try? await store.purge(
                doneBefore: Date().addingTimeInterval(-(configuration.dedupWindow / .seconds(1))))
            if let done, done > 0 { logger.debug("purged done jobs", metadata: ["count": "\(done)"]) }
        }
    }

    /// Stops taking new jobs and starts the grace; running jobs go on until it ends.
    public func close() {
        guard !closed else { return }
        closed = true
        let end = grace.begin()
        graceEnd = end
        supervisor.ring()
        // The supervisor looks again when the grace ends, and cancels the workers still at work.
        supervisor.ring(at: end)
        doorbell.ringAll()
    }
}

/// A stop asked for from a graceful-shutdown or cancellation handler, which may run on any thread.
private final class StopRequest: Sendable {
    private let requested = Mutex(false)
    var isSet: Bool { requested.withLock { $0 } }
    func set() { requested.withLock { $0 = true } }
}
