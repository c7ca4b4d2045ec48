import AsyncHTTPClient
import DeskKitModel
import DeskKitPreview
import DeskKitTime
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Tracing

/// The part of Sendbird's Platform API the server uses: updating a message.
public struct PlatformAPIClient: Sendable {
    /// `https://api-{app_id}.sendbird.com` or a test server.
    public let baseURL: String
    private let apiToken: String
    /// How long one call may take. Default 10 s, counted on the client's clock (the system's).
    public let timeout: Duration
    /// The clock ``timeout`` counts on: the system's by default, a test's to move it.
    package let clock: ServiceClock
    let httpClient: HTTPClient
    let metrics: ServerMetrics
    let logger: Logger

    /// The default base URL of an application.
    public static func defaultBaseURL(appID: String) -> String { "https://api-\(appID.lowercased()).sendbird.com" }

    /// A client for the Platform API at `baseURL`, authenticated with `apiToken`.
    public init(
        baseURL: String, apiToken: String, timeout: Duration = .seconds(10), httpClient: HTTPClient = .shared,
        metrics: ServerMetrics = ServerMetrics(), logger: Logger = Logger(label: "deskkit.platform-api")
    ) {
        self.init(
            baseURL: baseURL, apiToken: apiToken, timeout: timeout, clock: .system, httpClient: httpClient,
            metrics: metrics, logger: logger)
    }

    /// A client whose time limit counts on `clock` (a test's).
    package init(
        baseURL: String, apiToken: String, timeout: Duration = .seconds(10), clock: ServiceClock,
        httpClient: HTTPClient = .shared, metrics: ServerMetrics = ServerMetrics(),
        logger: Logger = Logger(label: "deskkit.platform-api")
    ) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.apiToken = apiToken
        self.timeout = timeout
        self.clock = clock
        self.httpClient = httpClient
        self.metrics = metrics
        self.logger = logger
    }

    /// `PUT {base}/v3/group_channels/{channel_url}/messages/{message_id}` with `message` as the body: one
    /// attempt. A failure says whether it is worth another later (429, 5xx, transport errors, with the
    /// server's `Retry-After`); the `EnrichmentQueue` makes that attempt, as its `RetryStrategy` decides.
    ///
    /// The call is a span (`update message`), and the Platform API is told the trace (W3C `traceparent`):
    /// by AsyncHTTPClient's own client span when `httpClient` traces, else by this span.
    ///
    /// `claimToken`, the job's claim (`ClaimedJob.claimToken`), is sent as `DeskKit-Claim`: a fencing token
    /// that a gateway in front of the API may check (with a PostgreSQL store a later claim of a message holds
    /// a larger token), and that the fault run's stand-in API checks against the store.
    public func updateMessage(
        channelURL: String, messageID: Int64, with message: OutgoingMessage, claimToken: Int64? = nil
    ) async throws(PlatformAPIError) {
        try await traced("update message") { span throws(PlatformAPIError) in
            span.attributes["deskkit.message_id"] = "\(messageID)"
            try await put(
                channelURL: channelURL, messageID: messageID, message: message, claimToken: claimToken, span: span)
        }
    }

    private func put(
        channelURL: String, messageID: Int64, message: OutgoingMessage, claimToken: Int64?, span: any Span
    ) async throws(PlatformAPIError) {
        let path = "/v3/group_channels/\(Self.pathSegment(channelURL))/messages/\(messageID)"
        if span.isRecording {
            span.attributes["http.request.method"] = "PUT"
            span.attributes["url.full"] = SpanURL.redacted(baseURL + path)
        }
        var writer = JSONWriter()
        writer.write(message.json)
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .PUT
        request.headers.add(name: "Api-Token", value: apiToken)
        request.headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        request.headers.add(name: "Accept", value: "application/json")
        if let claimToken { request.headers.add(name: "DeskKit-Claim", value: "\(claimToken)") }
        request.body = .bytes(writer.withUnsafeBufferPointer { ByteBuffer(bytes: $0) })
        if httpClient.tracer == nil { TraceFields.inject(into: &request.headers) }
        let log = ["channel_url": Logger.MetadataValue.string(channelURL), "message_id": "\(messageID)"]

        var status: Int?
        var detail: String
        var retryAfter: Duration?
        do {
            let answer = try await send(request)
            status = answer.status
            span.attributes["http.response.status_code"] = status
            detail = answer.detail
            if (200..<300).contains(answer.status) {
                metrics.platformAPI(status: status)
                logger.debug("message updated", metadata: log)
                return
            }
            retryAfter = PlatformAPIError.retryAfter(answer.retryAfter)
        } catch {
            if Task.isCancelled { throw PlatformAPIError(.cancelled, detail: "\(error)") }
            detail = "\(error)"
        }
        let retried = status.map(PlatformAPIError.isRetryable(status:)) ?? true
        metrics.platformAPI(status: status)
        logger.warning(
            "Platform API call failed",
            metadata: log.merging([
                "status": "\(status.map(String.init) ?? "none")", "detail": .string(String(detail.prefix(200))),
                "retryable": "\(retried)",
            ]) { $1 })
        throw PlatformAPIError(
            retried ? .retryable : .rejected, status: status, retryAfter: retryAfter, detail: detail)
    }

    /// What the API answered a call: its status, `Retry-After` and the start of its body (for the log only).
    private struct Answer: Sendable {
        var status: Int
        var retryAfter: String?
        var detail: String
    }

    /// One call within ``timeout`` on ``clock`` (`withDeadline`, the package's one time limit: its error
    /// says "no answer within 10 s"); AsyncHTTPClient is given the same limit as
    /// `ServiceClock.libraryDeadline(after:)` says.
    private func send(_ request: HTTPClientRequest) async throws -> Answer {
        let deadline = clock.libraryDeadline(after: timeout)
        return try await withDeadline(timeout, clock: clock) { [httpClient] in
            let response = try await httpClient.execute(request, deadline: deadline)
            // The answer is read for the log only: a large or broken one does not fail the call.
            let body = try? await response.body.collect(upTo: 1 << 20)
            return Answer(
                status: Int(response.status.code), retryAfter: response.headers.first(name: "Retry-After"),
                detail: body.map { String(decoding: $0.readableBytesView.prefix(300), as: UTF8.self) } ?? "")
        }
    }

    /// A channel URL as one path segment: everything but unreserved characters percent-encoded.
    static func pathSegment(_ s: String) -> String {
        PercentEncoding.encode(s) { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                return false
            default:
                return true
            }
        }
    }
}
