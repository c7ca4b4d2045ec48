import DeskKitJobStore
import DeskKitServer
import DeskKitTestSupport
import Foundation
import Hummingbird
import Logging
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The client limits in the real server on a loopback port, through raw sockets: its configured deadline
/// reaches the handler, and one connection too many is closed at once. The deadlines themselves are checked to
/// the nanosecond on an event loop the test advances (`ClientDeadlineTests`).
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

        /// Reads what comes until the server closes the connection: the bytes. Throws `NeverHappened` when it
        /// stays open for a minute. Reads without blocking a thread the server's tasks may need.
        func readUntilClosed() async throws -> [UInt8] {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            try await until("the server closing the connection") {
                while true {
                    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if n > 0 {
                        bytes += buffer.prefix(n)
                    } else {
                        return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
                    }
                }
            }
            return bytes
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
        configuration.metricsKeys = try APIKeys(parsing: Self.apiKey)
        var logger = Logger(label: "client-limits")
        logger.logLevel = .critical
        let server = EnrichmentServer(
            configuration: configuration, store: MemoryJobStore(configuration: configuration.memory), logger: logger)
        let serving = try await GracefulServer.start { listening in
            server.makeApplication { listening($0.localAddress?.port ?? 0) }
        }
        try await serving.scoped { try await body(serving.port) }
    }

    /// `GET /metrics` on a connection of its own: the text.
    static func metrics(_ port: Int) async throws -> String {
        let c = try RawConnection(port: port)
        c.write("GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(apiKey)\r\nConnection: close\r\n\r\n")
        return String(decoding: try await c.readUntilClosed(), as: UTF8.self)
    }

    /// The head's deadline the server is configured with is the one its connections keep: a client that sends
    /// nothing is closed without an answer, and the cut is counted.
    @Test func theConfiguredDeadlineReachesTheConnections() async throws {
        var limits = ClientLimits()
        limits.headTimeout = .milliseconds(50)
        try await withServer(limits) { port in
            let c = try RawConnection(port: port)
            #expect(try await c.readUntilClosed().isEmpty, "closed without an answer")
            // The metrics request meets the same 50 ms deadline: on a loaded machine the server may not read its
            // head in time, and cuts it as it cut the silent client. Each such cut is counted too.
            var cutRequests = 0
            let metrics = try await until("the metrics answered") { () async throws -> String? in
                let text = try await Self.metrics(port)
                if text.isEmpty { cutRequests += 1 }
                return text.isEmpty ? nil : text
            }
            let counted = #"deskkit_connections_closed_total{reason="head_timeout"} \#(1 + cutRequests)"#
            #expect(metrics.contains(counted), "\(counted) in \(metrics)")
        }
    }

    @Test func aConnectionPastTheCapIsClosedAtOnce() async throws {
        var limits = ClientLimits()
        limits.maxConnections = 3
        limits.headTimeout = .seconds(120)
        try await withServer(limits) { port in
            let held = try (0..<3).map { _ in try RawConnection(port: port) }
            // The server counts a connection when it accepts it: once it holds the three, the next is closed unanswered.
            try await until("the server holding three connections") {
                let surplus = try RawConnection(port: port)
                surplus.write("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                return try await surplus.readUntilClosed().isEmpty
            }
            _ = held
            // One of the three goes: a new connection is served again.
            held[0].write("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            _ = try await held[0].readUntilClosed()
            held[0].end()
            try await until("a new connection served once one of the three went") {
                let c = try RawConnection(port: port)
                c.write("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                return String(decoding: try await c.readUntilClosed(), as: UTF8.self).hasPrefix("HTTP/1.1 200")
            }
        }
    }
}
