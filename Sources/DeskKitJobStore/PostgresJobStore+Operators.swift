import Foundation
import PostgresNIO

// What an operator asks of the store (`deskkit jobs`, the console): counts, a page of jobs, a retry, a purge.

extension PostgresJobStore {
    public func counts() async throws(JobStoreError) -> [JobState: Int] {
        try await perform { client in
            var counts = Dictionary(uniqueKeysWithValues: JobState.allCases.map { ($0, 0) })
            let rows = try await client.query("SELECT state, count(*) FROM deskkit_jobs GROUP BY state")
            for try await (state, n) in rows.decode((String, Int64).self) {
                if let state = JobState(rawValue: state) { counts[state] = Int(n) }
            }
            return counts
        }
    }

    public func list(state: JobState?, limit: Int, before: JobPosition?) async throws(JobStoreError) -> [StoredJob] {
        // The position's time to the microsecond the column holds, rounded (a `Date` bound as a parameter is cut
        // to the microsecond below: the jobs retried together, admitted at the same instant, would be skipped).
        // A position's time is the instance's (as the jobs were read): the database's again, by whole seconds.
        let seconds = ((before.map { time.database($0.acceptedAt) }?.timeIntervalSince1970 ?? 0) * 1e6).rounded() / 1e6
        return try await jobs(
            """
            SELECT \(unescaped: Self.columns) FROM deskkit_jobs
            WHERE (\(state == nil) OR state = \(state?.rawValue ?? ""))
              AND (\(before == nil) OR (accepted_at, message_id) < (to_timestamp(\(seconds)), \(before?.messageID ?? 0)))
            ORDER BY accepted_at DESC, message_id DESC LIMIT \(limit)
            """)
    }

    public func job(_ messageID: Int64) async throws(JobStoreError) -> StoredJob? {
        try await jobs("SELECT \(unescaped: Self.columns) FROM deskkit_jobs WHERE message_id = \(messageID)").first
    }

    public func retry(_ messageIDs: [Int64]?, now: Date) async throws(JobStoreError) -> Int {
        let all = messageIDs == nil
        let ids = messageIDs ?? []
        let now = time.database(now)
        return try await count(
            """
            UPDATE deskkit_jobs SET state = 'queued', attempts = 0, lease_until = NULL, last_error = NULL,
                accepted_at = \(now), next_attempt_at = \(now), updated_at = \(now)
            WHERE state = 'failed' AND (\(all) OR message_id = ANY(\(ids)::bigint[]))
            RETURNING message_id
            """, notify: true)
    }

    public func purge(doneBefore before: Date) async throws(JobStoreError) -> Int {
        let before = time.database(before)
        var total = 0
        while true {  // in slices, so that a large purge never holds many locks for long
            let n = try await count(
                """
                DELETE FROM deskkit_jobs WHERE message_id IN (
                    SELECT message_id FROM deskkit_jobs WHERE state = 'done' AND updated_at < \(before) LIMIT 5000
                    FOR UPDATE SKIP LOCKED)
                RETURNING message_id
                """)
            total += n
            if n < 5000 { return total }
        }
    }
}
