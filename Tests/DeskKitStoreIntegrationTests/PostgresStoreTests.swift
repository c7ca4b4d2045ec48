@testable import DeskKitJobStore
import DeskKitModel
import DeskKitTestSupport
import Foundation
import DeskKitTime
import PostgresNIO
import Testing

/// What only the PostgreSQL store does: migrate safely when instances start together, commit only
/// admissions synchronously, and fail fast when the database is unreachable.
@Suite("PostgreSQL store")
struct PostgresStoreTests {
    /// Leases are the database's time: an instance whose clock runs five minutes ahead takes none of another's
    /// live jobs (the clock it claims by, and the store's, are that machine's), and takes them once their lease has
    /// passed on the database's clock; its renewals, ends and retries are due by that clock too.
    @Test func leasesAreOnTheDatabasesClock() async throws {
        let location = try PostgresLocation(parsing: try await PostgresCluster.shared().makeDatabase())
        let a = try await PostgresJobStore.open(location, options: .unhurried)
        // Another machine, its clock five minutes ahead of the database's.
        var skewed = PostgresJobStore.Options.unhurried
        skewed.clock = ServiceClock.system.dated(off: .seconds(300))
        let b = try await PostgresJobStore.open(location, options: skewed)
        let aNow = { Date() }
        let bNow = { skewed.clock.now() }
        for id in Int64(1)...3 {
            #expect(try await a.admit(JobStoreContractTests.job(id), now: aNow(), dedupWindow: .seconds(60)))
        }
        // B's admission is due now by the database's clock, not five minutes from now: A claims it at once.
        #expect(try await b.admit(JobStoreContractTests.job(4), now: bNow(), dedupWindow: .seconds(60)))
        let claimedByA = try await a.claim(limit: 10, now: aNow(), lease: .seconds(2))
        #expect(claimedByA.count == 4)
        // A's leases are live: B, five minutes ahead, takes none of them, nor does its renewal of a job of A's.
        #expect(try await b.claim(limit: 10, now: bNow(), lease: .seconds(30)).isEmpty)
        let due = try await b.nextDue().map { $0.timeIntervalSince(bNow()) }
        #expect(due.map { $0 > 0 && $0 <= 3 } == true, "A's leases end in 2 s on B's clock too: \(due ?? -1)")
        let first = claimedByA[0]
        #expect(try await a.renew([first], until: aNow().addingTimeInterval(2)) == [first.job.messageID])
        // A stops renewing; past its lease on the database's clock, B takes its jobs again.
        try await until("A's leases run out on the database's clock", within: .seconds(30)) {
            try await !b.claim(limit: 10, now: bNow(), lease: .seconds(30)).isEmpty
        }
        let rest = try await b.claim(limit: 10, now: bNow(), lease: .seconds(30))
        #expect(rest.count <= 3)
        await a.close()
        await b.close()
    }

    @Test func instancesStartingTogetherMigrateOnce() async throws {
        let cluster = try await PostgresCluster.shared()
        let location = try PostgresLocation(parsing: try await cluster.makeDatabase())
        let stores = try await withThrowingTaskGroup(of: PostgresJobStore.self) { group in
            for _ in 0..<3 { group.addTask { try await PostgresJobStore.open(location, options: .unhurried) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(stores.count == 3)
        #expect(
            try await cluster.psql(
                location.database, "SELECT string_agg(version::text, ',' ORDER BY version) FROM deskkit_schema")
                == "1,2,3,4,5,6")
        // Each sees what another admits.
        #expect(
            try await stores[0].admit(
                EnrichmentJob(channelURL: "c", messageID: 7, text: "x"), now: Date(), dedupWindow: .seconds(60)))
        #expect(
            try await !stores[1].admit(
                EnrichmentJob(channelURL: "c", messageID: 7, text: "x"), now: Date(), dedupWindow: .seconds(60)))
        #expect(try await stores[2].counts()[.queued] == 1)
        for store in stores { await store.close() }
        // Opening again migrates nothing.
        let again = try await PostgresJobStore.open(location, options: .unhurried)
        await again.close()
        #expect(try await cluster.psql(location.database, "SELECT count(*) FROM deskkit_schema") == "6")
    }

    /// Admissions wait for the disk; the workers' statements do not (at-least-once covers their loss).
    @Test func onlyAdmissionsCommitSynchronously() async throws {
        let store = try await PostgresJobStore.open(
            PostgresLocation(parsing: try await PostgresCluster.shared().makeDatabase()), options: .unhurried)
        func setting(_ client: PostgresClient) async throws -> String {
            var value = ""
            for try await v in try await client.query("SHOW synchronous_commit").decode(String.self) { value = v }
            return value
        }
        #expect(try await setting(store.client) == "on")
        #expect(try await setting(store.lazyClient) == "off")
        await store.close()
    }

    /// A batch of ends and the renewal of the same running jobs' leases, in other orders, at the same time:
    /// neither fails (they lock rows in one order; in the order of their arrays they deadlocked under load).
    @Test func endsAndRenewalsOfTheSameJobsNeverDeadlock() async throws {
        // A deadlock is PostgreSQL's error within its deadlock_timeout (1 s), not a time-out: the store waits a
        // minute, so that a machine loaded by the whole suite (and a fuzzer) is not taken for one (a fresh-clone
        // run once had the shared cluster take more than the default 5 s).
        let store = try await PostgresJobStore.open(
            PostgresLocation(parsing: try await PostgresCluster.shared().makeDatabase()), options: .unhurried)
        var generator = SystemRandomNumberGenerator()
        var failures: [String] = []
        for round in 0..<8 {
            let now = Date()
            for id in Int64(round * 100 + 1)...Int64(round * 100 + 100) {
                _ = try await store.admit(
                    EnrichmentJob(channelURL: "c", messageID: id, text: "x"), now: now, dedupWindow: .seconds(60))
            }
            let claims = try await store.claim(limit: 100, now: now, lease: .seconds(60))
            #expect(claims.count == 100)
            let shuffles = (0..<4).map { _ in claims.shuffled(using: &generator) }
            let ends = claims.shuffled(using: &generator)
            failures += await withTaskGroup(of: String?.self) { group in
                for claims in shuffles {
                    group.addTask {
                        do { _ = try await store.renew(claims, until: Date().addingTimeInterval(60)) } catch {
                            return "renew: \(error)"
                        }
                        return nil
                    }
                }
                for claim in ends {
                    group.addTask {
                        do { try await store.finish(claim, as: .done, error: nil, now: Date()) } catch {
                            return "end: \(error)"
                        }
                        return nil
                    }
                }
                return await group.reduce(into: []) { if let failure = $1 { $0.append(failure) } }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) statements failed, the first: \(failures.first ?? "")")
        #expect(try await store.counts()[.done] == 800)
        await store.close()
    }

    /// An admission is answered committed only once it is: its session is ended (as a server's fast shutdown
    /// ends every session) after the statement has sent its rows and its completion but before the commit —
    /// held open here by a deferred trigger that sleeps at commit. The store must then report the admission
    /// as failed, not admitted. (A statement committed on its own is dropped in that gap while the client has
    /// read every row: CI once saw a webhook answered 200 whose job was never stored.)
    @Test func anAdmissionIsReportedOnlyOnceCommitted() async throws {
        let cluster = try await PostgresCluster.shared()
        let location = try PostgresLocation(parsing: try await cluster.makeDatabase())
        let store = try await PostgresJobStore.open(location, options: .unhurried)
        try await cluster.psql(
            location.database,
            """
            CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN PERFORM pg_sleep(30); RETURN NULL; END $$;
            CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON deskkit_jobs DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW EXECUTE FUNCTION slow_commit();
            """)
        let admission = Task {
            try await store.admit(
                EnrichmentJob(channelURL: "c", messageID: 7, text: "x"), now: Date(), dedupWindow: .seconds(60))
        }
        // The session sleeping at commit, ended as a shutdown ends it.
        let sleeping = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'"
        let pid = try await until("the admission reaching the commit") {
            let pid = try await cluster.psql(location.database, sleeping)
            return pid.isEmpty ? nil : pid
        }
        try await cluster.psql(location.database, "SELECT pg_terminate_backend(\(pid))")
        let result = await admission.result
        let stored = try await cluster.psql(location.database, "SELECT count(*) FROM deskkit_jobs")
        #expect(stored == "0")
        #expect(throws: JobStoreError.self, "an admission whose commit was cut off fails") { try result.get() }
        await store.close()
    }

    /// `sslmode` reads the modes DeskKit supports, writes them back, and names one it does not.
    @Test func sslModes() throws {
        for mode in PostgresLocation.TLSMode.allCases {
            let location = try PostgresLocation(parsing: "postgres://u@db.example/jobs?sslmode=\(mode.rawValue)")
            #expect(location.tls == mode)
            #expect(try PostgresLocation(parsing: location.description).tls == mode)
        }
        #expect(try PostgresLocation(parsing: "postgres://u@db.example/jobs").tls == .prefer)
        let error = #expect(throws: JobStoreError.self) {
            try PostgresLocation(parsing: "postgres://u@db.example/jobs?sslmode=verify-full")
        }
        #expect(error?.kind == .badLocation)
        #expect(error?.description.contains("verify-full") == true)
    }

    /// Refused: postgres-nio's pool would retry for as long as it is asked; the store answers at its deadline.
    /// The port is held by the test (bound, never listening), so no other test's server can take it meanwhile.
    @Test(.timeLimit(.minutes(1))) func anUnreachableDatabaseIsAClearErrorNotAHang() async throws {
        let (held, port) = try LoopbackSocket.open(listening: false)
        defer { close(held) }
        try await expectCannotOpen(port: port)
    }

    /// A peer that takes the connection and never answers (a database host whose server hangs, a firewall that
    /// accepts): the store answers at its deadline, while the peer still holds the connection.
    @Test(.timeLimit(.minutes(1))) func aSilentDatabaseIsAClearErrorNotAHang() async throws {
        let (silent, port) = try LoopbackSocket.open(listening: true)
        defer { close(silent) }
        try await expectCannotOpen(port: port)
    }

    private func expectCannotOpen(port: Int) async throws {
        var options = PostgresJobStore.Options()
        options.connectTimeout = .seconds(1)
        options.operationTimeout = .seconds(1)
        let error = await #expect(throws: JobStoreError.self) {
            _ = try await PostgresJobStore.open(
                PostgresLocation(host: "127.0.0.1", port: port, username: "deskkit", database: "x", tls: .disable),
                options: options)
        }
        #expect(error?.kind == .cannotOpen)
    }
}
