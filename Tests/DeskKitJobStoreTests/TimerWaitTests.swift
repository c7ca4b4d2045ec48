import DeskKitTestSupport
import DeskKitTime
import Synchronization
import Testing

/// The system clock's waits (`waitForTimer`): a wait is a timer's callback, and a wait cancelled gives its timer
/// back at once. A cancelled `Task.sleep` keeps its wake-up until its deadline (swiftlang/swift#60441), and the
/// queue's wait for its next due job is cancelled by every job that comes.
@Suite("Timer waits")
struct TimerWaitTests {
    /// Timers whose callbacks the test makes, counting the ones scheduled and not yet made nor cancelled.
    final class Timers: Sendable {
        private let state = Mutex<(next: Int, pending: [Int: @Sendable () -> Void], scheduled: Int)>((0, [:], 0))
        var pending: Int { state.withLock { $0.pending.count } }
        var scheduled: Int { state.withLock { $0.scheduled } }

        func schedule(_ delay: Duration, _ body: @escaping @Sendable () -> Void) -> ScheduledCallback {
            let id = state.withLock { state in
                defer { state.next += 1 }
                state.pending[state.next] = body
                state.scheduled += 1
                return state.next
            }
            return ScheduledCallback(cancel: { _ = self.state.withLock { $0.pending.removeValue(forKey: id) } })
        }

        /// Makes every pending callback.
        func ringAll() {
            let bodies = state.withLock { state in
                defer { state.pending = [:] }
                return Array(state.pending.values)
            }
            for body in bodies { body() }
        }
    }

    @Test func aCancelledWaitGivesItsTimerBack() async throws {
        let timers = Timers()
        let waits = (0..<1_000).map { _ in
            Task { try await waitForTimer(until: .seconds(3_600), elapsed: { .zero }, timer: timers.schedule) }
        }
        try await until("every wait has its timer") { timers.pending == 1_000 }
        for wait in waits { wait.cancel() }
        for wait in waits { await #expect(throws: CancellationError.self) { try await wait.value } }
        #expect(timers.pending == 0, "timers left behind by cancelled waits")
    }

    @Test func aWaitCancelledBeforeItBeginsSchedulesNothing() async throws {
        let timers = Timers()
        let wait = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await waitForTimer(until: .seconds(3_600), elapsed: { .zero }, timer: timers.schedule)
        }
        await #expect(throws: CancellationError.self) { try await wait.value }
        #expect(timers.pending == 0)
    }

    /// A callback that comes before the clock reads the deadline (SwiftNIO's clock and the continuous one can
    /// differ by a tick) is not the deadline: the wait goes on for what is left, and ends once the clock reads it.
    @Test func aCallbackBeforeTheDeadlineIsWaitedPast() async throws {
        let timers = Timers()
        let now = Mutex(Duration.zero)
        let wait = Task {
            try await waitForTimer(until: .seconds(3), elapsed: { now.withLock { $0 } }, timer: timers.schedule)
            return now.withLock { $0 }
        }
        for second in 1...3 {
            try await until("the wait's timer number \(second)") { timers.scheduled == second }
            now.withLock { $0 = .seconds(second) }
            timers.ringAll()
        }
        #expect(try await wait.value == .seconds(3))
        #expect(timers.scheduled == 3 && timers.pending == 0)
        // A deadline already passed is no wait and no timer.
        try await waitForTimer(until: .seconds(2), elapsed: { now.withLock { $0 } }, timer: timers.schedule)
        #expect(timers.scheduled == 3)
    }

    /// On the system clock, a SwiftNIO timer's: a wait ends once the clock reads its deadline, and a long one
    /// ends when cancelled.
    @Test(.timeLimit(.minutes(1))) func theSystemClockWaitsOnSwiftNIOTimers() async throws {
        let clock = ServiceClock.system
        let deadline = clock.elapsed() + .milliseconds(20)
        try await clock.sleepUntil(deadline)
        #expect(clock.elapsed() >= deadline)
        let long = Task { try await clock.sleep(.seconds(3_600)) }
        long.cancel()
        await #expect(throws: CancellationError.self) { try await long.value }
    }
}
