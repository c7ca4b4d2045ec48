import DeskKitJobStore
import DeskKitJobs
import DeskKitTestSupport
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Testing

/// A worker takes its next job once its work is done: the end's write — a round trip to a database, committed with
/// others — goes on beside the next job's work, not in its way. New jobs wait while as many ends as workers are being
/// written. The store is a memory store whose ends the test holds.
@Suite("Ends written beside the next job")
struct EndsBesideWorkTests {
    typealias Outcome = QueueOnATestClockTests.Outcome

    /// Two workers: job 1's end is held, job 2's work is held; job 3 runs all the same (it waited for job 1's end
    /// before).
    @Test func aWorkerTakesItsNextJobWhileItsLastEndIsWritten() async throws {
        let (ends, work) = (Gate(), Gate())
        let store = HeldEnds(MemoryJobStore(), holding: [1], until: ends)
        let started = Mutex<[Int64]>([])
        let queue = Self.queue(store, workers: 2) { id in
            started.withLock { $0.append(id) }
            if id == 2 { await work.wait() }
        }
        for id in Int64(1)...3 { #expect(await queue.submit(QueueOnATestClockTests.job(id)) == .accepted) }
        try await Self.running(queue) {
            try await until("job 3 worked on while job 1's end is held and job 2 is at work") {
                started.withLock { $0.contains(3) }
            }
            #expect(store.heldEnds == 1)
            #expect(await store.store.job(1)?.state == .running, "job 1's end held")
            #expect(await store.store.job(2)?.state == .running, "job 2 at work")
            ends.open()
            work.open()
            try await until("every job done") { await store.store.counts()[.done] == 3 }
        }
    }

    /// Every end held: two workers run two jobs, hold two ends, and claim no more until an end is written.
    @Test func noMoreEndsAtOnceThanWorkers() async throws {
        let ends = Gate()
        let store = HeldEnds(MemoryJobStore(), holding: nil, until: ends)
        let started = Mutex<[Int64]>([])
        let queue = Self.queue(store, workers: 2) { id in started.withLock { $0.append(id) } }
        for id in Int64(1)...6 { #expect(await queue.submit(QueueOnATestClockTests.job(id)) == .accepted) }
        try await Self.running(queue) {
            try await until("two ends held") { store.heldEnds == 2 }
            // Ten of the claims' polls: none claims while two ends are held.
            try await Task.sleep(for: .milliseconds(200))
            #expect(started.withLock { $0.count } == 2)
            #expect(await store.store.counts()[.queued] == 4)
            ends.open()
            try await until("every job done") { await store.store.counts()[.done] == 6 }
        }
        #expect(Set(started.withLock { $0 }) == Set(1...6))
    }

    static func queue(_ store: some JobStore, workers: Int, work: @escaping @Sendable (Int64) async -> Void)
        -> JobQueue<Outcome>
    {
        var configuration = JobQueueConfiguration()
        configuration.workers = workers
        configuration.pollInterval = .milliseconds(20)
        return JobQueue(store: store, configuration: configuration, retry: QueueOnATestClockTests.TenMinutesLater()) {
            await work($0.job.messageID)
            return .done
        }
    }

    /// Runs `queue` in a service group around `body`, then shuts it down.
    static func running(_ queue: JobQueue<Outcome>, _ body: () async throws -> Void) async throws {
        let group = ServiceGroup(configuration: .init(services: [queue], logger: Logger(label: "test")))
        try await withThrowingTaskGroup { tasks in
            tasks.addTask { try await group.run() }
            try await body()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}

/// A memory store whose ends (``finish(_:as:error:now:)``) of the jobs named (every job's: nil) wait until a gate
/// opens: the round trip of a database under load, as long as the test wants.
private final class HeldEnds: JobStore {
    let store: MemoryJobStore
    let holding: Set<Int64>?
    let gate: Gate
    private let held = Mutex(0)

    init(_ store: MemoryJobStore, holding: Set<Int64>?, until gate: Gate) {
        self.store = store
        self.holding = holding
        self.gate = gate
    }

    /// Ends waiting for the gate.
    var heldEnds: Int { held.withLock { $0 } }

    func finish(_ claim: StoredJob, as state: JobState, error: String?, now: Date) async throws(JobStoreError)
        -> Bool
    {
        if holding?.contains(claim.job.messageID) ?? true {
            held.withLock { $0 += 1 }
            await gate.wait()
        }
        return await store.finish(claim, as: state, error: error, now: now)
    }

    func admit(_ job: EnrichmentJob, now: Date, dedupWindow: Duration) async throws(JobStoreError) -> Bool {
        try await store.admit(job, now: now, dedupWindow: dedupWindow)
    }
    func claim(limit: Int, now: Date, lease: Duration) async throws(JobStoreError) -> [StoredJob] {
        await store.claim(limit: limit, now: now, lease: lease)
    }
    func nextDue() async throws(JobStoreError) -> Date? { await store.nextDue() }
    func renew(_ claims: [StoredJob], until: Date) async throws(JobStoreError) -> Set<Int64> {
        await store.renew(claims, until: until)
    }
    func recoverAbandoned(now: Date) async throws(JobStoreError) -> Int { await store.recoverAbandoned(now: now) }
    func reschedule(_ claim: StoredJob, dueAt: Date, error: String?, now: Date) async throws(JobStoreError) -> Bool {
        await store.reschedule(claim, dueAt: dueAt, error: error, now: now)
    }
    func counts() async throws(JobStoreError) -> [JobState: Int] { await store.counts() }
    func list(state: JobState?, limit: Int, before: JobPosition?) async throws(JobStoreError) -> [StoredJob] {
        await store.list(state: state, limit: limit, before: before)
    }
    func job(_ messageID: Int64) async throws(JobStoreError) -> StoredJob? { await store.job(messageID) }
    func retry(_ messageIDs: [Int64]?, now: Date) async throws(JobStoreError) -> Int {
        await store.retry(messageIDs, now: now)
    }
    func purge(doneBefore before: Date) async throws(JobStoreError) -> Int { await store.purge(doneBefore: before) }
    func close() async { await store.close() }
    func claimBeforeStop(limit: Int, now: Date, lease: Duration) async throws(JobStoreError) -> [StoredJob] {
        try await store.claimBeforeStop(limit: limit, now: now, lease: lease)
    }
    func jobsLostAtExit() async -> [EnrichmentJob] { await store.jobsLostAtExit() }
}
