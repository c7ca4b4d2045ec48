import DeskKitTime
import DequeModule
import Synchronization

/// Lets at most `limit` tasks through at once; the others wait in order. A waiting task that is cancelled
/// stops waiting at once (``acquire()`` throws) and takes no place. A lock rather than an actor, so that a
/// cancelled waiter is taken out of the line in its cancellation handler, without a task to reach an actor.
final class AsyncLimiter: Sendable {
    private struct State {
        var running = 0
        var waiting: Deque<(id: UInt64, continuation: CheckedContinuation<Void, any Error>)> = []
        var nextID: UInt64 = 0
    }
    private let limit: Int
    private let state = Mutex(State())

    init(limit: Int) { self.limit = max(1, limit) }

    /// Takes a place, waiting for one when all are taken; throws `CancellationError` when the task is
    /// cancelled before it has one. Every place taken is given back with ``release()``.
    func acquire() async throws {
        let id: UInt64? = state.withLock { state in
            guard state.running >= limit else {
                state.running += 1
                return nil
            }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Under the lock, so that neither a place given back nor the cancellation handler (which runs
                // after the task is marked cancelled) can pass between the check and the line.
                let answer: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.running < limit {
                        state.running += 1
                        return .success(())
                    }
                    state.waiting.append((id, continuation))
                    return nil
                }
                if let answer { continuation.resume(with: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiting.firstIndex { $0.id == id }.map { state.waiting.remove(at: $0).continuation }
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Takes a place, waiting for one until `clock` reaches `deadline` (`ServiceClock.elapsed`) at most: throws
    /// ``PlaceWaitExpired`` then (having taken none), and `CancellationError` when the task is cancelled first.
    func acquire(before deadline: Duration, clock: ServiceClock) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { race in
            race.addTask {
                try await self.acquire()
                return true
            }
            race.addTask {
                try await clock.sleepUntil(deadline)
                return false
            }
            let placed = try await race.next()!
            race.cancelAll()
            guard !placed else { return }
            // A place given at the very moment the time ran out is given back.
            if (try? await race.next()) == true { release() }
            throw PlaceWaitExpired()
        }
    }

    /// Gives a place back: to the first task waiting, or to no one.
    func release() {
        let next = state.withLock { state in
            guard let next = state.waiting.popFirst() else {
                state.running -= 1
                return nil as CheckedContinuation<Void, any Error>?
            }
            return next.continuation
        }
        next?.resume()
    }

    /// Tasks waiting for a place (for tests).
    var waiters: Int { state.withLock { $0.waiting.count } }
}

/// No place came free before the deadline of ``AsyncLimiter/acquire(before:clock:)``.
struct PlaceWaitExpired: Error, CustomStringConvertible {
    var description: String { "no place came free in time" }
}
