import CoreMetrics
import DeskKitFetchPolicy

/// What the preview service counts, each event once, where it happens, through a swift-metrics factory
/// (any backend: `deskkit serve` gives it a Prometheus registry of its own; by default the one bootstrapped
/// in `MetricsSystem`, a no-op until a program bootstraps one):
///
/// - `deskkit_preview_requests_total`: cards asked for;
/// - `deskkit_preview_cache_hits_total`: answered from this service's cache;
/// - `deskkit_preview_joined_fetches_total`: answered by a fetch of the same URL already under way;
/// - `deskkit_preview_shared_cache_hits_total`: answered from the cache services share;
/// - `deskkit_preview_shared_cache_errors_total{operation}`: a look-up or a store of that cache that failed
///   (`lookup`, `store`): the service fetched the page itself or kept its answer to itself;
/// - `deskkit_preview_fetches_total`: pages fetched;
/// - `deskkit_fetch_errors_total{kind}`: fetches that failed, by `FetchError.Kind` (a cancelled fetch is
///   `cancelled`);
/// - `deskkit_refusals_total{kind, provider}`: of those, the pages that stood in for the page asked (a bot
///   check, a wall, an error page, a parked domain, an app shell, a notice), with who ran them when known;
/// - `deskkit_site_probes_total{outcome}`: made-up addresses asked of a site (`SiteProbeAnswer`): `answered`,
///   or `failed` (a time-out, a refused address);
/// - `deskkit_site_probe_cache_hits_total`: a site's answer taken from the ones kept.
struct PreviewMetrics: Sendable {
    let requests: Counter
    let cacheHits: Counter
    let joinedFetches: Counter
    let sharedCacheHits: Counter
    let fetches: Counter
    let siteProbeCacheHits: Counter
    private let factory: any MetricsFactory

    init(factory: any MetricsFactory) {
        self.factory = factory
        requests = Counter(label: "deskkit_preview_requests_total", factory: factory)
        cacheHits = Counter(label: "deskkit_preview_cache_hits_total", factory: factory)
        joinedFetches = Counter(label: "deskkit_preview_joined_fetches_total", factory: factory)
        sharedCacheHits = Counter(label: "deskkit_preview_shared_cache_hits_total", factory: factory)
        fetches = Counter(label: "deskkit_preview_fetches_total", factory: factory)
        siteProbeCacheHits = Counter(label: "deskkit_site_probe_cache_hits_total", factory: factory)
    }

    /// A made-up address asked of a site, by `outcome`: `answered` or `failed`.
    func siteProbed(_ outcome: String) {
        Counter(label: "deskkit_site_probes_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    /// A look-up or a store of the shared cache that failed (`operation`: `lookup` or `store`).
    func sharedCacheFailed(_ operation: String) {
        Counter(
            label: "deskkit_preview_shared_cache_errors_total", dimensions: [("operation", operation)], factory: factory
        )
        .increment()
    }

    /// A fetch that failed with `error`.
    func fetchFailed(_ error: FetchError) {
        Counter(label: "deskkit_fetch_errors_total", dimensions: [("kind", error.kind.rawValue)], factory: factory)
            .increment()
        if error.kind.isRefusal {
            Counter(
                label: "deskkit_refusals_total",
                dimensions: [("kind", error.kind.rawValue), ("provider", error.provider ?? "")], factory: factory
            ).increment()
        }
    }
}
