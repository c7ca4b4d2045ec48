import DeskKitServer
import Logging
import ServiceLifecycle
import Testing

@Suite("Enrichment queue")
struct EnrichmentQueueTests {
    static func job(_ id: Int64) -> EnrichmentJob {
        EnrichmentJob(channelURL: "c", messageID: id, text: "https://example.com/\(id)")
    }

    /// Runs `queue` in a service group, does `body`, shuts down gracefully and returns the time it took.
    static func run(_ queue: EnrichmentQueue, _ body: () async throws -> Void) async throws -> Duration {
        let group = ServiceGroup(configuration: .init(services: [queue], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        try await body()
        let start = ContinuousClock.now
        await group.triggerGracefulShutdown()
        try await running.value
        return ContinuousClock.now - start
    }

    @Test func admitsDeduplicatesAndRefusesWhenFull() async throws {
        var configuration = EnrichmentQueue.Configuration()
        configuration.capacity = 2
        configuration.dedupCapacity = 3
        let queue = EnrichmentQueue(configuration: configuration, work: { _ in true }, handBack: { _ in })
        // Not running: nothing is taken, so the queue fills.
        #expect(await queue.submit(Self.job(1)) == .accepted)
        #expect(await queue.submit(Self.job(1)) == .duplicate)
        #expect(await queue.submit(Self.job(2)) == .accepted)
        #expect(await queue.submit(Self.job(3)) == .full)
        #expect(await queue.submit(Self.job(3)) == .full, "a refused job is not remembered")
        #expect(await queue.depth == 2)
        await queue.close()
        #expect(await queue.submit(Self.job(4)) == .closed)
    }

    @Test func dedupWindowForgetsTheOldestIDs() async throws {
        var configuration = EnrichmentQueue.Configuration()
        configuration.dedupCapacity = 2
        let queue = EnrichmentQueue(configuration: configuration, work: { _ in true }, handBack: { _ in })
        for id in Int64(1)...3 { #expect(await queue.submit(Self.job(id)) == .accepted) }
        #expect(await queue.submit(Self.job(1)) == .accepted, "id 1 fell out of a window of 2")
        #expect(await queue.submit(Self.job(3)) == .duplicate)
    }

    @Test func gracefulShutdownFinishesQueuedWork() async throws {
        let done = Recorder()
        var configuration = EnrichmentQueue.Configuration()
        configuration.workers = 2
        let queue = EnrichmentQueue(
            configuration: configuration,
            work: { job in
                try? await Task.sleep(for: .milliseconds(50))
                await done.add(job.messageID)
                return true
            }, handBack: { jobs in await done.handBack(jobs) })
        _ = try await Self.run(queue) {
            for id in Int64(1)...6 { #expect(await queue.submit(Self.job(id)) == .accepted) }
        }
        #expect(await done.ids.sorted() == [1, 2, 3, 4, 5, 6])
        #expect(await done.handedBack.isEmpty)
    }

    @Test func gracefulShutdownHandsBackWhatTheGraceCannotFinish() async throws {
        let done = Recorder()
        var configuration = EnrichmentQueue.Configuration()
        configuration.workers = 1
        configuration.shutdownGrace = .milliseconds(200)
        let queue = EnrichmentQueue(
            configuration: configuration,
            work: { job in
                do {
                    try await Task.sleep(for: .seconds(60))
                } catch {
                    return false  // cancelled: not finished
                }
                await done.add(job.messageID)
                return true
            }, handBack: { jobs in await done.handBack(jobs) })
        let took = try await Self.run(queue) {
            for id in Int64(1)...3 { #expect(await queue.submit(Self.job(id)) == .accepted) }
            // Generous: when the other tests keep the test process's threads busy, a job can take seconds to start.
            let deadline = ContinuousClock.now + .seconds(40)
            while await queue.running == 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(await queue.running == 1)
        }
        #expect(took < .seconds(55), "the grace (0.2 s) ended it, not the 60 s job")
        #expect(await done.ids.isEmpty)
        #expect(await done.handedBack == [2, 3, 1], "queued jobs first, then the one cut short")
    }
}

actor Recorder {
    private(set) var ids: [Int64] = []
    private(set) var handedBack: [Int64] = []
    func add(_ id: Int64) { ids.append(id) }
    func handBack(_ jobs: [EnrichmentJob]) { handedBack += jobs.map(\.messageID) }
}
