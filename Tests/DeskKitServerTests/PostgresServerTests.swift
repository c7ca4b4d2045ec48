import Clocks
import DeskKitJobStore
import DeskKitModel
import DeskKitPageServer
import DeskKitServer
import DeskKitTestSupport
import Foundation
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// The server on a real PostgreSQL store (a throwaway cluster): outages of the Platform API and of the
/// database itself lose nothing, and a webhook is never answered 200 without a commit.
@Suite("Server on PostgreSQL")
struct PostgresServerTests {
    let servers = EnrichmentServerTests()

    /// The retries and the outage are expected here: only errors are logged.
    static var quiet: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .error
        return logger
    }

    /// The Platform API answers 503 for a whole minute, then comes back: every accepted message is
    /// updated exactly once after it, none failed. The minute is the server's clock's (a `TestClock` the test
    /// moves a second at a time, letting the retries due each second run), so it takes seconds, not a minute.
    @Test(.timeLimit(.minutes(8))) func aMinuteOfAPIOutageLosesNothing() async throws {
        try await HeavyTests.oneAtATime { try await apiOutage() }
    }

    /// Waits (a minute at most) until no job runs and none is due on `clock`: the queue has done all it can
    /// until the clock moves on.
    static func settle(_ store: any JobStore, on clock: ServiceClock) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if try await store.counts()[.running, default: 0] == 0,
                try await store.nextDue().map({ $0 > clock.now() }) ?? true
            {
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        let (counts, due) = (try await store.counts(), try await store.nextDue())
        Issue.record(
            "the queue did not settle within a minute: \(counts), next due \(String(describing: due)) at \(clock.now())"
        )
    }

    func apiOutage() async throws {
        // This test is about the API's outage, not the database's: on a machine loaded by the other tests the
        // shared cluster has taken more than the default 5 s to answer, and a job whose end could not be
        // recorded in time is (rightly) run again, which would break "updated once after the outage".
        var options = PostgresJobStore.Options()
        options.operationTimeout = .seconds(60)
        options.connectTimeout = .seconds(60)
        let store = try await PostgresJobStore.open(
            PostgresLocation(parsing: try PostgresCluster.shared().makeDatabase()), options: options)
        let tweak: (inout ServerConfiguration) -> Void = {
            $0.store = .sqlite(path: "unused")
            $0.retry.firstDelay = .seconds(1)
            $0.retry.maxDelay = .seconds(5)
        }
        let testClock = TestClock()
        let clock = ServiceClock(testClock)
        try await servers.withServer(tweak, logger: Self.quiet, store: store, clock: clock) {
            client, fake, pages, _ async throws in
            await fake.down(until: .now + .seconds(24 * 3600))
            for id in Int64(1)...20 {
                let (status, json) = try await EnrichmentServerTests.post(
                    client, EnrichmentServerTests.webhook(id: id, text: "see \(pages.baseURL)/p/\(id)"))
                #expect(status == .ok)
                #expect(json["status"] == "queued")
            }
            for _ in 0..<60 {
                try await Self.settle(store, on: clock)
                await testClock.advance(by: .seconds(1))
            }
            try await Self.settle(store, on: clock)
            let outageEnds = ContinuousClock.now
            await fake.down(until: outageEnds)
            // Every retry is due within the back-off's 5 s.
            for _ in 0..<6 where try await store.counts()[.done] != 20 {
                await testClock.advance(by: .seconds(1))
                try await Self.settle(store, on: clock)
            }
            #expect(try await store.counts() == [.queued: 0, .running: 0, .done: 20, .failed: 0])
            let puts = await fake.puts
            let during = puts.filter { $0.at < outageEnds }
            let after = puts.filter { $0.at >= outageEnds }
            #expect(Set(during.map(\.path)).count == 20, "every message was tried during the outage")
            #expect(during.count > 40, "and tried again, with back-off, across the minute")
            #expect(after.count == 20 && Set(after.map(\.path)).count == 20, "each updated once after it")
        }
        await store.close()
    }

    /// Webhooks keep coming while PostgreSQL is stopped for 10 s: 503 (with Retry-After) while it is down,
    /// 200 again once it is back without restarting the server, and every message answered 200 is updated.
    @Test(.timeLimit(.minutes(8))) func theDatabaseStoppedUnderLoadNeverYieldsA200WithoutACommit() async throws {
        try await HeavyTests.oneAtATime { try await databaseStopped() }
    }

    func databaseStopped() async throws {
        let cluster = try PostgresCluster()  // its own: this test stops it
        try cluster.psql("postgres", "CREATE DATABASE desk")
        var options = PostgresJobStore.Options()
        options.operationTimeout = .seconds(1)
        options.connectTimeout = .seconds(1)
        let store = try await PostgresJobStore.open(
            try PostgresLocation(parsing: cluster.url(database: "desk")), options: options)
        let tweak: (inout ServerConfiguration) -> Void = {
            $0.store = .sqlite(path: "unused")
            $0.retry.firstDelay = .milliseconds(200)
            $0.retry.maxDelay = .seconds(1)
            $0.queue.pollInterval = .milliseconds(100)
            $0.queue.lease = .seconds(3)
        }
        try await servers.withServer(tweak, logger: Self.quiet, store: store) { client, fake, pages, _ async throws in
            // When each webhook was sent and answered: on a loaded machine an answer can be read late.
            let answers = Mutex<[(id: Int64, status: Int, sent: ContinuousClock.Instant, at: ContinuousClock.Instant)]>(
                [])
            let phase = Atomic<Int>(0)  // 0 before the stop, 1 while stopped, 2 after the restart
            let load = Task {
                var id: Int64 = 0
                while !Task.isCancelled {
                    id += 1
                    let sent = ContinuousClock.now
                    let (status, json) = try await EnrichmentServerTests.post(
                        client, EnrichmentServerTests.webhook(id: id, text: "see \(pages.baseURL)/p/\(id % 50)"))
                    if status == .ok { #expect(json["status"] == "queued") }
                    answers.withLock { $0.append((id, status.code, sent, .now)) }
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
            try await Task.sleep(for: .seconds(2))
            try cluster.stop()
            phase.store(1, ordering: .relaxed)
            let stoppedAt = ContinuousClock.now
            try await Task.sleep(for: .seconds(3))
            let health = try await client.execute(uri: "/health", method: .get) { $0 }
            #expect(health.status == .serviceUnavailable, "/health reports the store")
            // Open to anyone: the store's kind and its failure's, nothing of where it is.
            let body = try JSONValue.parse(String(buffer: health.body))
            #expect(body["store"] == "postgres" && body["store_error"] == "unavailable", "\(body)")
            #expect(!String(buffer: health.body).contains("127.0.0.1"))
            try await Task.sleep(for: .seconds(7))
            // PostgreSQL takes commits as soon as it is ready, before `pg_ctl start` (which polls for that) has
            // returned: the window of refusals closes when the start begins.
            let restarting = ContinuousClock.now
            try cluster.start()
            let restartedAt = ContinuousClock.now
            phase.store(2, ordering: .relaxed)
            try await Task.sleep(for: .seconds(6))
            load.cancel()
            _ = await load.result
            let all = answers.withLock { $0 }
            let accepted = Set(all.filter { $0.status == 200 }.map(\.id))
            #expect(all.contains { $0.status == 200 && $0.at < stoppedAt })
            #expect(
                all.contains { $0.status == 503 && $0.at > stoppedAt && $0.at < restarting },
                "503 while the database is down")
            #expect(
                all.filter { $0.sent > stoppedAt + .seconds(2) && $0.at < restarting }.allSatisfy { $0.status == 503 },
                "never 200 without a commit: a webhook sent while the database is down is refused")
            #expect(
                all.contains { $0.status == 200 && $0.at > restartedAt + .seconds(3) }, "200 again, without a restart")
            #expect(Set(all.map(\.status)).isSubset(of: [200, 503]))
            // Every accepted message is updated.
            let deadline = ContinuousClock.now + .seconds(30)
            func updated() async -> Set<Int64> {
                Set(await fake.puts.compactMap { $0.path.split(separator: "/").last.flatMap { Int64($0) } })
            }
            while await !accepted.isSubset(of: updated()), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
            }
            let missing = await accepted.subtracting(updated())
            #expect(missing.isEmpty, "accepted and never updated: \(missing.sorted().prefix(20))")
            #expect(accepted.count >= 10)
        }
        await store.close()
        try? cluster.stop()
    }
}
