import Clocks
import DeskKitJobStore
import DeskKitJobs
import DeskKitTime
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import DeskKitTestSupport
import Testing

/// The queue waits on the clock it is given: with swift-clocks' `TestClock`, a retry is run when the test moves
/// the clock to its due time, and the shutdown grace ends when the test moves the clock past it — no test
/// sleeps for the queue, and none depends on how loaded the machine is.
@Suite("Queue on a test clock")
struct QueueOnATestClockTests {
    /// A wait until the clock's present instant ends at once, as on the system clock — swift-clocks' `TestClock`
    /// alone would hold it until the next move. The queue's poll ends at such an instant when the test moves the
    /// clock during the queue's claim; held, the queue waited for a move the test, waiting for it, never made.
    @Test(.timeLimit(.minutes(1))) func aDeadlineThatHasComeIsPassed() async throws {
        let clock = TestClock()
        let service = ServiceClock(clock)
        try await service.sleepUntil(service.elapsed())
        await clock.advance(by: .seconds(1))
        try await service.sleepUntil(.seconds(1))
        try await service.sleepUntil(.milliseconds(500))
        let later = Task { try await service.sleepUntil(.seconds(2)) }
        await clock.advance(by: .seconds(1))
        try await later.value
    }

    /// A clock that the test moves while a wait looks at it: the read after ``moveOnNextLook(to:)`` answers the
    /// instant it stood at and leaves it at the instant given, as when a test moves a `TestClock` between a wait's
    /// look at the clock and its sleep. Its sleeps are `TestClock`'s: one until an instant before now passes at once,
    /// one until now or later is held until the clock moves — and this one does not move again.
    final class MovedWhileLooking: Clock, Sendable {
        struct Instant: InstantProtocol {
            var offset: Duration
            func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
            func duration(to other: Instant) -> Duration { other.offset - offset }
            static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        }
        private let state = Mutex<(now: Duration, moveTo: Duration?)>((.zero, nil))
        var minimumResolution: Duration { .zero }

        var now: Instant {
            state.withLock { state in
                defer { state.now = state.moveTo.take() ?? state.now }
                return Instant(offset: state.now)
            }
        }

        /// The next read of ``now`` leaves the clock at `instant`.
        func moveOnNextLook(to instant: Duration) { state.withLock { $0.moveTo = instant } }

        func sleep(until deadline: Instant, tolerance: Duration?) async throws {
            guard deadline.offset >= state.withLock({ $0.now }) else { return }
            // Held until cancelled: nothing moves this clock again.
            let (held, release) = AsyncStream<Never>.makeStream()
            for await _ in held {}
            release.finish()
            try Task.checkCancellation()
        }
    }

    /// The clock moved to a wait's deadline between the wait's look at it and its sleep: the wait ends, and the
    /// time then read is the deadline's.
    @Test(.timeLimit(.minutes(1))) func aDeadlineReachedAsTheWaitBeginsIsPassed() async throws {
        let clock = MovedWhileLooking()
        let service = ServiceClock(clock)
        clock.moveOnNextLook(to: .seconds(1))
        try await service.sleepUntil(.seconds(1))
        #expect(service.elapsed() == .seconds(1))
        // On swift-clocks' own: what a move wakes reads the time it waited for, never an instant short of it.
        let testClock = TestClock()
        let onTestClock = ServiceClock(testClock)
        let woke = Task {
            try await onTestClock.sleepUntil(.seconds(1))
            return onTestClock.elapsed()
        }
        await testClock.advance(by: .seconds(1))
        #expect(try await woke.value >= .seconds(1))
    }

    /// What the tests' work ends with.
    struct Outcome: JobResult {
        var name: String
        var isFailure = false
        var isCancelled = false
        var description: String { name }
        static let done = Outcome(name: "done")
        static let failed = Outcome(name: "failed", isFailure: true)
    }

    /// Tries a failure again 10 minutes later, twice at most.
    struct TenMinutesLater: RetryStrategy {
        func decide(_ outcome: Outcome, for job: StoredJob, now: Date) -> RetryDecision {
            guard outcome.isFailure else { return .finish() }
            guard job.attempts < 3 else { return .fail(error: "gave up") }
            return .retry(at: now.addingTimeInterval(600), error: "try again")
        }
    }

    static func job(_ id: Int64) -> EnrichmentJob {
        EnrichmentJob(channelURL: "c", messageID: id, text: "https://example.com/\(id)")
    }

    /// Moves `clock` on by `step` until `done` holds (at most `limit` of time), letting the queue's tasks run
    /// between steps. Returns the time moved.
    @discardableResult
    static func advance(
        _ clock: TestClock<Duration>, by step: Duration, upTo limit: Duration, until done: () async -> Bool
    ) async -> Duration {
        var moved = Duration.zero
        while await !done(), moved < limit {
            await clock.advance(by: step)
            moved += step
            for _ in 0..<20 { await Task.yield() }
        }
        return moved
    }

    /// Waits in real time until `done` holds, moving `clock` on a millisecond at a time meanwhile (a wait on the
    /// clock registered after the last move is then due too). Returns the clock time moved.
    @discardableResult
    static func nudge(
        _ clock: TestClock<Duration>, _ what: String = "the queue doing what the clock allows",
        until done: () async -> Bool
    ) async throws -> Duration {
        var moved = Duration.zero
        try await until(what) {
            if await done() { return true }
            await clock.advance(by: .milliseconds(1))
            moved += .milliseconds(1)
            return false
        }
        return moved
    }

    static func count(_ state: JobState, in store: MemoryJobStore) async -> Int {
        await store.counts()[state] ?? 0
    }

    /// Waits (in real time) until `done` holds: for what happens without the clock moving.
    static func settle(_ what: String = "the queue doing what it can without the clock", _ done: () async -> Bool)
        async throws
    {
        try await until(what) { await done() }
    }

    @Test func aRetryRunsWhenTheClockReachesItsDueTime() async throws {
        let clock = TestClock<Duration>()
        let store = MemoryJobStore()
        let attempts = Counter()
        var configuration = JobQueueConfiguration()
        configuration.pollInterval = .seconds(3600)
        let queue = JobQueue(
            store: store, configuration: configuration, retry: TenMinutesLater(), clock: ServiceClock(clock)
        ) { _ in await attempts.next() == 0 ? .failed : .done }
        try await withQueue(queue) {
            #expect(await queue.submit(Self.job(1)) == .accepted)
            try await Self.settle {
                let queued = await Self.count(.queued, in: store)
                return await attempts.count == 1 && queued == 1
            }
            #expect(await attempts.count == 1, "the admission woke the claims: no clock moved")
            // Nine minutes on: not due yet.
            await Self.advance(clock, by: .seconds(60), upTo: .seconds(540)) { false }
            #expect(await attempts.count == 1)
            await clock.advance(by: .seconds(60))  // the due time
            let late = try await Self.nudge(clock) { await Self.count(.done, in: store) == 1 }
            #expect(await attempts.count == 2, "run when due, not at the next poll (an hour on)")
            #expect(late < .seconds(5))
        }
    }

    @Test func theGraceEndsOnTheClock() async throws {
        let clock = TestClock<Duration>()
        let store = MemoryJobStore()
        let started = Counter()
        let handedBack = Collected()
        var configuration = JobQueueConfiguration()
        configuration.shutdownGrace = .seconds(20)
        let queue = JobQueue(
            store: store, configuration: configuration, retry: TenMinutesLater(), clock: ServiceClock(clock),
            handBack: { await handedBack.add($0) }
        ) { _ in
            _ = await started.next()
            // Runs until cancelled (a page that never answers).
            await untilCancelled()
            return Outcome(name: "cut short", isCancelled: true)
        }
        let group = ServiceGroup(configuration: .init(services: [queue], logger: Logger(label: "test")))
        try await withThrowingTaskGroup { tasks in
            tasks.addTask { try await group.run() }
            #expect(await queue.submit(Self.job(7)) == .accepted)
            try await Self.settle { await started.count == 1 }
            await group.triggerGracefulShutdown()
            // Nineteen seconds of grace: the job still runs.
            await Self.advance(clock, by: .seconds(1), upTo: .seconds(19)) { false }
            let running = await Self.count(.running, in: store)
            #expect(await handedBack.ids.isEmpty && running == 1)
            await Self.advance(clock, by: .seconds(1), upTo: .seconds(60)) { await !handedBack.ids.isEmpty }
            try await tasks.waitForAll()
        }
        #expect(await handedBack.ids == [7], "cut at the grace's end and handed back")
    }

    /// The claims are an async sequence: up to the demand in one claim, then a wake for an admission, then a
    /// wait on the clock for a job due later.
    @Test func claimsComeAsAnAsyncSequence() async throws {
        let clock = TestClock<Duration>()
        let store = MemoryJobStore()
        let queueClock = ServiceClock(clock)
        for id: Int64 in 1...3 {
            _ = try await store.admit(Self.job(id), now: queueClock.now(), dedupWindow: .seconds(60))
        }
        let claims = JobClaims(
            store: store, lease: .seconds(30), pollInterval: .seconds(3600), clock: queueClock, demand: { 2 })
        var iterator = claims.makeAsyncIterator()
        var claimed: [StoredJob] = []
        for _ in 0..<3 { if let claim = await iterator.next() { claimed.append(claim) } }
        #expect(claimed.map(\.job.messageID) == [1, 2, 3])
        #expect(await store.counts()[.running] == 3)
        for claim in claimed { await store.finish(claim, as: .done, error: nil, now: queueClock.now()) }
        // Nothing due: a wake after an admission hands out the new job.
        _ = try await store.admit(Self.job(4), now: queueClock.now(), dedupWindow: .seconds(60))
        claims.wake()
        let fourth = try #require(await iterator.next())
        #expect(fourth.job.messageID == 4)
        // A job put back, due in five minutes: the iterator waits on the clock for it.
        await store.reschedule(
            fourth, dueAt: queueClock.now().addingTimeInterval(300), error: nil, now: queueClock.now())
        try await withThrowingTaskGroup(of: Duration.self) { tasks in
            tasks.addTask {
                await Self.advance(clock, by: .seconds(60), upTo: .seconds(240)) { false }
                await clock.advance(by: .seconds(60))  // the due time
                return try await Self.nudge(clock) { await Self.count(.running, in: store) == 1 }
            }
            #expect(await iterator.next()?.job.messageID == 4)
            let late = try await tasks.next() ?? .zero
            #expect(late < .seconds(5), "claimed when due, not at the next poll (an hour on)")
        }
    }

    /// Runs `queue` in a service group around `body`, then shuts it down.
    private func withQueue(_ queue: JobQueue<Outcome>, _ body: () async throws -> Void) async throws {
        let group = ServiceGroup(configuration: .init(services: [queue], logger: Logger(label: "test")))
        try await withThrowingTaskGroup { tasks in
            tasks.addTask { try await group.run() }
            try await body()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}

/// Counts calls.
actor Counter {
    private(set) var count = 0
    /// Counts one; returns how many before it.
    func next() -> Int {
        defer { count += 1 }
        return count
    }
}

/// The jobs handed back.
actor Collected {
    private(set) var ids: [Int64] = []
    func add(_ jobs: [EnrichmentJob]) { ids += jobs.map(\.messageID) }
}
