import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// The time a service keeps, read off one clock so that a test moves all of it together: how it waits (a
/// queue's poll, due jobs and lease renewals, a shutdown grace, the shared cache's wait for another instance's
/// fetch), how long its entries live (the preview cache's time-to-live, a refusal's, a connection pool's idle
/// timer), its time limits (a fetch's, a store's and the shared cache's operations: `withDeadline`) and the dates
/// it writes into a store (when a job is due, when a shared card expires).
///
/// ``system`` waits on the continuous clock and dates by the wall clock (a store's dates are compared with
/// other instances'). A test hands the service any `Clock` — swift-clocks' `TestClock` — and moves it on: the
/// instants, the waits and the dates then advance with it, the dates from the wall clock's when the service clock
/// was made.
package struct ServiceClock: Sendable {
    /// The date now.
    package let now: @Sendable () -> Date
    /// The time since the clock was made: never goes back, and what a time-to-live or an idle timer counts.
    package let elapsed: @Sendable () -> Duration
    /// Waits until ``elapsed`` reaches the duration given (at once when it has); throws `CancellationError` when
    /// the task is cancelled first. A wait for a due time: however late it begins, it ends when that time comes.
    package let sleepUntil: @Sendable (Duration) async throws -> Void
    /// Calls back once a duration has passed, unless cancelled first (``schedule(in:_:)``).
    private let timer: @Sendable (Duration, @escaping @Sendable () -> Void) -> ScheduledCallback
    /// Whether this clock is SwiftNIO's and the system's (``system``, or it with its dates off): only then does a
    /// library's own limit, counted on SwiftNIO's clock, count the same time (``libraryDeadline(after:)``,
    /// ``libraryTimeout(_:)``), and are its dates the machine's, which another clock's may be compared with again (a
    /// test's clock keeps a time of its own).
    package let isSystem: Bool

    /// Waits on the continuous clock and counts its instants; dates by the wall clock. Its timers are SwiftNIO's
    /// scheduled callbacks (no task a timer), as AsyncHTTPClient's own deadlines are, and so are its waits: a wait
    /// cancelled gives its timer back at once (``waitForTimer(until:elapsed:timer:)``).
    package static let system: ServiceClock = {
        let start = ContinuousClock.now
        let elapsed: @Sendable () -> Duration = { start.duration(to: .now) }
        let timer: @Sendable (Duration, @escaping @Sendable () -> Void) -> ScheduledCallback = { delay, body in
            let task = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .nanoseconds(delay.nanoseconds)) {
                body()
            }
            return ScheduledCallback { task.cancel() }
        }
        return ServiceClock(
            now: { Date() }, elapsed: elapsed,
            sleepUntil: { deadline in try await waitForTimer(until: deadline, elapsed: elapsed, timer: timer) },
            isSystem: true, timer: timer)
    }()

    /// Waits on `clock` and counts its instants; dates from the wall clock's now, advanced as `clock` advances.
    package init<C: Clock<Duration>>(_ clock: C) {
        let (start, date) = (clock.now, Date())
        // The latest deadline a wait has passed: the time read never falls short of it (below).
        let passed = Mutex(Duration.zero)
        let elapsed: @Sendable () -> Duration = {
            Swift.max(start.duration(to: clock.now), passed.withLock { $0 })
        }
        let sleepUntil: @Sendable (Duration) async throws -> Void = { deadline in
            // A deadline that has come is passed at once, as on the system clock. swift-clocks' `TestClock` holds a
            // sleep until exactly its now until it is next moved: a queue's wait that ends at the instant a test
            // moved the clock to would wait for a move the test — waiting for the queue to settle — never makes.
            // Looking first is not enough: the test can move the clock to that instant between the look and the
            // sleep (it did, beside stress-ng). So the sleep asks for an attosecond before the deadline, which a
            // clock already at the deadline passes at once and any move to it ends. A move wakes each sleep with
            // its now at the sleep's instant — that attosecond short — so from then on the time read is at least
            // the deadline: what woke at a due time sees that time come.
            guard deadline > elapsed() else { return try Task.checkCancellation() }
            try await clock.sleep(until: start.advanced(by: deadline - .attosecond), tolerance: nil)
            passed.withLock { $0 = Swift.max($0, deadline) }
        }
        self.init(
            now: { date.addingTimeInterval(elapsed() / .seconds(1)) }, elapsed: elapsed, sleepUntil: sleepUntil,
            isSystem: false,
            timer: { delay, body in
                // The due time is taken now, not when the task first runs: a test that moves the clock right
                // after scheduling moves it past this timer.
                let due = elapsed() + delay
                let task = Task {
                    guard (try? await sleepUntil(due)) != nil else { return }
                    body()
                }
                return ScheduledCallback { task.cancel() }
            })
    }

    /// This clock with its dates `offset` off and its waits and elapsed time as they are: a machine whose wall clock
    /// is wrong (what a test of instances whose clocks differ runs on).
    package func dated(off offset: Duration) -> ServiceClock {
        let (now, seconds) = (self.now, offset / .seconds(1))
        return ServiceClock(
            now: { now().addingTimeInterval(seconds) }, elapsed: elapsed, sleepUntil: sleepUntil, isSystem: isSystem,
            timer: timer)
    }

    private init(
        now: @escaping @Sendable () -> Date, elapsed: @escaping @Sendable () -> Duration,
        sleepUntil: @escaping @Sendable (Duration) async throws -> Void, isSystem: Bool,
        timer: @escaping @Sendable (Duration, @escaping @Sendable () -> Void) -> ScheduledCallback
    ) {
        self.now = now
        self.elapsed = elapsed
        self.sleepUntil = sleepUntil
        self.isSystem = isSystem
        self.timer = timer
    }

    /// Calls `body` once `delay` has passed on this clock, unless the answer is cancelled first: a time limit's
    /// timer (`withDeadline`). On ``system`` a SwiftNIO scheduled callback; on another clock a task that waits on
    /// it, so a test that moves the clock past the delay fires it.
    package func schedule(in delay: Duration, _ body: @escaping @Sendable () -> Void) -> ScheduledCallback {
        timer(delay, body)
    }

    /// The instant to hand a library that keeps its own deadline on SwiftNIO's clock (AsyncHTTPClient's
    /// `execute(_:deadline:)`) for a limit this clock counts with `withDeadline`: the same limit on ``system``;
    /// none on another clock (a test's), whose limit is then the only one, so a loaded machine cannot make it a
    /// time-out while the test holds its clock still.
    package func libraryDeadline(after limit: Duration) -> NIODeadline {
        isSystem ? .now() + .nanoseconds(limit.nanoseconds) : .distantFuture
    }

    /// The time-out to hand a library that counts it on SwiftNIO's clock and that this clock cannot count
    /// (AsyncHTTPClient's connect time-out, inside its connection pool): the same on ``system``; on another clock
    /// (a test's) none — a year — as for ``libraryDeadline(after:)``: the limits this clock counts (a fetch's
    /// total time) still bound what it would have ended.
    package func libraryTimeout(_ limit: Duration) -> TimeAmount {
        isSystem ? .nanoseconds(limit.nanoseconds) : .hours(24 * 365)
    }

    /// Waits `duration` from now; throws `CancellationError` when the task is cancelled first.
    package func sleep(_ duration: Duration) async throws {
        try await sleepUntil(elapsed() + duration)
    }
}

/// Waits until `elapsed` reaches `deadline` on callbacks of `timer`, throwing `CancellationError` when the task is
/// cancelled first — and then cancelling the callback, so that nothing of the wait outlives it. A cancelled
/// `Task.sleep` does not: on Linux its wake-up is a task of its own behind a `dispatch_after`, which Dispatch cannot
/// take back, so both stay until the deadline they were given (swiftlang/swift#60441). The queue's wait for its
/// next due job is cancelled by every job that comes, and a job's retry can be due minutes ahead. (`heaptrack` on
/// `Scripts/faults.sh` found 5.7 MB of such wake-ups and 2.2 MB of Dispatch timers held at the end of an instance,
/// most of them postgres-nio's pool timers: see `PostgresJobStore`.) A callback that comes early by the clock's
/// reading (SwiftNIO's and the continuous clock's can differ by a tick) waits again for what is left.
package func waitForTimer(
    until deadline: Duration, elapsed: @Sendable () -> Duration,
    timer: @Sendable (Duration, @escaping @Sendable () -> Void) -> ScheduledCallback
) async throws {
    while true {
        let left = deadline - elapsed()
        guard left > .zero else { return try Task.checkCancellation() }
        let wake = TimerWake()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                wake.wait(continuation, timer: timer(left) { wake.ring() })
            }
        } onCancel: {
            wake.cancel()
        }
    }
}

/// One wait of ``waitForTimer(until:elapsed:timer:)``: its continuation, resumed once — by the timer or by the
/// task's cancellation, whichever comes first — and the timer, cancelled when the cancellation does.
private final class TimerWake: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var timer: ScheduledCallback?
        var cancelled = false
        var rang = false
    }
    private let state = Mutex(State())

    /// Keeps the continuation and the timer; resumes at once when the wait was cancelled, or the timer rang, first.
    func wait(_ continuation: CheckedContinuation<Void, any Error>, timer: ScheduledCallback) {
        let (cancelled, rang) = state.withLock { state in
            if !state.cancelled && !state.rang { (state.continuation, state.timer) = (continuation, timer) }
            return (state.cancelled, state.rang)
        }
        if cancelled {
            timer.cancel()
            continuation.resume(throwing: CancellationError())
        } else if rang {
            continuation.resume()
        }
    }

    /// The timer's callback.
    func ring() {
        let continuation = state.withLock { state in
            state.rang = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }

    /// The task's cancellation: the timer is given back and the wait ends.
    func cancel() {
        let (continuation, timer) = state.withLock { state in
            state.cancelled = true
            defer { (state.continuation, state.timer) = (nil, nil) }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        continuation?.resume(throwing: CancellationError())
    }
}

extension Duration {
    /// The least duration a clock counts in `Duration` can tell apart.
    fileprivate static let attosecond = Duration(secondsComponent: 0, attosecondsComponent: 1)
}

/// A callback `ServiceClock.schedule(in:_:)` will make, until cancelled.
package struct ScheduledCallback: Sendable {
    private let cancelling: @Sendable () -> Void

    /// A callback that `cancel` takes back: a timer of a clock, or a test's.
    package init(cancel: @escaping @Sendable () -> Void) { cancelling = cancel }

    /// The callback is not made (when it has not been already).
    package func cancel() { cancelling() }
}
