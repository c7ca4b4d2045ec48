import Foundation

/// Group commit: requests that arrive while a batch is being written wait together for the next one, so a
/// store pays one statement (and one sync to disk) per batch rather than one per request.
///
/// `write` receives at most `maxBatch` items and returns one output per item, in order. When it throws,
/// every request of that batch fails with the error as `describe` words it.
actor GroupCommit<Item: Sendable, Output: Sendable> {
    typealias Write = @Sendable ([Item]) async throws -> [Output]

    private let maxBatch: Int
    private let write: Write
    private let describe: @Sendable (any Error) -> JobStoreError
    private var waiting: [(item: Item, reply: CheckedContinuation<Result<Output, JobStoreError>, Never>)] = []
    private var writing = false

    init(maxBatch: Int, describe: @escaping @Sendable (any Error) -> JobStoreError, write: @escaping Write) {
        self.maxBatch = max(1, maxBatch)
        self.describe = describe
        self.write = write
    }

    func submit(_ item: Item) async throws(JobStoreError) -> Output {
        let result = await withCheckedContinuation { reply in
            waiting.append((item, reply))
            if !writing {
                writing = true
                Task { await self.writeWaiting() }
            }
        }
        return try result.get()
    }

    /// Writes what is waiting, one batch after another, until nothing is.
    private func writeWaiting() async {
        while !waiting.isEmpty {
            let batch = Array(waiting.prefix(maxBatch))
            waiting.removeFirst(batch.count)
            let result: Result<[Output], JobStoreError>
            do {
                let outputs = try await write(batch.map(\.item))
                precondition(outputs.count == batch.count, "a group write returns one output per item")
                result = .success(outputs)
            } catch {
                result = .failure(describe(error))
            }
            for (i, request) in batch.enumerated() {
                request.reply.resume(returning: result.map { $0[i] })
            }
        }
        writing = false
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
