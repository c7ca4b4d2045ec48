/// What a test waited for and never saw.
public struct NeverHappened: Error, CustomStringConvertible {
    /// The event, in the test's words.
    public var what: String
    /// How long the test waited.
    public var waited: Duration
    /// What the condition last said of the state, when it says anything.
    public var last: String?

    public var description: String {
        "waited \(waited) for \(what), and it did not happen" + (last.map { "; last seen: \($0)" } ?? "")
    }
}

/// Awaits an event the test cannot be handed — a state another task, thread or process reaches (a store's
/// row, a server's counter, a child process's file) — by looking at it until `condition` holds. Throws
/// ``NeverHappened`` naming `what` after `limit`: a test never gives up silently, and never sleeps for an event
/// it could await. Not for showing that nothing happens: move the clock the service waits on instead.
///
/// The limit is not a time the event should take: it is only how long a failing test hangs before it says why.
public func until(
    _ what: String, within limit: Duration = .seconds(60), _ condition: () async throws -> Bool
) async throws {
    let end = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < end else { throw NeverHappened(what: what, waited: limit) }
        // The one pause of the suite's waits: the state looked at sends no notice to await.
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// ``until(_:within:_:)`` for a value: looks until `look` gives one, and returns it.
public func until<T>(
    _ what: String, within limit: Duration = .seconds(60), _ look: () async throws -> T?
) async throws -> T {
    var found: T?
    try await until(what, within: limit) {
        found = try await look()
        return found != nil
    }
    return found!
}

/// Suspends until the task is cancelled: work that runs until it is stopped (a page that never answers, a job
/// cut short by a shutdown), without a sleep that would end by itself.
public func untilCancelled() async {
    await Gate().wait()
}
