import Foundation
import Logging
import SQLiteNIO

/// The embedded job store: one SQLite file in WAL mode (`synchronous=NORMAL`: a commit survives a crash
/// of the process, `kill -9` included), through vapor/sqlite-nio.
///
/// Admissions that arrive together are committed together (group commit, `GroupCommit`): one
/// multi-row upsert per batch. Every operation is a single statement, so concurrent callers never interleave
/// inside a transaction; other processes (`deskkit jobs`) wait up to 5 s for the file's lock.
public actor SQLiteJobStore: JobStore {
    /// The file.
    public nonisolated let path: String
    private let connection: SQLiteConnection
    private let admissions: GroupCommit<Admission, Bool>

    /// The schema as numbered migrations, applied in order on open (as the PostgreSQL stores' are,
    /// ``PostgresSchema``); migration `n` (from 1) is `migrations[n - 1]`, and `PRAGMA user_version` holds
    /// the last one applied.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE IF NOT EXISTS jobs (
                message_id INTEGER PRIMARY KEY,
                channel_url TEXT NOT NULL,
                text TEXT NOT NULL,
                state TEXT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                accepted_at REAL NOT NULL,
                next_attempt_at REAL NOT NULL,
                lease_until REAL,
                updated_at REAL NOT NULL,
                last_error TEXT
            )
            """,
            // Claims read due jobs in index order and stop at the limit, however many wait (the index holds the
            // rowid, message_id, too).
            "CREATE INDEX IF NOT EXISTS jobs_by_state ON jobs (state, next_attempt_at)",
            "CREATE INDEX IF NOT EXISTS jobs_by_lease ON jobs (state, lease_until)",
        ],
        // The links found at admission, one a line; NULL for the jobs of version 1.
        ["ALTER TABLE jobs ADD COLUMN links TEXT"],
        // The language the pages are asked for; NULL: the server's.
        ["ALTER TABLE jobs ADD COLUMN language TEXT"],
        // The trace the job continues (`EnrichmentJob.storedTraceContext`); NULL: none.
        ["ALTER TABLE jobs ADD COLUMN trace_context TEXT"],
        // The token of the job's last claim (`StoredJob.claimToken`), which its worker's writes must hold.
        ["ALTER TABLE jobs ADD COLUMN claim_token INTEGER NOT NULL DEFAULT 0"],
    ]

    /// The schema version this code writes (`PRAGMA user_version`).
    static var schemaVersion: Int { migrations.count }
    /// Rows per insert statement (9 values each, well under SQLite's 32,766 variables).
    static let rowsPerInsert = 500

    private init(path: String, connection: SQLiteConnection) {
        self.path = path
        self.connection = connection
        admissions = GroupCommit(
            maxBatch: Self.rowsPerInsert, describe: { JobStoreError(.unavailable, "cannot write \(path): \($0)") },
            write: { batch in try await Admission.admit(batch) { try await Self.insert($0, into: connection) } })
    }

    /// Opens (creating if needed) and migrates the store at `path`.
    public static func open(path: String, logger: Logger = Logger(label: "deskkit.store")) async throws(JobStoreError)
        -> SQLiteJobStore
    {
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        } catch {
            throw JobStoreError(.cannotOpen, "cannot open \(path): \(error)")
        }
        do {
            // A connection that finds another one setting up or migrating a new file may be told "busy" (at
            // once, by SQLite's deadlock rule, or after the short wait below): it tries again, 50 times at most.
            var attempts = 0
            while true {
                do {
                    try await prepare(connection, path: path, logger: logger)
                    break
                } catch let error as SQLiteError where error.reason == .busy && attempts < 50 {
                    attempts += 1
                    _ = try? await connection.query("ROLLBACK")
                    try? await Task.sleep(for: .milliseconds(Int.random(in: 20...100)))
                }
            }
        } catch let error as JobStoreError {
            try? await connection.close()
            throw error
        } catch {
            try? await connection.close()
            throw JobStoreError(.cannotOpen, "cannot prepare \(path): \(error)")
        }
        return SQLiteJobStore(path: path, connection: connection)
    }

    /// Sets the connection up (WAL, busy timeout) and brings the file to ``schemaVersion``.
    private static func prepare(_ connection: SQLiteConnection, path: String, logger: Logger) async throws {
        // Switching a new file to WAL takes it whole: connections that try at once would each wait out the
        // other's busy timeout, so this one waits briefly and the caller tries again.
        for pragma in [
            "PRAGMA busy_timeout = 50", "PRAGMA journal_mode = WAL", "PRAGMA busy_timeout = 5000",
            "PRAGMA synchronous = NORMAL",
        ] {
            _ = try await connection.query(pragma)
        }
        // The version stored, refused when a newer deskkit wrote it.
        func storedVersion() async throws -> Int {
            let version = try await connection.query("PRAGMA user_version").first?.column("user_version")?.integer ?? 0
            guard version <= schemaVersion else {
                throw JobStoreError(
                    .cannotOpen, "\(path) has schema version \(version); this deskkit knows \(schemaVersion)")
            }
            return version
        }
        guard try await storedVersion() < schemaVersion else { return }
        // Migrating is one transaction, and the version is read again inside it: a crash leaves the file as it
        // was, and a second process that opens the file meanwhile waits, then finds it migrated.
        _ = try await connection.query("BEGIN IMMEDIATE")
        let version = try await storedVersion()
        for step in migrations[version...] {
            for statement in step { _ = try await connection.query(statement) }
        }
        _ = try await connection.query("PRAGMA user_version = \(schemaVersion)")
        _ = try await connection.query("COMMIT")
        if version < schemaVersion {
            logger.info("migrated the job store", metadata: ["path": .string(path), "version": "\(schemaVersion)"])
        }
    }

    public func close() async { try? await connection.close() }

    // MARK: Admission, committed in groups

    public func admit(_ job: EnrichmentJob, now: Date, dedupWindow: Duration) async throws(JobStoreError) -> Bool {
        try await admissions.submit(Admission(job, now: now, dedupWindow: dedupWindow))
    }

    /// One multi-row upsert: a message id already present is a duplicate unless its job is done and was
    /// admitted before the dedup window (then it is queued afresh).
    private static func insert(_ rows: [Admission], into connection: SQLiteConnection) async throws -> Set<Int64> {
        var binds: [SQLiteData] = []
        binds.reserveCapacity(rows.count * 9 + 1)
        var values: [String] = []
        for row in rows {
            let now = SQLiteData.float(row.now.timeIntervalSince1970)
            values.append("(?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, NULL, ?, NULL)")
            binds += [
                .integer(Int(row.job.messageID)), .text(row.job.channelURL), .text(row.job.text),
                row.job.storedLinks.map(SQLiteData.text) ?? .null, row.job.language.map(SQLiteData.text) ?? .null,
                row.job.storedTraceContext.map(SQLiteData.text) ?? .null, now, now, now,
            ]
        }
        binds.append(.float(rows.map(\.cutoff).min()!.timeIntervalSince1970))
        let sql = """
            INSERT INTO jobs (message_id, channel_url, text, links, language, trace_context, state, attempts, accepted_at, next_attempt_at, lease_until, updated_at, last_error)
            VALUES \(values.joined(separator: ", "))
            ON CONFLICT (message_id) DO UPDATE SET channel_url = excluded.channel_url, text = excluded.text,
                links = excluded.links, language = excluded.language, trace_context = excluded.trace_context,
                state = 'queued', attempts = 0, accepted_at = excluded.accepted_at,
                next_attempt_at = excluded.next_attempt_at, lease_until = NULL, updated_at = excluded.updated_at,
                last_error = NULL
            WHERE jobs.state = 'done' AND jobs.accepted_at < ?
            RETURNING message_id
            """
        // sqlite-nio's future-based query: its async one drops the work of a cancelled task, and the batch is
        // written for every request waiting on it, whichever of them leads it (`GroupCommit`).
        return Set(
            try await connection.query(sql, binds).get().compactMap {
                $0.column("message_id")?.integer.map(Int64.init)
            })
    }

    // MARK: Workers

    public func claim(limit: Int, now: Date, lease: Duration) async throws(JobStoreError) -> [StoredJob] {
        guard limit > 0 else { return [] }
        let stamp = now.timeIntervalSince1970
        let rows = try await run(
            """
            UPDATE jobs SET state = 'running', lease_until = ?, attempts = attempts + 1, updated_at = ?,
                claim_token = random()
            WHERE message_id IN (
                SELECT message_id FROM (
                    SELECT message_id, 0 AS rank, lease_until AS due FROM (
                        SELECT message_id, lease_until FROM jobs WHERE state = 'running' AND lease_until < ? ORDER BY lease_until LIMIT ?)
                    UNION ALL
                    SELECT message_id, 1, next_attempt_at FROM (
                        SELECT message_id, next_attempt_at FROM jobs WHERE state = 'queued' AND next_attempt_at <= ?
                        ORDER BY next_attempt_at, message_id LIMIT ?))
                ORDER BY rank, due, message_id LIMIT ?)
            RETURNING *
            """,
            [
                .float(stamp + lease / .seconds(1)), .float(stamp), .float(stamp), .integer(limit), .float(stamp),
                .integer(limit), .integer(limit),
            ])
        return rows.compactMap(Self.storedJob).inClaimOrder()
    }

    public func nextDue() async throws(JobStoreError) -> Date? {
        let rows = try await run(
            """
            SELECT min(due) AS due FROM (
                SELECT min(next_attempt_at) AS due FROM jobs WHERE state = 'queued'
                UNION ALL SELECT min(lease_until) FROM jobs WHERE state = 'running')
            """, [])
        return rows.first?.column("due")?.double.map(Date.init(timeIntervalSince1970:))
    }

    public func renew(_ claims: [StoredJob], until: Date) async throws(JobStoreError) -> Set<Int64> {
        var renewed: Set<Int64> = []
        // In slices of 400 (two values a job, under SQLite's 32,766 variables by far).
        for slice in stride(from: 0, to: claims.count, by: 400).map({ claims[$0..<min($0 + 400, claims.count)] }) {
            let pairs = slice.map { _ in "(?, ?)" }.joined(separator: ", ")
            var binds: [SQLiteData] = [.float(until.timeIntervalSince1970)]
            for claim in slice { binds += [.integer(Int(claim.job.messageID)), .integer(Int(claim.claimToken))] }
            let rows = try await run(
                """
                UPDATE jobs SET lease_until = ?
                WHERE state = 'running' AND (message_id, claim_token) IN (VALUES \(pairs))
                RETURNING message_id
                """, binds)
            for row in rows { if let id = row.column("message_id")?.integer { renewed.insert(Int64(id)) } }
        }
        return renewed
    }

    /// The file is one server's: what is running at its start was left by a process that is gone. It is
    /// queued again in its place (it was due when it was claimed).
    public func recoverAbandoned(now: Date) async throws(JobStoreError) -> Int {
        try await run(
            """
            UPDATE jobs SET state = 'queued', lease_until = NULL, updated_at = ?
            WHERE state = 'running' RETURNING message_id
            """, [.float(now.timeIntervalSince1970)]
        ).count
    }

    @discardableResult
    public func finish(_ claim: StoredJob, as state: JobState, error: String?, now: Date) async throws(JobStoreError)
        -> Bool
    {
        try await !run(
            followsCancellation: false,
            """
            UPDATE jobs SET state = ?, lease_until = NULL, last_error = ?, updated_at = ?
            WHERE message_id = ? AND state = 'running' AND claim_token = ? RETURNING message_id
            """,
            [
                .text(state.rawValue), error.map(SQLiteData.text) ?? .null, .float(now.timeIntervalSince1970),
                .integer(Int(claim.job.messageID)), .integer(Int(claim.claimToken)),
            ]
        ).isEmpty
    }

    @discardableResult
    public func reschedule(_ claim: StoredJob, dueAt: Date, error: String?, now: Date) async throws(JobStoreError)
        -> Bool
    {
        try await !run(
            followsCancellation: false,
            """
            UPDATE jobs SET state = 'queued', lease_until = NULL, next_attempt_at = ?, last_error = coalesce(?, last_error),
                updated_at = ?
            WHERE message_id = ? AND state = 'running' AND claim_token = ? RETURNING message_id
            """,
            [
                .float(dueAt.timeIntervalSince1970), error.map(SQLiteData.text) ?? .null,
                .float(now.timeIntervalSince1970), .integer(Int(claim.job.messageID)), .integer(Int(claim.claimToken)),
            ]
        ).isEmpty
    }

    // MARK: Operators

    public func counts() async throws(JobStoreError) -> [JobState: Int] {
        var counts = Dictionary(uniqueKeysWithValues: JobState.allCases.map { ($0, 0) })
        for row in try await run("SELECT state, count(*) AS n FROM jobs GROUP BY state", []) {
            if let state = row.column("state")?.string.flatMap(JobState.init(rawValue:)) {
                counts[state] = row.column("n")?.integer ?? 0
            }
        }
        return counts
    }

    public func list(state: JobState?, limit: Int, before: JobPosition?) async throws(JobStoreError) -> [StoredJob] {
        var conditions: [String] = []
        var values: [SQLiteData] = []
        if let state {
            conditions.append("state = ?")
            values.append(.text(state.rawValue))
        }
        if let before {
            conditions.append("(accepted_at, message_id) < (?, ?)")
            values += [.float(before.acceptedAt.timeIntervalSince1970), .integer(Int(before.messageID))]
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let rows = try await run(
            "SELECT * FROM jobs \(filter) ORDER BY accepted_at DESC, message_id DESC LIMIT ?",
            values + [.integer(limit)])
        return rows.compactMap(Self.storedJob)
    }

    public func job(_ messageID: Int64) async throws(JobStoreError) -> StoredJob? {
        try await run("SELECT * FROM jobs WHERE message_id = ?", [.integer(Int(messageID))]).compactMap(Self.storedJob)
            .first
    }

    public func retry(_ messageIDs: [Int64]?, now: Date) async throws(JobStoreError) -> Int {
        let stamp = SQLiteData.float(now.timeIntervalSince1970)
        let set =
            "state = 'queued', attempts = 0, accepted_at = ?, next_attempt_at = ?, lease_until = NULL, last_error = NULL, updated_at = ?"
        guard let messageIDs else {
            return try await run(
                "UPDATE jobs SET \(set) WHERE state = 'failed' RETURNING message_id", [stamp, stamp, stamp]
            ).count
        }
        var count = 0
        for id in messageIDs {
            count += try await run(
                "UPDATE jobs SET \(set) WHERE state = 'failed' AND message_id = ? RETURNING message_id",
                [stamp, stamp, stamp, .integer(Int(id))]
            ).count
        }
        return count
    }

    public func purge(doneBefore before: Date) async throws(JobStoreError) -> Int {
        var total = 0
        while true {  // in slices, so that a large purge never holds the lock for long
            let n = try await run(
                """
                DELETE FROM jobs WHERE message_id IN (
                    SELECT message_id FROM jobs WHERE state = 'done' AND updated_at < ? LIMIT 5000)
                RETURNING message_id
                """, [.float(before.timeIntervalSince1970)]
            ).count
            total += n
            if n < 5000 { return total }
        }
    }

    // MARK: Helpers

    /// Runs `sql`; unless `followsCancellation`, to its end when the calling task is cancelled (sqlite-nio's
    /// async query drops work asked for by a cancelled task; its future-based one does not).
    private func run(followsCancellation: Bool = true, _ sql: String, _ binds: [SQLiteData])
        async throws(JobStoreError) -> [SQLiteRow]
    {
        do {
            if !followsCancellation { return try await connection.query(sql, binds).get() }
            return try await connection.query(sql, binds)
        } catch {
            throw JobStoreError(.unavailable, "\(path): \(error)")
        }
    }

    static func storedJob(_ row: SQLiteRow) -> StoredJob? {
        guard let id = row.column("message_id")?.integer, let channel = row.column("channel_url")?.string,
            let text = row.column("text")?.string,
            let state = row.column("state")?.string.flatMap(JobState.init(rawValue:))
        else { return nil }
        return StoredJob(
            job: EnrichmentJob(
                channelURL: channel, messageID: Int64(id), text: text,
                links: EnrichmentJob.links(stored: row.column("links")?.string),
                language: row.column("language")?.string,
                traceContext: EnrichmentJob.traceContext(stored: row.column("trace_context")?.string)),
            state: state,
            attempts: row.column("attempts")?.integer ?? 0,
            acceptedAt: Date(timeIntervalSince1970: row.column("accepted_at")?.double ?? 0),
            nextAttemptAt: Date(timeIntervalSince1970: row.column("next_attempt_at")?.double ?? 0),
            lastError: row.column("last_error")?.string,
            claimToken: Int64(row.column("claim_token")?.integer ?? 0))
    }
}
