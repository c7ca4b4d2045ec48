import DeskKitTime
import Synchronization

/// A limit of fetches to each host at once (``PreviewService/Configuration/maxConcurrentFetchesPerHost``): a
/// host's limiter exists while fetches to it run or wait, so a server that sees a new host in every message
/// keeps none of them.
package final class HostLimiters: Sendable {
    private let limit: Int
    /// The clock a wait's deadline is read on.
    private let clock: ServiceClock
    private let limiters = Mutex<[String: (limiter: AsyncLimiter, users: Int)]>([:])

    /// At most `limit` fetches to one host at once; deadlines on `clock` (the service's).
    package init(limit: Int, clock: ServiceClock = .system) {
        self.limit = limit
        self.clock = clock
    }

    /// Runs `work` once one of `host`'s places is free; throws `CancellationError` when the task is cancelled
    /// while it waits, and a time-out when the clock reaches `deadline` (`ServiceClock.elapsed`) first
    /// (`FetchError.Kind.timeout` through `PageFetcher.map(_:)`).
    package func withPlace<T>(
        for host: String, before deadline: Duration? = nil,
        isolation: isolated (any Actor)? = #isolation, _ work: () async throws -> T
    ) async throws -> T {
        let limiter = limiters.withLock { limiters in
            let l = limiters[host]?.limiter ?? AsyncLimiter(limit: limit)
            limiters[host] = (l, (limiters[host]?.users ?? 0) + 1)
            return l
        }
        defer {
            limiters.withLock { limiters in
                guard let entry = limiters[host] else { return }
                limiters[host] = entry.users > 1 ? (entry.limiter, entry.users - 1) : nil
            }
        }
        if let deadline {
            try await limiter.acquire(before: deadline, clock: clock)
        } else {
            try await limiter.acquire()
        }
        defer { limiter.release() }
        return try await work()
    }

    /// Hosts with fetches running or waiting.
    package var count: Int { limiters.withLock { $0.count } }
}
