import Tracing

/// A job's trace context as the store keeps it: the W3C fields (`traceparent`, `tracestate`) of the span
/// that made the job, so that whichever process claims it continues that trace.
enum JobTrace {
    /// The current span's context as fields, for a job admitted now.
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

    private struct DictionaryCarrier: Injector, Extractor {
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
        func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
    }
}
