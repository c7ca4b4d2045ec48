import Foundation

/// The time a service keeps, read off one clock so that a test moves all of it together: how it waits (a
/// queue's poll, due jobs and lease renewals, a shutdown grace), how long its entries live (the preview cache's
/// time-to-live, a refusal's, a connection pool's idle timer) and the dates it writes into a store (when a job
/// is due, when a shared card expires).
///
/// ``system`` waits on the continuous clock and dates by the wall clock (a store's dates are compared with
/// other instances'). A test hands the service any `Clock` — swift-clocks' `TestClock` — and moves it on: the
/// instants, the waits and the dates then advance with it, the dates from the wall clock's when the service clock
/// was made.
public struct ServiceClock: Sendable {
    /// The date now.
    public let now: @Sendable () -> Date
    /// The time since the clock was made: never goes back, and what a time-to-live or an idle timer counts.
    public let elapsed: @Sendable () -> Duration
    /// Waits until ``elapsed`` reaches the duration given (at once when it has); throws `CancellationError` when
    /// the task is cancelled first. A wait for a due time: however late it begins, it ends when that time comes.
    public let sleepUntil: @Sendable (Duration) async throws -> Void

    /// Waits on the continuous clock and counts its instants; dates by the wall clock.
    public static let system: ServiceClock = {
        let clock = ServiceClock(ContinuousClock())
        return ServiceClock(now: { Date() }, elapsed: clock.elapsed, sleepUntil: clock.sleepUntil)
    }()

    /// Waits on `clock` and counts its instants; dates from the wall clock's now, advanced as `clock` advances.
    public init<C: Clock<Duration>>(_ clock: C) {
        let (start, date) = (clock.now, Date())
        let elapsed: @Sendable () -> Duration = { start.duration(to: clock.now) }
        self.init(
            now: { date.addingTimeInterval(elapsed() / .seconds(1)) }, elapsed: elapsed,
            sleepUntil: { try await clock.sleep(until: start.advanced(by: $0), tolerance: nil) })
    }

    private init(
        now: @escaping @Sendable () -> Date, elapsed: @escaping @Sendable () -> Duration,
        sleepUntil: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.now = now
        self.elapsed = elapsed
        self.sleepUntil = sleepUntil
    }

    /// Waits `duration` from now; throws `CancellationError` when the task is cancelled first.
    public func sleep(_ duration: Duration) async throws {
        try await sleepUntil(elapsed() + duration)
    }
}
