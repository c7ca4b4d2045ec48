import DeskKitTime
extension AsyncStream<Void>.Iterator {
    /// Waits for the stream's next signal — at most `timeout` on `clock` when one is given: a child task then
    /// signals through `continuation`, the stream's own, so a timer that fires as another signal comes is one
    /// spare wake, and no task outlives the wait.
    mutating func nextSignal(
        within timeout: Duration?, on clock: ServiceClock, signalling continuation: AsyncStream<Void>.Continuation
    ) async {
        guard let timeout else {
            _ = await next()
            return
        }
        var copy = self
        await withDiscardingTaskGroup { group in
            group.addTask {
                do {
                    try await clock.sleep(timeout)
                    continuation.yield()
                } catch {}  // signalled before: the timer is cancelled
            }
            _ = await copy.next()
            group.cancelAll()
        }
        self = copy
    }
}
