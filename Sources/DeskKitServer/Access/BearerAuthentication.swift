import HTTPTypes
import Hummingbird

/// Lets a request through only with `Authorization: Bearer KEY` for one of the server's ``APIKeys``
/// (RFC 6750), then, when it has a limiter, only while that key's bucket has a token.
///
/// Refusals are ``RequestProblem``s with a JSON body saying what is wrong:
/// - **401** with `WWW-Authenticate: Bearer realm="deskkit"` when there is no `Authorization` header, or
///   the server has no key configured (nothing is open by default); with `error="invalid_request"` when the
///   header is not one bearer token, or a key is sent in the query string (`access_token`, `api_key`…,
///   where logs and proxies keep it); with `error="invalid_token"` when the key is none of the server's.
/// - **429** with `Retry-After` (whole seconds) when the key has used its rate.
///
/// The key is never logged, nor echoed in an answer.
struct BearerAuthentication<Context: RequestContext>: RouterMiddleware {
    let keys: APIKeys
    let limiter: RateLimiter?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let key = try authenticate(request)
        if let limiter, let wait = limiter.take(for: key) {
            let seconds = max(1, Int((wait / .seconds(1)).rounded(.up)))
            throw RequestProblem(
                .tooManyRequests,
                "this key's rate is \(limiter.configuration.perSecond) requests a second (bursts of \(limiter.configuration.burst)); retry in \(seconds) s",
                headers: [.retryAfter: "\(seconds)"])
        }
        return try await next(request, context)
    }

    /// The request's key, one of ``keys``, or the refusal.
    func authenticate(_ request: Request) throws(RequestProblem) -> APIKeys.Key {
        if let query = request.uri.query,
            query.split(separator: "&").contains(where: {
                keyParameters.contains($0.prefix { $0 != "=" }.lowercased())
            })
        {
            throw Self.unauthorized(
                "invalid_request", "an API key goes in the Authorization header, never in the URL (logs keep URLs)")
        }
        guard keys.count > 0 else {
            throw Self.unauthorized(
                nil, "this server has no API key configured (DESKKIT_API_KEYS): the route is closed")
        }
        let fields = request.headers[values: .authorization]
        guard let field = fields.first else {
            throw Self.unauthorized(nil, "an API key is required: Authorization: Bearer KEY")
        }
        guard fields.count == 1, let token = Self.bearerToken(field) else {
            throw Self.unauthorized("invalid_request", "the Authorization header is not \"Bearer\" and one key")
        }
        guard let key = keys.match(token) else {
            throw Self.unauthorized("invalid_token", "the API key is not one of this server's")
        }
        return key
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
