import DeskKitModel
import Foundation

/// Where enrichment jobs live between the webhook's answer and the message update: ``MemoryJobStore`` in
/// the process, ``SQLiteJobStore`` across crashes and restarts, ``PostgresJobStore`` shared between
/// instances. The server's one queue works over any of them (as swift-jobs' `JobQueue` over its drivers).
///
/// The contract every store keeps:
/// - ``admit(_:now:dedupWindow:)`` returns only after the job is committed (a webhook is answered 200
///   only then); a message id admitted within the dedup window is a duplicate.
/// - ``claim(limit:now:lease:)`` hands each due job to one worker for the lease, under a claim token of
///   its own (``StoredJob/claimToken``); a job whose lease ran out (its worker died, froze or lost the
///   database) is claimed again, under a new token. A live worker keeps its jobs with ``renew(_:until:)``.
/// - A job ends ``JobState/done`` or ``JobState/failed``; until then it can be rescheduled.
/// - **Fenced writes.** A worker's writes to its job — ``renew(_:until:)``,
///   ``finish(_:as:error:now:)``, ``reschedule(_:dueAt:error:now:)`` — hold only while the job is still
///   running under the worker's claim token. Once another claim took the job (or it ended, or an operator
///   changed it), the old claim's writes change nothing and say so: a worker that lost its job can neither
///   put it back in the queue nor mark a delivered message failed.
public protocol JobStore: Sendable {
    /// Commits `job` unless its message id was admitted within `dedupWindow` before `now`.
    /// - Returns: false for a duplicate.
    func admit(_ job: EnrichmentJob, now: Date, dedupWindow: Duration) async throws(JobStoreError) -> Bool

    /// Takes up to `limit` jobs that are due (queued and past their next attempt, or running with an
    /// expired lease), marks them running until `now + lease` and counts an attempt.
    func claim(limit: Int, now: Date, lease: Duration) async throws(JobStoreError) -> [StoredJob]

    /// When the next job falls due: the earliest next attempt of a queued job or lease end of a running one,
    /// nil when there is neither. Workers that found nothing to claim sleep until then (or until a job is
    /// admitted), instead of asking again and again.
    func nextDue() async throws(JobStoreError) -> Date?

    /// Calls `wake` whenever another process may have queued a job due now (another instance's admission, an
    /// operator's retry), until the calling task is cancelled: PostgreSQL's `LISTEN`. A store that only this
    /// process writes returns at once (the default): the queue knows its own admissions.
    func waitForArrivals(_ wake: @escaping @Sendable () -> Void) async

    /// Extends the leases of `claims` (jobs as ``claim(limit:now:lease:)`` handed them out) to `until`,
    /// for those still running under that claim (its ``StoredJob/claimToken``): a job claimed again since,
    /// or ended, is left alone. Returns the message ids renewed: a claim missing from them is gone.
    func renew(_ claims: [StoredJob], until: Date) async throws(JobStoreError) -> Set<Int64>

    /// At a server's start, takes back the jobs a previous process left running. A store that is one
    /// server's alone (SQLite) queues them again, due at `now`, and returns how many; a store shared by
    /// instances (PostgreSQL) cannot tell a dead instance's jobs from a live one's, leaves them to their
    /// leases and returns 0.
    func recoverAbandoned(now: Date) async throws(JobStoreError) -> Int

    /// Ends a claimed job: `.done` or `.failed` (with its last error), if it is still running under
    /// `claim` (as ``claim(limit:now:lease:)`` handed it out). Like ``reschedule(_:dueAt:error:now:)``, it
    /// writes its change even when the calling task is cancelled (a worker cancelled at the end of a
    /// shutdown's grace records how its job ended), within the store's own time limit.
    /// - Returns: false when the claim was gone (the job was claimed again, ended, or changed by an operator)
    ///   and nothing was written.
    @discardableResult
    func finish(_ claim: StoredJob, as state: JobState, error: String?, now: Date) async throws(JobStoreError) -> Bool

    /// Puts a claimed job back in the queue, due at `dueAt`, with the error that made it wait, if it is still
    /// running under `claim`.
    /// - Returns: false when the claim was gone and nothing was written.
    @discardableResult
    func reschedule(_ claim: StoredJob, dueAt: Date, error: String?, now: Date) async throws(JobStoreError) -> Bool

    /// How many jobs are in each state.
    func counts() async throws(JobStoreError) -> [JobState: Int]

    /// Jobs, newest first (by when they were admitted, then by message id), optionally of one state; with
    /// `before`, only those after that position in this order (the next page after a page's last job,
    /// ``StoredJob/position``).
    func list(state: JobState?, limit: Int, before: JobPosition?) async throws(JobStoreError) -> [StoredJob]

    /// The job of `messageID`, in whatever state, or nil when the store has none (an operator inspecting the
    /// links of one message).
    func job(_ messageID: Int64) async throws(JobStoreError) -> StoredJob?

    /// Queues again the failed jobs named (all failed ones when `messageIDs` is nil), due now, with a new
    /// retry horizon. Returns how many.
    func retry(_ messageIDs: [Int64]?, now: Date) async throws(JobStoreError) -> Int

    /// Deletes done jobs last updated before `before` (their dedup entries go with them). Returns how many.
    func purge(doneBefore before: Date) async throws(JobStoreError) -> Int

    /// Closes the store's connections.
    func close() async

    /// During a server's shutdown grace, claims (as ``claim(limit:now:lease:)`` does) the due jobs that would
    /// be lost if they waited for the next start: a store that ends with the process (``MemoryJobStore``)
    /// hands them out, so that the grace finishes what it can. A store that keeps its jobs hands out none:
    /// the default.
    func claimBeforeStop(limit: Int, now: Date, lease: Duration) async throws(JobStoreError) -> [StoredJob]

    /// Once a server has stopped, the unfinished jobs that end with the process, in the order a claim hands
    /// them out, for the queue to hand back. A store that keeps its jobs returns none: the default.
    func jobsLostAtExit() async -> [EnrichmentJob]
}

extension JobStore {
    /// Jobs, newest first, optionally of one state: the first page of ``list(state:limit:before:)``.
    public func list(state: JobState?, limit: Int) async throws(JobStoreError) -> [StoredJob] {
        try await list(state: state, limit: limit, before: nil)
    }

    /// None: the jobs stay in the store for the next start.
    public func claimBeforeStop(limit: Int, now: Date, lease: Duration) async throws(JobStoreError) -> [StoredJob] {
        []
    }

    /// None: the jobs stay in the store for the next start.
    public func jobsLostAtExit() async -> [EnrichmentJob] { [] }

    /// Returns at once: only this process writes the store, and the queue knows its own admissions.
    public func waitForArrivals(_ wake: @escaping @Sendable () -> Void) async {}
}

extension [StoredJob] {
    /// In the order a claim hands jobs out: due first, then by message id (a database returns updated
    /// rows in no particular order).
    package func inClaimOrder() -> [StoredJob] {
        sorted { ($0.nextAttemptAt, $0.job.messageID) < ($1.nextAttemptAt, $1.job.messageID) }
    }
}

/// Where a job is.
public enum JobState: String, Sendable, Hashable, CaseIterable, Codable {
    /// Waiting for a worker (new, or waiting to retry after a Platform API failure).
    case queued
    /// Claimed by a worker until its lease runs out.
    case running
    /// Finished: the message was updated, or there was nothing to preview.
    case done
    /// Given up: a permanent Platform API error, or the retry horizon passed.
    case failed
}

/// A job as the store holds it.
public struct StoredJob: Sendable, Hashable {
    /// The job as admitted.
    public var job: EnrichmentJob
    /// Where the job stands.
    public var state: JobState
    /// Attempts claimed so far (this one included, for a claimed job).
    public var attempts: Int
    /// When the webhook was admitted: the retry horizon counts from here.
    public var acceptedAt: Date
    /// When a queued job is due.
    public var nextAttemptAt: Date
    /// The last error, for a job that waits to retry or failed.
    public var lastError: String?
    /// The claim's token, unique to each claim of each job (the fencing token of the job's last claim; 0
    /// for a job never claimed): a worker's writes hold only while the job runs under it. PostgreSQL draws
    /// it from a sequence, so a later claim always holds a larger token; SQLite draws it at random, the
    /// memory store counts.
    public var claimToken: Int64

    /// A job as a store reports it.
    public init(
        job: EnrichmentJob, state: JobState, attempts: Int, acceptedAt: Date, nextAttemptAt: Date, lastError: String?,
        claimToken: Int64 = 0
    ) {
        self.job = job
        self.state = state
        self.attempts = attempts
        self.acceptedAt = acceptedAt
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.claimToken = claimToken
    }
}

/// Where a job stands in a listing, newest first (``JobStore/list(state:limit:before:)``): when it was admitted,
/// then its message id.
public struct JobPosition: Sendable, Hashable {
    /// When the job was admitted (``StoredJob/acceptedAt``).
    public var acceptedAt: Date
    /// Its message id.
    public var messageID: Int64

    /// The position of a job admitted at `acceptedAt` with `messageID`.
    public init(acceptedAt: Date, messageID: Int64) {
        self.acceptedAt = acceptedAt
        self.messageID = messageID
    }

    /// Whether a job at `other` comes after this position in a listing (is older, or as old with a smaller id).
    public func precedes(_ other: JobPosition) -> Bool {
        (other.acceptedAt, other.messageID) < (acceptedAt, messageID)
    }
}

extension StoredJob {
    /// `{"message_id", "channel_url", "state", "attempts", "accepted_at", "next_attempt_at", "last_error"}`, the times
    /// in ISO 8601: a job as `deskkit jobs list` prints it and `GET /v1/jobs` begins it.
    public var json: JSONValue {
        [
            "message_id": .integer(job.messageID), "channel_url": .string(job.channelURL),
            "state": .string(state.rawValue), "attempts": .integer(Int64(attempts)),
            "accepted_at": .string(acceptedAt.formatted(.iso8601)),
            "next_attempt_at": .string(nextAttemptAt.formatted(.iso8601)),
            "last_error": lastError.map(JSONValue.string) ?? .null,
        ]
    }

    /// Where the job stands in a listing: pass a page's last as `before` for the next page.
    public var position: JobPosition { JobPosition(acceptedAt: acceptedAt, messageID: job.messageID) }
}

/// A store that cannot be opened or used, and why.
public struct JobStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of store failure. A struct over a private code rather than an enum, so that a kind added
    /// later breaks no `switch` (match the kinds a program handles with `==`, and give the rest a default).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String {
            case badLocation = "bad_location", cannotOpen = "cannot_open", unavailable, full
        }
        private let code: Code

        /// The store's location is not one DeskKit knows (`--store`).
        public static let badLocation = Kind(code: .badLocation)
        /// The database could not be opened or migrated.
        public static let cannotOpen = Kind(code: .cannotOpen)
        /// A query failed (the database is locked, full, gone…).
        public static let unavailable = Kind(code: .unavailable)
        /// The store holds as many unfinished jobs as it may (``MemoryJobStore/Configuration/capacity``).
        public static let full = Kind(code: .full)

        /// The kind's name, fit for programs and metric labels (`bad_location`, `cannot_open`, …).
        public var description: String { code.rawValue }
    }

    /// What went wrong.
    public var kind: Kind
    /// What exactly, as a sentence (the database's own message when there is one).
    public var detail: String

    /// An error of `kind` with its `detail`.
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { "\(kind): \(detail)" }
}
