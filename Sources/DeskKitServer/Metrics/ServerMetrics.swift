import CoreMetrics
import DeskKitJobs
import DeskKitModel
import DeskKitPreview
import Prometheus

/// The server's metrics, counted through a swift-metrics factory: each event once, where it happens (the
/// preview service counts its own, `PreviewService`'s metrics, through the same factory).
///
/// By default a Prometheus registry of the server's own (so several servers in one process, as in the tests,
/// keep separate figures), served at `GET /metrics` in Prometheus' text format; with ``init(factory:)``, any
/// swift-metrics backend (StatsD, OpenTelemetry…), which exports them itself — `GET /metrics` then answers 404.
public struct ServerMetrics: Sendable {
    /// Where every counter and gauge goes.
    package let factory: any MetricsFactory
    /// The text `GET /metrics` answers, for a Prometheus registry; nil for another backend.
    let exposition: (@Sendable () -> String)?
    /// `deskkit_http_requests_in_flight`: requests received and not yet answered.
    let requestsInFlight: Meter

    /// Metrics in a Prometheus registry of their own, served at `GET /metrics` (what `deskkit serve` uses).
    public init() {
        let registry = PrometheusCollectorRegistry()
        self.init(factory: PrometheusMetricsFactory(registry: registry), exposition: { registry.emitToString() })
    }

    /// Metrics counted by `factory`, any swift-metrics backend, which exports them: `GET /metrics` answers 404.
    public init(factory: any MetricsFactory) {
        self.init(factory: factory, exposition: nil)
    }

    private init(factory: any MetricsFactory, exposition: (@Sendable () -> String)?) {
        self.factory = factory
        self.exposition = exposition
        requestsInFlight = Meter(label: "deskkit_http_requests_in_flight", factory: factory)
    }

    func count(_ name: String, _ dimensions: [(String, String)] = [], by amount: Int = 1) {
        Counter(label: name, dimensions: dimensions, factory: factory).increment(by: amount)
    }

    /// `deskkit_http_requests_total{route, status}`.
    func request(route: String, status: Int) {
        count("deskkit_http_requests_total", [("route", route), ("status", String(status))])
    }

    /// The `outcome` of `deskkit_webhooks_total`: what became of a webhook.
    enum Webhook: String {
        case queued, duplicate, ignored
        case badSignature = "bad_signature", badRequest = "bad_request", tooLarge = "too_large"
        case queueFull = "queue_full", storeUnavailable = "store_unavailable", shuttingDown = "shutting_down"
    }

    /// `deskkit_connections_closed_total{reason}`: a connection cut for a limit of ``ClientLimits``.
    func connectionCut(_ reason: String) { count("deskkit_connections_closed_total", [("reason", reason)]) }

    /// `deskkit_connections_open`: the connections open now.
    func openConnections(_ open: Int) { Gauge(label: "deskkit_connections_open", factory: factory).record(open) }

    /// `deskkit_webhooks_total{outcome}`.
    func webhook(_ outcome: Webhook) { count("deskkit_webhooks_total", [("outcome", outcome.rawValue)]) }

    /// `deskkit_previews_total{outcome}`: the previews a job or a request got for its links (`ok`), links
    /// the site policy refused (`policy`), or failed fetches (`error`; why is counted once, at the fetch:
    /// `deskkit_fetch_errors_total{kind}`).
    func previews(_ results: [Result<URLPreview, FetchError>]) {
        for result in results {
            let outcome =
                switch result {
                case .success: "ok"
                case .failure(let e) where e.kind == .policy: "policy"
                case .failure: "error"
                }
            count("deskkit_previews_total", [("outcome", outcome)])
        }
    }

    /// `deskkit_proxied_images_total{outcome}`: images passed on (`ok`), answered not modified
    /// (`not_modified`), unknown signatures (`not_found`), or the kind of fetch error that refused one.
    func proxiedImage(_ outcome: String) { count("deskkit_proxied_images_total", [("outcome", outcome)]) }

    /// `deskkit_platform_api_requests_total{status}` (the HTTP status, or `error` without one); the retries
    /// are `deskkit_jobs_total{outcome="retry_scheduled"}`.
    func platformAPI(status: Int?) {
        count("deskkit_platform_api_requests_total", [("status", status.map(String.init) ?? "error")])
    }

    /// `deskkit_queue_depth`, `deskkit_jobs_in_flight` and, with a store, `deskkit_store_jobs{state}`
    /// (every instance's jobs) and `deskkit_store_up` (1 when the store answered).
    func queue(_ figures: QueueFigures) {
        Gauge(label: "deskkit_queue_depth", factory: factory).record(figures.depth)
        Gauge(label: "deskkit_jobs_in_flight", factory: factory).record(figures.running)
        if let states = figures.states {
            for (state, n) in states {
                Gauge(label: "deskkit_store_jobs", dimensions: [("state", state.rawValue)], factory: factory).record(n)
            }
        }
        if figures.states != nil || figures.storeError != nil {
            Gauge(label: "deskkit_store_up", factory: factory).record(figures.storeError == nil ? 1 : 0)
        }
    }

    /// What the preview service holds now, for an operator watching memory over months:
    /// `deskkit_preview_cache_entries`, `deskkit_fetch_hosts_fetching` (hosts with fetches running or
    /// waiting) and `deskkit_fetch_hosts_connected` (hosts whose connections are kept, idle or in use).
    func held(cacheEntries: Int, hostsFetching: Int, hostsConnected: Int) {
        Gauge(label: "deskkit_preview_cache_entries", factory: factory).record(cacheEntries)
        Gauge(label: "deskkit_fetch_hosts_fetching", factory: factory).record(hostsFetching)
        Gauge(label: "deskkit_fetch_hosts_connected", factory: factory).record(hostsConnected)
    }

    /// The process's memory now, read at the scrape: `process_resident_memory_bytes` (the name Prometheus' own
    /// clients give it), `deskkit_heap_in_use_bytes` (allocated and not freed) and `deskkit_heap_free_bytes`
    /// (freed and kept by glibc's allocator: what a peak leaves). What the system does not tell is left out.
    func memory(_ memory: ProcessMemory) {
        if let resident = memory.resident {
            Gauge(label: "process_resident_memory_bytes", factory: factory).record(resident)
        }
        if let inUse = memory.heapInUse, let free = memory.heapFree {
            Gauge(label: "deskkit_heap_in_use_bytes", factory: factory).record(inUse)
            Gauge(label: "deskkit_heap_free_bytes", factory: factory).record(free)
        }
    }

    /// A trim of the heap (``HeapTrim``) that gave `bytes` of resident memory back in `took`, at a quiet moment
    /// or not: `deskkit_heap_trims_total{moment}` (`quiet`, `busy`), `deskkit_heap_trimmed_bytes_total`,
    /// `deskkit_heap_trim_seconds_total` (what the trims cost: each arena's lock is held while it is trimmed).
    func heapTrimmed(bytes: Int, took: Duration, quiet: Bool) {
        count("deskkit_heap_trims_total", [("moment", quiet ? "quiet" : "busy")])
        count("deskkit_heap_trimmed_bytes_total", by: bytes)
        FloatingPointCounter(label: "deskkit_heap_trim_seconds_total", factory: factory).increment(
            by: took / .seconds(1))
    }

}
