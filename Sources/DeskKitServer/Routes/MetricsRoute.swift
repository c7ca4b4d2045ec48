import DeskKitPreview
import Hummingbird
import Synchronization

/// `GET /metrics`, behind an API key: Prometheus' text format.
final class MetricsRoute: Sendable {
    let metrics: ServerMetrics
    let previews: PreviewService
    let queue: JobQueue
    /// The preview statistics at the last scrape, to count the difference.
    let cacheFigures = Mutex(PreviewService.Statistics())

    init(metrics: ServerMetrics, previews: PreviewService, queue: JobQueue) {
        self.metrics = metrics
        self.previews = previews
        self.queue = queue
    }

    func handle() async -> Response {
        let now = await previews.statistics
        let before = cacheFigures.withLock { figures in
            defer { figures = now }
            return figures
        }
        metrics.cache(now, since: before)
        metrics.held(
            cacheEntries: await previews.cachedCount, hostsFetching: await previews.hostsInFlight,
            hostsConnected: previews.fetcher.hostsWithConnections)
        metrics.queue(await queue.figures())
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
    }
}
