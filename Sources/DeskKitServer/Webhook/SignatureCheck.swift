import HTTPTypes
import Hummingbird
import Logging

/// Lets a webhook through only when its body (at most `maxBodyBytes`) is signed with the API token
/// (``WebhookSignature``): 413 for a larger body, 401 for a missing or wrong signature. The body is read
/// here, once; the route reads it again from memory.
struct SignatureCheck<Context: RequestContext>: RouterMiddleware {
    let token: String
    let maxBodyBytes: Int
    let metrics: ServerMetrics
    let logger: Logger

    /// The `WWW-Authenticate` of a refusal (RFC 9110 requires one with every 401): the header that carries the
    /// body's signature.
    static var challenge: String { #"Sendbird-Signature realm="deskkit", header="x-sendbird-signature""# }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var request = request
        guard let body = try? await request.collectBody(upTo: maxBodyBytes) else {
            metrics.webhook(.tooLarge)
            throw RequestProblem(.contentTooLarge, "the body is over \(maxBodyBytes) bytes")
        }
        let signature = request.headers[HTTPField.Name(WebhookSignature.headerName)!]
        guard WebhookSignature.isValid(signature, body: body.readableBytesView, token: token) else {
            metrics.webhook(.badSignature)
            logger.warning(
                "webhook with a missing or wrong signature", metadata: ["signature_present": "\(signature != nil)"])
            throw RequestProblem(
                .unauthorized, signature == nil ? "no \(WebhookSignature.headerName) header" : "wrong signature",
                headers: [.wwwAuthenticate: Self.challenge])
        }
        return try await next(request, context)
    }
}
