import DeskKitTime
import DeskKitTestSupport
import Clocks
import Foundation
import DeskKitJobStore
import DeskKitPreview
import DeskKitServer
import Logging
import ServiceLifecycle
import Testing

/// The one queue over the memory store: what `--store memory` does at admission and at shutdown.
@Suite("Job queue over memory")
struct MemoryQueueTests {
    static func job(_ id: Int64) -> EnrichmentJob {
        EnrichmentJob(channelURL: "c", messageID: id, text: "https://example.com/\(id)")
    }

    /// Runs `queue` in a service group, does `body`, shuts down gracefully — doing `stopping` once the shutdown
    /// has begun — and returns when the group has ended.
    static func run(
        _ queue: EnrichmentQueue, _ body: () async throws -> Void, stopping: @Sendable () async throws -> Void = {}
    ) async throws {
        let group = ServiceGroup(configuration: .init(services: [queue], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        try await body()
        await group.triggerGracefulShutdown()
        try await stopping()
        try await running.value
    }

    /// Waits until `store` holds a job in `state`.
    static func waitFor(_ state: JobState, in store: MemoryJobStore) async throws {
        try await until("a job \(state.rawValue)") { await store.counts()[state, default: 0] > 0 }
    }

    static func memory(capacity: Int = 10_000) -> MemoryJobStore {
        var configuration = MemoryJobStore.Configuration()
        configuration.capacity = capacity
        return MemoryJobStore(configuration: configuration)
    }

    @Test func admitsDeduplicatesAndRefusesWhenFull() async throws {
        let queue = EnrichmentQueue(store: Self.memory(capacity: 2), retry: EnrichmentRetryStrategy(EnrichmentRetry()))
        { _ in .updated }
        // Not running: nothing is taken, so the store fills.
        #expect(await queue.submit(Self.job(1)) == .accepted)
        #expect(await queue.submit(Self.job(1)) == .duplicate)
        #expect(await queue.submit(Self.job(2)) == .accepted)
        #expect(await queue.submit(Self.job(3)) == .full)
        #expect(await queue.submit(Self.job(3)) == .full, "a refused job is not remembered")
        #expect(await queue.figures().depth == 2)
        await queue.close()
        #expect(await queue.submit(Self.job(4)) == .closed)
    }

    /// Jobs running and queued when the shutdown begins are all done within the grace: the jobs run until the
    /// test opens their gate, after the shutdown has begun.
    @Test func gracefulShutdownFinishesQueuedWork() async throws {
        let done = Recorder()
        let gate = Gate()
        var configuration = JobQueueConfiguration()
        configuration.workers = 2
        let queue = EnrichmentQueue(
            store: Self.memory(), configuration: configuration, retry: EnrichmentRetryStrategy(EnrichmentRetry()),
            handBack: { await done.handBack($0) }
        ) { job in
            await gate.wait()
            await done.add(job.job.messageID)
            return .updated
        }
        try await Self.run(queue) {
            for id in Int64(1)...6 { #expect(await queue.submit(Self.job(id)) == .accepted) }
            try await until("two jobs running") { await queue.figures().running == 2 }
        } stopping: {
            gate.open()
        }
        #expect(await done.ids.sorted() == [1, 2, 3, 4, 5, 6])
        #expect(await done.handedBack.isEmpty)
    }

    /// The grace, on the queue's clock (a `TestClock` the test moves once the shutdown has begun), ends a job
    /// that would run for a minute of that clock: it is cut short and handed back with the queued ones.
    @Test func gracefulShutdownHandsBackWhatTheGraceCannotFinish() async throws {
        let done = Recorder()
        let clock = TestClock()
        let service = ServiceClock(clock)
        var configuration = JobQueueConfiguration()
        configuration.workers = 1
        configuration.shutdownGrace = .milliseconds(200)
        let queue = EnrichmentQueue(
            store: Self.memory(), configuration: configuration, retry: EnrichmentRetryStrategy(EnrichmentRetry()),
            clock: service,
            handBack: { await done.handBack($0) }
        ) { job in
            do {
                try await service.sleep(.seconds(60))
            } catch {
                return .cancelled
            }
            await done.add(job.job.messageID)
            return .updated
        }
        try await Self.run(queue) {
            for id in Int64(1)...3 { #expect(await queue.submit(Self.job(id)) == .accepted) }
            try await until("the first job running") { await queue.figures().running == 1 }
        } stopping: {
            // Past the grace (200 ms from the shutdown, the clock's start), 100 ms at a time, and never near the
            // job's minute, however long the hand-back takes a loaded machine.
            try await until("the grace over") {
                if service.elapsed() < .seconds(1) { await clock.advance(by: .milliseconds(100)) }
                return await !done.handedBack.isEmpty
            }
        }
        #expect(service.elapsed() < .seconds(60), "the grace ended it, not the job's minute")
        #expect(await done.ids.isEmpty)
        #expect(await done.handedBack == [2, 3, 1], "queued jobs first, then the one cut short")
    }

    /// One back-off for every store: a retryable failure waits in the memory store as in a database,
    /// honouring the server's `Retry-After` when it is longer; past the horizon it fails.
    @Test func retriesFollowThePolicyAndEndAtTheHorizon() async throws {
        let attempts = Attempts()
        var retry = EnrichmentRetry()
        retry.firstDelay = .milliseconds(20)
        let store = Self.memory()
        let queue = EnrichmentQueue(store: store, retry: EnrichmentRetryStrategy(retry)) { job in
            guard job.job.messageID == 1 else {
                return .retryable(PlatformAPIError(.retryable, status: 502, detail: "try later"))
            }
            switch await attempts.add() {
            case 1:
                return .retryable(
                    PlatformAPIError(.retryable, status: 429, retryAfter: .milliseconds(700), detail: "try later"))
            case 2: return .retryable(PlatformAPIError(.retryable, status: 503, detail: "try later"))
            default: return .updated
            }
        }
        var past = retry
        past.horizon = .zero
        let pastHorizon = EnrichmentQueue(store: store, retry: EnrichmentRetryStrategy(past)) { _ in
            .retryable(PlatformAPIError(.retryable, status: 502, detail: "try later"))
        }
        try await Self.run(queue) {
            #expect(await queue.submit(Self.job(1)) == .accepted)
            try await Self.waitFor(.done, in: store)
        }
        let done = try #require(await store.list(state: .done, limit: 1).first)
        #expect(done.attempts == 3)
        let times = await attempts.times
        try #require(times.count == 3)
        #expect(times[1] - times[0] >= .milliseconds(700), "Retry-After is honoured")
        try await Self.run(pastHorizon) {
            #expect(await pastHorizon.submit(Self.job(2)) == .accepted)
            try await Self.waitFor(.failed, in: store)
        }
        let failed = try #require(await store.list(state: .failed, limit: 1).first)
        #expect(
            failed.job.messageID == 2 && failed.attempts == 1 && failed.lastError == "retryable, HTTP 502: try later")
    }

    /// No worker polls for what it can be told: with an hour between polls, a job admitted to an idle queue
    /// is run at once (the admission wakes a worker), and its retry when it is due (the store names it).
    @Test func idleWorkersWakeForAnAdmissionAndForTheNextDueJob() async throws {
        let attempts = Attempts()
        var configuration = JobQueueConfiguration()
        configuration.pollInterval = .seconds(3600)
        configuration.workers = 4
        var retry = EnrichmentRetry()
        retry.firstDelay = .milliseconds(50)
        let store = Self.memory()
        let queue = EnrichmentQueue(store: store, configuration: configuration, retry: EnrichmentRetryStrategy(retry)) {
            _ in
            let first = await attempts.add() == 1
            return first ? .retryable(PlatformAPIError(.retryable, status: 503, detail: "later")) : .updated
        }
        try await Self.run(queue) {
            #expect(await queue.submit(Self.job(1)) == .accepted)
            try await Self.waitFor(.done, in: store)
        }
        let done = try #require(await store.list(state: .done, limit: 1).first)
        #expect(done.attempts == 2, "run, then retried when due — not at the next poll, an hour later")
    }

    /// A bot check stood in for the pages: tried again as often as the policy says, then finished; past the
    /// horizon, finished at once.
    @Test func challengesAreTriedAgainABoundedNumberOfTimes() async throws {
        let attempts = Attempts()
        var retry = EnrichmentRetry()
        retry.challenge.retries = 2
        retry.challenge.window = .milliseconds(200)
        retry.challenge.minimumDelay = .zero
        let store = Self.memory()
        let queue = EnrichmentQueue(store: store, retry: EnrichmentRetryStrategy(retry)) { _ in
            _ = await attempts.add()
            return .challenged(.refused(.challenge, provider: "cloudflare", "a bot check stood in for the page"))
        }
        try await Self.run(queue) {
            #expect(await queue.submit(Self.job(1)) == .accepted)
            try await Self.waitFor(.done, in: store)
        }
        let done = try #require(await store.list(state: .done, limit: 1).first)
        #expect(done.attempts == 3 && done.lastError?.hasPrefix("challenge (cloudflare)") == true)
        #expect(await attempts.times.count == 3)
    }

    /// A strategy written outside the module decides alone: the queue writes its decision — a retry at
    /// the time it names with its error, then a failure with its own error — and asks nothing else.
    @Test func aStrategyOfOnesOwnDecidesWhatFollows() async throws {
        struct TwiceThenGiveUp: RetryStrategy {
            func decide(_ outcome: JobOutcome, for job: StoredJob, now: Date) -> RetryDecision {
                if job.attempts < 2 { return .retry(at: now.addingTimeInterval(0.05), error: "again \(job.attempts)") }
                return .fail(error: "gave up after \(job.attempts): \(outcome.name)", reason: "two attempts")
            }
        }
        let attempts = Attempts()
        let store = Self.memory()
        let queue = EnrichmentQueue(store: store, retry: TwiceThenGiveUp()) { _ in
            _ = await attempts.add()
            return .updated  // a success the strategy still fails: the queue adds no rule of its own
        }
        try await Self.run(queue) {
            #expect(await queue.submit(Self.job(1)) == .accepted)
            try await Self.waitFor(.failed, in: store)
        }
        let failed = try #require(await store.list(state: .failed, limit: 1).first)
        #expect(failed.attempts == 2 && failed.lastError == "gave up after 2: updated")
        #expect(await attempts.times.count == 2)
    }

    /// The retries spread over the window, each wait twice the one before, none shorter than the minimum
    /// (the refusal's time in the cache): 3 in an hour by default.
    @Test func theChallengeScheduleFitsItsWindow() {
        var policy = EnrichmentRetry.Challenge()
        let minutes = (1...4).map { policy.delay(after: $0).map { $0 / .seconds(60) } }
        #expect(minutes[0] == 10, "not sooner than the refusal is cached")
        #expect(abs(minutes[1]! - 60 * 3 / 7 + 10) < 0.01 && abs(minutes[2]! - 60 * 4 / 7) < 0.01)
        #expect(minutes[3] == nil && policy.delay(after: 0) == nil)
        #expect(abs(minutes.compactMap { $0 }.reduce(0, +) - 60) < 0.01, "within the hour")
        policy.minimumDelay = .zero
        #expect(abs(policy.delay(after: 1)! / .seconds(60) - 60.0 / 7) < 0.01)
        policy.retries = 0
        #expect(policy.delay(after: 1) == nil)
    }

    /// The delays themselves: doubling from the first, capped, jittered by 50–100 %, and the server's
    /// `Retry-After` (capped) when it is longer.
    @Test func theBackOffDoublesIsCappedAndYieldsToRetryAfter() {
        var policy = EnrichmentRetry()
        policy.firstDelay = .seconds(1)
        policy.maxDelay = .seconds(10)
        policy.maxRetryAfter = .seconds(60)
        for _ in 0..<50 {
            #expect((.milliseconds(500) ... .seconds(1)).contains(policy.delay(after: 1)))
            #expect((.seconds(4) ... .seconds(8)).contains(policy.delay(after: 4)))
            #expect((.seconds(5) ... .seconds(10)).contains(policy.delay(after: 40)), "capped")
            #expect(policy.delay(after: 1, retryAfter: .seconds(30)) == .seconds(30))
            #expect(policy.delay(after: 1, retryAfter: .seconds(3600)) == .seconds(60), "Retry-After capped")
            #expect(policy.delay(after: 4, retryAfter: .milliseconds(1)) >= .seconds(4), "the longer wins")
        }
        #expect(PlatformAPIError.retryAfter("120") == .seconds(120))
        #expect(PlatformAPIError.retryAfter("soon") == nil)
        #expect(
            PlatformAPIError.isRetryable(status: 429) && PlatformAPIError.isRetryable(status: 503)
                && !PlatformAPIError.isRetryable(status: 404))
    }
}

actor Attempts {
    private(set) var times: [ContinuousClock.Instant] = []
    /// Notes an attempt; returns how many so far.
    func add() -> Int {
        times.append(.now)
        return times.count
    }
}

actor Recorder {
    private(set) var ids: [Int64] = []
    private(set) var handedBack: [Int64] = []
    func add(_ id: Int64) { ids.append(id) }
    func handBack(_ jobs: [EnrichmentJob]) { handedBack += jobs.map(\.messageID) }
}
