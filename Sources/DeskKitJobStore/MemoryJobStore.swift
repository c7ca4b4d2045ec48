import DequeModule
import Foundation
import HeapModule

/// Jobs in process memory, behind the same contract as the databases (`--store memory`): for tests and
/// one-off runs. Nothing outlives the process: at a graceful shutdown the queue finishes what it can within
/// its grace (``claimBeforeStop(limit:now:lease:)``) and hands the rest back (``jobsLostAtExit()``).
///
/// Bounded: at most ``Configuration/capacity`` jobs not ended (an admission beyond is refused with
/// ``JobStoreError/Kind/full``, and the webhook answered 503), and at most ``Configuration/remembered``
/// ended jobs kept for the dedup window, the oldest forgotten first. Every operation is O(log n) in the
/// jobs it touches, but ``list(state:limit:)`` and ``purge(doneBefore:)``, which are for operators and
/// run once a minute.
public actor MemoryJobStore: JobStore {
    /// How many jobs the store holds.
    public struct Configuration: Sendable, Hashable {
        /// Jobs not ended (queued or running) at most; beyond, an admission is refused. Default 10,000.
        public var capacity = 10_000
        /// Ended jobs (done or failed) kept, so that a message id stays a duplicate for the dedup window;
        /// beyond, the oldest is forgotten. Default 100,000.
        public var remembered = 100_000
        /// The default configuration (see each property).
        public init() {}
    }

    /// A job and what the store knows of it besides.
    private struct Entry {
        var stored: StoredJob
        var leaseUntil: Date?
        var updatedAt: Date
    }

    /// When a job is due (queued) or its lease ends (running): the heaps' elements. An element is stale
    /// once its job moved on (its state, time or attempt differ); stale elements are dropped when met.
    private struct Moment: Comparable {
        var at: Date
        var id: Int64
        var attempts: Int
        static func < (a: Moment, b: Moment) -> Bool { (a.at, a.id) < (b.at, b.id) }
    }

    /// Capacity and memory of ended jobs.
    public nonisolated let configuration: Configuration
    private var jobs: [Int64: Entry] = [:]
    private var due = Heap<Moment>()
    private var leases = Heap<Moment>()
    /// Ended jobs in the order they ended, to forget the oldest beyond ``Configuration/remembered``.
    private var ended = Deque<Moment>()
    private var tally = Dictionary(uniqueKeysWithValues: JobState.allCases.map { ($0, 0) })
    /// The last claim token handed out.
    private var lastToken: Int64 = 0

    /// An empty store.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public func close() async {}

    // MARK: Admission

    public func admit(_ job: EnrichmentJob, now: Date, dedupWindow: Duration) throws(JobStoreError) -> Bool {
        if let old = jobs[job.messageID] {
            // As the databases: only a done job admitted before the window is queued afresh.
            let cutoff = now.addingTimeInterval(-(dedupWindow / .seconds(1)))
            guard old.stored.state == .done, old.stored.acceptedAt < cutoff else { return false }
        }
        guard tally[.queued]! + tally[.running]! < configuration.capacity else {
            throw JobStoreError(.full, "the memory store holds \(configuration.capacity) unfinished jobs")
        }
        put(
            Entry(
                stored: StoredJob(
                    job: job, state: .queued, attempts: 0, acceptedAt: now, nextAttemptAt: now, lastError: nil),
                leaseUntil: nil, updatedAt: now))
        return true
    }

    // MARK: Workers

    public func claim(limit: Int, now: Date, lease: Duration) -> [StoredJob] {
        var claimed: [StoredJob] = []
        // Expired leases first (their workers are gone), then due jobs, as the databases order them.
        while claimed.count < limit, let first = leases.min, first.at < now {
            leases.removeMin()
            if isCurrent(first, .running) { claimed.append(take(first.id, now: now, lease: lease)) }
        }
        while claimed.count < limit, let first = due.min, first.at <= now {
            due.removeMin()
            if isCurrent(first, .queued) { claimed.append(take(first.id, now: now, lease: lease)) }
        }
        return claimed.inClaimOrder()
    }

    /// As ``claim(limit:now:lease:)``: the jobs end with the process, so the grace works on them.
    public func claimBeforeStop(limit: Int, now: Date, lease: Duration) -> [StoredJob] {
        claim(limit: limit, now: now, lease: lease)
    }

    /// The queued jobs (those cut short at the grace's end were put back, due then), in claim order.
    public func jobsLostAtExit() -> [EnrichmentJob] {
        jobs.values.lazy.map(\.stored).filter { $0.state == .queued }.inClaimOrder().map(\.job)
    }

    public func nextDue() -> Date? {
        while let first = due.min, !isCurrent(first, .queued) { due.removeMin() }
        while let first = leases.min, !isCurrent(first, .running) { leases.removeMin() }
        return [due.min?.at, leases.min?.at].compactMap { $0 }.min()
    }

    public func renew(_ claims: [StoredJob], until: Date) -> Set<Int64> {
        var renewed: Set<Int64> = []
        for claim in claims {
            let id = claim.job.messageID
            guard var entry = jobs[id], holds(claim, entry) else { continue }
            entry.leaseUntil = until
            jobs[id] = entry
            leases.insert(Moment(at: until, id: id, attempts: claim.attempts))
            renewed.insert(id)
        }
        return renewed
    }

    /// The store is one process's: what runs when a queue starts over it was left by a queue that stopped.
    /// It is queued again in its place (it was due when it was claimed).
    public func recoverAbandoned(now: Date) -> Int {
        let running = jobs.values.filter { $0.stored.state == .running }.map(\.stored)
        for job in running { requeue(job.job.messageID, dueAt: job.nextAttemptAt, error: nil, now: now) }
        return running.count
    }

    @discardableResult
    public func finish(_ claim: StoredJob, as state: JobState, error: String?, now: Date) -> Bool {
        let id = claim.job.messageID
        guard var entry = jobs[id], holds(claim, entry) else { return false }
        entry.stored.lastError = error
        entry.leaseUntil = nil
        entry.updatedAt = now
        move(&entry, to: state)
        jobs[id] = entry
        if state == .done || state == .failed { remember(entry) }
        return true
    }

    @discardableResult
    public func reschedule(_ claim: StoredJob, dueAt: Date, error: String?, now: Date) -> Bool {
        guard let entry = jobs[claim.job.messageID], holds(claim, entry) else { return false }
        requeue(claim.job.messageID, dueAt: dueAt, error: error, now: now)
        return true
    }

    // MARK: Operators

    public func counts() -> [JobState: Int] { tally }

    public func list(state: JobState?, limit: Int, before: JobPosition?) -> [StoredJob] {
        let matching = jobs.values.lazy.map(\.stored).filter { job in
            (state == nil || job.state == state) && (before?.precedes(job.position) ?? true)
        }
        return Array(
            matching.sorted { ($0.acceptedAt, $0.job.messageID) > ($1.acceptedAt, $1.job.messageID) }.prefix(limit))
    }

    public func job(_ messageID: Int64) -> StoredJob? { jobs[messageID]?.stored }

    public func retry(_ messageIDs: [Int64]?, now: Date) -> Int {
        let failed = (messageIDs ?? Array(jobs.keys)).filter { jobs[$0]?.stored.state == .failed }
        for id in failed {
            jobs[id]!.stored.attempts = 0
            jobs[id]!.stored.acceptedAt = now
            requeue(id, dueAt: now, error: nil, now: now)
            jobs[id]!.stored.lastError = nil
        }
        return failed.count
    }

    public func purge(doneBefore before: Date) -> Int {
        let old = jobs.values.filter { $0.stored.state == .done && $0.updatedAt < before }.map(\.stored.job.messageID)
        for id in old { forget(id) }
        return old.count
    }

    // MARK: Helpers

    /// Whether `entry` still runs under `claim`'s token.
    private func holds(_ claim: StoredJob, _ entry: Entry) -> Bool {
        entry.stored.state == .running && entry.stored.claimToken == claim.claimToken
    }

    /// Whether a heap element still stands for its job.
    private func isCurrent(_ moment: Moment, _ state: JobState) -> Bool {
        guard let entry = jobs[moment.id], entry.stored.state == state, entry.stored.attempts == moment.attempts
        else { return false }
        return state == .running ? entry.leaseUntil == moment.at : entry.stored.nextAttemptAt == moment.at
    }

    /// Marks a job running until `now + lease` and counts an attempt.
    private func take(_ id: Int64, now: Date, lease: Duration) -> StoredJob {
        var entry = jobs[id]!
        move(&entry, to: .running)
        entry.stored.attempts += 1
        lastToken += 1
        entry.stored.claimToken = lastToken
        entry.leaseUntil = now.addingTimeInterval(lease / .seconds(1))
        entry.updatedAt = now
        jobs[id] = entry
        leases.insert(Moment(at: entry.leaseUntil!, id: id, attempts: entry.stored.attempts))
        return entry.stored
    }

    private func requeue(_ id: Int64, dueAt: Date, error: String?, now: Date) {
        guard var entry = jobs[id] else { return }
        move(&entry, to: .queued)
        entry.stored.nextAttemptAt = dueAt
        entry.stored.lastError = error ?? entry.stored.lastError
        entry.leaseUntil = nil
        entry.updatedAt = now
        jobs[id] = entry
        due.insert(Moment(at: dueAt, id: id, attempts: entry.stored.attempts))
    }

    /// Keeps a new job (replacing an ended one of the same id).
    private func put(_ entry: Entry) {
        let id = entry.stored.job.messageID
        if let old = jobs[id] { tally[old.stored.state]! -= 1 }
        jobs[id] = entry
        tally[entry.stored.state]! += 1
        due.insert(Moment(at: entry.stored.nextAttemptAt, id: id, attempts: 0))
    }

    private func move(_ entry: inout Entry, to state: JobState) {
        tally[entry.stored.state]! -= 1
        tally[state]! += 1
        entry.stored.state = state
    }

    /// Notes an ended job, and forgets the oldest ended ones beyond ``Configuration/remembered``.
    private func remember(_ entry: Entry) {
        ended.append(Moment(at: entry.updatedAt, id: entry.stored.job.messageID, attempts: entry.stored.attempts))
        while ended.count > configuration.remembered, let oldest = ended.popFirst() {
            // Only if it is still that ended job (not admitted again, nor retried, since).
            if let entry = jobs[oldest.id], entry.stored.state == .done || entry.stored.state == .failed,
                entry.updatedAt == oldest.at
            {
                forget(oldest.id)
            }
        }
    }

    private func forget(_ id: Int64) {
        if let entry = jobs.removeValue(forKey: id) { tally[entry.stored.state]! -= 1 }
    }
}
