import Logging
#if OTLPTracing
    import OTel
#endif
import ServiceLifecycle
import Tracing

/// The traces of `deskkit serve`: exported over OTLP by swift-otel when the standard `OTEL_*` variables ask
/// for an exporter, off otherwise (no tracer bootstrapped: every span is a no-op).
///
/// On when `OTEL_TRACES_EXPORTER=otlp` or an OTLP endpoint is set
/// (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`); off when `OTEL_SDK_DISABLED=true` or
/// `OTEL_TRACES_EXPORTER=none`. swift-otel reads the rest (`OTEL_EXPORTER_OTLP_PROTOCOL`, `OTEL_SERVICE_NAME`,
/// `OTEL_TRACES_SAMPLER`, `OTEL_BSP_*`, …). Metrics stay Prometheus's and logs swift-log's; a log line
/// written in a span carries its `trace_id` and `span_id`.
enum ServeTracing {
    /// Whether `environment` asks for traces.
    static func isRequested(by environment: [String: String]) -> Bool {
        if environment["OTEL_SDK_DISABLED"]?.lowercased() == "true" { return false }
        if let exporter = environment["OTEL_TRACES_EXPORTER"] { return exporter.lowercased() != "none" }
        return ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"].contains {
            environment[$0]?.isEmpty == false
        }
    }

    /// Bootstraps the tracer when `environment` asks for one: returns the exporter's service (to run beside
    /// the server, stopped after it so the last spans go out) and the log metadata that names the current
    /// span; nil when tracing is off.
    static func bootstrap(environment: [String: String]) throws -> (
        service: any Service, logMetadata: Logger.MetadataProvider
    )? {
        guard isRequested(by: environment) else { return nil }
        if let exporter = environment["OTEL_TRACES_EXPORTER"], exporter.lowercased() != "otlp" {
            throw ServeTracingError(
                description: "OTEL_TRACES_EXPORTER=\(exporter): deskkit exports traces over OTLP only (otlp or none)")
        }
        #if OTLPTracing
            var configuration = OTel.Configuration.default
            configuration.serviceName = "deskkit"
            configuration.traces.enabled = true
            configuration.metrics.enabled = false
            configuration.logs.enabled = false
            let backend = try OTel.makeTracingBackend(configuration: configuration)
            InstrumentationSystem.bootstrap(backend.factory)
            return (backend.service, OTel.makeLoggingMetadataProvider())
        #else
            throw ServeTracingError(
                description: "this deskkit was built without the OTLPTracing trait: it cannot export traces")
        #endif
    }
}

/// Tracing settings `deskkit serve` cannot follow.
struct ServeTracingError: Error, CustomStringConvertible {
    var description: String
}
