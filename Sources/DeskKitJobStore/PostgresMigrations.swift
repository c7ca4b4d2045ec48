import Logging
import PostgresNIO

/// The PostgreSQL schema, as numbered migrations applied in order on open.
///
/// Migrating runs in one transaction under a transaction-scoped advisory lock, so instances that start
/// together migrate one after the other: the first applies what is missing, the others find it applied.
/// A database migrated by a newer deskkit (a version above ``latest``) is refused rather than misread.
enum PostgresMigrations {
    /// The advisory lock's key: "deskkit" in ASCII, so other applications on the database keep theirs.
    static let lockKey: Int64 = 0x6465_736B_6B69_74

    /// Each migration's statements; migration `n` (from 1) is `steps[n - 1]`.
    static let steps: [[String]] = [
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
            """
            CREATE TABLE deskkit_previews (
                url text PRIMARY KEY,
                expires_at timestamptz NOT NULL,
                fetching_until timestamptz,
                page_url text,
                site_name text,
                title text,
                description text,
                image text,
                error_kind text,
                error_detail text
            )
            """,
            "CREATE INDEX deskkit_previews_expiry ON deskkit_previews (expires_at)",
        ],
        // The links found at admission, one a line; NULL for the jobs of version 1.
        ["ALTER TABLE deskkit_jobs ADD COLUMN links text"],
        // A cached card's details (image size and type, oEmbed, sources) as JSON; NULL for older rows.
        ["ALTER TABLE deskkit_previews ADD COLUMN details text"],
        // The language the pages are asked for; NULL: the server's.
        ["ALTER TABLE deskkit_jobs ADD COLUMN language text"],
        // The trace the job continues (`EnrichmentJob.storedTraceContext`); NULL: none.
        ["ALTER TABLE deskkit_jobs ADD COLUMN trace_context text"],
    ]

    /// The schema version this code writes.
    static var latest: Int { steps.count }

    /// Brings the database to ``latest``; returns the version it found.
    @discardableResult
    static func migrate(_ client: PostgresClient, logger: Logger) async throws -> Int {
        try await client.withTransaction(logger: logger) { connection in
            _ = try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
            _ = try await connection.query(
                "CREATE TABLE IF NOT EXISTS deskkit_schema (version integer NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
                logger: logger)
            var found = 0
            for try await version in try await connection.query(
                "SELECT coalesce(max(version), 0) FROM deskkit_schema", logger: logger
            ).decode(Int32.self) {
                found = Int(version)
            }
            guard found <= latest else {
                throw JobStoreError(
                    .cannotOpen, "the database has schema version \(found); this deskkit knows \(latest)")
            }
            for version in (found + 1)..<(latest + 1) {
                for statement in steps[version - 1] {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                _ = try await connection.query(
                    "INSERT INTO deskkit_schema (version) VALUES (\(Int32(version)))", logger: logger)
                logger.info("migrated the job store", metadata: ["version": "\(version)"])
            }
            return found
        }
    }
}
