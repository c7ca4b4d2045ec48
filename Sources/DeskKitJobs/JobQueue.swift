import DeskKitTime
import CoreMetrics
import DeskKitJobStore
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Tracing

// One file for one actor: the queue's state (claims running, leases, the shutdown's hand-back) is isolated to
// `JobQueue`, and what changes it is read in one place; the retry rules, claims and figures it uses have files of
// their own.

/// One queue of enrichment work over any `JobStore` (as swift-jobs' `JobQueue` over its drivers): a job is
/// committed before ``submit(_:)`` answers; the store's due jobs come as `JobClaims`, an `AsyncSequence`
/// of claims with leases; the queue runs at most ``JobQueueConfiguration/workers`` of them at once, each a
/// child task, renews their leases, and writes how each ended as its ``RetryStrategy`` decides — across
/// restarts; a job whose worker died is claimed again when its lease runs out. A worker takes its next job once
/// its work is done: the end's write (a round trip to the store) goes on beside it, and no job is claimed while
/// as many ends as workers are being written. It alone counts jobs (`deskkit_jobs_total{outcome}`).
///
/// Every task of the queue is a child of ``run()``: the claims, the jobs, the lease renewals, the purge of
/// done jobs and the store's `LISTEN` (`JobStore.waitForArrivals(_:)`); when it returns nothing of the queue
/// runs. It waits on the system's clocks (the package's tests hand it one they drive).
///
/// A worker's writes are fenced: each renewal, end and reschedule holds only while the job still runs under
/// the worker's claim (`StoredJob.claimToken`), and the work confirms its claim (``ClaimedJob/confirm()``)
/// before it acts outside the store. A write the store refuses because the claim is gone is logged as a
/// warning with the message id and counted (`deskkit_jobs_stale_writes_total`); the job is left as the
/// worker that holds it now leaves it.
///
/// On graceful shutdown it stops taking new jobs and lets running ones finish within the grace, then
/// cancels them and puts them back in the store, due at once. A durable store keeps them for the next
/// start. Over a `MemoryJobStore` the queue first goes on with the queued jobs during the grace, and hands
/// back what is left.
public actor JobQueue<Outcome: JobResult>: Service {
    /// Receives the jobs a store that does not outlive the process still holds at shutdown.
    public typealias HandBack = @Sendable ([EnrichmentJob]) async -> Void

    /// Workers, leases, polling and shutdown.
    public nonisolated let configuration: JobQueueConfiguration
    /// Where the jobs live.
    public nonisolated let store: any JobStore
    /// What follows each outcome.
    public nonisolated let retry: any RetryStrategy<Outcome>
    /// How the queue waits and dates what it writes.
    package nonisolated let clock: ServiceClock
    private let work: @Sendable (ClaimedJob) async -> Outcome
    private let handBack: HandBack?
    /// Counts the shutdown grace from when the server was asked to stop, shared with its requests.
    private let grace: ShutdownGrace
    private let metrics: any MetricsFactory
    /// `deskkit_jobs_stale_writes_total`: writes the store refused because their claim was gone.
    private let staleWrites: Counter
    private let logger: Logger
    /// The claims of the jobs running, for the lease renewals and the figures.
    private var running: [Int64: StoredJob] = [:]
    /// Jobs whose end is being written: a renewal that no longer finds them running lost nothing.
    private var ending: Set<Int64> = []
    /// The tokens of claims this queue's workers still hold that the store said are gone (a renewal or a
    /// confirmation found another claim, or none): their ends are not written.
    private var lost: Set<Int64> = []
    /// What the claims, the handlers and the workers read from any thread.
    private let shared: Locked<Shared>
    /// The store's due jobs; the queue wakes them on an admission, a retry due soon and a stop.
    private let claims: JobClaims
    /// A job's end or the grace's: the loop waiting for a free worker looks again.
    private let freed = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))

    private struct Shared {
        /// A graceful shutdown, a cancellation or ``close()`` asked the queue to stop.
        var stopping = false
        var graceOver = false
        /// Jobs at work: at most the workers.
        var inFlight = 0
        /// Jobs whose work is done and whose end is being written: none is claimed while they are as many as the
        /// workers. A worker is free for the next job once its work is done, not once the store has its end: the
        /// end's commit (a group commit, a round trip) is off the job's path.
        var ending = 0
        /// Admissions in the current second and in the one before, for `deferEnrichmentAbove`.
        var admissionsNow = 0, admissionsBefore = 0
        var second: Date?
    }

    /// A queue over `store` whose workers run `work` on each job claimed.
    ///
    /// - Parameters:
    ///   - store: where the jobs live.
    ///   - configuration: workers, leases, polling and shutdown.
    ///   - retry: what follows each outcome of `work`.
    ///   - metrics: where jobs are counted (`deskkit_jobs_total`); by default swift-metrics' bootstrapped
    ///     factory.
    ///   - logger: what the queue logs to.
    ///   - handBack: with a store that does not outlive the process, receives the jobs left at shutdown
    ///     (each is also logged as an error with its channel and message id, and counted as `handed_back`).
    ///   - work: what a worker does with a job; it confirms the job's claim (``ClaimedJob/confirm()``) before
    ///     it acts outside the store.
    public init(
        store: any JobStore, configuration: JobQueueConfiguration = JobQueueConfiguration(),
        retry: any RetryStrategy<Outcome>, metrics: any MetricsFactory = MetricsSystem.factory,
        logger: Logger = Logger(label: "deskkit.queue"), handBack: HandBack? = nil,
        work: @escaping @Sendable (ClaimedJob) async -> Outcome
    ) {
        self.init(
            store: store, configuration: configuration, retry: retry, metrics: metrics, logger: logger,
            clock: .system, handBack: handBack, grace: nil, work: work)
    }

    /// A queue on `clock` (how it waits and dates what it writes; a test passes its own) whose shutdown
    /// `grace` is shared with the server's requests (by default the queue's own, of
    /// ``JobQueueConfiguration/shutdownGrace``), begun by whichever is asked to stop first.
    package init(
        store: any JobStore, configuration: JobQueueConfiguration = JobQueueConfiguration(),
        retry: any RetryStrategy<Outcome>, metrics: any MetricsFactory = MetricsSystem.factory,
        logger: Logger = Logger(label: "deskkit.queue"), clock: ServiceClock, handBack: HandBack? = nil,
        grace: ShutdownGrace? = nil, work: @escaping @Sendable (ClaimedJob) async -> Outcome
    ) {
        self.grace = grace ?? ShutdownGrace(configuration.shutdownGrace, clock: clock)
        self.store = store
        self.configuration = configuration
        self.retry = retry
        self.metrics = metrics
        staleWrites = Counter(label: "deskkit_jobs_stale_writes_total", factory: metrics)
        self.logger = logger
        self.clock = clock
        self.handBack = handBack
        self.work = work
        let shared = Locked(Shared())
        self.shared = shared
        claims = JobClaims(
            store: store, lease: configuration.lease, pollInterval: configuration.pollInterval, clock: clock,
            logger: logger,
            demand: { [configuration] in
                // Those that may run now: none is claimed to wait for a worker (its lease would not be renewed).
                let limit = Self.workersNow(configuration, shared, now: clock.now())
                return shared.withLock { Swift.min(limit - $0.inFlight, configuration.workers - $0.ending) }
            },
            stopping: { shared.withLock { $0.stopping } })
    }

    /// Commits `job` unless it is a duplicate, the store is full or unavailable, or the queue is closed.
    /// The webhook is answered 200 only for ``JobAdmission/accepted`` and ``JobAdmission/duplicate``.
    ///
    /// A job without a `EnrichmentJob.traceContext` is given the current trace's (the webhook request's
    /// span), so that its runs continue that trace; the admission is a span of its own (`admit job`).
    public func submit(_ job: EnrichmentJob) async -> JobAdmission {
        var job = job
        if job.traceContext.isEmpty { job.traceContext = JobTrace.fields() }
        return await withSpan("admit job") { span in
            span.attributes["deskkit.message_id"] = "\(job.messageID)"
            let admission = await admit(job)
            span.attributes["deskkit.job.admission"] = admission.rawValue
            if admission == .unavailable { span.setStatus(.init(code: .error, message: "the store cannot commit")) }
            return admission
        }
    }

    private func admit(_ job: EnrichmentJob) async -> JobAdmission {
        guard !shared.withLock({ $0.stopping }) else { return .closed }
        do {
            guard try await store.admit(job, now: clock.now(), dedupWindow: configuration.dedupWindow) else {
                return .duplicate
            }
        } catch {
            if error.kind == .full { return .full }
            logger.error(
                "cannot commit a job",
                metadata: ["message_id": "\(job.messageID)", "error": .string(error.description)])
            return .unavailable
        }
        if configuration.deferEnrichmentAbove > 0 {
            let now = clock.now()
            shared.withLock { s in
                Self.rollSecond(&s, now: now)
                s.admissionsNow += 1
            }
        }
        claims.wake()
        return .accepted
    }

    /// Moves the admission counts on to the second of `now`.
    private static func rollSecond(_ s: inout Shared, now: Date) {
        guard let second = s.second else {
            s.second = now
            return
        }
        let elapsed = now.timeIntervalSince(second)
        guard elapsed >= 1 else { return }
        s.admissionsBefore = elapsed < 2 ? s.admissionsNow : 0
        s.admissionsNow = 0
        s.second = second.addingTimeInterval(elapsed.rounded(.down))
    }

    /// The jobs that may run at once now: one while admissions come faster than
    /// ``JobQueueConfiguration/deferEnrichmentAbove`` a second, else ``JobQueueConfiguration/workers``.
    private nonisolated func workersNow() -> Int { Self.workersNow(configuration, shared, now: clock.now()) }

    private static func workersNow(_ configuration: JobQueueConfiguration, _ shared: Locked<Shared>, now: Date) -> Int {
        let limit = configuration.deferEnrichmentAbove
        guard limit > 0 else { return configuration.workers }
        return shared.withLock { s in
            rollSecond(&s, now: now)
            return max(s.admissionsNow, s.admissionsBefore) > limit ? 1 : configuration.workers
        }
    }

    /// Queues again the failed jobs named (every failed one when `messageIDs` is nil), due now with a new retry
    /// horizon (`JobStore.retry(_:now:)`), and wakes the workers for them. Returns how many were queued.
    public nonisolated func retry(_ messageIDs: [Int64]?) async throws(JobStoreError) -> Int {
        let count = try await store.retry(messageIDs, now: clock.now())
        if count > 0 { claims.wake() }
        return count
    }

    /// The jobs running now, without asking the store (``figures()`` does).
    package var jobsRunning: Int { running.count }

    /// Depth, work in flight and the jobs per state, for `/health` and `/metrics`.
    public func figures() async -> QueueFigures {
        do {
            let states = try await store.counts()
            return QueueFigures(depth: states[.queued] ?? 0, running: running.count, states: states, storeError: nil)
        } catch {
            return QueueFigures(depth: 0, running: running.count, states: nil, storeError: error)
        }
    }

    // MARK: Running

    /// Takes back what a previous process left claimed (when the store is this server's alone), then runs
    /// the claims, the jobs, the lease renewals, the purge of done jobs and the store's `LISTEN` — child
    /// tasks of one task group — until a graceful shutdown (or cancellation): then no job is claimed that the
    /// store keeps, running ones go on until the grace ends and are cancelled then (their worker puts them
    /// back in the store). When it returns, nothing of the queue runs. A queue runs once.
    public func run() async throws {
        do {
            let recovered = try await store.recoverAbandoned(now: clock.now())
            if recovered > 0 {
                logger.notice("took back jobs a previous process left running", metadata: ["count": "\(recovered)"])
            }
        } catch {
            logger.error("cannot take back abandoned jobs", metadata: ["error": .string(error.description)])
        }
        let (grace, claims, logger) = (grace, claims, logger)
        await withDiscardingTaskGroup { group in
            group.addTask { await self.renewLeases() }
            group.addTask { await self.purgeDoneJobs() }
            // Another instance's admissions (PostgreSQL's NOTIFY) wake the claims here too.
            group.addTask { await self.store.waitForArrivals { claims.wake() } }
            await withTaskCancellationHandler {
                await withGracefulShutdownHandler {
                    await runJobs()
                } onGracefulShutdown: {
                    let left = grace.begin()
                    logger.notice(
                        "stopping: running jobs have the rest of the shutdown grace", metadata: ["grace": "\(left)"])
                    self.stop()
                }
            } onCancel: {
                self.stop()
            }
            group.cancelAll()  // the lease renewals, the purge and the listener
        }
        await handBackLostJobs()
    }

    /// Marks the queue stopping and wakes whatever waits: from any thread.
    private nonisolated func stop() {
        shared.withLock { $0.stopping = true }
        claims.wake()
        freed.continuation.yield()
    }

    /// Stops taking new jobs and starts the grace; running jobs go on until it ends.
    public func close() {
        grace.begin()
        stop()
    }

    /// Runs each job claimed as a child task, no more at once than the workers, until the claims end
    /// (stopping, with nothing left that would be lost) or the grace is over; the jobs still running then
    /// have what is left of the grace, and are cancelled at its end.
    private nonisolated func runJobs() async {
        var claims = self.claims.makeAsyncIterator()
        var freed = self.freed.stream.makeAsyncIterator()
        await withDiscardingTaskGroup { jobs in
            var graceTimer = false
            while !Task.isCancelled {
                let (stopping, graceOver, inFlight, ending) = shared.withLock {
                    ($0.stopping, $0.graceOver, $0.inFlight, $0.ending)
                }
                if graceOver { break }
                if stopping && !graceTimer {
                    graceTimer = true
                    jobs.addTask { await self.endGraceOnTime() }
                }
                let limit = workersNow()
                if inFlight >= limit || ending >= configuration.workers {
                    // A job's work done or its end written wakes it; held back while webhooks pour in, it looks
                    // again within a second.
                    await freed.nextSignal(
                        until: limit < configuration.workers ? clock.elapsed() + .seconds(1) : nil, on: clock,
                        signalling: self.freed.continuation)
                    continue
                }
                guard let claimed = await claims.next() else { break }
                shared.withLock { $0.inFlight += 1 }
                await began(claimed)
                jobs.addTask {
                    let outcome = await self.runJob(claimed)
                    self.shared.withLock {
                        $0.inFlight -= 1
                        $0.ending += 1
                    }
                    self.freed.continuation.yield()
                    await self.end(claimed, outcome)
                    self.shared.withLock { $0.ending -= 1 }
                    self.freed.continuation.yield()
                }
            }
            if !graceTimer && !Task.isCancelled {
                jobs.addTask { await self.endGraceOnTime() }
            }
            while shared.withLock({ $0.inFlight + $0.ending > 0 && !$0.graceOver }), !Task.isCancelled {
                await freed.nextSignal(until: nil, on: clock, signalling: self.freed.continuation)
            }
            jobs.cancelAll()  // the jobs still at work when the grace ended (they put theirs back), the timer
        }
    }

    /// Notes `claimed` running, for the lease renewals and the figures.
    private func began(_ claimed: StoredJob) {
        running[claimed.job.messageID] = claimed
    }

    /// Once the grace has begun, waits for its end and says so.
    private nonisolated func endGraceOnTime() async {
        do { try await grace.waitForItsEnd() } catch { return }
        shared.withLock { $0.graceOver = true }
        freed.continuation.yield()
        claims.wake()
    }

    /// One job's work, in a consumer span of the trace of the webhook that made it, whichever process claimed it.
    private nonisolated func runJob(_ claimed: StoredJob) async -> Outcome {
        let work = self.work
        return await withSpan(
            "run job", context: JobTrace.context(from: claimed.job.traceContext), ofKind: .consumer
        ) { span in
            span.attributes["deskkit.message_id"] = "\(claimed.job.messageID)"
            span.attributes["deskkit.job.attempt"] = claimed.attempts
            let outcome = await work(ClaimedJob(claimed) { await self.confirm(claimed) })
            span.attributes["deskkit.job.outcome"] = outcome.name
            if outcome.isFailure { span.setStatus(.init(code: .error, message: outcome.name)) }
            return outcome
        }
    }

    /// Writes how `claimed` ended, as ``retry`` decides; a run cut short by a shutdown goes back, due at
    /// once, uncounted. The store writes it even when this job's task is cancelled
    /// (`JobStore.finish(_:as:error:now:)`): a job cut short at the grace's end goes back. Nothing is written
    /// for a claim known to be gone, and a write the store refuses as stale is counted.
    private func end(_ claimed: StoredJob, _ outcome: Outcome) async {
        let id = claimed.job.messageID
        ending.insert(id)
        defer {
            ending.remove(id)
            if running[id]?.claimToken == claimed.claimToken { running[id] = nil }
            lost.remove(claimed.claimToken)
        }
        if lost.contains(claimed.claimToken) {
            logger.info("a job's end was not written: another worker holds it", metadata: ["message_id": "\(id)"])
            return
        }
        let now = clock.now()
        let decision =
            outcome.isCancelled ? RetryDecision(.retry(at: now)) : retry.decide(outcome, for: claimed, now: now)
        if !outcome.isCancelled { count(decision.counted ?? Self.counted(decision, outcome)) }
        if let reason = decision.reason {
            let level: Logger.Level = decision.action == .fail ? .error : .info
            logger.log(
                level: level, "\(reason)", metadata: ["message_id": "\(id)", "error": .string(decision.error ?? "")])
        }
        do {
            let written: Bool
            switch decision.action {
            case .finish: written = try await store.finish(claimed, as: .done, error: decision.error, now: now)
            case .fail: written = try await store.finish(claimed, as: .failed, error: decision.error, now: now)
            case .retry(let due):
                written = try await store.reschedule(claimed, dueAt: due, error: decision.error, now: now)
                // Due before the claims' next poll: they look at the store's next due job again.
                if written && due.timeIntervalSince(now) < configuration.pollInterval / .seconds(1) { claims.wake() }
            }
            if !written { refusedAsStale(claimed, "its end") }
        } catch {
            // The lease runs out and the job is claimed again: at least once.
            logger.error(
                "cannot record a job's end", metadata: ["message_id": "\(id)", "error": .string(error.description)])
        }
    }

    /// Whether `claimed` still runs under its claim, which then holds for a lease from now
    /// (``ClaimedJob/confirm()``).
    private func confirm(_ claimed: StoredJob) async -> Bool {
        guard !lost.contains(claimed.claimToken) else { return false }
        do {
            let until = clock.now().addingTimeInterval(configuration.lease / .seconds(1))
            if try await store.renew([claimed], until: until).contains(claimed.job.messageID) { return true }
            lost.insert(claimed.claimToken)
            refusedAsStale(claimed, "its confirmation")
        } catch {
            logger.warning(
                "cannot confirm a job's claim; the job is not acted on",
                metadata: ["message_id": "\(claimed.job.messageID)", "error": .string(error.description)])
        }
        return false
    }

    /// Logs and counts a write of `claimed` that the store refused because its claim was gone.
    private func refusedAsStale(_ claimed: StoredJob, _ what: String) {
        logger.warning(
            "a job's claim was gone: \(what) was not written (another worker holds the job, or it ended)",
            metadata: ["message_id": "\(claimed.job.messageID)", "attempt": "\(claimed.attempts)"])
        staleWrites.increment()
    }

    /// How a decision is counted when it does not say: a finished job by its outcome's name, a failed one as
    /// `failed`, a retry as `retry_scheduled`.
    private static func counted(_ decision: RetryDecision, _ outcome: Outcome) -> String {
        switch decision.action {
        case .finish: outcome.name
        case .fail: "failed"
        case .retry: "retry_scheduled"
        }
    }

    /// `deskkit_jobs_total{outcome}`.
    private func count(_ outcome: String, by amount: Int = 1) {
        Counter(label: "deskkit_jobs_total", dimensions: [("outcome", outcome)], factory: metrics).increment(by: amount)
    }

    /// Hands back the unfinished jobs that end with the process (`JobStore.jobsLostAtExit()`: the memory
    /// store's; a database keeps them for the next start).
    private func handBackLostJobs() async {
        let left = await store.jobsLostAtExit()
        guard !left.isEmpty else {
            logger.info("stopped; unfinished jobs stay in the store")
            return
        }
        count("handed_back", by: left.count)
        for job in left {
            logger.error(
                "job handed back at shutdown",
                metadata: ["channel_url": .string(job.channelURL), "message_id": "\(job.messageID)"])
        }
        await handBack?(left)
    }

    /// Every ``JobQueueConfiguration/heartbeat``, renews the lease of every job this instance runs, in one
    /// statement. A claim the store no longer holds (the store was unreachable for a whole lease, or this
    /// process was paused, and another worker took the job) is a stale write, logged and counted; its worker's
    /// confirmation and end then write nothing.
    ///
    /// A renewal is due a heartbeat after the last one woke, read before its statement: a slow renewal does not
    /// push the next one later, and a test that moves the clock once it sees a renewal in the store moves it past
    /// the next renewal's due time, never before that time is taken (a sleep asked for a heartbeat after such a
    /// move waited for one more move: a plain fresh-clone run waited a minute for a renewal so).
    private func renewLeases() async {
        var woke = clock.elapsed()
        while !Task.isCancelled {
            do { try await clock.sleepUntil(woke + configuration.heartbeat) } catch { return }
            woke = clock.elapsed()
            let running = Array(self.running.values)
            guard !running.isEmpty else { continue }
            do {
                let renewed = try await store.renew(
                    running, until: clock.now().addingTimeInterval(configuration.lease / .seconds(1)))
                for claim in running
                where !renewed.contains(claim.job.messageID)
                    && self.running[claim.job.messageID]?.claimToken == claim.claimToken
                    && !ending.contains(claim.job.messageID) && !lost.contains(claim.claimToken)
                {
                    lost.insert(claim.claimToken)
                    refusedAsStale(claim, "its lease's renewal")
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
            do { try await clock.sleep(.seconds(60)) } catch { return }
            let done = try? await store.purge(
                doneBefore: clock.now().addingTimeInterval(-(configuration.dedupWindow / .seconds(1))))
            if let done, done > 0 { logger.debug("purged done jobs", metadata: ["count": "\(done)"]) }
        }
    }
}

/// A value behind a lock, shared by reference with closures and child tasks.
private final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<T: Sendable>(_ body: (inout sending Value) -> sending T) -> T { mutex.withLock(body) }
}
