import Foundation

/// Group commit: admissions that arrive while a batch is being written wait together for the next one,
/// so a store pays one write (and one sync to disk) per batch rather than one per webhook.
///
/// Within a batch, a message id that appears twice is admitted once; the others are duplicates.
actor AdmissionBatcher {
    /// One admission: the job, when it arrived, and the dedup cutoff (a done job admitted before it
    /// may be admitted afresh).
    struct Row: Sendable {
        var job: EnrichmentJob
        var now: Date
        var cutoff: Date
    }

    /// Writes rows (each message id once) and returns the ids admitted.
    typealias Write = @Sendable ([Row]) async throws -> Set<Int64>

    private let rowsPerWrite: Int
    private let write: Write
    private let describe: @Sendable (any Error) -> JobStoreError
    private var waiting: [(row: Row, reply: CheckedContinuation<Result<Bool, JobStoreError>, Never>)] = []
    private var committing = false

    init(rowsPerWrite: Int, describe: @escaping @Sendable (any Error) -> JobStoreError, write: @escaping Write) {
        self.rowsPerWrite = max(1, rowsPerWrite)
        self.describe = describe
        self.write = write
    }

    func admit(_ row: Row) async throws(JobStoreError) -> Bool {
        let result = await withCheckedContinuation { reply in
            waiting.append((row, reply))
            if !committing {
                committing = true
                Task { await self.commitWaiting() }
            }
        }
        return try result.get()
    }

    /// Writes what is waiting, one batch after another, until nothing is.
    private func commitWaiting() async {
        while !waiting.isEmpty {
            let batch = waiting
            waiting = []
            var first: [Int64: Int] = [:]
            for (i, item) in batch.enumerated() where first[item.row.job.messageID] == nil { first[item.row.job.messageID] = i }
            let unique = batch.indices.filter { first[batch[$0].row.job.messageID] == $0 }
            var admitted: Set<Int64> = []
            var failure: JobStoreError?
            for start in stride(from: 0, to: unique.count, by: rowsPerWrite) {
                do {
                    admitted.formUnion(try await write(unique[start..<min(start + rowsPerWrite, unique.count)].map { batch[$0].row }))
                } catch {
                    failure = describe(error)
                    break
                }
            }
            for (i, item) in batch.enumerated() {
                if let failure {
                    item.reply.resume(returning: .failure(failure))
                } else {
                    let id = item.row.job.messageID
                    item.reply.resume(returning: .success(first[id] == i && admitted.contains(id)))
                }
            }
        }
        committing = false
    }
}
