import DeskKitJobStore
import DeskKitModel
import DeskKitTime
import Hummingbird

/// `GET /health`, open: for load balancers. Open to anyone, it names no host, address, port or path of the
/// operator's: the store by its kind, a store's failure by its kind (the details are in the queue's log line
/// `cannot claim jobs`).
struct HealthRoute: Sendable {
    let queue: EnrichmentQueue
    /// The kind of store the jobs are kept in: `memory`, `sqlite`, `postgres`, or `other` (an embedder's own).
    var store: String {
        switch queue.store {
        case is MemoryJobStore: "memory"
        case is SQLiteJobStore: "sqlite"
        case is PostgresJobStore: "postgres"
        default: "other"
        }
    }
    /// The server's clock, which its uptime is counted on (a test's `TestClock` holds it still).
    let clock: ServiceClock
    let startedAt: Duration

    init(queue: EnrichmentQueue, clock: ServiceClock) {
        self.queue = queue
        self.clock = clock
        startedAt = clock.elapsed()
    }

    /// 200 `{"status": "ok", …}`, or 503 `{"status": "store_unavailable", "store_error"}` when the job
    /// store does not answer (a load balancer then sends webhooks elsewhere); `store_error` is the failure's
    /// kind (`unavailable`).
    func handle() async -> Response {
        let figures = await queue.figures()
        let uptime = clock.elapsed() - startedAt
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
        if let error = figures.storeError {
            body.append(.init(key: "store_error", value: .string(error.kind.description)))
        }
        return .json(figures.storeError == nil ? .ok : .serviceUnavailable, .object(JSONObject(body)))
    }
}
