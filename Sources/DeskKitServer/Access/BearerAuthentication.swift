import HTTPTypes
import Hummingbird

/// Lets a request through only with `Authorization: Bearer KEY` for a key of a kind the route opens to
/// (`AccessKeys`, RFC 6750), then, when it has a limiter, only while that key's bucket has a token; the route runs
/// with the key's name and kind as `RequestKey.current`.
///
/// Refusals are ``RequestProblem``s with a JSON body saying what is wrong:
/// - **401** with `WWW-Authenticate: Bearer realm="deskkit"` when there is no `Authorization` header, or
///   the server has no key of a kind the route opens to (nothing is open by default); with
///   `error="invalid_request"` when the header is not one bearer token, or a key is sent in the query string
///   (`access_token`, `api_key`…, where logs and proxies keep it); with `error="invalid_token"` when the key is none
///   of the server's.
/// - **403** with `error="insufficient_scope"` when the key is the server's but of another kind: the problem says
///   which kind the route needs and which the key is (by its name, never the key).
/// - **429** with `Retry-After` (whole seconds) when the key has used its rate.
///
/// The key is never logged, nor echoed in an answer.
struct BearerAuthentication<Context: RequestContext>: RouterMiddleware {
    let keys: AccessKeys
    /// The kinds of key the routes behind it open to.
    let opens: Set<AccessKeys.Kind>
    /// The rates a key keeps to, each taken from in turn (the keys' rate, and the inspector's own).
    let limiters: [RateLimiter]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let (key, kind) = try authenticate(request)
        for limiter in limiters {
            guard let wait = limiter.take(for: key) else { continue }
            let seconds = max(1, Int((wait / .seconds(1)).rounded(.up)))
            let rate = limiter.configuration
            throw RequestProblem(
                .tooManyRequests,
                "this key's rate is \(rate.perSecond) \(rate.unit) a second (bursts of \(rate.burst)); retry in \(seconds) s",
                headers: [.retryAfter: "\(seconds)"])
        }
        return try await RequestKey.$current.withValue(RequestKey(name: key.name, kind: kind)) {
            try await next(request, context)
        }
    }

    /// The request's key and its kind, one the route opens to, or the refusal.
    func authenticate(_ request: Request) throws(RequestProblem) -> (APIKeys.Key, AccessKeys.Kind) {
        if let query = request.uri.query,
            query.split(separator: "&").contains(where: {
                keyParameters.contains($0.prefix { $0 != "=" }.lowercased())
            })
        {
            throw Self.unauthorized(
                "invalid_request", "an API key goes in the Authorization header, never in the URL (logs keep URLs)")
        }
        let needed = Self.needed(opens)
        guard opens.contains(where: { keys.keys(of: $0).count > 0 }) else {
            throw Self.unauthorized(
                nil,
                "this server has no \(Self.kinds(opens)) key configured (\(Self.settings(opens))): the route is closed")
        }
        let fields = request.headers[values: .authorization]
        guard let field = fields.first else {
            throw Self.unauthorized(nil, "\(needed) is required: Authorization: Bearer KEY")
        }
        guard fields.count == 1, let token = Self.bearerToken(field) else {
            throw Self.unauthorized("invalid_request", "the Authorization header is not \"Bearer\" and one key")
        }
        guard let (key, kind) = keys.match(token) else {
            throw Self.unauthorized("invalid_token", "the API key is not one of this server's")
        }
        guard opens.contains(kind) else {
            var problem = RequestProblem(
                .forbidden, "this route needs \(needed); the key presented (\"\(key.name)\") is a \(kind) key",
                headers: [.wwwAuthenticate: #"Bearer realm="deskkit", error="insufficient_scope""#])
            problem.fields = [
                .init(
                    key: "needs",
                    value: .array(AccessKeys.Kind.allCases.filter(opens.contains).map { .string($0.rawValue) })),
                .init(key: "key", value: ["name": .string(key.name), "kind": .string(kind.rawValue)]),
            ]
            throw problem
        }
        return (key, kind)
    }

    /// "operator", "client or operator".
    static func kinds(_ kinds: Set<AccessKeys.Kind>) -> String {
        AccessKeys.Kind.allCases.filter(kinds.contains).map(\.rawValue).joined(separator: " or ")
    }

    /// "an operator key", "a client or an operator key".
    static func needed(_ kinds: Set<AccessKeys.Kind>) -> String {
        let names = AccessKeys.Kind.allCases.filter(kinds.contains).map { $0 == .operator ? "an operator" : "a \($0)" }
        return names.joined(separator: " or ") + " key"
    }

    /// The settings that give keys of those kinds.
    static func settings(_ kinds: Set<AccessKeys.Kind>) -> String {
        AccessKeys.Kind.allCases.filter(kinds.contains).map {
            switch $0 {
            case .client: "DESKKIT_API_KEYS"
            case .operator: "DESKKIT_OPERATOR_KEYS"
            case .metrics: "DESKKIT_METRICS_KEYS"
            }
        }.joined(separator: " or ")
    }

    /// The token of `Bearer TOKEN` (the scheme in any case, one or more spaces), when the rest is one
    /// RFC 6750 token.
    static func bearerToken(_ field: String) -> Substring.UTF8View? {
        let utf8 = Substring(field).utf8
        let scheme = utf8.prefix { $0 != UInt8(ascii: " ") }
        guard scheme.elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 }) else { return nil }
        let token = utf8[scheme.endIndex...].drop { $0 == UInt8(ascii: " ") }
        guard APIKeys.isToken(token) else { return nil }
        return token
    }

    static func unauthorized(_ error: String?, _ message: String) -> RequestProblem {
        let challenge = #"Bearer realm="deskkit""# + (error.map { #", error="\#($0)""# } ?? "")
        return RequestProblem(.unauthorized, message, headers: [.wwwAuthenticate: challenge])
    }
}

/// The query parameters a key would be sent in by a client that does not use the header.
private let keyParameters: Set<String> = ["access_token", "api_key", "apikey", "api-key", "key", "token"]
