import Foundation

/// The time a ``JobQueue`` keeps: how it waits (poll, due jobs, lease renewals, the purge, the shutdown grace)
/// and the dates it writes into its store (when a job is due, when a lease ends) — read off one clock, so
/// that a test moves them together.
///
/// ``system`` waits on the continuous clock and dates by the wall clock (the store's dates are compared with
/// other instances'). A test hands the queue any `Clock` — swift-clocks' `TestClock` — and moves it on: the
/// dates then start at the wall clock's when the queue clock was made and advance with it.
public struct QueueClock: Sendable {
    /// The date now.
    public let now: @Sendable () -> Date
    /// Waits `duration`; throws `CancellationError` when the task is cancelled first.
    public let sleep: @Sendable (Duration) async throws -> Void

    /// Waits on the continuous clock; dates by the wall clock.
    public static let system = QueueClock(now: { Date() }, sleep: { try await ContinuousClock().sleep(for: $0) })

    /// Waits on `clock`; dates from the wall clock's now, advanced as `clock` advances.
    public init<C: Clock<Duration> & Sendable>(_ clock: C) where C.Instant: Sendable {
        let (start, date) = (clock.now, Date())
        now = { date.addingTimeInterval(start.duration(to: clock.now) / .seconds(1)) }
        sleep = { try await clock.sleep(for: $0) }
    }

    /// Dates by `now`, waits by `sleep`.
    public init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }
}
