import AsyncHTTPClient
import DeskKitFetchPolicy
import DeskKitTime
import NIOCore
import Synchronization

/// The HTTP clients of a ``PageFetcher``, one for each host and the address its check let through, so
/// that pages of one host share kept-alive connections while every connection still goes to an address the
/// guard checked: a client's only way to a host is the address it was made for (`dnsOverride`), and a host
/// that resolves to another address gets another client.
///
/// Bounded: a client idle longer than ``FetchConfiguration/idleConnectionTimeout`` is shut down, and of the
/// idle ones at most ``FetchConfiguration/maxIdleHosts`` are kept (the least recently used go first), so a
/// server that sees a new host in every message keeps no state for each.
final class ConnectionPools: Sendable {
    /// What a client is made for: the host, the address checked for it (none when the host is an address),
    /// and the settings a client is built with.
    struct Key: Hashable {
        var host: String
        var address: IPAddress?
        /// AsyncHTTPClient's connect time-out: the configuration's on the system clock (`ServiceClock.libraryTimeout`).
        var connectTimeout: TimeAmount
        var maxDecompressedBytes: Int
        var idleTimeout: Duration
    }

    private struct Entry {
        let client: HTTPClient
        /// Fetches using the client now.
        var users: Int
        /// When it was last used, on ``clock``.
        var lastUsed: Duration
    }

    private let eventLoopGroup: any EventLoopGroup
    /// What the idle timer counts on.
    private let clock: ServiceClock
    private let entries = Mutex<[Key: Entry]>([:])

    init(eventLoopGroup: any EventLoopGroup, clock: ServiceClock) {
        self.eventLoopGroup = eventLoopGroup
        self.clock = clock
    }

    deinit {
        for entry in entries.withLock({ $0.values }) { entry.client.shutdown { _ in } }
    }

    /// Clients kept now, idle or in use (for tests and metrics).
    var count: Int { entries.withLock { $0.count } }

    /// Runs `body` with the client for `host` at `address` (nil: the host is an address literal), made now
    /// or kept from an earlier fetch; idle clients past the limits are shut down first.
    func withClient<T>(
        host: String, address: IPAddress?, configuration: FetchConfiguration,
        _ body: (HTTPClient) async throws -> T
    ) async throws -> T {
        let key = Key(
            host: host, address: address, connectTimeout: clock.libraryTimeout(configuration.connectTimeout),
            maxDecompressedBytes: configuration.maxDecompressedBytes, idleTimeout: configuration.idleConnectionTimeout)
        let now = clock.elapsed()
        let (client, evicted) = entries.withLock { entries in
            let evicted = Self.evict(
                &entries, now: now, idleTimeout: configuration.idleConnectionTimeout,
                keep: configuration.maxIdleHosts, sparing: key)
            if var entry = entries[key] {
                entry.users += 1
                entry.lastUsed = now
                entries[key] = entry
                return (entry.client, evicted)
            }
            let client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: Self.clientConfiguration(key))
            entries[key] = Entry(client: client, users: 1, lastUsed: now)
            return (client, evicted)
        }
        for old in evicted { try? await old.shutdown() }
        defer {
            entries.withLock { entries in
                entries[key]?.users -= 1
                entries[key]?.lastUsed = clock.elapsed()
            }
        }
        return try await body(client)
    }

    /// Takes out of `entries` the idle clients past `idleTimeout`, then the least recently used idle ones
    /// over `keep` (never `key`'s, about to be used); returns them, to be shut down.
    private static func evict(
        _ entries: inout [Key: Entry], now: Duration, idleTimeout: Duration, keep: Int, sparing key: Key
    ) -> [HTTPClient] {
        var evicted: [HTTPClient] = []
        var idle: [(key: Key, lastUsed: Duration)] = []
        for (k, entry) in entries where entry.users == 0 && k != key {
            if now - entry.lastUsed >= idleTimeout {
                evicted.append(entry.client)
                entries[k] = nil
            } else {
                idle.append((k, entry.lastUsed))
            }
        }
        // One more than `keep`: the client about to be made or used may be a new idle one afterwards.
        let over = idle.count - max(0, keep - 1)
        if over > 0 {
            for (k, _) in idle.sorted(by: { $0.lastUsed < $1.lastUsed }).prefix(over) {
                if let entry = entries.removeValue(forKey: k) { evicted.append(entry.client) }
            }
        }
        return evicted
    }

    /// A client that connects to the one address checked, and fails at once when it refuses (the pool would
    /// retry until the connect timeout); it keeps alive up to 8 connections to it.
    private static func clientConfiguration(_ key: Key) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: key.connectTimeout),
            decompression: .enabled(limit: .size(key.maxDecompressedBytes)))
        configuration.connectionPool.retryConnectionEstablishment = false
        // AsyncHTTPClient would send the bootstrapped tracer's `traceparent` to every page: a third party must
        // not learn the trace (the fetcher records its own spans).
        configuration.tracing.tracer = nil
        // Its kept-alive connections close when the client would be shut down for idleness.
        configuration.connectionPool.idleTimeout = .nanoseconds(key.idleTimeout.nanoseconds)
        if let address = key.address { configuration.dnsOverride = [key.host: address.description] }
        return configuration
    }
}
