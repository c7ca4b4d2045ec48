import DeskKitModel
import DeskKitPreview
import Hummingbird

/// `GET /v1/inspect?url=…&language=…`, behind an API key: the whole story of one link's card
/// (``PreviewService/explain(_:language:)``) — each request with the site policy's and the address guard's verdicts,
/// the tags by source and the winner of each field, the image probe, the refusal with the signals read or the card
/// as the server would write it (its image through the image proxy), and what the cache holds for the link now.
/// The link is fetched again; nothing is cached of it (`DELETE /v1/previews` takes back what is).
struct InspectRoute: Sendable {
    let previews: PreviewService
    let images: CardImages
    let grace: ShutdownGrace

    func handle(_ request: Request) async throws(RequestProblem) -> Response {
        let url = try QueryURL.read(request, example: "GET /v1/inspect?url=…")
        var language: AcceptLanguage?
        if let text = request.uri.queryParameters.get("language"), !text.isEmpty {
            do throws(AcceptLanguage.Problem) { language = try AcceptLanguage(text) } catch {
                throw RequestProblem(.badRequest, "language: \(error)")
            }
        }
        let work: @Sendable () async -> PreviewExplanation = { [previews, language] in
            await previews.explain(url, language: language)
        }
        guard let explanation = await grace.run(work) else {
            throw RequestProblem(.serviceUnavailable, "the server is stopping; ask again", headers: [.retryAfter: "1"])
        }
        let written = (try? explanation.result.get()).map(images.written)
        return .json(.ok, explanation.json(written: written))
    }
}
