import NIOHTTP1
import Tracing

/// A trace's propagation fields (W3C `traceparent` and `tracestate`, or whatever the bootstrapped
/// instrument propagates) written into a request to another service (a job's own are DeskKitJobs').
enum TraceFields {
    /// Writes the current context's fields into `headers` (for the Platform API only: never to a page).
    static func inject(into headers: inout HTTPHeaders) {
        guard let context = ServiceContext.current else { return }
        InstrumentationSystem.instrument.inject(context, into: &headers, using: HeadersCarrier())
    }

    private struct HeadersCarrier: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout HTTPHeaders) {
            carrier.replaceOrAdd(name: key, value: value)
        }
    }
}
