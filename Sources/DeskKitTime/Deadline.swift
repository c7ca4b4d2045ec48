import Synchronization

/// An operation that took longer than its deadline.
package struct DeadlineExceeded: Error, CustomStringConvertible {
    package var limit: Duration
    package var description: String { "no answer within \(limit)" }
}

/// Runs `body`, throwing ``DeadlineExceeded`` when it takes longer than `limit`: the one time limit of the
/// package (a page fetch's total time, a store's and the shared cache's operations). The caller is answered at
/// the deadline even if `body` does not stop when cancelled, and that is why `body` runs in a task of its own:
/// postgres-nio's `query` has no cancellation handler (a query on a connection whose peer went silent waits
/// for TCP to give up), and `getaddrinfo` cannot be interrupted. Past the deadline `body` is cancelled and left
/// to end on its own.
///
/// That task is the only one: it answers the caller itself, and the deadline is a timer of `clock`'s
/// (`ServiceClock.schedule(in:_:)`: on the system clock a SwiftNIO scheduled callback, as AsyncHTTPClient's own
/// deadline is), cancelled with the answer. A test hands the service a clock it moves: a limit then runs out
/// when the test moves that clock past it, not when a real second passes.
///
/// - Parameters:
///   - limit: how long the caller waits.
///   - clock: the clock that counts `limit` (the service's).
///   - followsCancellation: whether `body` is cancelled when the caller is. False for work done for others
///     too (a group commit's batch, written for every request waiting on it, or a job's end that must be
///     written after its worker was cancelled): the work, and its caller's wait, go on to the end or the limit.
package func withDeadline<T: Sendable>(
    _ limit: Duration, clock: ServiceClock = .system, followsCancellation: Bool = true,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let answer = FirstAnswer<T>()
    let result: Result<T, any Error> = await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            answer.wait(continuation)
            let timer = clock.schedule(in: limit) { answer.give(.failure(DeadlineExceeded(limit: limit))) }
            answer.start(
                Task {
                    let result: Result<T, any Error>
                    do { result = .success(try await body()) } catch { result = .failure(error) }
                    timer.cancel()
                    answer.give(result)
                })
        }
    } onCancel: {
        if followsCancellation { answer.cancelWork() }
    }
    if case .failure = result { answer.cancelWork() }
    return try result.get()
}

/// The first answer of a deadline — the work's or the timer's — and the work's task, to cancel it.
private final class FirstAnswer<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<T, any Error>, Never>?
        var work: Task<Void, Never>?
        var cancelled = false
    }
    private let state = Mutex(State())

    func wait(_ continuation: CheckedContinuation<Result<T, any Error>, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Resumes the caller with the first result given; later ones are dropped.
    func give(_ result: Result<T, any Error>) {
        let waiting = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        waiting?.resume(returning: result)
    }

    /// Keeps the work's task, to cancel it; cancels it at once when the caller was cancelled before it started.
    func start(_ work: Task<Void, Never>) {
        let cancelNow = state.withLock { state in
            state.work = work
            return state.cancelled
        }
        if cancelNow { work.cancel() }
    }

    func cancelWork() {
        state.withLock { state in
            state.cancelled = true
            return state.work
        }?.cancel()
    }
}

/// Waits for `task` to end, at most `limit` on `clock`.
package func waitAtMost(_ limit: Duration, clock: ServiceClock = .system, for task: Task<Void, Never>) async {
    _ = try? await withDeadline(limit, clock: clock) { await task.value }
}
