import Synchronization

/// Work a test holds until it lets it go: closed until ``open()``, then open for good. The event a test hands a
/// job, a page or a fake API, instead of a sleep that would make them take time.
public final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// A closed gate.
    public init() {}

    /// Lets every waiter through, now and later.
    public func open() {
        let waiting = state.withLock { state in
            defer { state = (true, []) }
            return state.waiting
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Returns once the gate is open.
    public func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
