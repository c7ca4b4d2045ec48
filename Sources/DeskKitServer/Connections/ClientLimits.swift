/// What a client of the server may take: time to send a request's head and its body, time to sit idle
/// between requests, and how many connections may be open at once. A server that documents running on a
/// public address cuts off slow clients itself (a proxy in front would otherwise do it): 3,000 connections
/// that each send a header line every 2 seconds are closed within the head's time, their memory returned.
///
/// Each is a `deskkit serve` setting (`DESKKIT_HEAD_TIMEOUT`, `DESKKIT_BODY_TIMEOUT`, `DESKKIT_IDLE_TIMEOUT`,
/// `DESKKIT_MAX_CONNECTIONS`), and each connection cut is counted in `/metrics`:
/// `deskkit_connections_closed_total{reason}` with `head_timeout`, `body_timeout`, `idle_timeout` or
/// `over_capacity`; `deskkit_connections_open` is the connections open now.
public struct ClientLimits: Sendable, Hashable {
    /// How long a connection may take to send a request's head (its request line and headers), from when it
    /// opens. Default 10 seconds.
    public var headTimeout: Duration = .seconds(10)
    /// How long a request's body may take, from its head to its end. Default 30 seconds.
    public var bodyTimeout: Duration = .seconds(30)
    /// How long a kept-alive connection may wait, after a response, before the next request's head has come.
    /// Default 60 seconds.
    public var idleTimeout: Duration = .seconds(60)
    /// Connections open at once at most; one past it is closed as soon as it is accepted. Default 10,000 (keep
    /// it under the process's limit of open files, `ulimit -n`).
    public var maxConnections = 10_000

    /// The defaults.
    public init() {}
}
