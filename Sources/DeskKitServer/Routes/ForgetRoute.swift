import DeskKitModel
import DeskKitPreview
import Hummingbird

/// `DELETE /v1/previews?url=…`, behind an operator key: takes back a URL's cached card or refusal, in this
/// instance's memory and in the shared PostgreSQL cache, so that the next message gets a fresh one; written to the
/// audit trail (`forget`, the entries dropped as its `count`).
struct ForgetRoute: Sendable {
    let previews: PreviewService
    let audit: OperatorAudit

    /// → `{"url", "memory", "shared"}`: the entries dropped from this instance's cache and from the shared one
    /// (null without one). 400 without a `url`, or for one no card can have been made of (a control character,
    /// over ``URLSafety/maxLength``): nothing is asked of the shared cache then; 503 when it cannot be reached.
    func handle(_ request: Request) async throws(RequestProblem) -> Response {
        let url = try QueryURL.read(request, example: "DELETE /v1/previews?url=…")
        do {
            let (memory, shared) = try await previews.forget(url)
            audit.record("forget", count: memory + (shared ?? 0), url: url)
            return .json(
                .ok,
                [
                    "url": .string(url), "memory": .integer(Int64(memory)),
                    "shared": shared.map { .integer(Int64($0)) } ?? .null,
                ])
        } catch {
            throw RequestProblem(
                .serviceUnavailable,
                "the shared preview cache cannot be reached (this instance's card is gone): \(error)",
                headers: [.retryAfter: "1"])
        }
    }
}
