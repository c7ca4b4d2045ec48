/// The tests that load the whole machine — several servers and a database under load, a database stopped
/// and started, processes killed — run one at a time, each within the others' quiet: Swift Testing runs
/// every test of the process at once, and on a 2-core machine two of them together starve each other's
/// database past its timeouts, which breaks what they check (every job ended once) rather than the code.
/// Lighter tests still run beside them.
public enum HeavyTests {
    private static let turns = Turns()

    /// Runs `body` when no other heavy test runs, within `limit` from then (``Turns/run(within:_:)``).
    public static func oneAtATime<T: Sendable>(
        within limit: Duration = .seconds(600), _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await turns.run(within: limit, body)
    }
}

/// Work that runs one at a time, in the order it asked, each within a time limit counted from its turn.
///
/// The limit counts from the turn, not from the test's start as a `.timeLimit` trait would: a heavy test waits
/// for those before it, and on a loaded machine they took more than four minutes together — a trait's limit was
/// spent in the queue, by tests that passed. Like ``until(_:within:_:)``'s, the limit is not a time the work
/// should take, only how long hung work runs before it says so.
public final class Turns: Sendable {
    private let gate = TurnGate()

    /// An empty queue.
    public init() {}

    /// Runs `body` once the work before it has ended; cancels it and throws ``TimeLimitExceeded`` when it runs
    /// longer than `limit` (waiting for it to end, as a task group does).
    public func run<T: Sendable>(
        within limit: Duration, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        await gate.enter()
        do {
            let result = try await withThrowingTaskGroup(of: T?.self) { race in
                race.addTask { try await body() }
                race.addTask {
                    try await ContinuousClock().sleep(for: limit)
                    return nil
                }
                defer { race.cancelAll() }
                guard case .some(let result) = try await race.next()! else { throw TimeLimitExceeded(limit: limit) }
                return result
            }
            await gate.leave()
            return result
        } catch {
            await gate.leave()
            throw error
        }
    }

    /// Work ran past its limit (``run(within:_:)``) and was cancelled.
    public struct TimeLimitExceeded: Error, CustomStringConvertible {
        /// The limit, counted from the work's turn.
        public let limit: Duration

        public var description: String { "ran past its limit of \(limit) from its turn, and was cancelled" }
    }
}

private actor TurnGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func enter() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}
