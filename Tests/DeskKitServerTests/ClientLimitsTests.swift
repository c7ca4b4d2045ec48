import DeskKitJobStore
import DeskKitServer
import Foundation
import Hummingbird
import Logging
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Slow and surplus clients against the real server on a loopback port, through raw sockets: a head or a
/// body that trickles in, a kept-alive connection left idle, one connection too many. Every deadline here is
/// short and every wait for its effect long: a busy machine can only make a cut late, never early.
@Suite("Client limits", .serialized)
struct ClientLimitsTests {
    /// A TCP connection to 127.0.0.1, written and read without NIO: a client as slow as a test makes it.
    final class RawConnection: Sendable {
        let fd: Int32

        init(port: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }

        deinit { close(fd) }

        /// Ends the connection from this side (the server answered and half-closed it).
        func end() { shutdown(fd, Int32(SHUT_RDWR)) }

        /// Sends `text`; false once the server has closed the connection.
        @discardableResult func write(_ text: String) -> Bool {
            Array(text.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } >= 0
        }

        /// Reads what comes until the server closes the connection or `timeout` passes: the bytes, and whether
        /// it closed. Polls without blocking a thread the server's tasks may need.
        func readUntilClosed(timeout: Duration) async throws -> (bytes: [UInt8], closed: Bool) {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n > 0 {
                    bytes += buffer.prefix(n)
                } else if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                    return (bytes, true)
                } else {
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
            return (bytes, false)
        }
    }

    static let apiKey = "test-key-0123456789abcdef"

    /// Runs `body` with a live server of `limits` on a loopback port.
    func withServer(
        _ limits: ClientLimits, _ body: @Sendable (_ port: Int) async throws -> Void
    ) async throws {
        var configuration = ServerConfiguration(apiToken: "token", apiBase: "http://127.0.0.1:9")
        configuration.port = 0
        configuration.clients = limits
        configuration.apiKeys = try APIKeys(parsing: Self.apiKey)
        var logger = Logger(label: "client-limits")
        logger.logLevel = .critical
        let server = EnrichmentServer(
            configuration: configuration, store: MemoryJobStore(configuration: configuration.memory), logger: logger)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = server.makeApplication { continuation.yield($0.localAddress?.port ?? 0) }
        let running = Task { try await app.runService(gracefulShutdownSignals: []) }
        defer { running.cancel() }
        var next = ports.makeAsyncIterator()
        let port = await next.next() ?? 0
        try await body(port)
    }

    /// `GET /metrics` on a connection of its own: the text.
    static func metrics(_ port: Int) async throws -> String {
        let c = try RawConnection(port: port)
        c.write("GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(apiKey)\r\nConnection: close\r\n\r\n")
        return String(decoding: try await c.readUntilClosed(timeout: .seconds(30)).bytes, as: UTF8.self)
    }

    static var short: ClientLimits {
        var limits = ClientLimits()
        limits.headTimeout = .milliseconds(300)
        limits.bodyTimeout = .milliseconds(300)
        limits.idleTimeout = .milliseconds(300)
        return limits
    }

    /// Sends `piece(i)` every 100 ms for a minute at most, until the server closes the connection or the task
    /// is cancelled.
    static func trickle(_ c: RawConnection, _ piece: @escaping @Sendable (Int) -> String) -> Task<Void, Never> {
        Task {
            for i in 0..<600 where !Task.isCancelled {
                guard c.write(piece(i)) else { return }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    @Test func aHeadThatTricklesInIsCutAtItsDeadline() async throws {
        try await withServer(Self.short) { port in
            let c = try RawConnection(port: port)
            let opened = ContinuousClock.now
            c.write("GET /health HTTP/1.1\r\n")
            // A header line every 100 ms, as a slow-loris client sends them: the head never ends.
            let trickle = Self.trickle(c) { "X-Line-\($0): x\r\n" }
            let (bytes, closed) = try await c.readUntilClosed(timeout: .seconds(30))
            trickle.cancel()
            #expect(closed && bytes.isEmpty, "closed without an answer")
            #expect(ContinuousClock.now - opened >= .milliseconds(300), "not before its deadline")
            #expect(
                try await Self.metrics(port).contains(#"deskkit_connections_closed_total{reason="head_timeout"} 1"#))
        }
    }

    @Test func aBodyThatTricklesInIsCutAtItsDeadline() async throws {
        // Its head in one write, and a minute to read it: on a machine busy with the whole suite the server once
        // read it after the 300 ms head deadline, and cut the connection for its head.
        var limits = Self.short
        limits.headTimeout = .seconds(60)
        try await withServer(limits) { port in
            let c = try RawConnection(port: port)
            c.write(
                "POST /v1/decode HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\nContent-Type: application/json\r\n\r\n")
            let trickle = Self.trickle(c) { _ in " " }
            let (_, closed) = try await c.readUntilClosed(timeout: .seconds(30))
            trickle.cancel()
            #expect(closed)
            #expect(
                try await Self.metrics(port).contains(#"deskkit_connections_closed_total{reason="body_timeout"} 1"#))
        }
    }

    @Test func anIdleKeptAliveConnectionIsClosedAndABusyOneIsNot() async throws {
        // Two seconds before the first head and between requests: on a machine busy with the whole suite the
        // server once read the pipelined requests only after 300 ms, and closed the connection unanswered.
        var limits = Self.short
        limits.headTimeout = .seconds(2)
        limits.idleTimeout = .seconds(2)
        try await withServer(limits) { port in
            let c = try RawConnection(port: port)
            // Three requests at once, pipelined: none of the server's time answering them is the client's,
            // however long a busy machine takes; the idle time starts after the last answer.
            c.write(String(repeating: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n", count: 3))
            var answers = ""
            var closed = false
            let deadline = ContinuousClock.now + .seconds(30)
            while answers.components(separatedBy: "HTTP/1.1 200").count < 4, !closed, ContinuousClock.now < deadline {
                let read = try await c.readUntilClosed(timeout: .milliseconds(20))
                answers += String(decoding: read.bytes, as: UTF8.self)
                closed = read.closed
            }
            #expect(answers.components(separatedBy: "HTTP/1.1 200").count == 4, "three answers: \(answers.prefix(200))")
            // Then nothing: closed after the idle time.
            if !closed { closed = try await c.readUntilClosed(timeout: .seconds(30)).closed }
            #expect(closed)
            #expect(
                try await Self.metrics(port).contains(#"deskkit_connections_closed_total{reason="idle_timeout"} 1"#))
        }
    }

    @Test func aConnectionPastTheCapIsClosedAtOnce() async throws {
        var limits = ClientLimits()
        limits.maxConnections = 3
        limits.headTimeout = .seconds(120)
        try await withServer(limits) { port in
            let held = try (0..<3).map { _ in try RawConnection(port: port) }
            // The server counts a connection when it accepts it: wait until it has the three.
            try await Task.sleep(for: .milliseconds(200))
            let surplus = try RawConnection(port: port)
            let (_, closed) = try await surplus.readUntilClosed(timeout: .seconds(60))
            #expect(closed, "closed at once, long before its head's deadline")
            _ = held
            // One of the three goes: a new connection is served again.
            held[0].write("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            _ = try await held[0].readUntilClosed(timeout: .seconds(30))
            held[0].end()
            var served = false
            let deadline = ContinuousClock.now + .seconds(30)
            while !served, ContinuousClock.now < deadline {
                let c = try RawConnection(port: port)
                c.write("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                served = String(decoding: try await c.readUntilClosed(timeout: .seconds(30)).bytes, as: UTF8.self)
                    .hasPrefix("HTTP/1.1 200")
            }
            #expect(served)
        }
    }
}
