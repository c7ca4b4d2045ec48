import DeskKitModel
import DeskKitPreview
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// The enrichment server: Sendbird webhooks in, URL previews written into messages through the Platform
/// API, plus a preview and a decode endpoint, health and Prometheus metrics.
///
/// ```swift
/// let server = EnrichmentServer(configuration: try ServerConfiguration.resolve(environment: env))
/// try await server.makeApplication().runService()
/// ```
///
/// Routes: `POST /webhooks/sendbird` (signed by Sendbird), `GET /health` (open), and, with an API key
/// (``ServerConfiguration/apiKeys``, `Authorization: Bearer KEY`), `POST /v1/preview`, `POST /v1/decode`
/// (both rate-limited per key) and `GET /metrics`.
public struct EnrichmentServer: Sendable {
    /// The settings the server runs with.
    public let configuration: ServerConfiguration
    /// The server's counters and gauges, served at `GET /metrics`.
    public let metrics: ServerMetrics
    /// The jobs: ``DurableEnrichmentQueue`` over the store given, else ``EnrichmentQueue`` in memory.
    public let queue: any JobQueue
    /// Finds and fetches the previews.
    public let previews: PreviewService
    let logger: Logger
    /// The preview statistics at the last scrape, to count the difference.
    let cacheFigures = LastFigures()
    /// The API keys' token buckets.
    let limiter: RateLimiter
    let startedAt = ContinuousClock.now

    /// The largest body of `/v1/preview`: 64 KiB.
    public static let maxPreviewRequestBytes = 64 * 1024
    /// The largest body of `/v1/decode`: 16 MiB.
    public static let maxDecodeRequestBytes = 16 << 20

    /// A server; ``makeApplication(onServerRunning:)`` gives the Hummingbird application to run, ``makeRouter()`` its routes.
    ///
    /// - Parameters:
    ///   - configuration: the settings, as ``ServerConfiguration/resolve(flags:environment:flagNames:)`` reads them.
    ///   - metrics: where the server's counters and gauges are kept.
    ///   - logger: what the server logs to.
    ///   - store: keeps the jobs durably (open it for ``ServerConfiguration/store``); nil keeps them in
    ///     memory.
    ///   - handBack: with the memory queue, also receives the jobs not finished at shutdown (each is
    ///     always logged as an error with its channel and message id, and counted), e.g. to write them
    ///     where they can be redone. A durable store keeps them instead.
    ///   - sharedPreviews: a preview cache shared with other instances (PostgreSQL's), behind this one's own.
    public init(
        configuration: ServerConfiguration, metrics: ServerMetrics = ServerMetrics(),
        logger: Logger = Logger(label: "deskkit.server"), store: (any JobStore)? = nil,
        sharedPreviews: (any SharedPreviewCache)? = nil, handBack: EnrichmentQueue.HandBack? = nil
    ) {
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        limiter = RateLimiter(configuration: configuration.rateLimit, keys: configuration.apiKeys.count)
        let previews = PreviewService(
            fetcher: PageFetcher(configuration: configuration.fetch), configuration: configuration.previews,
            sharedCache: sharedPreviews)
        self.previews = previews
        let api = PlatformAPIClient(
            baseURL: configuration.apiBase, apiToken: configuration.apiToken, retry: configuration.retry,
            metrics: metrics,
            logger: logger)
        let enricher = Enricher(previews: previews, api: api, metrics: metrics, logger: logger)
        if let store {
            var durable = configuration.durable
            durable.workers = configuration.queue.workers
            durable.dedupWindow = configuration.queue.dedupTTL
            durable.shutdownGrace = configuration.queue.shutdownGrace
            self.queue = DurableEnrichmentQueue(
                store: store, configuration: durable, metrics: metrics, logger: logger,
                work: { await enricher.process($0) })
            return
        }
        self.queue = EnrichmentQueue(
            configuration: configuration.queue,
            work: { job in
                switch await enricher.process(job) {
                case .finished(let finish): metrics.job(.init(finish))
                case .retryable, .permanent: metrics.job(.apiFailed)
                case .cancelled: return false
                }
                return true
            },
            handBack: { jobs in
                metrics.job(.handedBack, count: jobs.count)
                for job in jobs {
                    logger.error(
                        "job handed back at shutdown",
                        metadata: ["channel_url": .string(job.channelURL), "message_id": "\(job.messageID)"])
                }
                await handBack?(jobs)
            })
    }

    /// The application: the routes, with the queue as a service (stopped after the HTTP server on
    /// graceful shutdown, so accepted work is finished or handed back).
    public func makeApplication(onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        if configuration.apiKeys.count == 0 {
            logger.warning(
                "no API key configured (DESKKIT_API_KEYS): /v1/preview, /v1/decode and /metrics answer 401 to everyone")
        }
        return Application(
            router: makeRouter(),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "deskkit"),
            services: [queue], onServerRunning: onServerRunning, logger: logger)
    }

    /// The routes.
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.middlewares.add(RequestCounter(metrics: metrics))
        // Open: the webhook (signed) and the balancer's health check.
        router.post("/webhooks/sendbird") { request, _ in try await webhook(request) }
        router.get("/health") { _, _ in await health() }
        // An API key, and for the work routes its rate.
        router.group("/v1")
            .add(middleware: BearerAuthentication(keys: configuration.apiKeys, limiter: limiter))
            .post("preview") { request, _ in try await preview(request) }
            .post("decode") { request, _ in try await decode(request) }
        router.group("/metrics")
            .add(middleware: BearerAuthentication(keys: configuration.apiKeys, limiter: nil))
            .get { _, _ in await metricsPage() }
        return router
    }

    // MARK: Routes

    func webhook(_ request: Request) async throws(RequestProblem) -> Response {
        var request = request
        guard let body = try? await request.collectBody(upTo: configuration.maxBodyBytes) else {
            metrics.webhook(.tooLarge)
            throw RequestProblem(.contentTooLarge, "the body is over \(configuration.maxBodyBytes) bytes")
        }
        let bytes = body.readableBytesView
        let signature = request.headers[HTTPField.Name(WebhookSignature.headerName)!]
        guard WebhookSignature.isValid(signature, body: bytes, token: configuration.apiToken) else {
            metrics.webhook(.badSignature)
            logger.warning(
                "webhook with a missing or wrong signature", metadata: ["signature_present": "\(signature != nil)"])
            throw RequestProblem(
                .unauthorized, signature == nil ? "no \(WebhookSignature.headerName) header" : "wrong signature")
        }
        let (webhook, problems) = SendbirdWebhook.decode(bytes)
        guard let webhook else {
            metrics.webhook(.badRequest)
            let first = problems.first.map { "\($0.path): \($0.message)" } ?? "not a webhook"
            throw RequestProblem(.badRequest, "not a Sendbird webhook: \(first)", problems: problems)
        }
        switch WebhookVerdict.decide(webhook, previews: previews) {
        case .ignore(let reason):
            metrics.webhook(.ignored)
            return Self.json(.ok, ["status": "ignored", "reason": .string(reason)])
        case .enrich(let job):
            let admission = await queue.submit(job)
            switch admission {
            case .accepted:
                metrics.webhook(.queued)
                logger.debug(
                    "message queued",
                    metadata: ["channel_url": .string(job.channelURL), "message_id": "\(job.messageID)"])
                return Self.json(.ok, ["status": "queued"])
            case .duplicate:
                metrics.webhook(.duplicate)
                return Self.json(.ok, ["status": "duplicate"])
            case .full, .closed, .unavailable:
                let (outcome, reason, retryAfter) =
                    switch admission {
                    case .full:
                        (
                            ServerMetrics.Webhook.queueFull,
                            "the work queue is full (\(configuration.queue.capacity) jobs)", "1"
                        )
                    case .unavailable: (.storeUnavailable, "the job store cannot commit the job", "5")
                    default: (.shuttingDown, "shutting down", "1")
                    }
                metrics.webhook(outcome)
                logger.warning(
                    "webhook refused",
                    metadata: ["reason": .string(admission.rawValue), "message_id": "\(job.messageID)"])
                throw RequestProblem(.serviceUnavailable, reason, headers: [.retryAfter: retryAfter])
            }
        }
    }

    /// `{"text": …}` (previews of its links) or `{"url": …}` (one preview) → `{"previews": [{"link",
    /// "url", "data", "payload", "details", "error"}]}`; `data` is the `SENDBIRD_DESK_URL_PREVIEW` data string,
    /// `details` ``PreviewDetails`` (the image's size and type, the oEmbed answer's kind and provider…).
    func preview(_ request: Request) async throws(RequestProblem) -> Response {
        var request = request
        guard let body = try? await request.collectBody(upTo: Self.maxPreviewRequestBytes) else {
            throw RequestProblem(.contentTooLarge, "the body is over \(Self.maxPreviewRequestBytes) bytes")
        }
        let parsed = Array(body.readableBytesView).withUnsafeBufferPointer { JSONValue.parseResult($0) }
        guard case .success(.object(let object)) = parsed else {
            throw RequestProblem(.badRequest, "the body is not a JSON object")
        }
        let results: [(String, String, Result<PreviewCard, FetchError>)]
        if case .string(let url)? = object["url"] {
            results = [(url, url, await previews.card(for: url))]
        } else if case .string(let text)? = object["text"] {
            let links = previews.linksToPreview(in: text)
            results = zip(links, await previews.cards(of: links.map(\.href))).map { ($0.text, $0.href, $1) }
        } else {
            throw RequestProblem(.badRequest, "the body names neither \"text\" nor \"url\" (a string)")
        }
        metrics.previews(results.map { $0.2.map(\.preview) })
        var items: [JSONValue] = []
        for (link, url, result) in results {
            switch result {
            case .success(let card):
                let rich = RichPayload.urlPreview(card.preview)
                items.append([
                    "link": .string(link), "url": .string(url), "data": .string(DeskPayload.encode(rich)),
                    "payload": rich.json, "details": card.details.json, "error": .null,
                ])
            case .failure(let e):
                items.append([
                    "link": .string(link), "url": .string(url), "data": .null, "payload": .null, "details": .null,
                    "error": ["kind": .string(e.kind.rawValue), "detail": .string(e.detail)],
                ])
            }
        }
        return Self.json(.ok, ["previews": .array(items)])
    }

    /// JSON lines of envelopes → one line each, as `deskkit decode --messages` prints them.
    func decode(_ request: Request) async throws(RequestProblem) -> Response {
        var request = request
        guard let body = try? await request.collectBody(upTo: Self.maxDecodeRequestBytes) else {
            throw RequestProblem(.contentTooLarge, "the body is over \(Self.maxDecodeRequestBytes) bytes")
        }
        var writer = JSONWriter(capacity: body.readableBytes * 2)
        var decoder = DeskMessageDecoder()
        // The lines are read where the body is, without a copy.
        body.withUnsafeReadableBytes { raw in
            let all = UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count)
            JSONLines.forEachNonBlankLine(in: all) { line, _ in
                decoder.decode(line).writeSummary(to: &writer)
                writer.append(UInt8(ascii: "\n"))
            }
        }
        return Response(
            status: .ok, headers: [.contentType: "application/x-ndjson"],
            body: .init(byteBuffer: writer.withUnsafeBufferPointer { ByteBuffer(bytes: $0) }))
    }

    /// 200 `{"status": "ok", …}`, or 503 `{"status": "store_unavailable", "store_error"}` when the job
    /// store does not answer (a load balancer then sends webhooks elsewhere).
    func health() async -> Response {
        let figures = await queue.figures()
        let uptime = ContinuousClock.now - startedAt
        var body: [JSONObject.Member] = [
            .init(key: "status", value: figures.storeError == nil ? "ok" : "store_unavailable"),
            .init(key: "store", value: .string(configuration.store.description)),
            .init(key: "queue_depth", value: .integer(Int64(figures.depth))),
            .init(key: "jobs_in_flight", value: .integer(Int64(figures.running))),
            .init(key: "uptime_seconds", value: .integer(uptime.components.seconds)),
        ]
        if queue is EnrichmentQueue {
            body.append(.init(key: "queue_capacity", value: .integer(Int64(configuration.queue.capacity))))
        }
        if let states = figures.states {
            let counts = JobState.allCases.map {
                JSONObject.Member(key: $0.rawValue, value: .integer(Int64(states[$0] ?? 0)))
            }
            body.append(.init(key: "jobs", value: .object(JSONObject(counts))))
        }
        if let error = figures.storeError { body.append(.init(key: "store_error", value: .string(error))) }
        return Self.json(figures.storeError == nil ? .ok : .serviceUnavailable, .object(JSONObject(body)))
    }

    func metricsPage() async -> Response {
        let now = await previews.statistics
        let before = cacheFigures.mutex.withLock { figures in
            defer { figures = now }
            return figures
        }
        metrics.cache(now, since: before)
        metrics.queue(await queue.figures())
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
    }

    // MARK: Responses

    static func json(_ status: HTTPResponse.Status, _ value: JSONValue) -> Response {
        var writer = JSONWriter()
        writer.write(value)
        writer.append(UInt8(ascii: "\n"))
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: writer.withUnsafeBufferPointer { ByteBuffer(bytes: $0) }))
    }
}

final class LastFigures: Sendable {
    let mutex = Mutex(PreviewService.Statistics())
}

/// Counts every request by route and status: `deskkit_http_requests_total`. The route is the one the router
/// matched (`context.endpointPath`, which Hummingbird sets once it has found the route, and sets to
/// `NotFound` when none fits): one label per route, never one per path a client makes up.
struct RequestCounter: RouterMiddleware {
    typealias Context = BasicRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            let response = try await next(request, context)
            metrics.request(route: context.endpointPath ?? "NotFound", status: Int(response.status.code))
            return response
        } catch let error as HTTPResponseError {
            metrics.request(route: context.endpointPath ?? "NotFound", status: Int(error.status.code))
            throw error
        }
    }
}
