import DeskKitJobStore
import DeskKitModel
import Hummingbird

/// `GET /health`, open: for load balancers.
struct HealthRoute: Sendable {
    let queue: EnrichmentQueue
    /// Where the jobs are kept, as the configuration names it (no password).
    let store: String
    let startedAt = ContinuousClock.now

    /// 200 `{"status": "ok", …}`, or 503 `{"status": "store_unavailable", "store_error"}` when the job
    /// store does not answer (a load balancer then sends webhooks elsewhere).
    func handle() async -> Response {
        let figures = await queue.figures()
        let uptime = ContinuousClock.now - startedAt
        var body: [JSONObject.Member] = [
            .init(key: "status", value: figures.storeError == nil ? "ok" : "store_unavailable"),
            .init(key: "store", value: .string(store)),
            .init(key: "queue_depth", value: .integer(Int64(figures.depth))),
            .init(key: "jobs_in_flight", value: .integer(Int64(figures.running))),
            .init(key: "uptime_seconds", value: .integer(uptime.components.seconds)),
        ]
        if let store = queue.store as? MemoryJobStore {
            body.append(.init(key: "queue_capacity", value: .integer(Int64(store.configuration.capacity))))
        }
        if let states = figures.states {
            let counts = JobState.allCases.map {
                JSONObject.Member(key: $0.rawValue, value: .integer(Int64(states[$0] ?? 0)))
            }
            body.append(.init(key: "jobs", value: .object(JSONObject(counts))))
        }
        if let error = figures.storeError { body.append(.init(key: "store_error", value: .string(error))) }
        return .json(figures.storeError == nil ? .ok : .serviceUnavailable, .object(JSONObject(body)))
    }
}
