import Clocks
import DeskKitTestSupport
import DeskKitTime
import Synchronization
import Testing

/// The package's one deadline (`withDeadline`): what the stores' operations and the page fetches are bound by.
/// Its limit counts on the service's clock; here a `TestClock` the test moves, so nothing waits for real time.
@Suite("Deadline")
struct DeadlineTests {
    /// Work that does not stop when cancelled — a postgres-nio query, `getaddrinfo` — and ends only when the
    /// test lets it.
    final class DeafWork: Sendable {
        private let state = Mutex<(started: Bool, ended: Bool, waiting: CheckedContinuation<Void, Never>?)>(
            (false, false, nil))
        var started: Bool { state.withLock { $0.started } }
        var ended: Bool { state.withLock { $0.ended } }

        func run() async {
            await withCheckedContinuation { continuation in
                state.withLock {
                    $0.started = true
                    $0.waiting = continuation
                }
            }
            state.withLock { $0.ended = true }
        }

        func end() { state.withLock { $0.waiting.take() }?.resume() }
    }

    @Test func theCallerIsAnsweredAtTheDeadlineWhatEverTheWorkDoes() async throws {
        let clock = TestClock()
        let work = DeafWork()
        let caller = Task { try await withDeadline(.seconds(5), clock: ServiceClock(clock)) { await work.run() } }
        try await until("the work started") { work.started }
        await clock.advance(by: .seconds(4))
        await clock.advance(by: .seconds(1))
        await #expect(throws: DeadlineExceeded.self) { try await caller.value }
        #expect(!work.ended, "answered before the work ended")
        work.end()
        try await until("the deaf work ended, once let") { work.ended }
    }

    /// The time limit is the clock's: work that ends before the clock reaches it is answered, however long
    /// it took in real time.
    @Test func anAnswerInTimeIsTheWorks() async throws {
        let clock = TestClock()
        let work = DeafWork()
        let caller = Task { try await withDeadline(.seconds(5), clock: ServiceClock(clock)) { await work.run() } }
        try await until("the work started") { work.started }
        await clock.advance(by: .milliseconds(4_999))
        work.end()
        try await caller.value
        #expect(try await withDeadline(.seconds(60)) { 42 } == 42)
        await #expect(throws: CancellationError.self) {
            try await withDeadline(.seconds(60)) { throw CancellationError() }
        }
    }

    /// By default the work is cancelled with its caller; work done for others too (a batch of a group commit,
    /// a job's end) is not, and the caller waits for it.
    @Test(arguments: [true, false])
    func cancellationReachesTheWorkUnlessItIsDoneForOthers(_ follows: Bool) async throws {
        let clock = TestClock()
        let service = ServiceClock(clock)
        let started = Mutex(false)
        let caller = Task {
            try await withDeadline(.seconds(60), clock: service, followsCancellation: follows) {
                // Ends when cancelled, or when the test moves the clock 2 s on (from before it says it started).
                let due = service.elapsed() + .seconds(2)
                started.withLock { $0 = true }
                try? await service.sleepUntil(due)
                return Task.isCancelled
            }
        }
        try await until("the work started") { started.withLock { $0 } }
        caller.cancel()
        if !follows { await clock.advance(by: .seconds(2)) }
        #expect(try await caller.value == follows, "the work saw its caller's cancellation: \(follows)")
    }
}
