import DeskKitFetchPolicy
import DeskKitURL
import Tracing

/// Runs `work` in a span named `operation` (swift-distributed-tracing, with the tracer the process
/// bootstrapped; none: a no-op), the span current while it runs and ended when it returns. An error is
/// recorded on the span (status error, `error.type` its kind for a ``FetchError``) and thrown as it was.
package func traced<T, E: Error>(
    _ operation: String, ofKind kind: SpanKind = .internal, context: ServiceContext? = nil,
    isolation: isolated (any Actor)? = #isolation, _ work: (any Span) async throws(E) -> T
) async throws(E) -> T {
    let span = startSpan(operation, context: context ?? .current ?? .topLevel, ofKind: kind)
    defer { span.end() }
    let result: Result<T, E> = await ServiceContext.$current.withValue(
        span.context,
        operation: {
            do throws(E) { return .success(try await work(span)) } catch { return .failure(error) }
        }, isolation: isolation)
    if case .failure(let error) = result { span.record(error) }
    return try result.get()
}

extension Span {
    /// Marks the span failed with `error`: an exception event, status error, and `error.type` (a
    /// ``FetchError``'s kind, else the error's type).
    package func record(_ error: any Error) {
        guard isRecording else { return }
        recordError(error)
        setStatus(.init(code: .error, message: "\(error)"))
        attributes["error.type"] = (error as? FetchError)?.kind.rawValue ?? "\(type(of: error))"
    }
}

/// URLs as spans may hold them: without a user name or password, each query value written `REDACTED`
/// and no fragment (OpenTelemetry's HTTP conventions for `url.full`: a link's query may carry a token).
package enum SpanURL {
    /// `url` without credentials, query values or fragment: `https://user:pw@host/p?token=abc#x` is
    /// `https://host/p?token=REDACTED`. Split by `URLResolution` and on the bytes of `@`, `&` and `=`, so a
    /// delimiter followed by a combining mark (`=\u{301}`) still counts.
    package static func redacted(_ url: String) -> String {
        let parts = URLResolution.split(Substring(url))
        var out = ""
        if let scheme = parts.scheme { out += scheme + ":" }
        if let authority = parts.authority {
            let bytes = authority.utf8
            out += "//"
            out +=
                bytes.lastIndex(of: UInt8(ascii: "@")).map { Substring(bytes[bytes.index(after: $0)...]) } ?? authority
        }
        out += parts.path
        if let query = parts.query {
            out += "?"
            out += query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false).map { pair in
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return String(Substring(pair)) }
                return String(Substring(pair[..<equals])) + "=REDACTED"
            }.joined(separator: "&")
        }
        return out
    }
}
