import DeskKitJobStore
import DeskKitModel
import Foundation
import Hummingbird

/// The queue as an operator reads and mends it, behind an operator key: `GET /v1/queue` (jobs by state, the work
/// running here, and admissions, enrichments and errors per minute for the last hour), `GET /v1/jobs` (jobs
/// newest first, of a state, a page at a time), `POST /v1/jobs/retry?limit=` (the failed jobs queued again, at
/// most ``maxRetries`` a call) and `POST /v1/jobs/{message_id}/retry` (one), each retry in the audit trail. The
/// message's text is not shown: a customer's words are not the operator's to read; its links are, masked
/// (``LinkPrivacy``: a token in a query is the customer's).
struct QueueRoute: Sendable {
    let queue: EnrichmentQueue
    let previews: PreviewLinks
    let activity: RecentActivity
    let audit: OperatorAudit

    /// Finds a job's links when the webhook named none (the service's own link rule).
    typealias PreviewLinks = @Sendable (String) -> [String]

    /// The most jobs a page holds: 500 (50 when the query says nothing).
    static let maxPage = 500
    /// The most failed jobs one `POST /v1/jobs/retry` queues again: 10,000 (1,000 when the query says nothing).
    static let maxRetries = 10_000

    func summary() async throws(RequestProblem) -> Response {
        let figures = await queue.figures()
        let counts: JSONValue =
            figures.states.map { states in
                .object(
                    JSONObject(
                        JobState.allCases.map { .init(key: $0.rawValue, value: .integer(Int64(states[$0] ?? 0))) }))
            } ?? .null
        let minutes: [JSONValue] = activity.lastHour().map { minute in
            [
                "minute": .string(Self.timestamp(minute.start)), "admitted": .integer(Int64(minute.admitted)),
                "enriched": .integer(Int64(minute.enriched)), "errors": .integer(Int64(minute.errors)),
            ]
        }
        return .json(
            .ok,
            [
                "counts": counts, "running_here": .integer(Int64(figures.running)),
                "store_error": figures.storeError.map { .string($0.description) } ?? .null,
                "last_hour": .array(minutes),
            ])
    }

    func list(_ request: Request) async throws(RequestProblem) -> Response {
        let query = request.uri.queryParameters
        var state: JobState?
        if let text = query.get("state"), !text.isEmpty {
            guard let named = JobState(rawValue: text) else {
                throw RequestProblem(.badRequest, "state: \(text.prefix(40)) is none of queued, running, done, failed")
            }
            state = named
        }
        var limit = 50
        if let text = query.get("limit") {
            guard let n = Int(text), (1...Self.maxPage).contains(n) else {
                throw RequestProblem(.badRequest, "limit: a number from 1 to \(Self.maxPage)")
            }
            limit = n
        }
        var before: JobPosition?
        if let text = query.get("before"), !text.isEmpty {
            guard let position = Self.position(text) else {
                throw RequestProblem(.badRequest, "before: not a page's `next` (as GET /v1/jobs answers it)")
            }
            before = position
        }
        let jobs: [StoredJob]
        do {
            jobs = try await queue.store.list(state: state, limit: limit + 1, before: before)
        } catch {
            throw RequestProblem(
                .serviceUnavailable, "the job store cannot be read: \(error.detail)", headers: [.retryAfter: "1"])
        }
        let page = jobs.prefix(limit)
        let next: JSONValue = jobs.count > limit ? page.last.map { .string(Self.cursor($0.position)) } ?? .null : .null
        return .json(.ok, ["jobs": .array(page.map(json)), "next": next])
    }

    /// One failed job queued again.
    func retry(_ messageID: String) async throws(RequestProblem) -> Response {
        guard let id = Int64(messageID) else {
            throw RequestProblem(.badRequest, "message_id: \(messageID.prefix(40)) is not a message id")
        }
        let count = try await retry([id])
        guard count > 0 else {
            throw RequestProblem(.conflict, "no failed job for message \(id): only a failed job is retried")
        }
        audit.record("retry", messageIDs: [id], count: count)
        return .json(.ok, ["retried": .integer(Int64(count)), "more": false])
    }

    /// The failed jobs queued again, newest first, at most `limit` (default 1,000, up to ``maxRetries``) a call:
    /// `{"retried", "more"}`, `more` true when there were as many as the limit (call again for the rest).
    func retryAll(_ request: Request) async throws(RequestProblem) -> Response {
        var limit = 1_000
        if let text = request.uri.queryParameters.get("limit") {
            guard let n = Int(text), (1...Self.maxRetries).contains(n) else {
                throw RequestProblem(.badRequest, "limit: a number from 1 to \(Self.maxRetries)")
            }
            limit = n
        }
        let failed: [StoredJob]
        do { failed = try await queue.store.list(state: .failed, limit: limit, before: nil) } catch {
            throw RequestProblem(
                .serviceUnavailable, "the job store cannot be read: \(error.detail)", headers: [.retryAfter: "1"])
        }
        let ids = failed.map(\.job.messageID)
        let count = ids.isEmpty ? 0 : try await retry(ids)
        audit.record("retry_failed", messageIDs: ids, count: count)
        return .json(.ok, ["retried": .integer(Int64(count)), "more": .bool(ids.count == limit)])
    }

    private func retry(_ ids: [Int64]) async throws(RequestProblem) -> Int {
        do { return try await queue.retry(ids) } catch {
            throw RequestProblem(
                .serviceUnavailable, "the job store cannot be written: \(error.detail)", headers: [.retryAfter: "1"])
        }
    }

    /// The job as `deskkit jobs list` prints it (``StoredJob/json``), with its trace's id and its links, masked.
    private func json(_ stored: StoredJob) -> JSONValue {
        let job = stored.job
        // The trace's id: the second field of `traceparent` (version-traceid-spanid-flags).
        let trace = job.traceContext["traceparent"].flatMap { field -> String? in
            let parts = field.split(separator: "-")
            return parts.count == 4 ? String(parts[1]) : nil
        }
        guard case .object(var object) = stored.json else { return stored.json }
        object["trace_id"] = trace.map(JSONValue.string) ?? .null
        object["links"] = .array((job.links ?? previews(job.text)).map { .string(LinkPrivacy.masked($0)) })
        return .object(object)
    }

    static func timestamp(_ date: Date) -> String { date.formatted(.iso8601) }

    /// A page's `next`: the last job's admission time and message id. The time is `Date`'s own number (seconds since
    /// 2001), written exactly: through seconds since 1970 it would round, and the next page would hold the last job of
    /// this one again (or skip its neighbours admitted at the same instant).
    static func cursor(_ position: JobPosition) -> String {
        "\(position.acceptedAt.timeIntervalSinceReferenceDate)_\(position.messageID)"
    }

    /// The farthest a cursor's time may be from 2001: about 1,900 years either way.
    static let maxCursorSeconds = 6e10

    static func position(_ cursor: String) -> JobPosition? {
        let parts = cursor.split(separator: "_")
        // No job was admitted more than a few centuries from 2001: a time past that is no page's (and more than
        // PostgreSQL's timestamps hold).
        guard parts.count == 2, let seconds = Double(parts[0]), abs(seconds) <= maxCursorSeconds,
            let id = Int64(parts[1])
        else {
            return nil
        }
        return JobPosition(acceptedAt: Date(timeIntervalSinceReferenceDate: seconds), messageID: id)
    }
}
