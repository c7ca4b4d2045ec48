import Hummingbird

/// What a route reads its body as: a request that declares another media type is refused with 415 before its
/// body is read. One that declares none is read as the route's, and so is one declared
/// `application/x-www-form-urlencoded`: the type curl's `-d` and Foundation's `URLRequest` give a body when
/// their caller names none, which clients posting JSON leave as it is.
struct ContentTypeCheck: Sendable {
    /// The media types taken, lowercased, without parameters (`application/json`).
    let accepted: Set<String>
    /// Whether any `+json` type is taken too (`application/merge-patch+json`…).
    var structuredJSON = false

    /// JSON bodies: `application/json` and `…+json`.
    static let json = ContentTypeCheck(accepted: ["application/json"], structuredJSON: true)
    /// JSON lines: `application/x-ndjson`, `application/jsonl`, `application/json`, `text/plain`.
    static let jsonLines = ContentTypeCheck(
        accepted: ["application/x-ndjson", "application/jsonl", "application/json", "text/plain"])

    /// Throws 415 naming the types taken when `request` declares another.
    func check(_ request: Request) throws(RequestProblem) {
        guard let declared = request.headers[.contentType] else { return }
        let type = String(declared.prefix { $0 != ";" }.filter { $0 != " " && $0 != "\t" }).lowercased()
        if accepted.contains(type) || type == "application/x-www-form-urlencoded"
            || (structuredJSON && type.hasPrefix("application/") && type.hasSuffix("+json"))
        {
            return
        }
        throw RequestProblem(
            .unsupportedMediaType,
            "the body is declared as \"\(declared.prefix(80))\"; this route reads \(accepted.sorted().joined(separator: ", "))"
        )
    }
}
