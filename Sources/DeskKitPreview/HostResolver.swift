import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Resolves a host name to addresses. DeskKit resolves hosts itself so it can check every address before
/// connecting, and then connects to the address it checked (DNS rebinding cannot slip a second answer in).
public protocol HostResolver: Sendable {
    /// Every address of `host`; throws (a `FetchError` of kind `dns`, for the system resolver) when there is none.
    func resolve(_ host: String) async throws -> [IPAddress]
}

/// The system resolver (`getaddrinfo`), run on threads of its own.
///
/// `getaddrinfo` blocks its thread for as long as the name servers take (seconds for a host that does not
/// answer), so lookups run on a pool of ``threads`` threads that only they use: a burst of new hosts waits
/// for them (a lookup whose fetch gave up meanwhile is dropped before it starts) instead of taking every
/// thread of a pool the process shares, as `DispatchQueue.global()` would.
public struct SystemResolver: HostResolver {
    /// The lookups that run at once. 16: a server's fetches rarely meet more new hosts at once, and a
    /// lookup of a known host takes well under a millisecond.
    public static let threads = 16

    private static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        return pool
    }()

    /// The system's resolver.
    public init() {}

    /// Every address of `host`, from the system's resolver (`getaddrinfo`).
    public func resolve(_ host: String) async throws -> [IPAddress] {
        try await Self.pool.runIfActive { () throws(FetchError) -> [IPAddress] in
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            #if canImport(Glibc)
                hints.ai_socktype = Int32(SOCK_STREAM.rawValue)  // Glibc: an enum, `__socket_type`
            #else
                hints.ai_socktype = SOCK_STREAM  // Darwin and Musl: an Int32 constant
            #endif
            var result: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, nil, &hints, &result)
            guard status == 0, let first = result else {
                throw FetchError.dns(host, String(cString: gai_strerror(status)))
            }
            defer { freeaddrinfo(first) }
            var addresses: [IPAddress] = []
            var node: UnsafeMutablePointer<addrinfo>? = first
            while let n = node {
                if let sa = n.pointee.ai_addr {
                    if n.pointee.ai_family == AF_INET {
                        let a = sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                            $0.pointee.sin_addr.s_addr
                        }
                        addresses.append(.v4(UInt32(bigEndian: a)))
                    } else if n.pointee.ai_family == AF_INET6 {
                        let b = sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                            withUnsafeBytes(of: p.pointee.sin6_addr) { Array($0) }
                        }
                        addresses.append(.v6(b))
                    }
                }
                node = n.pointee.ai_next
            }
            var seen = Set<IPAddress>()
            return addresses.filter { seen.insert($0).inserted }
        }
    }
}
