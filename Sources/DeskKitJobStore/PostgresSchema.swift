import DeskKitTime
import Logging
import PostgresNIO

/// A module's PostgreSQL schema: numbered migrations, applied in order on open — the one migration style of
/// DeskKit's stores (the SQLite store's are numbered steps too). Each module owns its tables and its schema:
/// the job store ``jobs`` (`deskkit_jobs`), DeskKitSharedPreviews its preview cache (`deskkit_previews`).
///
/// Migrating runs in one transaction under a transaction-scoped advisory lock of the schema's own, so
/// instances that start together migrate one after the other: the first applies what is missing, the others
/// find it applied. Each schema records its versions in a table of its own. A database migrated by a newer
/// deskkit (a version above ``latest``) is refused rather than misread.
package struct PostgresSchema: Sendable {
    /// What it holds, for messages (`job store`).
    package let name: String
    /// The table that records the versions applied.
    package let versionTable: String
    /// The advisory lock's key, the schema's own (other applications on the database keep theirs).
    package let lockKey: Int64
    /// Each migration's statements; migration `n` (from 1) is `steps[n - 1]`.
    package let steps: [[String]]

    package init(name: String, versionTable: String, lockKey: Int64, steps: [[String]]) {
        self.name = name
        self.versionTable = versionTable
        self.lockKey = lockKey
        self.steps = steps
    }

    /// The schema version this code writes.
    package var latest: Int { steps.count }

    /// Brings the database to ``latest`` within a minute (it may wait for another instance that migrates
    /// now); returns the version it found.
    /// - Throws: the `JobStoreError` of a database a newer deskkit migrated, as it is; any other error as the
    ///   driver gave it.
    @discardableResult
    package func migrate(_ client: PostgresClient, clock: ServiceClock, logger: Logger) async throws -> Int {
        do {
            return try await withDeadline(.seconds(60), clock: clock) { try await apply(client, logger: logger) }
        } catch {
            if let refused = (error as? PostgresTransactionError)?.closureError as? JobStoreError { throw refused }
            throw error
        }
    }

    private func apply(_ client: PostgresClient, logger: Logger) async throws -> Int {
        try await client.withTransaction(logger: logger) { connection in
            _ = try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
            _ = try await connection.query(
                PostgresQuery(
                    unsafeSQL:
                        "CREATE TABLE IF NOT EXISTS \(versionTable) (version integer NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
                ), logger: logger)
            var found = 0
            for try await version in try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT coalesce(max(version), 0) FROM \(versionTable)"), logger: logger
            ).decode(Int32.self) {
                found = Int(version)
            }
            guard found <= latest else {
                throw JobStoreError(
                    .cannotOpen, "the database has \(name) schema version \(found); this deskkit knows \(latest)")
            }
            for version in (found + 1)..<(latest + 1) {
                for statement in steps[version - 1] {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                _ = try await connection.query(
                    PostgresQuery(unsafeSQL: "INSERT INTO \(versionTable) (version) VALUES (\(version))"),
                    logger: logger)
                logger.info("migrated the \(name)", metadata: ["version": "\(version)"])
            }
            return found
        }
    }
}

extension PostgresSchema {
    /// The job store's schema: `deskkit_jobs`, its versions in `deskkit_schema`.
    static let jobs = PostgresSchema(
        name: "job store", versionTable: "deskkit_schema",
        // "deskkit" in ASCII.
        lockKey: 0x6465_736B_6B69_74,
        steps: [
            [
                """
                CREATE TABLE deskkit_jobs (
                    message_id bigint PRIMARY KEY,
                    channel_url text NOT NULL,
                    text text NOT NULL,
                    state text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
                    attempts integer NOT NULL DEFAULT 0,
                    accepted_at timestamptz NOT NULL,
                    next_attempt_at timestamptz NOT NULL,
                    lease_until timestamptz,
                    updated_at timestamptz NOT NULL,
                    last_error text
                )
                """,
                // Claims read due jobs in this order: an index scan that stops at the limit, however many wait.
                "CREATE INDEX deskkit_jobs_due ON deskkit_jobs (state, next_attempt_at, message_id)",
                "CREATE INDEX deskkit_jobs_leases ON deskkit_jobs (lease_until) WHERE state = 'running'",
                // Step 1 also created `deskkit_previews` until the preview cache owned its table (its own
                // schema, `deskkit_previews_schema`, creates it where it is missing).
            ],
            // The links found at admission, one a line; NULL for the jobs of version 1.
            ["ALTER TABLE deskkit_jobs ADD COLUMN links text"],
            // Was `deskkit_previews.details`: now the preview cache's own step 2.
            [],
            // The language the pages are asked for; NULL: the server's.
            ["ALTER TABLE deskkit_jobs ADD COLUMN language text"],
            // The trace the job continues (`EnrichmentJob.storedTraceContext`); NULL: none.
            ["ALTER TABLE deskkit_jobs ADD COLUMN trace_context text"],
            // The token of the job's last claim (`StoredJob.claimToken`), which its worker's writes must hold:
            // drawn from a sequence, so that a later claim holds a larger one (a fencing token).
            [
                "CREATE SEQUENCE deskkit_job_claims",
                "ALTER TABLE deskkit_jobs ADD COLUMN claim_token bigint NOT NULL DEFAULT 0",
            ],
        ])
}
