import DequeModule
import DeskKitTime
import NIOCore
import NIOPosix
import Synchronization

/// Wakes the queue's idle workers: a job admitted rings once (the worker idle longest claims it), a claim
/// rings once more (another job may be due), a shutdown rings for all. A ring no worker waits for is kept for
/// the next one to wait, so none is lost between a worker's last claim and its wait.
///
/// A wait may end at an instant too, on a timer of SwiftNIO's event loops (no task, no thread asleep). Only
/// one of the idle workers polls the store that way (``isPolled``): the others wait for a ring.
final class Doorbell: Sendable {
    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Void, Never>
        var polls: Bool
    }
    private struct State {
        var waiting: Deque<Waiter> = []
        var kept = false
        var nextID: UInt64 = 0
        var polling = 0
    }
    private let state = Mutex(State())

    /// Wakes the worker waiting longest, or keeps the ring for the next to wait.
    func ring() {
        state.withLock { state -> Waiter? in
            guard let first = state.waiting.popFirst() else {
                state.kept = true
                return nil
            }
            if first.polls { state.polling -= 1 }
            return first
        }?.continuation.resume()
    }

    /// Wakes every worker waiting.
    func ringAll() {
        let all = state.withLock { state in
            defer {
                state.waiting.removeAll()
                state.polling = 0
            }
            return state.waiting
        }
        for waiter in all { waiter.continuation.resume() }
    }

    /// Rings once at `instant` (a retry due sooner than the next poll, the grace's end).
    func ring(at instant: ContinuousClock.Instant) {
        Self.at(instant) { self.ring() }
    }

    /// Whether an idle worker already waits with a deadline, polling for what no ring announces.
    var isPolled: Bool { state.withLock { $0.polling > 0 } }

    /// Waits for a ring, at the latest until `deadline` when one is given; returns at once when a ring was
    /// kept or the task is cancelled. `polls`: the wait stands for the idle workers' poll (``isPolled``).
    func wait(until deadline: ContinuousClock.Instant?, polls: Bool = false) async {
        let polls = polls && deadline != nil
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Under the lock: the cancellation handler runs after the task is marked cancelled.
                let now = state.withLock { state in
                    if Task.isCancelled { return true }
                    if state.kept {
                        state.kept = false
                        return true
                    }
                    state.waiting.append(Waiter(id: id, continuation: continuation, polls: polls))
                    if polls { state.polling += 1 }
                    return false
                }
                if now {
                    continuation.resume()
                } else if let deadline {
                    Self.at(deadline) { self.stopWaiting(id) }
                }
            }
        } onCancel: {
            stopWaiting(id)
        }
    }

    private func stopWaiting(_ id: UInt64) {
        state.withLock { state -> Waiter? in
            guard let i = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
            let waiter = state.waiting.remove(at: i)
            if waiter.polls { state.polling -= 1 }
            return waiter
        }?.continuation.resume()
    }

    /// Runs `body` at `instant`, on a timer of SwiftNIO's event loops.
    private static func at(_ instant: ContinuousClock.Instant, _ body: @escaping @Sendable () -> Void) {
        let wait = TimeAmount.nanoseconds(max(0, (instant - .now).nanoseconds))
        MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: wait, body)
    }
}
