import DeskKitFetchPolicy
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
    /// `https://host/p?token=REDACTED`.
    package static func redacted(_ url: String) -> String {
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var out = ""
        if let scheme = rest.range(of: "://") {
            out += rest[..<scheme.upperBound]
            var authority = rest[scheme.upperBound...]
            let pathStart = authority.firstIndex(of: "/") ?? authority.endIndex
            let path = authority[pathStart...]
            authority = authority[..<pathStart]
            if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
            out += authority
            out += path
        } else {
            out += rest
        }
        if let query {
            out += "?"
            out += query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
                guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
                return pair[..<equals] + "=REDACTED"
            }.joined(separator: "&")
        }
        return out
    }
}
