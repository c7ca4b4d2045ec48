import DeskKitModel
import Hummingbird

/// Why the server refuses a request, thrown by a route handler as Hummingbird's own `HTTPError` is: its
/// status, what is wrong, the problems with their JSON paths (a webhook that is not one), and headers
/// (`Retry-After`). It answers itself, `{"error": …, "problems": […]}` in JSON — the status's reason phrase when it
/// says nothing more; the request counter counts it by its status.
struct RequestProblem: HTTPResponseError {
    var status: HTTPResponse.Status
    /// What is wrong, for people: the answer's `error`.
    var message: String?
    /// Each problem with its JSON path: the answer's `problems`.
    var problems: [PayloadProblem]?
    var headers: HTTPFields = [:]
    /// A typed error, the answer's `error` in place of ``message``: `{"kind", "detail"}` of a fetch.
    var error: JSONValue?
    /// More members of the answer, after `error` (a 403's `needs` and `key`).
    var fields: [JSONObject.Member] = []

    init(
        _ status: HTTPResponse.Status, _ message: String? = nil, problems: [PayloadProblem]? = nil,
        headers: HTTPFields = [:]
    ) {
        self.status = status
        self.message = message
        self.problems = problems
        self.headers = headers
    }

    /// A typed error (``error``) answered with `status`.
    init(_ status: HTTPResponse.Status, error: JSONValue, headers: HTTPFields = [:]) {
        self.init(status, nil, headers: headers)
        self.error = error
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var members: [JSONObject.Member] = []
        if let error {
            members.append(.init(key: "error", value: error))
        } else {
            members.append(.init(key: "error", value: .string(message ?? status.reasonPhrase)))
        }
        if let problems { members.append(.init(key: "problems", value: .array(problems.map(\.jsonValue)))) }
        members += fields
        var response = Response.json(status, .object(JSONObject(members)))
        response.headers.append(contentsOf: headers)
        return response
    }
}
