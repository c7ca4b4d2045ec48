import DeskKitJobStore
import DeskKitModel
import DeskKitPreview
import DeskKitTime
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Tracing

/// The enrichment server: Sendbird webhooks in, URL previews written into messages through the Platform
/// API, plus a preview and a decode endpoint, health and Prometheus metrics.
///
/// ```swift
/// let configuration = try ServerConfiguration.resolve(environment: env)
/// let server = EnrichmentServer(configuration: configuration, store: try await configuration.openStore())
/// try await server.makeApplication().runService()
/// ```
///
/// Routes: `POST /webhooks/sendbird` (signed by Sendbird), `GET /health` (open), `GET`/`HEAD
/// /images/{signature}/{url}` (the image proxy, with ``ServerConfiguration/imageProxy``; the signature is its
/// authorisation); with a client key (``ServerConfiguration/apiKeys``, `Authorization: Bearer KEY`) or an
/// operator's, `POST /v1/preview` and `POST /v1/decode`; with an operator key (``ServerConfiguration/operatorKeys``)
/// only, `DELETE /v1/previews?url=` and the console's routes (`GET /v1/inspect`, `/v1/queue`, `/v1/jobs`,
/// `/v1/refusals`, `POST /v1/jobs/retry`, `POST /v1/jobs/{message_id}/retry`), every action that changes something
/// written to the audit trail (`OperatorAudit`); all of `/v1` rate-limited per key; with an operator or a metrics
/// key (``ServerConfiguration/metricsKeys``), `GET /metrics` (`AccessKeys`). `GET /console` serves the operator's
/// console (<doc:OperatorConsole>).
public struct EnrichmentServer: Sendable {
    /// The settings the server runs with.
    public let configuration: ServerConfiguration
    /// The server's counters and gauges, served at `GET /metrics`.
    package let metrics: ServerMetrics
    /// The jobs, over the store given.
    package let queue: EnrichmentQueue
    /// Finds and fetches the previews.
    package let previews: PreviewService
    /// The shutdown grace (`JobQueueConfiguration.shutdownGrace`), shared by requests in flight and
    /// running jobs, counted from when the server is asked to stop.
    package let grace: ShutdownGrace
    let logger: Logger
    /// The API keys' token buckets.
    let limiter: RateLimiter
    /// The operator keys' inspections' token buckets.
    let inspections: RateLimiter
    /// The keys of each kind; none when the configuration's lists share a key (`ServerConfiguration.accessKeys()`).
    let keys: AccessKeys
    /// What operators did.
    let audit: OperatorAudit
    let health: HealthRoute
    let scrape: MetricsRoute
    /// The image proxy's fetches under way.
    let images: ImageDownloads
    /// What the console shows of the last hour and day.
    let activity: RecentActivity
    /// Gives a peak's memory back, when no job runs and no image is downloaded if such a moment comes.
    let heapTrim: HeapTrim

    /// The largest body of `/v1/preview`: 64 KiB.
    @available(
        *, deprecated,
        message: "A limit of the route (its 413 answer in /openapi.json says it); removed in 0.3.0"
    )
    public static let maxPreviewRequestBytes = PreviewRoute.maxRequestBytes
    /// The largest body of `/v1/decode`: 16 MiB.
    @available(
        *, deprecated,
        message: "A limit of the route (its 413 answer in /openapi.json says it); removed in 0.3.0"
    )
    public static let maxDecodeRequestBytes = DecodeRoute.maxRequestBytes

    /// A server; ``makeApplication(onServerRunning:)`` gives the Hummingbird application to run, ``makeRouter(context:)`` its routes.
    ///
    /// - Parameters:
    ///   - configuration: the settings, as ``ServerConfiguration/resolve(flags:environment:)`` or
    ///     ``ServerConfiguration/init(reader:)`` reads them.
    ///   - store: where the jobs are kept (open it for ``ServerConfiguration/store``, with
    ///     ``ServerConfiguration/memory``).
    ///   - metrics: where the server's counters and gauges are kept.
    ///   - logger: what the server logs to.
    ///   - sharedPreviews: a preview cache shared with other instances (PostgreSQL's), behind this one's own.
    ///   - handBack: with a `MemoryJobStore`, also receives the jobs left at shutdown, when the grace ends
    ///     before they were done (they are lost otherwise: log them, or keep them elsewhere).
    public init(
        configuration: ServerConfiguration, store: any JobStore, metrics: ServerMetrics = ServerMetrics(),
        logger: Logger = Logger(label: "deskkit.server"), sharedPreviews: (any SharedPreviewCache)? = nil,
        handBack: (@Sendable ([EnrichmentJob]) async -> Void)? = nil
    ) {
        self.init(
            configuration: configuration, store: store, metrics: metrics, logger: logger,
            sharedPreviews: sharedPreviews, handBack: handBack, clock: .system)
    }

    /// A server on `clock`, its one clock: what the queue waits and dates by, the shutdown grace, the preview
    /// cache's and the idle connections' time, a fetch's and the image proxy's time limits, the shared cache's
    /// waits and the API keys' rate are counted on (a test drives it). A store counts its own time-outs on the
    /// clock it was opened with (`PostgresJobStore.Options.clock`).
    package init(
        configuration: ServerConfiguration, store: any JobStore, metrics: ServerMetrics = ServerMetrics(),
        logger: Logger = Logger(label: "deskkit.server"), sharedPreviews: (any SharedPreviewCache)? = nil,
        handBack: EnrichmentQueue.HandBack? = nil, clock: ServiceClock
    ) {
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        limiter = RateLimiter(configuration: configuration.rateLimit, clock: clock)
        var inspectRate = configuration.inspectRate
        inspectRate.unit = "inspections"
        inspections = RateLimiter(configuration: inspectRate, clock: clock)
        do throws(APIKeysError) { keys = try configuration.accessKeys() } catch {
            logger.error("\(error): every keyed route is closed")
            keys = .none
        }
        audit = OperatorAudit(metrics: metrics, logger: logger, clock: clock)
        let activity = RecentActivity(clock: clock)
        self.activity = activity
        previews = PreviewService(
            fetcher: PageFetcher(configuration: configuration.fetch, clock: clock),
            configuration: configuration.previews, sharedCache: sharedPreviews, metrics: metrics.factory)
        let enricher = Enricher(
            previews: previews,
            api: PlatformAPIClient(
                baseURL: configuration.apiBase, apiToken: configuration.apiToken, timeout: configuration.apiTimeout,
                clock: clock, metrics: metrics, logger: logger),
            images: configuration.cardImages, metrics: metrics, activity: activity, logger: logger)
        images = ImageDownloads(
            fetcher: previews.fetcher, limits: configuration.imageLimits,
            perHost: configuration.previews.maxConcurrentFetchesPerHost)
        grace = ShutdownGrace(configuration.queue.shutdownGrace, clock: clock)
        queue = EnrichmentQueue(
            store: store, configuration: configuration.queue, retry: EnrichmentRetryStrategy(configuration.retry),
            metrics: metrics.factory,
            logger: logger, clock: clock, handBack: handBack, grace: grace,
            work: { claimed in
                let outcome = await enricher.process(claimed)
                activity.finished(outcome)
                return outcome
            })
        health = HealthRoute(queue: queue, clock: clock)
        scrape = MetricsRoute(metrics: metrics, previews: previews, queue: queue)
        heapTrim = HeapTrim(clock: clock, metrics: metrics) { [queue, images] in
            await queue.jobsRunning == 0 && images.count == 0
        }
    }

    /// The application: the routes, with the queue as a service (stopped after the HTTP server on
    /// graceful shutdown, so accepted work is finished or kept).
    public func makeApplication(onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        if keys.client.count == 0 && keys.operator.count == 0 {
            logger.warning(
                "no client or operator key configured (DESKKIT_API_KEYS, DESKKIT_OPERATOR_KEYS): /v1/preview and /v1/decode answer 401 to everyone"
            )
        }
        if keys.operator.count == 0 {
            logger.warning(
                "no operator key configured (DESKKIT_OPERATOR_KEYS): the console's routes (/v1/queue, /v1/jobs, /v1/refusals, /v1/inspect, DELETE /v1/previews) answer 401, and 403 to a client key; /metrics opens to a metrics key only"
            )
        }
        let limits = configuration.clients
        let connections = ClientDeadlineHandler.OpenConnections()
        let metrics = metrics
        return Application(
            router: makeRouter(),
            // Slow clients are cut off here, not by a proxy the server may not have (``ClientLimits``).
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [
                        ClientDeadlineHandler(limits: limits, connections: connections, metrics: metrics)
                    ])),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "deskkit"),
            // The image proxy's fetches are children of a service; a shared cache that is told of answers
            // (PostgreSQL's) listens as one.
            services: [queue, images, heapTrim] + [previews.sharedCache as? any Service].compactMap { $0 },
            onServerRunning: onServerRunning,
            logger: logger)
    }

    /// Runs the application until SIGTERM or SIGINT, then stops within the shutdown grace
    /// (`JobQueueConfiguration.shutdownGrace`): requests and jobs still running when it ends are cut
    /// (503 with `Retry-After`; jobs back in the store), and whatever still holds on is cancelled 2 seconds
    /// later. `services` (a telemetry exporter) start before the application and stop after it.
    public func run(
        beside services: [any Service] = [], onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) async throws {
        var group = ServiceGroupConfiguration(
            services: services + [makeApplication(onServerRunning: onServerRunning)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        group.maximumGracefulShutdownDuration = configuration.queue.shutdownGrace + .seconds(2)
        try await ServiceGroup(configuration: group).run()
    }

    /// Query parameters a span never holds the value of, should a caller put a secret in the URL.
    static let secretQueryParameters: Set<String> = ["key", "api_key", "token", "access_token", "signature"]

    /// The routes: the webhook (signed) and the balancer's health check are open; the work routes need a key of
    /// their kind (`AccessKeys`) and keep to its rate; the metrics need an operator's or a scraper's key. The
    /// webhook and `/v1/*` get a server span each when a tracer is bootstrapped (`InstrumentationSystem.bootstrap`)
    /// before the router is made. The routes work in any request context (`context`: an application's own, with its
    /// own fields); the server itself runs them in `BasicRequestContext`.
    public func makeRouter<Context: RequestContext>(context: Context.Type = BasicRequestContext.self)
        -> Router<Context>
    {
        // HEAD wherever GET is, with the GET's headers.
        let router = Router(context: Context.self, options: .autoGenerateHeadEndpoints)
        let routes = RouteTable()
        router.middlewares.add(RequestCounter(metrics: metrics))
        router.middlewares.add(ProblemAnswers(routes: routes))
        let webhook = WebhookRoute(
            queue: queue, previews: previews, metrics: metrics, activity: activity, logger: logger)
        // The work routes are traced (a server span each, OpenTelemetry's HTTP conventions): /v1/* continues
        // a caller's `traceparent`; health checks, metrics and the document are not. Without a tracer the
        // middleware is left out: its attributes and closures alone cost 15 % of the webhook rate.
        let tracing =
            InstrumentationSystem.tracer is NoOpTracer
            ? nil : TracingMiddleware<Context>(redactingQueryParameters: Self.secretQueryParameters)
        let webhooks = router.group("/webhooks/sendbird")
        if let tracing { webhooks.add(middleware: tracing) }
        webhooks
            .add(
                middleware: SignatureCheck(
                    token: configuration.apiToken, maxBodyBytes: configuration.maxBodyBytes, metrics: metrics,
                    logger: logger)
            )
            .post { request, _ in try await webhook.handle(request) }
        router.get("/health") { _, _ in await health.handle() }
        let contract = OpenAPIRoute(routes: routes, publicURL: configuration.publicURL)
        router.get("/openapi.yaml") { _, _ in contract.handle(as: "application/yaml") }
        router.get("/openapi.json") { _, _ in contract.handle(as: "application/json") }
        let schemas = SchemaRoute(publicURL: configuration.publicURL)
        router.get("/schemas/:file") { request, context in
            try schemas.handle(context.parameters.get("file"), host: request.head.authority)
        }
        let preview = PreviewRoute(
            previews: previews, images: configuration.cardImages, metrics: metrics, grace: grace)
        let decode = DecodeRoute()
        let forget = ForgetRoute(previews: previews, audit: audit)
        let links: QueueRoute.PreviewLinks = { [previews] in previews.linksToPreview(in: $0).map(\.href) }
        let inspect = InspectRoute(
            previews: previews, images: configuration.cardImages, grace: grace, store: queue.store, links: links)
        let operations = QueueRoute(queue: queue, previews: links, activity: activity, audit: audit)
        let refusals = RefusalsRoute(activity: activity)
        // `/v1` routes traced, behind keys of the kinds given and the rates given.
        let keyed = { [keys] (opens: Set<AccessKeys.Kind>, limiters: [RateLimiter]) in
            let group = router.group("/v1")
            if let tracing { group.add(middleware: tracing) }
            return group.add(middleware: BearerAuthentication(keys: keys, opens: opens, limiters: limiters))
        }
        // A chat backend's routes open to a client key and to an operator's; the console's to an operator key only.
        keyed([.client, .operator], [limiter])
            .post("preview") { request, _ in try await preview.handle(request) }
            .post("decode") { request, _ in try await decode.handle(request) }
        keyed([.operator], [limiter])
            .delete("previews") { request, _ in try await forget.handle(request) }
            .get("queue") { _, _ in try await operations.summary() }
            .get("jobs") { request, _ in try await operations.list(request) }
            .post("jobs/retry") { request, _ in try await operations.retryAll(request) }
            .post("jobs/:message_id/retry") { _, context in
                try await operations.retry(try context.parameters.require("message_id"))
            }
            .get("refusals") { _, _ in refusals.handle() }
        // The inspector fetches past the caches: a rate of its own besides the keys'.
        keyed([.operator], [limiter, inspections])
            .get("inspect") { request, _ in try await inspect.handle(request) }
        // The operator's console: files, open; what it shows comes from the routes above, with an operator key.
        let console = ConsoleRoute()
        router.get("/console") { _, _ in try console.handle(nil) }
        router.get("/console/:file") { _, context in try console.handle(context.parameters.get("file")) }
        // The image proxy is open: a URL's signature is its authorisation.
        if let signer = configuration.imageProxy {
            let proxy = ImageProxyRoute(
                signer: signer, downloads: images, maxAge: configuration.imageMaxAge, metrics: metrics,
                logger: logger)
            router.get("/images/:signature/:url") { request, context in
                try await proxy.handle(request, context: context)
            }
            router.head("/images/:signature/:url") { request, context in
                try await proxy.handle(request, context: context)
            }
        }
        router.group("/metrics")
            .add(middleware: BearerAuthentication(keys: keys, opens: [.operator, .metrics], limiters: []))
            .get { _, _ in try await scrape.handle() }
        routes.fill(router.routes.map { (path: $0.path.description, method: $0.method.rawValue) })
        return router
    }
}
