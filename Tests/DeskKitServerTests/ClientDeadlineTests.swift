import DeskKitTestSupport
import DeskKitTime
import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import DeskKitServer

/// The client deadlines of ``ClientLimits`` as the server's handler keeps them, on SwiftNIO's `EmbeddedEventLoop`:
/// the test moves the loop's time, so a deadline is checked to the nanosecond and nothing waits for real time.
/// (`ClientLimitsTests` runs the same handler in the real server, for what needs no clock: the connection cap.)
@Suite("Client deadlines on an event loop the test advances")
struct ClientDeadlineTests {
    /// A connection through the handler, and what it counted.
    struct Connection {
        let channel: EmbeddedChannel
        let loop: EmbeddedEventLoop
        let metrics: TestMetrics

        init(_ limits: ClientLimits) throws {
            loop = EmbeddedEventLoop()
            metrics = TestMetrics()
            let handler = ClientDeadlineHandler(
                limits: limits, connections: .init(), metrics: ServerMetrics(factory: metrics))
            channel = EmbeddedChannel(handler: handler, loop: loop)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        }

        var isOpen: Bool { channel.isActive }
        func cuts(_ reason: ClientDeadlineHandler.Cut) -> Int64 {
            metrics.total("deskkit_connections_closed_total", [("reason", reason.rawValue)])
        }
        func advance(_ time: Duration) { loop.advanceTime(by: TimeAmount(time)) }

        func head() throws {
            try channel.writeInbound(
                HTTPRequestPart.head(HTTPRequest(method: .post, scheme: nil, authority: "x", path: "/v1/decode")))
        }
        func body() throws { try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: " "))) }
        func end() throws { try channel.writeInbound(HTTPRequestPart.end(nil)) }
        func answer() throws {
            try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
            try channel.writeOutbound(HTTPResponsePart.end(nil))
        }
    }

    static var limits: ClientLimits {
        var limits = ClientLimits()
        limits.headTimeout = .seconds(10)
        limits.bodyTimeout = .seconds(20)
        limits.idleTimeout = .seconds(30)
        return limits
    }

    /// Until a head is decoded — however many of its bytes trickle in, none reaches the handler — the head's
    /// deadline runs, from the connection's opening.
    @Test func aHeadThatDoesNotComeIsCutAtItsDeadline() throws {
        let c = try Connection(Self.limits)
        c.advance(.seconds(10) - .nanoseconds(1))
        #expect(c.isOpen)
        c.advance(.nanoseconds(1))
        #expect(!c.isOpen)
        #expect(c.cuts(.headTimeout) == 1)
    }

    /// Once the head came, the body's deadline runs until the request's end, whatever bytes of it arrive.
    @Test func aBodyThatTricklesInIsCutAtItsDeadline() throws {
        let c = try Connection(Self.limits)
        c.advance(.seconds(9))
        try c.head()
        for _ in 0..<19 {
            try c.body()
            c.advance(.seconds(1))
        }
        c.advance(.seconds(1) - .nanoseconds(1))
        #expect(c.isOpen, "the head's deadline ended with the head")
        c.advance(.nanoseconds(1))
        #expect(!c.isOpen)
        #expect(c.cuts(.bodyTimeout) == 1 && c.cuts(.headTimeout) == 0)
    }

    /// The server's time to answer is never the client's; after the last answer the idle deadline runs, and a
    /// next head ends it.
    @Test func theServersTimeIsNotTheClientsAndAnIdleConnectionIsClosed() throws {
        let c = try Connection(Self.limits)
        // Two requests pipelined, whole.
        for _ in 0..<2 {
            try c.head()
            try c.end()
        }
        c.advance(.seconds(3600))
        #expect(c.isOpen, "an hour of the server's time answering")
        try c.answer()
        c.advance(.seconds(3600))
        #expect(c.isOpen, "one answer of two: the second is still the server's")
        try c.answer()
        c.advance(.seconds(29))
        try c.head()
        try c.end()
        try c.answer()
        c.advance(.seconds(30) - .nanoseconds(1))
        #expect(c.isOpen, "a head within the idle time starts it again after its answer")
        c.advance(.nanoseconds(1))
        #expect(!c.isOpen)
        #expect(c.cuts(.idleTimeout) == 1)
        #expect(c.cuts(.headTimeout) == 0 && c.cuts(.bodyTimeout) == 0)
    }
}
