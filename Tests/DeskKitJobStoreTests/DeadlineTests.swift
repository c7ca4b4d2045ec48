import DeskKitTime
import Dispatch
import Synchronization
import Testing

/// The package's one deadline (`withDeadline`): what the stores' operations and the page fetches are bound by.
@Suite("Deadline")
struct DeadlineTests {
    /// A flag set from any thread.
    final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }

    /// Work that does not stop when cancelled — a postgres-nio query, `getaddrinfo` — ends `seconds` later.
    static func deaf(_ seconds: Int, then done: Flag) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) {
                done.set()
                continuation.resume()
            }
        }
    }

    @Test func theCallerIsAnsweredAtTheDeadlineWhatEverTheWorkDoes() async throws {
        let done = Flag()
        await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(.milliseconds(100)) { await Self.deaf(5, then: done) }
        }
        #expect(!done.isSet, "answered before the work ended")
    }

    @Test func anAnswerInTimeIsTheWorks() async throws {
        #expect(try await withDeadline(.seconds(60)) { 42 } == 42)
        await #expect(throws: CancellationError.self) {
            try await withDeadline(.seconds(60)) { throw CancellationError() }
        }
    }

    /// By default the work is cancelled with its caller; work done for others too (a batch of a group commit,
    /// a job's end) is not, and the caller waits for it.
    @Test(arguments: [true, false])
    func cancellationReachesTheWorkUnlessItIsDoneForOthers(_ follows: Bool) async throws {
        let started = Flag()
        let caller = Task {
            try await withDeadline(.seconds(60), followsCancellation: follows) {
                started.set()
                try? await Task.sleep(for: .seconds(2))
                return Task.isCancelled
            }
        }
        while !started.isSet { try await Task.sleep(for: .milliseconds(5)) }
        caller.cancel()
        #expect(try await caller.value == follows, "the work saw its caller's cancellation: \(follows)")
    }
}
