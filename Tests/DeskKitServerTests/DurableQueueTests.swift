import Clocks
import DeskKitJobStore
import DeskKitModel
import DeskKitPageServer
import DeskKitServer
import DeskKitServerTestSupport
import DeskKitTestSupport
import DeskKitTime
import Foundation
import HummingbirdTesting
import Logging
import Testing

/// The server over a real SQLite store: what is accepted survives API outages and is settled for good.
@Suite("Durable job store")
struct DurableQueueTests {

    static func withStore(_ body: (SQLiteJobStore) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "deskkit-durable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await SQLiteJobStore.open(path: directory.appendingPathComponent("state.sqlite").path)
        try await body(store)
        await store.close()
    }

    static func fast(_ c: inout ServerConfiguration) {
        c.store = .sqlite(path: "test")
        c.retry.firstDelay = .milliseconds(100)
        c.retry.maxDelay = .milliseconds(200)
        c.queue.pollInterval = .milliseconds(50)
    }

    /// The Platform API answers 503 for a while (several rounds of the client's attempts), then 200:
    /// every accepted message is updated once, nothing is lost.
    @Test func anAPIOutageIsWaitedOut() async throws {
        try await Self.withStore { store in
            try await ServerFixtures.withServer({ Self.fast(&$0) }, store: store) {
                client, fake, pages, _ async throws in
                await fake.answer(
                    .init(status: 503), .init(status: 503), .init(status: 503), .init(status: 503), .init(status: 503),
                    .init(status: 503))
                for id in Int64(1)...3 {
                    let (status, json) = try await ServerFixtures.post(
                        client, ServerFixtures.webhook(id: id, text: "\(pages.baseURL)/a/\(id)"))
                    #expect(status == .ok)
                    #expect(json["status"] == "queued")
                }
                _ = try await fake.waitForPuts(9)
                try await until("the three jobs done") { try await store.counts()[.done] == 3 }
                #expect(try await store.counts() == [.queued: 0, .running: 0, .done: 3, .failed: 0])
                let updated = await fake.puts.suffix(3).map(\.path)
                #expect(Set(updated).count == 3, "each message updated once after the outage")
                let metrics = try await ServerFixtures.metrics(
                    client, once: #"deskkit_jobs_total{outcome="updated"} 3"#)
                #expect(metrics.contains(#"deskkit_jobs_total{outcome="retry_scheduled"}"#))
                #expect(metrics.contains(#"deskkit_store_jobs{state="done"} 3"#))
                let health = try await client.execute(uri: "/health", method: .get)
                #expect(String(buffer: health.body).contains(#""jobs":{"queued":0,"running":0,"done":3,"failed":0}"#))
            }
        }
    }

    /// A 4xx is permanent; a retryable failure past the retry horizon fails too; both keep their error
    /// for `deskkit jobs`, and a retried job goes through.
    @Test func permanentFailuresAndTheRetryHorizon() async throws {
        try await Self.withStore { store in
            try await ServerFixtures.withServer(
                {
                    Self.fast(&$0); $0.retry.horizon = .zero
                }, store: store
            ) { client, fake, pages, _ async throws in
                await fake.answer(.init(status: 404), .init(status: 500))
                _ = try await ServerFixtures.post(
                    client, ServerFixtures.webhook(id: 1, text: "\(pages.baseURL)/a"))
                _ = try await fake.waitForPuts(1)
                _ = try await ServerFixtures.post(
                    client, ServerFixtures.webhook(id: 2, text: "\(pages.baseURL)/b"))
                _ = try await fake.waitForPuts(2)
                try await until("both jobs failed") { try await store.counts()[.failed] == 2 }
                let failed = try await store.list(state: .failed, limit: 10)
                #expect(failed.count == 2)
                #expect(failed.first { $0.job.messageID == 1 }?.lastError?.contains("HTTP 404") == true)
                #expect(failed.first { $0.job.messageID == 2 }?.lastError?.contains("HTTP 500") == true)
                #expect(await fake.puts.count == 2, "neither is tried again by itself")
                // The operator retries them: the API answers 200 now.
                #expect(try await store.retry(nil, now: Date()) == 2)
                _ = try await fake.waitForPuts(4)
                try await until("both retried jobs done") { try await store.counts()[.done] == 2 }
            }
        }
    }

    /// The links found at admission go with the job into the store, and the worker previews those; a job
    /// stored without them (as an older deskkit stored it) has its links found in its text.
    @Test func theLinksFoundAtAdmissionGoWithTheJob() async throws {
        try await Self.withStore { store in
            try await ServerFixtures.withServer({ Self.fast(&$0) }, store: store) {
                client, fake, pages, _ async throws in
                let (status, _) = try await ServerFixtures.post(
                    client,
                    ServerFixtures.webhook(id: 1, text: "mail help@example.com or see \(pages.baseURL)/a"))
                #expect(status == .ok)
                // Carried links are what the worker previews, whatever the text says.
                let now = Date()
                #expect(
                    try await store.admit(
                        EnrichmentJob(
                            channelURL: "ch", messageID: 2, text: "no link here", links: ["\(pages.baseURL)/b"]),
                        now: now, dedupWindow: .seconds(60)))
                #expect(
                    try await store.admit(
                        EnrichmentJob(channelURL: "ch", messageID: 3, text: "older job: \(pages.baseURL)/c"), now: now,
                        dedupWindow: .seconds(60)))
                let puts = try await fake.waitForPuts(3)
                var previewed: [String: String] = [:]
                for put in puts {
                    let data = try #require(put.body["data"]?.stringValue)
                    guard
                        case .urlPreview(let preview) = DeskPayload.decode(
                            data, customType: DeskPayload.richMessageCustomType
                        ).content
                    else {
                        Issue.record("not a URL preview: \(data)")
                        continue
                    }
                    previewed[String(put.path.split(separator: "/").last ?? "")] = preview.url
                }
                #expect(previewed == ["1": "\(pages.baseURL)/a", "2": "\(pages.baseURL)/b", "3": "\(pages.baseURL)/c"])
                let stored = try await store.list(state: nil, limit: 10)
                #expect(
                    stored.first { $0.job.messageID == 1 }?.job.links == ["\(pages.baseURL)/a"], "no e-mail address")
                #expect(stored.first { $0.job.messageID == 3 }?.job.links == nil)
            }
        }
    }

    /// A job that runs longer than the lease keeps it (the heartbeat renews it every third of the lease):
    /// no other worker claims it meanwhile, and it ends after one attempt. The queue runs on a `TestClock`
    /// the test moves on a second at a time: twice the lease passes on the clock in a fraction of a second.
    @Test func aLongJobKeepsItsLeaseWhileItRuns() async throws {
        try await Self.withStore { store in
            let clock = TestClock<Duration>()
            let queueClock = ServiceClock(clock)
            var configuration = JobQueueConfiguration()
            configuration.lease = .seconds(30)
            #expect(configuration.heartbeat == .seconds(10))
            let release = AsyncStream<Void>.makeStream()
            let queue = EnrichmentQueue(
                store: store, configuration: configuration, retry: EnrichmentRetryStrategy(EnrichmentRetry()),
                clock: queueClock
            ) { _ in
                for await _ in release.stream { break }  // runs until the test lets it end
                return .noLink
            }
            let running = Task { try await queue.run() }
            #expect(
                await queue.submit(EnrichmentJob(channelURL: "c", messageID: 7, text: "https://example.com"))
                    == .accepted)
            try await until("the job running") { try await store.counts()[.running] == 1 }
            // Twice the lease later on the clock, the job is still its worker's: another worker finds nothing to
            // claim. The clock moves a heartbeat at a time, and on once the store shows that heartbeat's renewal
            // (the lease's end a whole lease from now): however slow the machine, no lease runs out unrenewed.
            for _ in 0..<6 {
                await clock.advance(by: configuration.heartbeat)
                let renewed = queueClock.now().addingTimeInterval(25)
                try await until("the heartbeat's renewal") {
                    try await store.nextDue().map { $0 >= renewed } ?? false
                }
            }
            #expect(try await store.counts()[.running] == 1)
            #expect(try await store.claim(limit: 10, now: queueClock.now(), lease: .seconds(30)).isEmpty)
            release.continuation.yield()
            try await until("the job done") { try await store.counts()[.done] == 1 }
            #expect(try await store.list(state: .done, limit: 10).map(\.attempts) == [1])
            running.cancel()
            try await running.value
        }
    }

    /// A job that ends while its lease is being renewed is not reported as a lost lease: the renewal no
    /// longer finds it running because it ended, not because another worker took it. (Leases renewed every
    /// 50 ms, for many renewals; one a loaded machine really lost is claimed again, so its job has two
    /// attempts — only the warnings of jobs that ran once are false.)
    @Test func jobsEndingDuringARenewalAreNotLostLeases() async throws {
        try await Self.withStore { store in
            let records = LogRecords()
            var logger = Logger(label: "capture") { _ in CapturingLogHandler(records: records) }
            logger.logLevel = .warning
            var configuration = JobQueueConfiguration()
            configuration.workers = 8
            configuration.lease = .milliseconds(150)
            configuration.pollInterval = .milliseconds(10)
            let queue = EnrichmentQueue(
                store: store, configuration: configuration, retry: EnrichmentRetryStrategy(EnrichmentRetry()),
                logger: logger
            ) { _ in
                await Task.yield()
                return .noLink
            }
            let dispatcher = Task { try await queue.run() }
            let jobs = 3_000
            for id in Int64(1)...Int64(jobs) {
                _ = await queue.submit(EnrichmentJob(channelURL: "c", messageID: id, text: "https://example.com"))
            }
            try await until("every job done") { try await store.counts()[.done] == jobs }
            dispatcher.cancel()
            try await dispatcher.value
            #expect(try await store.counts()[.done] == jobs)
            let ranOnce = Set(
                try await store.list(state: .done, limit: jobs).filter { $0.attempts == 1 }.map(\.job.messageID))
            let falseAlarms = records.lines.filter { line in
                guard line.contains("lease was lost"), let id = line.split(separator: "message_id=").last else {
                    return false
                }
                return ranOnce.contains(Int64(id) ?? -1)
            }
            #expect(falseAlarms.isEmpty, "\(falseAlarms.count) warnings, the first: \(falseAlarms.first ?? "")")
        }
    }

    /// While admissions come faster than `deferEnrichmentAbove` a second, one worker runs; all of them once
    /// the rate falls. The queue counts seconds on a `TestClock`: twenty admissions within one of its seconds
    /// (twice the rate), and jobs that run until the test lets them: five in a row run alone (a queue that did not
    /// hold back would start four at once). Two seconds on, the rate has fallen, and four run at once.
    @Test func enrichmentWaitsOnOneWorkerWhileAdmissionsPourIn() async throws {
        try await Self.withStore { store in
            let clock = TestClock<Duration>()
            var configuration = JobQueueConfiguration()
            configuration.workers = 4
            configuration.pollInterval = .seconds(1)
            configuration.deferEnrichmentAbove = 10
            let running = Running()
            let queue = EnrichmentQueue(
                store: store, configuration: configuration, retry: EnrichmentRetryStrategy(EnrichmentRetry()),
                clock: ServiceClock(clock)
            ) { _ in
                await running.work()
                return .noLink
            }
            // The pour comes before the workers start, so that none of it runs before the rate is known.
            for id in Int64(1)...20 {
                _ = await queue.submit(EnrichmentJob(channelURL: "c", messageID: id, text: "https://example.com"))
            }
            let dispatcher = Task { try await queue.run() }
            for n in 1...5 {
                try await until("job \(n) of the pour running") { await running.started >= n }
                #expect(await running.now == 1)
                await running.release(1)
            }
            #expect(await running.most == 1, "admissions pour in: one worker")
            await clock.advance(by: .seconds(2))
            try await until("four jobs at once, the rate fallen") { await running.now == 4 }
            await running.release(15)
            try await until("every job done") { try await store.counts()[.done] == 20 }
            dispatcher.cancel()
            try await dispatcher.value
        }
    }

    /// Jobs that run until the test releases them, and how many ran at once.
    actor Running {
        private(set) var now = 0
        private(set) var most = 0
        private(set) var started = 0
        private var permits = 0
        private var waiting: [CheckedContinuation<Void, Never>] = []

        /// A job: runs until released.
        func work() async {
            now += 1
            started += 1
            most = max(most, now)
            if permits > 0 {
                permits -= 1
            } else {
                await withCheckedContinuation { waiting.append($0) }
            }
            now -= 1
        }

        /// Lets `count` jobs end, those waiting first.
        func release(_ count: Int) {
            for _ in 0..<count {
                if waiting.isEmpty { permits += 1 } else { waiting.removeFirst().resume() }
            }
        }
    }
}
