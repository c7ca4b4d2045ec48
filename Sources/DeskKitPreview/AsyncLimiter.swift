import DequeModule

/// Lets at most `limit` tasks through at once; the others wait in order. A waiting task that is cancelled
/// stops waiting at once (``acquire()`` throws) and takes no place.
actor AsyncLimiter {
    private let limit: Int
    private var running = 0
    private var waiting: Deque<(id: UInt64, continuation: CheckedContinuation<Void, any Error>)> = []
    private var nextID: UInt64 = 0

    init(limit: Int) { self.limit = max(1, limit) }

    /// Takes a place, waiting for one when all are taken; throws `CancellationError` when the task is
    /// cancelled before it has one. Every place taken is given back with ``release()``.
    func acquire() async throws {
        if running < limit {
            running += 1
            return
        }
        try Task.checkCancellation()
        let id = nextID
        nextID += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { waiting.append((id, $0)) }
        } onCancel: {
            // Runs after the continuation is kept: the actor is ours until the task suspends.
            Task { await self.stopWaiting(id) }
        }
    }

    /// Gives a place back: to the first task waiting, or to no one.
    func release() {
        if let next = waiting.popFirst() {
            next.continuation.resume()
        } else {
            running -= 1
        }
    }

    /// Tasks waiting for a place (for tests).
    var waiters: Int { waiting.count }

    private func stopWaiting(_ id: UInt64) {
        guard let i = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: i).continuation.resume(throwing: CancellationError())
    }
}
