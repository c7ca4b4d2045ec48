import DequeModule
import Foundation

/// Group commit: requests that arrive while a batch is being written wait together for the next one, so a
/// store pays one statement (and one sync to disk) per batch rather than one per request. The stores'
/// admissions and ends of jobs go through one; so do the queue's claims (workers that ask at once claim in
/// one statement).
///
/// No task of its own: the request that finds no batch being written leads — it writes a batch with its own
/// item first, answers the others of that batch, and hands the lead to the first request still waiting (which
/// writes the next batch, its own item first). A batch must not fail with its leader's cancellation: `write`
/// goes on to its end when the leader is cancelled (PostgreSQL's through `withDeadline` with
/// `followsCancellation: false`, SQLite's through sqlite-nio's future-based query).
///
/// `write` receives at most `maxBatch` items and returns one output per item, in order. When it throws,
/// every request of that batch fails with the error as `describe` words it.
package actor GroupCommit<Item: Sendable, Output: Sendable> {
    package typealias Write = @Sendable ([Item]) async throws -> [Output]

    /// What a waiting request is resumed with: its answer, or the lead of the next batch.
    private enum Turn: Sendable {
        case answered(Result<Output, JobStoreError>)
        case lead
    }

    private let maxBatch: Int
    private let write: Write
    private let describe: @Sendable (any Error) -> JobStoreError
    private var waiting: Deque<(item: Item, reply: CheckedContinuation<Turn, Never>)> = []
    private var writing = false

    package init(maxBatch: Int, describe: @escaping @Sendable (any Error) -> JobStoreError, write: @escaping Write) {
        self.maxBatch = max(1, maxBatch)
        self.describe = describe
        self.write = write
    }

    package func submit(_ item: Item) async throws(JobStoreError) -> Output {
        if writing {
            switch await withCheckedContinuation({ waiting.append((item, $0)) }) {
            case .answered(let result): return try result.get()
            case .lead: break
            }
        }
        writing = true
        return try await lead(with: item).get()
    }

    /// Writes `own` and the requests waiting longest (a batch of at most ``maxBatch``), answers them, and
    /// hands the lead on.
    private func lead(with own: Item) async -> Result<Output, JobStoreError> {
        let others = Array(waiting.prefix(maxBatch - 1))
        waiting.removeFirst(others.count)
        let result: Result<[Output], JobStoreError>
        do {
            let outputs = try await write([own] + others.map(\.item))
            precondition(outputs.count == others.count + 1, "a group write returns one output per item")
            result = .success(outputs)
        } catch {
            result = .failure(describe(error))
        }
        for (i, request) in others.enumerated() {
            request.reply.resume(returning: .answered(result.map { $0[i + 1] }))
        }
        if let next = waiting.popFirst() {
            next.reply.resume(returning: .lead)
        } else {
            writing = false
        }
        return result.map { $0[0] }
    }
}

/// One admission: the job, when it arrived, and the dedup cutoff (a done job admitted before it may be
/// admitted afresh).
struct Admission: Sendable {
    var job: EnrichmentJob
    var now: Date
    var cutoff: Date

    init(_ job: EnrichmentJob, now: Date, dedupWindow: Duration) {
        self.job = job
        self.now = now
        cutoff = now.addingTimeInterval(-(dedupWindow / .seconds(1)))
    }

    /// Admits a batch with `insert`, which writes rows of distinct message ids and returns the ids it
    /// admitted: a message id twice in the batch is admitted once, its other admissions are duplicates.
    static func admit(_ batch: [Admission], insert: ([Admission]) async throws -> Set<Int64>) async throws -> [Bool] {
        var first: [Int64: Int] = [:]
        for (i, admission) in batch.enumerated() where first[admission.job.messageID] == nil {
            first[admission.job.messageID] = i
        }
        let admitted = try await insert(batch.indices.filter { first[batch[$0].job.messageID] == $0 }.map { batch[$0] })
        return batch.enumerated().map { i, admission in
            first[admission.job.messageID] == i && admitted.contains(admission.job.messageID)
        }
    }
}
