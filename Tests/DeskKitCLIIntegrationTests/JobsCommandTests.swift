import DeskKitTestSupport
import Foundation
import Testing

/// `deskkit jobs` against a PostgreSQL store, and its errors.
@Suite("deskkit jobs")
struct JobsCommandTests {
    @Test func listRetryAndPurgeOnPostgres() async throws {
        let cluster = try await PostgresCluster.shared()
        let url = try await cluster.makeDatabase()
        let database = String(url.split(separator: "/").last!.split(separator: "?").first!)
        #expect(try await CLI.run(["jobs", "list", "--store", url]).stdout.isEmpty, "an empty store, migrated on open")
        try await cluster.psql(
            database,
            """
            INSERT INTO deskkit_jobs (message_id, channel_url, text, state, attempts, accepted_at, next_attempt_at, updated_at, last_error)
            VALUES (1, 'c', 'a', 'failed', 3, now(), now(), now(), 'HTTP 404'),
                   (2, 'c', 'b', 'failed', 9, now(), now(), now(), 'retry horizon passed: HTTP 503'),
                   (3, 'c', 'c', 'done', 1, now(), now(), now() - interval '8 days', NULL)
            """)
        let failed = try await CLI.run(["jobs", "list", "--store", url, "--state", "failed"])
        #expect(failed.stdout.split(separator: "\n").count == 2)
        #expect(failed.stdout.contains("HTTP 404"))
        #expect(try await CLI.run(["jobs", "retry", "--store", url, "1"]).stdout.contains("1"))
        #expect(
            try await cluster.psql(database, "SELECT state || ':' || attempts FROM deskkit_jobs WHERE message_id = 1")
                == "queued:0")
        _ = try await CLI.run(["jobs", "retry", "--store", url, "--failed"])
        #expect(try await cluster.psql(database, "SELECT count(*) FROM deskkit_jobs WHERE state = 'queued'") == "2")
        _ = try await CLI.run(["jobs", "purge", "--store", url, "--done-before", "7d"])
        #expect(try await cluster.psql(database, "SELECT count(*) FROM deskkit_jobs WHERE state = 'done'") == "0")
    }

    @Test func errorsNameTheStore() async throws {
        let memory = try await CLI.run(["jobs", "list", "--store", "memory"])
        #expect(memory.status == 64)
        #expect(memory.stderr.contains("sqlite:PATH or postgres:// URL"))
        let missing = try await CLI.run(["jobs", "list", "--store", "sqlite:/nonexistent/state.sqlite"])
        #expect(missing.status == 66)
        let bad = try await CLI.run(["jobs", "list", "--store", "postgres://nobody@127.0.0.1/x?sslmode=sometimes"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("sslmode"))
        // A port the test holds bound and never listens on: refused, and no other suite's server can take it.
        let (held, port) = try LoopbackSocket.open(listening: false)
        defer { close(held) }
        let down = try await CLI.run([
            "jobs", "list", "--store", "postgres://deskkit@127.0.0.1:\(port)/x?sslmode=disable",
        ])
        #expect(down.status == 74)
        #expect(down.stderr.contains("cannot open the job store"))
    }
}
