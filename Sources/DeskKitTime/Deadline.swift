import Synchronization

/// An operation that took longer than its deadline.
package struct DeadlineExceeded: Error, CustomStringConvertible {
    package var limit: Duration
    package var description: String { "no answer within \(limit)" }
}

/// Runs `body`, throwing ``DeadlineExceeded`` when it takes longer than `limit`: the one time limit of the
/// package (a page fetch's total time, a store's and the shared cache's operations). The caller is answered at
/// the deadline even if `body` does not stop when cancelled (a driver waiting on a socket): `body` is
/// cancelled and left to end on its own. The timer ends with the answer: a call that is answered in time
/// leaves no task asleep behind it.
package func withDeadline<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws
    -> T
{
    let work = Task { try await body() }
    let result: Result<T, any Error> = await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            let reply = FirstAnswer(continuation)
            let timer = Task {
                do { try await Task.sleep(for: limit) } catch { return }
                reply.give(.failure(DeadlineExceeded(limit: limit)))
            }
            Task {
                reply.give(await work.result)
                timer.cancel()
            }
        }
    } onCancel: {
        work.cancel()
    }
    if case .failure = result { work.cancel() }
    return try result.get()
}

/// Resumes a continuation with the first answer given; later answers are dropped.
private final class FirstAnswer<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Result<T, any Error>, Never>?>

    init(_ continuation: CheckedContinuation<Result<T, any Error>, Never>) {
        self.continuation = Mutex(continuation)
    }

    func give(_ result: Result<T, any Error>) {
        continuation.withLock { waiting in
            waiting?.resume(returning: result)
            waiting = nil
        }
    }
}

/// Waits for `task` to end, at most `limit`.
package func waitAtMost(_ limit: Duration, for task: Task<Void, Never>) async {
    _ = try? await withDeadline(limit) { await task.value }
}
