import DeskKitTime
import Synchronization

/// A token bucket per API key: each key may make ``Configuration/burst`` requests at once, then
/// ``Configuration/perSecond`` a second. The buckets are kept by ``APIKeys/Key`` — a key the server
/// accepted —, so their number is the number of keys, whatever callers send. Tokens come back as its clock
/// moves on.
public final class RateLimiter: Sendable {
    /// The rate and burst of each key.
    public struct Configuration: Sendable, Hashable {
        /// Requests a second each key may keep up (`DESKKIT_RATE_LIMIT`); 0 turns the limit off. Default 20.
        public var perSecond = 20
        /// Requests a key may make at once after a quiet while (`DESKKIT_RATE_BURST`). Default 40.
        public var burst = 40
        /// The default rate and burst.
        public init() {}

        /// What a request is called in a refusal: `requests` (`inspections` for the inspector's own rate).
        var unit = "requests"

        /// `perSecond` requests a second, in bursts of `burst`.
        public init(perSecond: Int, burst: Int) {
            self.perSecond = perSecond
            self.burst = burst
        }
    }

    private struct Bucket {
        var tokens: Double
        /// When it was last taken from, on the limiter's clock.
        var at: Duration
    }

    /// The rate and burst.
    public let configuration: Configuration
    /// What the rate is counted on.
    package let clock: ServiceClock
    private let buckets = Mutex<[APIKeys.Key: Bucket]>([:])

    /// A limiter whose keys each get `configuration`'s rate and burst, counted on `clock`.
    package init(configuration: Configuration, clock: ServiceClock = .system) {
        self.configuration = configuration
        self.clock = clock
    }

    /// Takes a token from `key`'s bucket: nil when the request may go on, else how long until a token is
    /// there (the answer's `Retry-After`).
    package func take(for key: APIKeys.Key) -> Duration? {
        let rate = Double(configuration.perSecond)
        guard rate > 0 else { return nil }
        let burst = Double(max(1, configuration.burst))
        let now = clock.elapsed()
        return buckets.withLock { buckets -> Duration? in
            var bucket = buckets[key] ?? Bucket(tokens: burst, at: now)
            let elapsed = now - bucket.at
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            bucket.tokens = min(burst, bucket.tokens + max(0, seconds) * rate)
            bucket.at = now
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return .seconds((1 - bucket.tokens) / rate) }
            bucket.tokens -= 1
            return nil
        }
    }
}
