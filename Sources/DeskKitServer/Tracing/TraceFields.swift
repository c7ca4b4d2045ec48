import DeskKitJobStore
import DeskKitModel
import NIOHTTP1
import Tracing

/// A trace's propagation fields (W3C `traceparent` and `tracestate`, or whatever the bootstrapped
/// instrument propagates) written into and read from what carries them across a store or to another service.
enum TraceFields {
    /// The fields of the current context, as ``EnrichmentJob/traceContext`` keeps them; empty when no tracer
    /// is bootstrapped.
    static func fields() -> [String: String] {
        guard let context = ServiceContext.current else { return [:] }
        var fields: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &fields, using: DictionaryCarrier())
        return fields
    }

    /// The context `fields` continue: the span they name as a remote parent; a new trace when there is none.
    static func context(from fields: [String: String]) -> ServiceContext {
        var context = ServiceContext.topLevel
        if !fields.isEmpty {
            InstrumentationSystem.instrument.extract(fields, into: &context, using: DictionaryCarrier())
        }
        return context
    }

    /// Writes the current context's fields into `headers` (for the Platform API only: never to a page).
    static func inject(into headers: inout HTTPHeaders) {
        guard let context = ServiceContext.current else { return }
        InstrumentationSystem.instrument.inject(context, into: &headers, using: HeadersCarrier())
    }

    private struct DictionaryCarrier: Injector, Extractor {
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
        func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
    }

    private struct HeadersCarrier: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout HTTPHeaders) {
            carrier.replaceOrAdd(name: key, value: value)
        }
    }
}
