import DeskKitTime
import Foundation
import PostgresNIO

// How every operation runs: on which pool, within its deadline, its rows read as jobs, its errors described
// without the query's values.

extension PostgresJobStore {
    static let columns =
        "message_id, channel_url, text, links, language, trace_context, state, attempts, accepted_at, next_attempt_at, last_error, claim_token"

    /// The rows as jobs, their dates the instance's (`DatabaseTime`).
    func jobs(durable: Bool = true, _ query: PostgresQuery) async throws(JobStoreError) -> [StoredJob] {
        let time = self.time
        return try await perform(durable: durable) { client in try await Self.jobs(client.query(query), time: time) }
    }

    /// The rows of `query`, run as the prepared `statement`, as jobs.
    func jobs<Statement: PreparedQuery>(durable: Bool = true, _ query: PostgresQuery, as statement: Statement.Type)
        async throws(JobStoreError) -> [StoredJob]
    {
        let time = self.time
        return try await perform(durable: durable) { client in
            try await Self.jobs(client.execute(query, as: statement), time: time)
        }
    }

    private static func jobs<Rows: AsyncSequence>(_ rows: Rows, time: DatabaseTime) async throws -> [StoredJob]
    where Rows.Element == PostgresRow {
        var out: [StoredJob] = []
        for try await row in rows {
            let (id, channel, text, links, language, trace, state, attempts, accepted, next, error, token) =
                try row.decode(
                    (Int64, String, String, String?, String?, String?, String, Int32, Date, Date, String?, Int64).self)
            guard let state = JobState(rawValue: state) else { continue }
            out.append(
                StoredJob(
                    job: EnrichmentJob(
                        channelURL: channel, messageID: id, text: text, links: EnrichmentJob.links(stored: links),
                        language: language, traceContext: EnrichmentJob.traceContext(stored: trace)),
                    state: state,
                    attempts: Int(attempts),
                    acceptedAt: time.instance(accepted), nextAttemptAt: time.instance(next), lastError: error,
                    claimToken: token))
        }
        return out
    }

    /// How many rows a statement `RETURNING message_id` changed, once committed.
    /// `notify`: the statement queues jobs due now, and every instance is told (``arrivalChannel``).
    func count(_ query: PostgresQuery, notify: Bool = false) async throws(JobStoreError) -> Int {
        let logger = self.logger
        return try await perform { client in
            try await Self.committedIDs(query, client: client, logger: logger, notify: notify).count
        }
    }

    /// Runs `body` on the durable or the lazy pool within the operation deadline, its errors as
    /// ``JobStoreError/Kind/unavailable``; unless `followsCancellation`, to its end when the caller is
    /// cancelled.
    func perform<T: Sendable>(
        durable: Bool = true, followsCancellation: Bool = true,
        _ body: @Sendable @escaping (PostgresClient) async throws -> T
    ) async throws(JobStoreError) -> T {
        let client = durable ? self.client : lazyClient
        do {
            return try await withDeadline(
                options.operationTimeout, clock: options.clock, followsCancellation: followsCancellation
            ) {
                try await body(client)
            }
        } catch {
            throw Self.unavailable(location, error)
        }
    }

    static func unavailable(_ location: PostgresLocation, _ error: any Error) -> JobStoreError {
        JobStoreError(.unavailable, "\(location): \(describe(error))")
    }

    /// What went wrong, without the query's values: the server's message, or the kind of client error.
    package static func describe(_ error: any Error) -> String {
        if let error = error as? PostgresTransactionError,
            let inner = error.beginError ?? error.closureError ?? error.commitError ?? error.rollbackError
        {
            return describe(inner)
        }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return "\(error.serverInfo?[.sqlState].map { "[\($0)] " } ?? "")\(message)"
            }
            return "\(error.code)\(error.underlying.map { ": \($0)" } ?? "")"
        }
        return "\(error)"
    }
}
