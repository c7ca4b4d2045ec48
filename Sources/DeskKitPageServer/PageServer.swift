import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A small web server on a loopback address, for the demo and for tests: routes answer with bytes,
/// bytes dripped slowly, bytes held until a test lets them go, an endless body, or nothing at all.
public final class PageServer: Sendable {
    /// One response.
    public struct Response: Sendable {
        /// How the body is sent.
        public enum Body: Sendable {
            /// These bytes, all at once.
            case bytes([UInt8])
            /// The bytes one at a time, `interval` apart.
            case drip([UInt8], interval: TimeAmount)
            /// `chunk` again and again until the client goes away.
            case endless(chunk: [UInt8])
            /// Nothing at all, not even the status line: the connection is accepted and never answered.
            case silent
            /// The status line and headers at once, then these bytes when `gate` opens (at once if it is open):
            /// a page that answers exactly when a test says.
            case held([UInt8], until: Gate)
        }

        /// The HTTP status.
        public var status: Int
        /// Header fields, in order.
        public var headers: [(String, String)]
        /// What the body is.
        public var body: Body

        /// A response; by default 200 with no headers and an empty body.
        public init(status: Int = 200, headers: [(String, String)] = [], body: Body = .bytes([])) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// An HTML page.
        public static func html(_ text: String, charset: String = "utf-8") -> Response {
            Response(headers: [("Content-Type", "text/html; charset=\(charset)")], body: .bytes(Array(text.utf8)))
        }

        /// A redirect to `location`.
        public static func redirect(_ location: String, status: Int = 302) -> Response {
            Response(status: status, headers: [("Location", location)])
        }
    }

    /// What a ``Response/Body/held(_:until:)`` body waits for: closed until ``open()``, then open for good.
    public final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiting: [@Sendable () -> Void])>((false, []))

        /// A closed gate.
        public init() {}

        /// Lets every held body through, now and later.
        public func open() {
            let waiting = state.withLock { state in
                defer { state = (true, []) }
                return state.waiting
            }
            for resume in waiting { resume() }
        }

        /// Calls `resume` once the gate is open.
        func whenOpen(_ resume: @escaping @Sendable () -> Void) {
            let now = state.withLock { state in
                if state.open { return true }
                state.waiting.append(resume)
                return false
            }
            if now { resume() }
        }
    }

    /// The answer to each request path.
    public typealias Routes = @Sendable (_ path: String) -> Response

    private let channel: any Channel
    /// The address the server listens on.
    public let host: String
    /// The port the server listens on, on 127.0.0.1.
    public let port: Int
    private let accepted: Counter

    private init(channel: any Channel, host: String, port: Int, accepted: Counter) {
        self.channel = channel
        self.host = host
        self.port = port
        self.accepted = accepted
    }

    /// Connections accepted since the server started.
    public var connectionsAccepted: Int { accepted.value.load(ordering: .relaxed) }

    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// `http://host:port` of the server.
    public var baseURL: String { "http://\(host):\(port)" }

    /// Starts a server on `host` (default 127.0.0.1) and an ephemeral port. With `keepAlive`, a response
    /// sent whole leaves its connection open for the client's next request; else every connection is
    /// closed after its response.
    public static func start(
        host: String = "127.0.0.1", port: Int = 0, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        keepAlive: Bool = false, routes: @escaping Routes
    ) async throws -> PageServer {
        try await start(
            host: host, port: port, group: group, keepAlive: keepAlive, requests: { path, _ in routes(path) })
    }

    /// Starts a server whose answers may depend on the request's headers too (`requests` gets the path and
    /// the headers, names as sent).
    public static func start(
        host: String = "127.0.0.1", port: Int = 0, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        keepAlive: Bool = false,
        requests: @escaping @Sendable (_ path: String, _ headers: [(String, String)]) -> Response
    ) async throws -> PageServer {
        let accepted = Counter()
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                accepted.value.add(1, ordering: .relaxed)
                return channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Handler(requests: requests, keepAlive: keepAlive))
                }
            }
            .bind(host: host, port: port).get()
        return PageServer(channel: channel, host: host, port: channel.localAddress?.port ?? port, accepted: accepted)
    }

    /// Stops listening.
    public func stop() async throws { try await channel.close() }

    /// Runs `body` while the server serves, then stops it — when `body` returns and when it throws — so that no
    /// server outlives the scope that uses it (as HummingbirdTesting's `app.test { client in … }` scopes an
    /// application). A test writes `try await server.scoped { … }` where it would otherwise leave a stop to a
    /// task of its own.
    public func scoped<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            let value = try await body()
            try? await stop()
            return value
        } catch {
            try? await stop()
            throw error
        }
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        // One instance per connection, used only on its channel's event loop.
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let requests: @Sendable (String, [(String, String)]) -> Response
        let keepAlive: Bool
        var path = "/"
        var headers: [(String, String)] = []

        init(requests: @escaping @Sendable (String, [(String, String)]) -> Response, keepAlive: Bool) {
            self.requests = requests
            self.keepAlive = keepAlive
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                path = head.uri
                headers = head.headers.map { ($0.name, $0.value) }
            case .body: break
            case .end: respond(context: context, requests(path, headers))
            }
        }

        private func respond(context: ChannelHandlerContext, _ response: Response) {
            var headers = HTTPHeaders(response.headers)
            if case .silent = response.body { return }
            // Only a body sent whole can leave its connection open.
            let close: Bool
            switch response.body {
            case .bytes(let b):
                headers.replaceOrAdd(name: "Content-Length", value: "\(b.count)")
                close = !keepAlive
            default:
                headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
                close = true
            }
            if close { headers.replaceOrAdd(name: "Connection", value: "close") }
            let head = HTTPResponseHead(version: .http1_1, status: .init(statusCode: response.status), headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            let channel = context.channel
            switch response.body {
            case .bytes(let b):
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: b)))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                    if close { channel.close(promise: nil) }
                }
            case .drip(let b, let interval):
                context.flush()
                Self.drip(b, from: 0, every: interval, on: channel)
            case .endless(let chunk):
                context.flush()
                Self.endless(ByteBuffer(bytes: chunk), on: channel)
            case .held(let b, let gate):
                context.flush()
                gate.whenOpen {
                    channel.eventLoop.execute {
                        guard channel.isActive else { return }
                        channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: b))), promise: nil)
                        channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in
                            channel.close(promise: nil)
                        }
                    }
                }
            case .silent:
                break
            }
        }

        private static func drip(_ bytes: [UInt8], from i: Int, every interval: TimeAmount, on channel: any Channel) {
            guard channel.isActive else { return }
            guard i < bytes.count else {
                channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in channel.close(promise: nil) }
                return
            }
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: [bytes[i]])))).whenSuccess {
                channel.eventLoop.scheduleTask(in: interval) { drip(bytes, from: i + 1, every: interval, on: channel) }
            }
        }

        private static func endless(_ buffer: ByteBuffer, on channel: any Channel) {
            guard channel.isActive else { return }
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer))).whenSuccess {
                channel.eventLoop.execute { endless(buffer, on: channel) }
            }
        }
    }
}
