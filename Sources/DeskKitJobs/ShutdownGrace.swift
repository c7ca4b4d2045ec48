import DeskKitTime
import Foundation
import ServiceLifecycle
import Synchronization

/// The shutdown grace, counted once, from the moment the server is asked to stop: requests in flight and
/// running jobs share it, so that the process ends within it whatever the pages they fetch do.
///
/// A request still running when the grace ends is cancelled and answered 503 with `Retry-After` (a load
/// balancer sends it to another instance); a job is cancelled and put back in the store (``JobQueue``).
///
/// It is counted on a `ServiceClock` (by default the system's), so that a test that drives a queue's clock
/// drives its grace too.
package final class ShutdownGrace: Sendable {
    /// How long work may go on once a graceful shutdown begins.
    package let grace: Duration
    /// What the grace is counted on.
    package let clock: ServiceClock
    private let begun = Mutex<Duration?>(nil)

    /// A grace of `grace` counted on `clock`, not begun.
    package init(_ grace: Duration, clock: ServiceClock = .system) {
        self.grace = grace
        self.clock = clock
    }

    /// Begins the grace, unless it has begun, and tells how much of it is left.
    @discardableResult
    package func begin() -> Duration {
        let now = clock.elapsed()
        let start = begun.withLock { begun in
            if let begun { return begun }
            begun = now
            return now
        }
        return max(.zero, grace - (now - start))
    }

    /// Waits out what is left of the grace, beginning it if need be; throws when cancelled first.
    package func waitForItsEnd() async throws {
        try await clock.sleep(begin())
    }

    /// Runs `work` to its end, unless a graceful shutdown of the service running it (swift-service-lifecycle's)
    /// begins and the grace ends first: then `work` is cancelled and the answer is nil.
    package func run<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T? {
        await withTaskGroup(of: Race<T>.self) { group in
            group.addTask { .done(await work()) }
            group.addTask {
                do {
                    try await gracefulShutdown()
                    try await self.waitForItsEnd()
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
