import AsyncHTTPClient
import DeskKitModel
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// The part of Sendbird's Platform API the server uses: updating a message.
public struct PlatformAPIClient: Sendable {
    /// `https://api-{app_id}.sendbird.com` or a test server.
    public let baseURL: String
    private let apiToken: String
    /// How failed calls are retried.
    public let retry: RetryPolicy
    let httpClient: HTTPClient
    let metrics: ServerMetrics
    let logger: Logger

    /// The default base URL of an application.
    public static func defaultBaseURL(appID: String) -> String { "https://api-\(appID.lowercased()).sendbird.com" }

    /// A client for the Platform API at `baseURL`, authenticated with `apiToken`.
    public init(
        baseURL: String, apiToken: String, retry: RetryPolicy = RetryPolicy(), httpClient: HTTPClient = .shared,
        metrics: ServerMetrics = ServerMetrics(), logger: Logger = Logger(label: "deskkit.platform-api")
    ) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.apiToken = apiToken
        self.retry = retry
        self.httpClient = httpClient
        self.metrics = metrics
        self.logger = logger
    }

    /// `PUT {base}/v3/group_channels/{channel_url}/messages/{message_id}` with `message` as the body.
    /// Retries 429 and 5xx (honouring `Retry-After`) and transport errors, at most ``RetryPolicy/maxAttempts``
    /// times in all; returns the number of attempts made.
    @discardableResult
    public func updateMessage(channelURL: String, messageID: Int64, with message: OutgoingMessage)
        async throws(PlatformAPIError) -> Int
    {
        let path = "/v3/group_channels/\(Self.pathSegment(channelURL))/messages/\(messageID)"
        var writer = JSONWriter()
        writer.write(message.json)
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .PUT
        request.headers.add(name: "Api-Token", value: apiToken)
        request.headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .bytes(writer.withUnsafeBufferPointer { ByteBuffer(bytes: $0) })
        let log = ["channel_url": Logger.MetadataValue.string(channelURL), "message_id": "\(messageID)"]

        var attempt = 0
        while true {
            attempt += 1
            var status: Int?
            var detail: String
            var wait: Duration?
            do {
                let response = try await httpClient.execute(
                    request, timeout: .nanoseconds(Int64(retry.requestTimeout.nanoseconds)))
                status = Int(response.status.code)
                // The answer is read for the log only: a large or broken one does not fail the call.
                let body = try? await response.body.collect(upTo: 1 << 20)
                detail = body.map { String(decoding: $0.readableBytesView.prefix(300), as: UTF8.self) } ?? ""
                if (200..<300).contains(response.status.code) {
                    metrics.platformAPI(status: status, retrying: false)
                    logger.debug("message updated", metadata: log.merging(["attempts": "\(attempt)"]) { $1 })
                    return attempt
                }
                wait = retry.retryAfter(response.headers.first(name: "Retry-After"))
            } catch {
                if Task.isCancelled {
                    throw PlatformAPIError(kind: .cancelled, status: nil, attempts: attempt, detail: "\(error)")
                }
                detail = "\(error)"
            }
            let retried = status.map(RetryPolicy.isRetried) ?? true
            let again = retried && attempt < retry.maxAttempts
            metrics.platformAPI(status: status, retrying: again)
            logger.warning(
                "Platform API call failed",
                metadata: log.merging([
                    "attempt": "\(attempt)", "status": "\(status.map(String.init) ?? "none")",
                    "detail": .string(String(detail.prefix(200))), "will_retry": "\(again)",
                ]) { $1 })
            guard again else {
                throw PlatformAPIError(
                    kind: retried ? .exhausted : .rejected, status: status, attempts: attempt, detail: detail)
            }
            do {
                try await Task.sleep(for: wait ?? retry.backoff(after: attempt))
            } catch {
                throw PlatformAPIError(
                    kind: .cancelled, status: status, attempts: attempt, detail: "cancelled while waiting to retry")
            }
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

extension Duration {
    var nanoseconds: Int64 {
        let (s, atto) = components
        return s * 1_000_000_000 + atto / 1_000_000_000
    }
}
