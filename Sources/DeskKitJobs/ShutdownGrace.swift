import ServiceLifecycle
import Synchronization

/// The shutdown grace, counted once, from the moment the server is asked to stop: requests in flight and
/// running jobs share it, so that the process ends within it whatever the pages they fetch do.
///
/// A request still running when the grace ends is cancelled and answered 503 with `Retry-After` (a load
/// balancer sends it to another instance); a job is cancelled and put back in the store (``JobQueue``).
public final class ShutdownGrace: Sendable {
    /// How long work may go on once a graceful shutdown begins.
    public let grace: Duration
    private let end = Mutex<ContinuousClock.Instant?>(nil)

    /// A grace of `grace`, not begun.
    public init(_ grace: Duration) { self.grace = grace }

    /// Begins the grace, unless it has begun, and tells when it ends.
    @discardableResult
    public func begin() -> ContinuousClock.Instant {
        end.withLock { end in
            if let end { return end }
            let now = ContinuousClock.now + grace
            end = now
            return now
        }
    }

    /// When the grace ends, once begun.
    public var ends: ContinuousClock.Instant? { end.withLock { $0 } }

    /// Runs `work` to its end, unless a graceful shutdown of the service running it (swift-service-lifecycle's)
    /// begins and the grace ends first: then `work` is cancelled and the answer is nil.
    public func run<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T? {
        await withTaskGroup(of: Race<T>.self) { group in
            group.addTask { .done(await work()) }
            group.addTask {
                do {
                    try await gracefulShutdown()
                    try await Task.sleep(until: self.begin(), clock: .continuous)
                    return .graceOver
                } catch {
                    return .stopped  // the work ended first, or the request was cancelled
                }
            }
            while let next = await group.next() {
                switch next {
                case .done(let value):
                    group.cancelAll()
                    return value
                case .graceOver:
                    group.cancelAll()
                    return nil
                case .stopped:
                    continue
                }
            }
            return nil
        }
    }

    private enum Race<T: Sendable>: Sendable {
        case done(T)
        case graceOver
        case stopped
    }
}
