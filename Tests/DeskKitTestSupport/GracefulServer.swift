import Logging
import ServiceLifecycle

/// A test's HTTP server (a Hummingbird application, any service that says when it listens) run in a
/// `ServiceGroup` of its own on a loopback port, and stopped gracefully, as a deployment stops: what it accepted
/// is answered.
///
/// Cancelling a Hummingbird server's task instead can crash the whole test process when a connection has been
/// accepted and not yet handed to the application (swift-nio#2637: "Deinited NIOAsyncWriter without calling
/// finish()", seen in a fresh-clone run) — the maintainers' advice is a graceful shutdown.
public struct GracefulServer: Sendable {
    /// The port it listens on.
    public let port: Int
    private let group: ServiceGroup

    /// A logger that tells only what is critical, for the server a test starts (its own lines are noise in a
    /// test's output).
    public static let quietLogger: Logger = {
        var logger = Logger(label: "test-server")
        logger.logLevel = .critical
        return logger
    }()

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts the service `make` returns and returns once it listens. `make` is given the function its server
    /// calls with its port once it listens (Hummingbird's `onServerRunning`).
    ///
    /// - Throws: ``GracefulServer/NeverListened`` when the service ends (or fails) before it listens.
    public static func start(
        _ make: (_ listening: @escaping @Sendable (Int) -> Void) throws -> some Service
    ) async throws -> GracefulServer {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let service = try make { continuation.yield($0) }
        let group = ServiceGroup(configuration: .init(services: [service], logger: quietLogger))
        let running = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var next = ports.makeAsyncIterator()
        guard let port = await next.next() else {
            let failure: String
            do {
                try await running.value
                failure = "it ended"
            } catch {
                failure = "\(error)"
            }
            throw NeverListened(description: "the test server never listened: \(failure)")
        }
        return GracefulServer(port: port, group: group)
    }

    /// Begins the graceful shutdown and returns: the server ends once what it accepted is answered (an answer
    /// a test holds waits for it).
    public func stop() async { await group.triggerGracefulShutdown() }

    /// Runs `body` while the server serves, then stops it — when `body` returns and when it throws — as
    /// `PageServer.scoped` does.
    public func scoped<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            let value = try await body()
            await stop()
            return value
        } catch {
            await stop()
            throw error
        }
    }

    /// A server that ended before it listened, with why.
    public struct NeverListened: Error, CustomStringConvertible {
        public let description: String
    }
}
