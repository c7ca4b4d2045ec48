import DeskKitModel
import DeskKitPreview
import Hummingbird
import Logging

/// `GET` and `HEAD /images/{signature}/{url}`: a card's image, fetched by the server for the customer's browser
/// (``ImageURLSigner``). Open like the webhook: the signature is the authorisation.
///
/// A bad or unknown signature, or a URL that is not http(s), is 404 before any request leaves the server. The
/// image is fetched through the page fetcher's address guard, site policy and redirect rules, with no cookie or
/// credential and none of the client's headers but `If-None-Match` and `If-Modified-Since`; it asks for the
/// formats every browser draws with one fixed `Accept` (not the client's: the answer is `public` to shared
/// caches, which must not hand one client a format another asked for); its type is read from its bytes (JPEG,
/// PNG, GIF, WebP, AVIF, ICO pass), its pixels and bytes are capped, and it streams to the client with headers
/// that keep a browser from reading it as anything but an image.
///
/// Open to anyone, its refusals name their kind and never what the operator's network resolved (an address,
/// a host name, a port): the full reason is logged.
struct ImageProxyRoute: Sendable {
    let signer: ImageURLSigner
    let downloads: ImageDownloads
    /// The longest `max-age` passed on (``ServerConfiguration/imageMaxAge``).
    let maxAge: Duration
    let metrics: ServerMetrics
    let logger: Logger

    /// The headers of every answer: no sniffing, no script or style from the image, no referrer, sandboxed.
    static let safetyHeaders: HTTPFields = [
        .init("X-Content-Type-Options")!: "nosniff",
        .contentSecurityPolicy: "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
        .init("Referrer-Policy")!: "no-referrer",
    ]

    func handle(_ request: Request, context: some RequestContext) async throws(RequestProblem) -> Response {
        guard let signature = context.parameters.get("signature"), let encoded = context.parameters.get("url"),
            let url = signer.verifiedURL(signature: signature[...], url: encoded[...])
        else {
            metrics.proxiedImage("not_found")
            throw RequestProblem(.notFound, "no such image", headers: Self.safetyHeaders)
        }
        let subscription = downloads.subscribe(
            ImageRequest(
                url: url, ifNoneMatch: request.headers[.ifNoneMatch], ifModifiedSince: request.headers[.ifModifiedSince]
            ))
        let head: ImageHead
        switch await subscription.head() {
        case .success(let answer): head = answer
        case .failure(let error):
            subscription.leave()
            metrics.proxiedImage(error.kind.rawValue)
            logger.info(
                "image refused",
                metadata: ["url": .string(LinkPrivacy.masked(url)), "error": .string(error.description)])
            throw Self.problem(error)
        }
        var headers = Self.safetyHeaders
        headers[.cacheControl] = "public, max-age=\(Int(min(head.maxAge ?? maxAge, maxAge) / .seconds(1)))"
        if let etag = head.etag { headers[.eTag] = etag }
        if let lastModified = head.lastModified { headers[.lastModified] = lastModified }
        if head.status == 304 {
            subscription.leave()
            metrics.proxiedImage("not_modified")
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = head.mediaType
        if let length = head.contentLength { headers[.contentLength] = String(length) }
        metrics.proxiedImage("ok")
        guard request.method != .head else {
            subscription.leave()
            // No body, and no length but the origin's (an empty body would say 0).
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody(contentLength: head.contentLength) { try await $0.finish(nil) })
        }
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(contentLength: head.contentLength) { writer in
                defer { subscription.leave() }
                while let buffer = try await subscription.next() { try await writer.write(buffer) }
                try await writer.finish(nil)
            })
    }

    /// The answer to a fetch that failed: 415 for bytes that are no image passed on, 403 for a host the guard
    /// or the site policy refuses, 504 for a time-out, 502 for the rest (the origin's status, too many bytes or
    /// pixels, a broken connection, a redirect to what is no web URL); `{"error": {"kind", "detail"}}`, the
    /// detail a fixed sentence for the kind.
    static func problem(_ error: FetchError) -> RequestProblem {
        let (status, detail): (HTTPResponse.Status, String) =
            switch error.kind {
            case .notAnImage: (.unsupportedMediaType, "the origin's answer is not an image this server passes on")
            case .blockedAddress: (.forbidden, "the image's host is not one this server may reach")
            case .policy: (.forbidden, "the image's site is refused by this server's policy")
            case .timeout: (.gatewayTimeout, "the image's origin did not answer in time")
            case .tooLarge: (.badGateway, "the image is larger than this server passes on")
            default: (.badGateway, "the image's origin could not be read")
            }
        return RequestProblem(
            status, error: ["kind": .string(error.kind.rawValue), "detail": .string(detail)], headers: safetyHeaders)
    }
}
