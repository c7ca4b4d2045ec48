import Clocks
import DeskKitFetchPolicy
import DeskKitJobStore
import DeskKitPageServer
import DeskKitServer
import DeskKitServerTestSupport
import DeskKitTestSupport
import DeskKitTime
import Foundation
import HummingbirdTesting
import Synchronization
import Testing

/// Two instances on one PostgreSQL database, one of them frozen past its lease while it holds running jobs (as
/// `SIGSTOP`, a hypervisor's pause or a long stall would freeze it): the other takes the jobs and updates each
/// message; the frozen one, once it runs again, updates nothing and writes nothing into the jobs.
///
/// Each instance runs on a `TestClock` of its own. Instance A's clock never moves — it renews no lease, as a
/// stopped process renews none — while its workers wait for pages the test holds; B's clock moves past A's
/// leases. Nothing here waits for time to pass.
@Suite("A frozen instance")
struct FrozenInstanceTests {
    static let messages: Int64 = 8

    @Test func aFrozenInstanceUpdatesNothingOnceItsLeasesPassed() async throws {
        try await HeavyTests.oneAtATime { try await frozenInstance() }
    }

    func frozenInstance() async throws {
        let location = try PostgresLocation(parsing: try await PostgresCluster.shared().makeDatabase())
        let (storeA, storeB) = (
            try await PostgresJobStore.open(location, options: .unhurried),
            try await PostgresJobStore.open(location, options: .unhurried)
        )
        let fake = FakeSendbird()
        try await fake.start()
        // A page's first request (instance A's) is held until the test lets it go; later ones answer at once, and so
        // does the site's made-up address (else it would hold one of A's connections, and one page would be B's first).
        let gate = PageServer.Gate()
        let asked = Mutex<Set<String>>([])
        let pages = try await PageServer.start { path in
            let page = Array(ServerFixtures.page.utf8)
            let first = path.hasPrefix("/p/deskkit-") ? false : asked.withLock { $0.insert(path).inserted }
            return .init(
                headers: [("Content-Type", "text/html; charset=utf-8")],
                body: first ? .held(page, until: gate) : .bytes(page))
        }
        var configuration = ServerConfiguration(apiToken: ServerFixtures.token, apiBase: await fake.baseURL)
        configuration.fetch.allowedAddresses = [IPAddress(host: "127.0.0.1")!]
        configuration.fetch.allowedPorts.insert(pages.port)
        configuration.fetch.totalTimeout = .seconds(120)
        configuration.previews.probeImages = false
        configuration.previews.maxConcurrentFetchesPerHost = 16
        configuration.queue.pollInterval = .milliseconds(50)
        let lease = configuration.queue.lease
        let (clockA, clockB) = (TestClock(), TestClock())
        let metricsA = TestMetrics()
        let serverA = EnrichmentServer(
            configuration: configuration, store: storeA, metrics: ServerMetrics(factory: metricsA),
            logger: PostgresServerTests.quiet, clock: ServiceClock(clockA))
        let serverB = EnrichmentServer(
            configuration: configuration, store: storeB, logger: PostgresServerTests.quiet,
            clock: ServiceClock(clockB))

        try await serverA.makeApplication().test(.router) { clientA in
            for id in 1...Self.messages {
                let (status, _) = try await ServerFixtures.post(
                    clientA, ServerFixtures.webhook(id: id, text: "see \(pages.baseURL)/p/\(id)"))
                #expect(status == .ok)
            }
            // A has claimed every job and waits for its pages: then it freezes (its clock stands still).
            try await until("A claims every job") {
                try await storeA.counts()[.running] == Int(Self.messages)
                    && asked.withLock { $0.count } == Int(Self.messages)
            }
            try await serverB.makeApplication().test(.router) { _ in
                // B's time passes A's leases: B claims the jobs, fetches the pages and updates every message.
                await clockB.advance(by: lease + .seconds(1))
                try await until("B ends every job") { try await storeB.counts()[.done] == Int(Self.messages) }
                // A runs again: its pages arrive, its workers find their claims gone.
                gate.open()
                try await until("A's workers find their claims gone") {
                    metricsA.total("deskkit_jobs_stale_writes_total") == Self.messages
                }
            }
        }
        let puts = await fake.puts
        #expect(puts.count == Int(Self.messages), "each message updated once, by B")
        #expect(Set(puts.map(\.path)).count == Int(Self.messages))
        let jobs = try await storeB.list(state: nil, limit: 100)
        #expect(jobs.allSatisfy { $0.state == .done && $0.attempts == 2 }, "as B left them")
        #expect(Set(puts.compactMap(\.claim)) == Set(jobs.map { "\($0.claimToken)" }), "under B's claims")
        #expect(metricsA.total("deskkit_jobs_total", [("outcome", "updated")]) == 0)
        await fake.stop()
        try await pages.stop()
        await storeA.close()
        await storeB.close()
    }

}
