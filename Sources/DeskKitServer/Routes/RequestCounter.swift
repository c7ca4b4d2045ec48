import Hummingbird

/// Counts every request by route and status: `deskkit_http_requests_total`. The route is the one the router
/// matched (`context.endpointPath`, which Hummingbird sets once it has found the route, and sets to
/// `NotFound` when none fits): one label per route, never one per path a client makes up. And the requests it
/// has received and not yet answered: `deskkit_http_requests_in_flight`.
struct RequestCounter<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        metrics.requestsInFlight.increment()
        defer { metrics.requestsInFlight.decrement() }
        do {
            let response = try await next(request, context)
            metrics.request(route: context.endpointPath ?? "NotFound", status: Int(response.status.code))
            return response
        } catch let error as HTTPResponseError {
            metrics.request(route: context.endpointPath ?? "NotFound", status: Int(error.status.code))
            throw error
        }
    }
}
