import NIOCore
import NIOHTTPTypes
import Synchronization

/// Holds each connection to ``ClientLimits``: one handler a connection, in Hummingbird's pipeline after
/// the HTTP decoder, so it sees whole request parts. Until a request's head is decoded — however many bytes
/// of it trickle in — no part arrives, and the head's deadline runs; then the body's, until the request's
/// end; then none while the server answers (pipelined requests included); after the last response, the
/// idle deadline, until the next head. A deadline that passes closes the connection. The server's time to
/// answer is never the client's.
final class ClientDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The connections open now, shared by every connection's handler, and the most open since the memory
    /// they held was last given back.
    final class OpenConnections: Sendable {
        private let count = Atomic(0)
        private let peak = Atomic(0)

        /// Counts one more; answers how many are open with it.
        func open() -> Int {
            let open = count.add(1, ordering: .relaxed).newValue
            peak.max(open, ordering: .relaxed)
            return open
        }

        /// Counts one less. When the connections fall to a quarter of their peak (of 64 or more) gives the
        /// memory the closed ones held back to the system: glibc's allocator keeps what is freed in its
        /// arenas, and a server that was sent 3,000 slow clients would otherwise stay at their size for good.
        /// A few calls a flood (3,000 → 750 → 187 → 46), none in a steady state. Answers how many are open
        /// without it.
        func close() -> Int {
            let open = count.subtract(1, ordering: .relaxed).newValue
            let most = peak.load(ordering: .relaxed)
            guard most >= 64, open <= most / 4,
                peak.compareExchange(expected: most, desired: open, ordering: .relaxed).exchanged
            else { return open }
            _ = ProcessMemory.trimHeap()
            return open
        }
    }

    /// Why a connection was cut: the `reason` of `deskkit_connections_closed_total`.
    enum Cut: String {
        case headTimeout = "head_timeout", bodyTimeout = "body_timeout", idleTimeout = "idle_timeout"
        case overCapacity = "over_capacity"
    }

    private let limits: ClientLimits
    private let connections: OpenConnections
    private let metrics: ServerMetrics
    /// Whether this connection is counted among the open ones.
    private var counted = false
    /// A request's head came and its end has not.
    private var readingRequest = false
    /// Requests whose head came and whose response has not ended (more than one when pipelined).
    private var inFlight = 0
    private var deadline: Scheduled<Void>?

    init(limits: ClientLimits, connections: OpenConnections, metrics: ServerMetrics) {
        self.limits = limits
        self.connections = connections
        self.metrics = metrics
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { opened(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        opened(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed()
        context.fireChannelInactive()
    }

    /// A closed channel's handlers are removed, and may be before they hear it is inactive.
    func handlerRemoved(context: ChannelHandlerContext) { closed() }

    private func closed() {
        deadline?.cancel()
        deadline = nil
        guard counted else { return }
        counted = false
        metrics.openConnections(connections.close())
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            readingRequest = true
            inFlight += 1
            schedule(context, limits.bodyTimeout, .bodyTimeout)
        case .body: break
        case .end:
            readingRequest = false
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            inFlight = max(0, inFlight - 1)
            if inFlight == 0, !readingRequest { schedule(context, limits.idleTimeout, .idleTimeout) }
        }
        context.write(data, promise: promise)
    }

    private func opened(_ context: ChannelHandlerContext) {
        guard !counted else { return }
        counted = true
        let open = connections.open()
        metrics.openConnections(open)
        guard open <= limits.maxConnections else {
            metrics.connectionCut(Cut.overCapacity.rawValue)
            context.close(promise: nil)
            return
        }
        schedule(context, limits.headTimeout, .headTimeout)
    }

    /// Closes the connection after `time`, for `cut`, unless another deadline replaces this one first.
    private func schedule(_ context: ChannelHandlerContext, _ time: Duration, _ cut: Cut) {
        deadline?.cancel()
        let loop = context.eventLoop.assumeIsolated()
        deadline = loop.scheduleTask(in: TimeAmount(time)) { [self] in
            deadline = nil
            metrics.connectionCut(cut.rawValue)
            context.close(promise: nil)
        }
    }
}
