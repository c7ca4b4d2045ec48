import DeskKitJobStore
import Foundation
import Logging

/// What follows a job's outcome — done, failed, or tried again at some time — as the work that made the
/// outcome decides it: the queue calls its strategy and writes the answer into the store, and knows no rule
/// of its own (as swift-jobs takes a retry strategy per job). The enrichment's is ``EnrichmentRetry``.
public protocol RetryStrategy: Sendable {
    /// How `claimed` ends after `outcome`, at `now`.
    func end(of claimed: StoredJob, after outcome: JobOutcome, now: Date) -> JobEnd
}

/// What the queue does with a job whose run ended: its state in the store, the error kept with it, how it
/// is counted in `deskkit_jobs_total{outcome}`, and what is logged.
public struct JobEnd: Sendable {
    enum State: Sendable, Equatable {
        case done, failed
        case queued(at: Date)
    }
    let state: State
    let counted: ServerMetrics.Job?
    /// The error the store keeps with the job.
    public let error: String?
    let note: (level: Logger.Level, message: String)?

    /// Done: the message was updated.
    public static let updated = JobEnd(state: .done, counted: .updated, error: nil, note: nil)
    /// Done: the message has no link to preview.
    public static let noLink = JobEnd(state: .done, counted: .noLink, error: nil, note: nil)
    /// Done: no link gave a preview (`error`: what stood in for the last page tried).
    public static func noPreview(error: String? = nil) -> JobEnd {
        JobEnd(state: .done, counted: .noPreview, error: error, note: nil)
    }
    /// Failed for good, with its last error (`reason`, when given, is logged as an error).
    public static func failed(error: String?, reason: String? = nil) -> JobEnd {
        JobEnd(state: .failed, counted: .apiFailed, error: error, note: reason.map { (.error, $0) })
    }
    /// Tried again at `due` after the Platform API failed.
    public static func retry(at due: Date, error: String?) -> JobEnd {
        JobEnd(state: .queued(at: due), counted: .retryScheduled, error: error, note: nil)
    }
    /// Tried again at `due` because a bot check stood in for the message's pages.
    public static func challengeRetry(at due: Date, error: String?) -> JobEnd {
        JobEnd(
            state: .queued(at: due), counted: .challengeRetry, error: error,
            note: (.info, "a bot check stood in for the message's pages; it will be tried again"))
    }
    /// Put back, due at `due`, uncounted: the run was cut short (shutdown), not ended.
    public static func again(at due: Date) -> JobEnd {
        JobEnd(state: .queued(at: due), counted: nil, error: nil, note: nil)
    }
}
