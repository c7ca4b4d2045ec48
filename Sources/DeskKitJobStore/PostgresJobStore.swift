import DeskKitTime
import Foundation
import Logging
import NIOSSL
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The job store for several instances: one PostgreSQL database, through vapor/postgres-nio's pooled
/// `PostgresClient`.
///
/// - Admissions, and the ends of jobs, are committed in groups (`GroupCommit`): one statement over
///   `unnest(…)` arrays per batch, each commit synchronous as the server is configured
///   (`synchronous_commit` on by default). A batch of admissions is a transaction of its own, answered
///   when its `COMMIT` is: a session ended between a statement's rows and its commit cannot leave an
///   admission answered but not stored.
/// - Only admissions wait for their commit to reach the disk. Claims, ends of jobs, reschedules and the
///   preview cache go through a second pool whose sessions set `synchronous_commit = off`: a crash may lose
///   their last fraction of a second, which at-least-once covers (the job is claimed again and its PUT
///   repeated), and they no longer queue for the disk behind the admissions.
/// - Dedup is the primary key, so a redelivery is a duplicate on every instance.
/// - Workers claim with `FOR UPDATE SKIP LOCKED`: instances never wait on each other's rows.
/// - An admission and a claim — a statement for every job — are prepared once on each connection
///   (`PreparedQuery`): PostgreSQL plans them once, not at every call. A pooler between the store and the
///   database must keep prepared statements (PgBouncer in transaction mode: `max_prepared_statements`, 1.21 or
///   later). The batches of ends and renewals stay text: planned once for any number of rows, their join over
///   `unnest(…)` arrays took 9.5 ms a batch of ends where a plan for its rows takes 0.3 ms.
/// - The schema is migrated on open under an advisory lock, so instances may start together
///   (`PostgresSchema.jobs`).
/// - Every operation has a deadline (``Options/operationTimeout``): while the database is down, admissions
///   fail fast (the server answers 503) instead of waiting for the pool.
public final class PostgresJobStore: JobStore, Service {
    /// Connection and timing choices.
    public struct Options: Sendable {
        /// Connections each of the two pools (durable and lazy commits) opens at most. Default 16.
        public var maximumConnections = 16
        /// How long one operation (a batch, a claim…) may take, waiting for a connection included. Default 5 s.
        public var operationTimeout: Duration = .seconds(5)
        /// How long opening a TCP connection may take. Default 5 s. postgres-nio's own limit, inside its pools,
        /// on SwiftNIO's clock: what a caller waits, a connection included, is the operation timeout's.
        public var connectTimeout: Duration = .seconds(5)
        /// The clock the operation timeout, the migration's minute and the pace of notices count on: the
        /// service's (`ServiceClock.system` by default; a test moves a `TestClock` past a limit instead of
        /// waiting for it).
        package var clock: ServiceClock = .system
        /// The default options.
        public init() {}
    }

    /// The database (its password hidden in ``PostgresLocation/description``).
    public let location: PostgresLocation
    /// Durable commits: admissions, operators' changes, migrations.
    let client: PostgresClient
    /// Commits that may lag (`synchronous_commit = off`): the workers' claims and ends, the preview cache.
    package let lazyClient: PostgresClient
    /// The durable pool's connection settings (the lazy pool's differ by `synchronous_commit`).
    private let configuration: PostgresClient.Configuration
    /// The task that runs the pools, when the store runs them (``Pools/runByTheStore``).
    private let runner = Mutex<Task<Void, Never>?>(nil)
    /// Pools and deadlines.
    package let options: Options
    /// Where the pools and the transactions log.
    let logger: Logger
    private let admissions: GroupCommit<Admission, Bool>
    private let endings: GroupCommit<Ending, Bool>
    /// The workers' confirmations before an action: one claim each, renewed together when they come at once.
    private let confirmations: GroupCommit<Renewal, Bool>
    /// The instance's instants as the database's (`DatabaseTime`).
    let time: DatabaseTime

    /// Rows per statement (arrays of this many values).
    static let rowsPerBatch = 1000

    private init(
        location: PostgresLocation, configuration: PostgresClient.Configuration, options: Options, logger: Logger
    ) {
        self.configuration = configuration
        var configuration = configuration
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        configuration.options.additionalStartupParameters = [("synchronous_commit", "off")]
        let lazyClient = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.location = location
        self.client = client
        self.lazyClient = lazyClient
        self.options = options
        self.logger = logger
        let describe: @Sendable (any Error) -> JobStoreError = { Self.unavailable(location, $0) }
        let (timeout, clock) = (options.operationTimeout, options.clock)
        let notices = NoticePace(clock: clock)
        let time = DatabaseTime(clock: clock)
        self.time = time
        admissions = GroupCommit(maxBatch: Self.rowsPerBatch, describe: describe) { batch in
            try await withDeadline(timeout, clock: clock, followsCancellation: false) {
                try await Admission.admit(batch) {
                    try await Self.insert($0, time: time, client: client, logger: logger, notify: notices.due())
                }
            }
        }
        endings = GroupCommit(maxBatch: Self.rowsPerBatch, describe: describe) { batch in
            let written = try await withDeadline(timeout, clock: clock, followsCancellation: false) {
                try await Self.end(batch, time: time, client: lazyClient)
            }
            return batch.map { written.contains(Claim(id: $0.messageID, token: $0.claimToken)) }
        }
        confirmations = GroupCommit(maxBatch: Self.rowsPerBatch, describe: describe) { batch in
            let renewed = try await withDeadline(timeout, clock: clock, followsCancellation: false) {
                try await Self.renew(batch, time: time, client: lazyClient)
            }
            return batch.map { renewed.contains($0.claim.id) }
        }
    }

    /// Who runs the store's two connection pools.
    public struct Pools: Sendable, Hashable {
        private enum Code { case store, service }
        private let code: Code

        /// The store, in a task of its own from ``open(_:options:pools:logger:)`` to ``close()``: for a tool
        /// or a test that uses the store without a service group.
        public static let runByTheStore = Pools(code: .store)
        /// The caller, as a service of its group (``run()``; the server's): the store is answered once its
        /// service runs, and ``close()`` does nothing.
        public static let service = Pools(code: .service)
    }

    /// Connects to `location` and migrates its schema (waiting for other instances that migrate it now),
    /// through a connection of its own, closed before it returns.
    ///
    /// - Parameters:
    ///   - location: the database.
    ///   - options: pools and deadlines.
    ///   - pools: who runs the connection pools: ``Pools/runByTheStore`` (the default), or the caller's
    ///     service group, of which the store is then a service (``run()``).
    ///   - logger: where the pools and the migrations log.
    public static func open(
        _ location: PostgresLocation, options: Options = Options(), pools: Pools = .runByTheStore,
        logger: Logger = Logger(label: "deskkit.store")
    ) async throws(JobStoreError) -> PostgresJobStore {
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: location.tls.clientTLS)
        configuration.options.maximumConnections = options.maximumConnections
        configuration.options.connectTimeout = options.connectTimeout
        // postgres-nio's pool counts its timers with `Task.sleep`, and a cancelled `Task.sleep` keeps its wake-up — a
        // task and a Dispatch timer — until the deadline it was given (swiftlang/swift#60441). Each lease cancels the
        // connection's keep-alive timer (30 s) and its idle timer (60 s): at a server's few hundred leases a second
        // the leftovers came to ~24 MB at the fault run's peak (heaptrack), and the allocator kept the pages after.
        // So no connection is kept alive with a query, and one idle for 10 s is closed.
        configuration.options.keepAliveBehavior = nil
        configuration.options.connectionIdleTimeout = .seconds(10)
        let store = PostgresJobStore(location: location, configuration: configuration, options: options, logger: logger)
        do {
            try await store.withOwnConnection { client in
                // Reachable at all? (Fails within the operation deadline, not the pool's minute of retries.)
                try await withDeadline(options.operationTimeout, clock: options.clock) {
                    _ = try await client.query("SELECT 1")
                }
                try await PostgresSchema.jobs.migrate(client, clock: options.clock, logger: logger)
                // The database's clock against this instance's, before any job is dated.
                await store.time.measureWhenDue(client)
            }
        } catch {
            if let refused = error as? JobStoreError { throw refused }
            throw JobStoreError(.cannotOpen, "cannot open \(location): \(describe(error))")
        }
        if pools == .runByTheStore {
            store.runner.withLock { $0 = Task { await store.runPools() } }
        }
        return store
    }

    /// Runs `body` with a client of one connection to the store's database, run for `body` alone (in a child
    /// task): what opening the store (and the shared preview cache) migrate with, before its pools run.
    package func withOwnConnection<T: Sendable>(_ body: (PostgresClient) async throws -> T) async throws -> T {
        var configuration = self.configuration
        configuration.options.maximumConnections = 1
        let own = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            // It runs before it is asked: postgres-nio warns of a lease taken before `run()`.
            let (running, started) = AsyncStream.makeStream(of: Void.self)
            group.addTask {
                started.yield()
                await own.run()
            }
            for await _ in running.prefix(1) {}
            defer { group.cancelAll() }
            return try await body(own)
        }
    }

    /// Runs both pools until cancelled, or a graceful shutdown of the service group: a service of the server's
    /// group (listed before the application, so that it stops after the queue has written its last ends).
    public func run() async {
        await cancelWhenGracefulShutdown { await self.runPools() }
    }

    private func runPools() async {
        await withDiscardingTaskGroup { group in
            for pool in [client, lazyClient] { group.addTask { await pool.run() } }
        }
    }

    /// Closes both pools when the store runs them (``Pools/runByTheStore``): waits for their connections to
    /// close, at most the operation timeout. A store run as a service closes with its group.
    public func close() async {
        guard let runner = runner.withLock({ $0 }) else { return }
        runner.cancel()
        await waitAtMost(options.operationTimeout, clock: options.clock, for: runner)
    }

    // MARK: Admission, committed in groups

    public func admit(_ job: EnrichmentJob, now: Date, dedupWindow: Duration) async throws(JobStoreError) -> Bool {
        try await admissions.submit(Admission(job, now: now, dedupWindow: dedupWindow))
    }

    /// One upsert for a batch: a message id already present is a duplicate unless its job is done and was
    /// admitted before the dedup window (then it is queued afresh). Its times are the database's.
    private static func insert(
        _ rows: [Admission], time: DatabaseTime, client: PostgresClient, logger: Logger, notify: Bool
    ) async throws -> Set<Int64> {
        // An array of optional text does not bind: no links are written as '' and stored as NULL.
        let query = admitQuery(
            ids: rows.map(\.job.messageID), channels: rows.map(\.job.channelURL), texts: rows.map(\.job.text),
            links: rows.map { $0.job.storedLinks ?? "" }, languages: rows.map { $0.job.language ?? "" },
            traces: rows.map { $0.job.storedTraceContext ?? "" }, stamps: rows.map { time.database($0.now) },
            cutoff: time.database(rows.map(\.cutoff).min()!))
        let ids = try await committedIDs(query, as: AdmitStatement.self, client: client, logger: logger, notify: notify)
        return Set(ids)
    }

    /// A batch's upsert: the statement text of ``AdmitStatement``.
    static func admitQuery(
        ids: [Int64], channels: [String], texts: [String], links: [String], languages: [String], traces: [String],
        stamps: [Date], cutoff: Date
    ) -> PostgresQuery {
        """
        INSERT INTO deskkit_jobs (message_id, channel_url, text, links, language, trace_context, state, attempts, accepted_at, next_attempt_at, updated_at)
        SELECT id, channel, text, NULLIF(links, ''), NULLIF(language, ''), NULLIF(trace, ''), 'queued', 0, at, at, at
        FROM unnest(\(ids)::bigint[], \(channels)::text[], \(texts)::text[], \(links)::text[], \(languages)::text[], \(traces)::text[], \(stamps)::timestamptz[])
            AS r(id, channel, text, links, language, trace, at)
        ORDER BY id
        ON CONFLICT (message_id) DO UPDATE SET channel_url = excluded.channel_url, text = excluded.text,
            links = excluded.links, language = excluded.language, trace_context = excluded.trace_context,
            state = 'queued', attempts = 0, accepted_at = excluded.accepted_at,
            next_attempt_at = excluded.next_attempt_at, lease_until = NULL, updated_at = excluded.updated_at,
            last_error = NULL
        WHERE deskkit_jobs.state = 'done' AND deskkit_jobs.accepted_at < \(cutoff)
        RETURNING message_id
        """
    }

    /// The admission's upsert, prepared on each connection.
    struct AdmitStatement: PreparedQuery {
        static let sql = admitQuery(
            ids: [], channels: [], texts: [], links: [], languages: [], traces: [], stamps: [], cutoff: .distantPast
        ).sql
        let binds: PostgresBindings
    }

    /// Runs a statement `RETURNING message_id` in a transaction of its own and returns the ids once `COMMIT`
    /// is answered. A statement run on its own is committed only after its rows and its completion are sent:
    /// a session ended in between (a server's fast shutdown ends them all) drops the statement while the
    /// client has read every row — for an admission, a webhook answered 200 without a commit.
    ///
    /// `notify`: the rows are jobs due now, and every instance's idle workers are told at the commit
    /// (`NOTIFY` on ``arrivalChannel``, which ``waitForArrivals(_:)`` listens on).
    /// `statement`: the query's text prepared (an admission's); nil, sent as text (an operator's).
    static func committedIDs(
        _ query: PostgresQuery, as statement: (any PreparedQuery.Type)? = nil, client: PostgresClient, logger: Logger,
        notify: Bool = false
    ) async throws -> [Int64] {
        try await client.withTransaction(logger: logger) { connection in
            var ids: [Int64] = []
            if let statement {
                for try await row in try await connection.execute(query, as: statement, logger: logger) {
                    ids.append(try row.decode(Int64.self))
                }
            } else {
                for try await id in try await connection.query(query, logger: logger).decode(Int64.self) {
                    ids.append(id)
                }
            }
            if notify && !ids.isEmpty {
                _ = try await connection.query("SELECT pg_notify(\(Self.arrivalChannel), '')", logger: logger)
            }
            return ids
        }
    }

    /// The channel of the admissions' `NOTIFY`.
    static let arrivalChannel = "deskkit_jobs"

    /// Listens (one connection of the lazy pool) for jobs queued by any instance, or put back by an operator,
    /// and calls `wake` for each transaction that queued some, until cancelled; a lost connection is replaced
    /// a second later.
    public func waitForArrivals(_ wake: @escaping @Sendable () -> Void) async {
        while !Task.isCancelled {
            do {
                try await lazyClient.withConnection { connection in
                    try await connection.listen(on: Self.arrivalChannel) { notices in
                        for try await _ in notices { wake() }
                    }
                }
            } catch {}
            try? await Task.sleep(for: .seconds(1))
        }
    }

    // MARK: Workers

    /// Leases are written and compared on the database's clock (`DatabaseTime`): instances whose clocks differ
    /// never take each other's live jobs.
    public func claim(limit: Int, now: Date, lease: Duration) async throws(JobStoreError) -> [StoredJob] {
        guard limit > 0 else { return [] }
        await time.measureWhenDue(lazyClient)
        let until = time.database(now.addingTimeInterval(lease / .seconds(1)))
        let now = time.database(now)
        return try await jobs(
            durable: false, Self.claimQuery(now: now, until: until, limit: limit), as: ClaimStatement.self
        ).inClaimOrder()
    }

    /// Claims up to `limit` due jobs — first those whose lease ran out, then the queued ones due — each under a new
    /// token, leased until `until`.
    static func claimQuery(now: Date, until: Date, limit: Int) -> PostgresQuery {
        """
        WITH expired AS (
            SELECT message_id, 0 AS rank, lease_until AS due FROM deskkit_jobs
            WHERE state = 'running' AND lease_until < \(now)
            ORDER BY lease_until LIMIT \(limit) FOR UPDATE SKIP LOCKED
        ), queued AS (
            SELECT message_id, 1 AS rank, next_attempt_at AS due FROM deskkit_jobs
            WHERE state = 'queued' AND next_attempt_at <= \(now)
            ORDER BY next_attempt_at, message_id LIMIT \(limit) FOR UPDATE SKIP LOCKED
        )
        UPDATE deskkit_jobs SET state = 'running', lease_until = \(until), attempts = attempts + 1, updated_at = \(now),
            claim_token = nextval('deskkit_job_claims')
        WHERE message_id IN (
            SELECT message_id FROM (SELECT * FROM expired UNION ALL SELECT * FROM queued) AS due
            ORDER BY rank, due, message_id LIMIT \(limit))
        RETURNING \(unescaped: Self.columns)
        """
    }

    /// The claim, prepared on each connection.
    struct ClaimStatement: PreparedQuery {
        static let sql = claimQuery(now: .distantPast, until: .distantPast, limit: 0).sql
        let binds: PostgresBindings
    }

    /// The database's next due time, as an instant of the instance's clock.
    public func nextDue() async throws(JobStoreError) -> Date? {
        let time = self.time
        return try await perform(durable: false) { client in
            let rows = try await client.query(
                """
                SELECT least(
                    (SELECT min(next_attempt_at) FROM deskkit_jobs WHERE state = 'queued'),
                    (SELECT min(lease_until) FROM deskkit_jobs WHERE state = 'running'))
                """)
            for try await due in rows.decode(Date?.self) { return due.map(time.instance) }
            return nil
        }
    }

    /// One claim's renewal — a worker's confirmation before it acts — goes with the others that come at once, in one
    /// statement (under load, dozens of workers confirm within a round trip of each other); several claims (the
    /// heartbeat's) are one statement of their own.
    public func renew(_ claims: [StoredJob], until: Date) async throws(JobStoreError) -> Set<Int64> {
        guard let first = claims.first else { return [] }
        if claims.count == 1 {
            let renewal = Renewal(claim: Claim(id: first.job.messageID, token: first.claimToken), until: until)
            return try await confirmations.submit(renewal) ? [renewal.claim.id] : []
        }
        let time = self.time
        let renewals = claims.map { Renewal(claim: Claim(id: $0.job.messageID, token: $0.claimToken), until: until) }
        return try await perform(durable: false) { try await Self.renew(renewals, time: time, client: $0) }
    }

    /// A claim to renew until a time.
    struct Renewal: Sendable {
        var claim: Claim
        var until: Date
    }

    /// Renews each claim while its job still runs under it; returns the ids renewed. One claim is one row's
    /// update; several lock their rows in the order of their ids, as a batch of ends locks them (see `end`).
    private static func renew(_ renewals: [Renewal], time: DatabaseTime, client: PostgresClient) async throws
        -> Set<Int64>
    {
        var renewed: Set<Int64> = []
        if renewals.count == 1, let one = renewals.first {
            let rows = try await client.query(
                """
                UPDATE deskkit_jobs SET lease_until = \(time.database(one.until))
                WHERE message_id = \(one.claim.id) AND claim_token = \(one.claim.token) AND state = 'running'
                RETURNING message_id
                """)
            for try await id in rows.decode(Int64.self) { renewed.insert(id) }
            return renewed
        }
        let ids = renewals.map(\.claim.id)
        let tokens = renewals.map(\.claim.token)
        let untils = renewals.map { time.database($0.until) }
        let rows = try await client.query(
            """
            UPDATE deskkit_jobs AS j SET lease_until = c.until
            FROM unnest(\(ids)::bigint[], \(tokens)::bigint[], \(untils)::timestamptz[]) AS c(id, token, until),
                (SELECT message_id FROM deskkit_jobs WHERE message_id = ANY(\(ids)::bigint[]) ORDER BY message_id FOR UPDATE) AS l
            WHERE j.message_id = c.id AND l.message_id = c.id AND j.claim_token = c.token AND j.state = 'running'
            RETURNING j.message_id
            """)
        for try await id in rows.decode(Int64.self) { renewed.insert(id) }
        return renewed
    }

    /// Instances share the database: a running job may be a live instance's, so its lease decides.
    public func recoverAbandoned(now: Date) async throws(JobStoreError) -> Int { 0 }

    @discardableResult
    public func finish(_ claim: StoredJob, as state: JobState, error: String?, now: Date) async throws(JobStoreError)
        -> Bool
    {
        try await endings.submit(
            Ending(messageID: claim.job.messageID, claimToken: claim.claimToken, state: state, error: error, at: now))
    }

    /// The end of a claimed job, written with others that end at the same time.
    struct Ending: Sendable {
        var messageID: Int64
        var claimToken: Int64
        var state: JobState
        var error: String?
        var at: Date
    }

    /// A job under one claim.
    struct Claim: Hashable {
        var id: Int64
        var token: Int64
    }

    /// Writes a batch of ends, each only while its job still runs under its claim; returns the claims written.
    /// Its rows are locked in the order of their ids (`l`), as the renewal of leases locks them, and
    /// admissions are inserted in that order: statements that share rows and lock them in one order never
    /// wait on each other in a cycle, which PostgreSQL would end as a deadlock, failing the batch (and its
    /// jobs would be run again when their leases ran out).
    private static func end(_ endings: [Ending], time: DatabaseTime, client: PostgresClient) async throws -> Set<Claim>
    {
        // An array of optional text does not bind: no error is written as '' and read back as NULL.
        let ids = endings.map(\.messageID)
        let tokens = endings.map(\.claimToken)
        let states = endings.map(\.state.rawValue)
        let errors = endings.map { $0.error ?? "" }
        let stamps = endings.map { time.database($0.at) }
        let rows = try await client.query(
            """
            UPDATE deskkit_jobs AS j SET state = e.state, lease_until = NULL, last_error = nullif(e.error, ''), updated_at = e.at
            FROM unnest(\(ids)::bigint[], \(tokens)::bigint[], \(states)::text[], \(errors)::text[], \(stamps)::timestamptz[])
                    AS e(id, token, state, error, at),
                (SELECT message_id FROM deskkit_jobs WHERE message_id = ANY(\(ids)::bigint[]) ORDER BY message_id FOR UPDATE) AS l
            WHERE j.message_id = e.id AND l.message_id = e.id AND j.state = 'running' AND j.claim_token = e.token
            RETURNING j.message_id, j.claim_token
            """)
        var written: Set<Claim> = []
        for try await (id, token) in rows.decode((Int64, Int64).self) { written.insert(Claim(id: id, token: token)) }
        return written
    }

    @discardableResult
    public func reschedule(_ claim: StoredJob, dueAt: Date, error: String?, now: Date) async throws(JobStoreError)
        -> Bool
    {
        let (id, token) = (claim.job.messageID, claim.claimToken)
        let (dueAt, now) = (time.database(dueAt), time.database(now))
        return try await perform(durable: false, followsCancellation: false) { client in
            let rows = try await client.query(
                """
                UPDATE deskkit_jobs SET state = 'queued', lease_until = NULL, next_attempt_at = \(dueAt),
                    last_error = coalesce(\(error), last_error), updated_at = \(now)
                WHERE message_id = \(id) AND state = 'running' AND claim_token = \(token)
                RETURNING message_id
                """)
            for try await _ in rows.decode(Int64.self) { return true }
            return false
        }
    }

}

/// When an admission batch tells the other instances (`NOTIFY`): at most every 100 ms. A transaction that
/// notifies takes a lock of the whole cluster at its commit, and a `NOTIFY` in every batch (with a claim per
/// job) halved the webhooks a loaded server admitted (docs/BENCHMARKS.md); an instance's own workers hear of
/// its jobs in-process anyway, and the others need only to be woken once — then they claim until nothing is
/// due.
private final class NoticePace: Sendable {
    private let clock: ServiceClock
    private let last = Mutex<Duration?>(nil)

    init(clock: ServiceClock) { self.clock = clock }

    /// Whether this batch notifies (and counts it as the last that did).
    func due() -> Bool {
        let now = clock.elapsed()
        return last.withLock { last in
            if let then = last, now - then < .milliseconds(100) { return false }
            last = now
            return true
        }
    }
}
