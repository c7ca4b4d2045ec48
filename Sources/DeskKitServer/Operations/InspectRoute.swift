import DeskKitJobStore
import DeskKitModel
import DeskKitPreview
import Foundation
import Hummingbird

/// `GET /v1/inspect?url=…` or `?message_id=…&link=…`, behind an operator key and a rate of its own (each
/// inspection costs a fetch past the caches): the whole story of one link's card
/// (`PreviewService.explain(_:language:publicAddressesOnly:)`) — each request with the site policy's and the
/// address guard's verdicts, the tags by source and the winner of each field, the image probe, the site's answer to
/// a made-up address, the refusal with the signals read or the card as the server would write it (its image through
/// the image proxy), and what the cache holds for the link now. The link is fetched again; nothing is cached of it
/// (`DELETE /v1/previews` takes back what is).
///
/// It says no more than it needs:
/// - A typed `url` reaches public addresses only, even on a server started with `--allow-private`
///   (`DESKKIT_ALLOW_PRIVATE`): an operator key is no way to read intranet pages and ports. A message's own link,
///   named by its job (`message_id`, and `link`, its place among the job's links from 0), is fetched as the queue
///   fetches it, and shown whole (the lists show it masked, ``LinkPrivacy``).
/// - The address a refused host resolved to is withheld (`(address withheld)`) unless the operator asks for it
///   with `addresses=1`: an inspection is no way to map internal names.
struct InspectRoute: Sendable {
    let previews: PreviewService
    let images: CardImages
    let grace: ShutdownGrace
    let store: any JobStore
    let links: QueueRoute.PreviewLinks

    func handle(_ request: Request) async throws(RequestProblem) -> Response {
        let query = request.uri.queryParameters
        var language: AcceptLanguage?
        if let text = query.get("language"), !text.isEmpty {
            do throws(AcceptLanguage.Problem) { language = try AcceptLanguage(text) } catch {
                throw RequestProblem(.badRequest, "language: \(error)")
            }
        }
        let url: String
        let publicOnly: Bool
        if let id = query.get("message_id") {
            (url, language) = try await link(ofMessage: id, at: query.get("link"), language: language)
            publicOnly = false
        } else {
            url = try QueryURL.read(request, example: "GET /v1/inspect?url=… (or ?message_id=…)")
            publicOnly = true
        }
        let work: @Sendable () async -> PreviewExplanation = { [previews, language] in
            await previews.explain(url, language: language, publicAddressesOnly: publicOnly)
        }
        guard var explanation = await grace.run(work) else {
            throw RequestProblem(.serviceUnavailable, "the server is stopping; ask again", headers: [.retryAfter: "1"])
        }
        if query.get("addresses") != "1" { explanation = Self.withholdingRefusedAddresses(explanation) }
        let written = (try? explanation.result.get()).map(images.written)
        return .json(.ok, explanation.json(written: written))
    }

    /// The job's link at `index` (0 by default), and the job's language unless the query gave one.
    private func link(ofMessage id: String, at index: String?, language: AcceptLanguage?) async throws(RequestProblem)
        -> (String, AcceptLanguage?)
    {
        guard let messageID = Int64(id) else {
            throw RequestProblem(.badRequest, "message_id: \(id.prefix(40)) is not a message id")
        }
        let n = index.map { Int($0) ?? -1 } ?? 0
        guard n >= 0 else { throw RequestProblem(.badRequest, "link: the link's place among the job's, from 0") }
        let stored: StoredJob?
        do { stored = try await store.job(messageID) } catch {
            throw RequestProblem(
                .serviceUnavailable, "the job store cannot be read: \(error.detail)", headers: [.retryAfter: "1"])
        }
        guard let job = stored?.job else { throw RequestProblem(.notFound, "no job for message \(messageID)") }
        let urls = job.links ?? links(job.text)
        guard n < urls.count else {
            throw RequestProblem(.notFound, "message \(messageID)'s job has \(urls.count) link(s); no link \(n)")
        }
        return (urls[n], language ?? job.language.flatMap { try? AcceptLanguage($0) })
    }

    /// `explanation` with the addresses refused hosts resolved to left out of its hops and errors: a detail's
    /// `host (10.0.0.7) is …` reads `host (address withheld) is …`.
    static func withholdingRefusedAddresses(_ explanation: PreviewExplanation) -> PreviewExplanation {
        var explanation = explanation
        for i in explanation.hops.indices where explanation.hops[i].addressRefusal != nil {
            explanation.hops[i].addressRefusal = explanation.hops[i].addressRefusal.map(withheld)
            explanation.hops[i].error = explanation.hops[i].error.map(withheld)
        }
        let errors: (Result<PreviewCard, FetchError>) -> Result<PreviewCard, FetchError> = { result in
            guard case .failure(var error) = result, error.kind == .blockedAddress else { return result }
            error.detail = withheld(error.detail)
            return .failure(error)
        }
        explanation.result = errors(explanation.result)
        explanation.cached = explanation.cached.map(errors)
        return explanation
    }

    /// `text` with each address in parentheses — `(10.0.0.7)`, `(fd00::1)` — written `(address withheld)`.
    static func withheld(_ text: String) -> String {
        text.replacing(/\((?:[0-9]{1,3}\.){3}[0-9]{1,3}\)|\([0-9A-Fa-f]*:[0-9A-Fa-f:.]*\)/) { _ in
            "(address withheld)"
        }
    }
}
