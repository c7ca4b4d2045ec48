import DeskKitModel
import DeskKitPreview
import Hummingbird

/// `POST /v1/preview`, behind an API key and its rate.
struct PreviewRoute: Sendable {
    /// The largest body: 64 KiB.
    static let maxRequestBytes = 64 * 1024
    let previews: PreviewService
    /// Names the cards' images through the image proxy, when it is configured.
    let images: CardImages
    let metrics: ServerMetrics
    /// The shutdown grace: a request still fetching when it ends is answered 503.
    let grace: ShutdownGrace

    /// `{"text": …}` (previews of its links) or `{"url": …}` (one preview), and optionally `"language"` (a tag
    /// such as `ru`, or an `Accept-Language` list: the pages are asked for it instead of the server's
    /// `--accept-language`) → `{"previews": [{"link", "url", "data", "payload", "details", "error"}]}`; `data`
    /// is the `SENDBIRD_DESK_URL_PREVIEW` data string, `details` ``PreviewDetails`` (the image's size and type,
    /// the oEmbed answer's kind and provider…).
    func handle(_ request: Request) async throws(RequestProblem) -> Response {
        try ContentTypeCheck.json.check(request)
        var request = request
        guard let body = try? await request.collectBody(upTo: Self.maxRequestBytes) else {
            throw RequestProblem(.contentTooLarge, "the body is over \(Self.maxRequestBytes) bytes")
        }
        let parsed = Array(body.readableBytesView).withUnsafeBufferPointer { JSONValue.parseResult($0) }
        guard case .success(.object(let object)) = parsed else {
            throw RequestProblem(.badRequest, "the body is not a JSON object")
        }
        var language: AcceptLanguage?
        switch object["language"] {
        // An empty tag is no tag: the server's own languages, as when the field is left out.
        case nil, .null?, .string("")?: break
        case .string(let text)?:
            do throws(AcceptLanguage.Problem) { language = try AcceptLanguage(text) } catch {
                throw RequestProblem(.unprocessableContent, "\"language\": \(error)")
            }
        default: throw RequestProblem(.unprocessableContent, "\"language\" is not a string")
        }
        for field in ["url", "text"] {
            if let value = object[field], value.stringValue == nil {
                throw RequestProblem(.badRequest, "\"\(field)\" is not a string")
            }
        }
        let work: @Sendable () async -> [(String, String, Result<PreviewCard, FetchError>)]
        if case .string(let url)? = object["url"] {
            work = { [language] in [(url, url, await previews.card(for: url, language: language))] }
        } else if case .string(let text)? = object["text"] {
            let links = previews.linksToPreview(in: text)
            work = { [language] in
                zip(links, await previews.cards(for: links.map(\.href), language: language)).map {
                    ($0.text, $0.href, $1)
                }
            }
        } else {
            throw RequestProblem(.badRequest, "the body names neither \"text\" nor \"url\" (a string)")
        }
        // A server asked to stop answers within its grace, whatever the pages do.
        guard let results = await grace.run(work) else {
            throw RequestProblem(
                .serviceUnavailable, "the server is stopping; ask again", headers: [.retryAfter: "1"])
        }
        metrics.previews(results.map { $0.2.map(\.preview) })
        var items: [JSONValue] = []
        for (link, url, result) in results {
            switch result {
            case .success(let found):
                let card = images.written(found)
                let rich = RichPayload.urlPreview(card.preview)
                items.append([
                    "link": .string(link), "url": .string(url), "data": .string(DeskPayload.encode(rich)),
                    "payload": rich.json, "details": card.details.json, "error": .null,
                ])
            case .failure(let e):
                items.append([
                    "link": .string(link), "url": .string(url), "data": .null, "payload": .null, "details": .null,
                    "error": e.json,
                ])
            }
        }
        return .json(.ok, ["previews": .array(items)])
    }
}
