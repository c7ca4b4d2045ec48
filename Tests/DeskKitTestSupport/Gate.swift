import Synchronization

/// Work a test holds until it lets it go: closed until ``open()``, then open for good. The event a test hands a
/// job, a page or a fake API, instead of a sleep that would make them take time.
public final class Gate: Sendable {
    private struct State {
        var open = false
        var next = 0
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    }
    private let state = Mutex(State())

    /// A closed gate.
    public init() {}

    /// Lets every waiter through, now and later.
    public func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [:] }
            return state.waiting.values
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Returns once the gate is open, or the task is cancelled (a request the server gives up on).
    public func wait() async {
        let id = state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if state.open || Task.isCancelled { return true }
                    state.waiting[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
        }
    }
}
