import Hummingbird

/// Every refusal answers in JSON (`{"error": …}`, `application/json`), the router's own included: a path the
/// server has no route for is 404 ("no such route"), a method a path does not answer is 405 with `Allow` naming
/// those it does (HEAD wherever GET is), and Hummingbird's errors (a body over a limit, a bad parameter) keep their
/// status and say it in JSON. A middleware of the whole router (after the request counter, which counts what it
/// answers), so a route that is off (the image proxy without its keys) answers like any unknown path.
struct ProblemAnswers<Context: RequestContext>: RouterMiddleware {
    let routes: RouteTable

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            throw problem(for: error, request)
        }
    }

    private func problem(for error: HTTPError, _ request: Request) -> RequestProblem {
        guard error.status == .notFound, error.body == nil else {
            return RequestProblem(error.status, error.body ?? error.status.reasonPhrase, headers: error.headers)
        }
        var methods = routes.methods(at: RouteTable.segments(ofRequest: request.uri.path))
        guard !methods.isEmpty else {
            return RequestProblem(.notFound, "no such route; they are listed in /openapi.json")
        }
        if methods.contains("GET") { methods.insert("HEAD") }
        guard !methods.contains(request.method.rawValue) else { return RequestProblem(.notFound) }
        let allowed = methods.sorted().joined(separator: ", ")
        return RequestProblem(
            .methodNotAllowed, "\(request.method.rawValue) is not answered here; \(allowed) are",
            headers: [.allow: allowed])
    }
}
