import DeskKitPreview
import Hummingbird

/// `GET /metrics`, behind an API key: Prometheus' text format (404 when another metrics backend exports
/// them). The gauges of what is held now are read at the scrape; every counter is counted at its event.
final class MetricsRoute: Sendable {
    let metrics: ServerMetrics
    let previews: PreviewService
    let queue: EnrichmentQueue

    init(metrics: ServerMetrics, previews: PreviewService, queue: EnrichmentQueue) {
        self.metrics = metrics
        self.previews = previews
        self.queue = queue
    }

    func handle() async throws(RequestProblem) -> Response {
        guard let exposition = metrics.exposition else {
            throw RequestProblem(
                .notFound, "the metrics are exported by another swift-metrics backend, not served here")
        }
        metrics.held(
            cacheEntries: await previews.cachedCount, hostsFetching: await previews.hostsInFlight,
            hostsConnected: previews.fetcher.hostsWithConnections)
        metrics.queue(await queue.figures())
        metrics.memory(.now())
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: exposition())))
    }
}
