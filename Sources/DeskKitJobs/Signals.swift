import DeskKitTime
extension AsyncStream<Void>.Iterator {
    /// Waits for the stream's next signal — when `deadline` is given, at most until `clock`'s elapsed time reaches
    /// it: a child task then signals through `continuation`, the stream's own, so a timer that fires as another
    /// signal comes is one spare wake, and no task outlives the wait.
    mutating func nextSignal(
        until deadline: Duration?, on clock: ServiceClock, signalling continuation: AsyncStream<Void>.Continuation
    ) async {
        guard let deadline else {
            _ = await next()
            return
        }
        var copy = self
        await withDiscardingTaskGroup { group in
            group.addTask {
                do {
                    try await clock.sleepUntil(deadline)
                    continuation.yield()
                } catch {}  // signalled before: the timer is cancelled
            }
            _ = await copy.next()
            group.cancelAll()
        }
        self = copy
    }
}
