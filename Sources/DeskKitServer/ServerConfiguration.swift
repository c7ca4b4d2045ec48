import DeskKitPreview

/// Everything `deskkit serve` is configured with: flags over environment over defaults.
public struct ServerConfiguration: Sendable, CustomStringConvertible {
    /// The address to listen on. Default `127.0.0.1`; `0.0.0.0` behind a load balancer.
    public var host = "127.0.0.1"
    /// Default 8080.
    public var port = 8080
    /// The Sendbird application id (`SENDBIRD_APP_ID`); names the default API base.
    public var appID: String?
    /// The API token (`SENDBIRD_API_TOKEN`): authenticates Platform API calls and keys webhook
    /// signatures. Never logged or printed.
    public var apiToken: String
    /// `https://api-{app_id}.sendbird.com` unless set (`DESKKIT_API_BASE`).
    public var apiBase: String
    /// The largest webhook body read (`DESKKIT_MAX_BODY_BYTES`); larger ones get 413. Default 256 KiB.
    public var maxBodyBytes = 256 * 1024
    /// Where jobs are kept. ``resolve(flags:environment:flagNames:)`` defaults to
    /// `StoreLocation.default` (a SQLite file), as `deskkit serve` does; this initialiser to memory.
    public var store = StoreLocation.memory
    /// Jobs, workers, dedup window and shutdown grace (capacity and the dedup capacity apply to the
    /// memory store only).
    public var queue = EnrichmentQueue.Configuration()
    /// How long one operation of a PostgreSQL store (`DESKKIT_STORE_TIMEOUT`, default 5 s) or a connection
    /// to it may take before the store counts as unavailable: webhooks get 503, a job's end is recorded
    /// again later.
    public var storeTimeout: Duration = .seconds(5)
    /// Lease, retry horizon and retry back-off of a durable store (its workers, dedup window and shutdown
    /// grace are taken from ``queue``).
    public var durable = DurableEnrichmentQueue.Configuration()
    /// Platform API retries.
    public var retry = RetryPolicy()
    /// How pages are fetched; `--allow-private` sets `allowPrivateAddresses` (tests and intranets only).
    public var fetch = FetchConfiguration()
    /// Cache and concurrency of previews.
    public var previews = PreviewService.Configuration()

    /// A configuration with defaults for everything but the API token and base URL.
    public init(apiToken: String, apiBase: String) {
        self.apiToken = apiToken
        self.apiBase = apiBase
    }

    /// The settings read from the environment, with their meaning.
    public static let environmentVariables: [(name: String, meaning: String)] = [
        (
            "SENDBIRD_APP_ID",
            "application id; the API base is https://api-{id}.sendbird.com unless DESKKIT_API_BASE is set"
        ),
        ("SENDBIRD_API_TOKEN", "API token (required): Platform API calls and webhook signatures"),
        ("DESKKIT_HOST", "address to listen on (default 127.0.0.1)"),
        ("DESKKIT_PORT", "port (default 8080)"),
        ("DESKKIT_API_BASE", "Platform API base URL"),
        ("DESKKIT_ALLOW_PRIVATE", "1 to fetch pages on private addresses (tests, intranets)"),
        ("DESKKIT_MAX_BODY_BYTES", "largest webhook body (default 262144)"),
        ("DESKKIT_QUEUE_CAPACITY", "jobs waiting at most before 503 (default 10000)"),
        ("DESKKIT_WORKERS", "jobs at once (default 32)"),
        ("DESKKIT_DEDUP_CAPACITY", "message ids remembered (default 100000)"),
        ("DESKKIT_API_ATTEMPTS", "Platform API attempts per update (default 4)"),
        ("DESKKIT_SHUTDOWN_GRACE", "seconds to finish work on shutdown (default 20)"),
        ("DESKKIT_STORE", "where jobs are kept: sqlite:PATH (default sqlite:deskkit-state.sqlite) or memory"),
        ("DESKKIT_RETRY_HORIZON", "seconds Platform API failures are retried, from the webhook (default 86400)"),
        ("DESKKIT_JOB_LEASE", "seconds a claimed job is a worker's before another takes it (default 120)"),
        ("DESKKIT_STORE_TIMEOUT", "seconds a PostgreSQL store may take to answer before it counts as down (default 5)"),
    ]

    /// Builds the configuration from `flags` (names as in the table, values as text) over `environment`.
    /// Throws a ``ConfigurationError`` naming the setting and what is wrong with it.
    public static func resolve(
        flags: [String: String] = [:], environment: [String: String], flagNames: [String: String] = [:]
    ) throws(ConfigurationError) -> ServerConfiguration {
        // Every problem is collected, so that one start-up names them all; a setting given by a flag is
        // named by the flag (`flagNames`: setting → flag).
        var problems: [ConfigurationError.Problem] = []
        func fail(_ name: String, _ problem: String) {
            let setting = flags[name] != nil ? flagNames[name] ?? name : name
            problems.append(.init(setting: setting, problem: problem))
        }
        func value(_ name: String) -> String? {
            (flags[name] ?? environment[name]).flatMap { $0.isEmpty ? nil : $0 }
        }
        func integer(_ name: String, _ range: ClosedRange<Int>) -> Int? {
            guard let text = value(name) else { return nil }
            guard let n = Int(text), range.contains(n) else {
                fail(name, "\"\(text.prefix(40))\" is not a whole number in \(range.lowerBound)...\(range.upperBound)")
                return nil
            }
            return n
        }
        let token = value("SENDBIRD_API_TOKEN")
        if token == nil { fail("SENDBIRD_API_TOKEN", "is required (it signs webhooks and authenticates API calls)") }
        var appID = value("SENDBIRD_APP_ID")
        if let id = appID, !id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) {
            fail("SENDBIRD_APP_ID", "\"\(id.prefix(40))\" is not an application id")
            appID = nil
        }
        var base: String?
        if let b = value("DESKKIT_API_BASE") {
            if (b.hasPrefix("http://") || b.hasPrefix("https://")), b.count > 8, !b.contains(" ") {
                base = b
            } else {
                fail("DESKKIT_API_BASE", "\"\(b.prefix(80))\" is not an http(s) URL")
            }
        } else if let appID {
            base = PlatformAPIClient.defaultBaseURL(appID: appID)
        } else if value("SENDBIRD_APP_ID") == nil {
            fail("SENDBIRD_APP_ID", "is required unless DESKKIT_API_BASE is set")
        }
        var c = ServerConfiguration(apiToken: token ?? "", apiBase: base ?? "")
        c.appID = appID
        if let host = value("DESKKIT_HOST") { c.host = host }
        if let port = integer("DESKKIT_PORT", 0...65535) { c.port = port }
        if let allow = value("DESKKIT_ALLOW_PRIVATE") {
            if ["1", "true", "yes", "0", "false", "no"].contains(allow.lowercased()) {
                c.fetch.allowPrivateAddresses = ["1", "true", "yes"].contains(allow.lowercased())
            } else {
                fail("DESKKIT_ALLOW_PRIVATE", "\"\(allow.prefix(20))\" is not 1 or 0")
            }
        }
        if let n = integer("DESKKIT_MAX_BODY_BYTES", 1024...(64 << 20)) { c.maxBodyBytes = n }
        if let n = integer("DESKKIT_QUEUE_CAPACITY", 1...10_000_000) { c.queue.capacity = n }
        if let n = integer("DESKKIT_WORKERS", 1...4096) { c.queue.workers = n }
        if let n = integer("DESKKIT_DEDUP_CAPACITY", 0...100_000_000) { c.queue.dedupCapacity = n }
        if let n = integer("DESKKIT_API_ATTEMPTS", 1...20) { c.retry.maxAttempts = n }
        if let n = integer("DESKKIT_SHUTDOWN_GRACE", 0...3600) { c.queue.shutdownGrace = .seconds(n) }
        c.store = .default
        if let text = value("DESKKIT_STORE") {
            do { c.store = try StoreLocation(parsing: text) } catch { fail("DESKKIT_STORE", error.detail) }
        }
        if let n = integer("DESKKIT_RETRY_HORIZON", 0...(365 * 86400)) { c.durable.retryHorizon = .seconds(n) }
        if let n = integer("DESKKIT_JOB_LEASE", 1...86400) { c.durable.lease = .seconds(n) }
        if let n = integer("DESKKIT_STORE_TIMEOUT", 1...3600) { c.storeTimeout = .seconds(n) }
        guard problems.isEmpty else { throw ConfigurationError(problems: problems) }
        return c
    }

    /// The settings, with the token masked: safe to log.
    public var description: String {
        "listen \(host):\(port), app \(appID ?? "-"), api \(apiBase), token \(String(repeating: "*", count: 4)) (\(apiToken.count) chars), "
            + "max body \(maxBodyBytes) B, queue \(queue.capacity), workers \(queue.workers), dedup \(queue.dedupCapacity), "
            + "store \(store) (timeout \(storeTimeout)), retry horizon \(durable.retryHorizon), job lease \(durable.lease), "
            + "api attempts \(retry.maxAttempts), shutdown grace \(queue.shutdownGrace), private addresses \(fetch.allowPrivateAddresses ? "allowed" : "blocked")"
    }
}

/// The settings that stop the server from starting: every one of them, found together.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One setting at fault.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The environment variable, or the flag when the value came from one.
        public var setting: String
        /// What is wrong with its value, as a sentence.
        public var problem: String
        public var description: String { "\(setting) \(problem)" }
    }

    /// Every setting at fault, in the order they were read.
    public var problems: [Problem]
    /// The first setting at fault.
    public var setting: String { problems.first?.setting ?? "" }
    /// Every problem, separated by "; ".
    public var description: String { problems.map(\.description).joined(separator: "; ") }
}
