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
    /// Jobs, workers, dedup window and shutdown grace.
    public var queue = EnrichmentQueue.Configuration()
    /// Platform API retries.
    public var retry = RetryPolicy()
    /// How pages are fetched; `--allow-private` sets `allowPrivateAddresses` (tests and intranets only).
    public var fetch = FetchConfiguration()
    /// Cache and concurrency of previews.
    public var previews = PreviewService.Configuration()

    public init(apiToken: String, apiBase: String) {
        self.apiToken = apiToken
        self.apiBase = apiBase
    }

    /// The settings read from the environment, with their meaning.
    public static let environmentVariables: [(name: String, meaning: String)] = [
        ("SENDBIRD_APP_ID", "application id; the API base is https://api-{id}.sendbird.com unless DESKKIT_API_BASE is set"),
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
    ]

    /// Builds the configuration from `flags` (names as in the table, values as text) over `environment`.
    /// Throws a ``ConfigurationError`` naming the setting and what is wrong with it.
    public static func resolve(flags: [String: String] = [:], environment: [String: String]) throws(ConfigurationError)
        -> ServerConfiguration
    {
        func value(_ name: String) -> String? {
            (flags[name] ?? environment[name]).flatMap { $0.isEmpty ? nil : $0 }
        }
        func integer(_ name: String, _ range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
            guard let text = value(name) else { return nil }
            guard let n = Int(text), range.contains(n) else {
                throw ConfigurationError(setting: name, problem: "\"\(text.prefix(40))\" is not a whole number in \(range.lowerBound)...\(range.upperBound)")
            }
            return n
        }
        guard let token = value("SENDBIRD_API_TOKEN") else {
            throw ConfigurationError(setting: "SENDBIRD_API_TOKEN", problem: "is required (it signs webhooks and authenticates API calls)")
        }
        let appID = value("SENDBIRD_APP_ID")
        if let appID, !appID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) {
            throw ConfigurationError(setting: "SENDBIRD_APP_ID", problem: "\"\(appID.prefix(40))\" is not an application id")
        }
        let base: String
        if let b = value("DESKKIT_API_BASE") {
            guard (b.hasPrefix("http://") || b.hasPrefix("https://")), b.count > 8, !b.contains(" ") else {
                throw ConfigurationError(setting: "DESKKIT_API_BASE", problem: "\"\(b.prefix(80))\" is not an http(s) URL")
            }
            base = b
        } else if let appID {
            base = PlatformAPIClient.defaultBaseURL(appID: appID)
        } else {
            throw ConfigurationError(setting: "SENDBIRD_APP_ID", problem: "is required unless DESKKIT_API_BASE is set")
        }
        var c = ServerConfiguration(apiToken: token, apiBase: base)
        c.appID = appID
        if let host = value("DESKKIT_HOST") { c.host = host }
        if let port = try integer("DESKKIT_PORT", 0...65535) { c.port = port }
        if let allow = value("DESKKIT_ALLOW_PRIVATE") {
            guard ["1", "true", "yes", "0", "false", "no"].contains(allow.lowercased()) else {
                throw ConfigurationError(setting: "DESKKIT_ALLOW_PRIVATE", problem: "\"\(allow.prefix(20))\" is not 1 or 0")
            }
            c.fetch.allowPrivateAddresses = ["1", "true", "yes"].contains(allow.lowercased())
        }
        if let n = try integer("DESKKIT_MAX_BODY_BYTES", 1024...(64 << 20)) { c.maxBodyBytes = n }
        if let n = try integer("DESKKIT_QUEUE_CAPACITY", 1...10_000_000) { c.queue.capacity = n }
        if let n = try integer("DESKKIT_WORKERS", 1...4096) { c.queue.workers = n }
        if let n = try integer("DESKKIT_DEDUP_CAPACITY", 0...100_000_000) { c.queue.dedupCapacity = n }
        if let n = try integer("DESKKIT_API_ATTEMPTS", 1...20) { c.retry.maxAttempts = n }
        if let n = try integer("DESKKIT_SHUTDOWN_GRACE", 0...3600) { c.queue.shutdownGrace = .seconds(n) }
        return c
    }

    /// The settings, with the token masked: safe to log.
    public var description: String {
        "listen \(host):\(port), app \(appID ?? "-"), api \(apiBase), token \(String(repeating: "*", count: 4)) (\(apiToken.count) chars), "
            + "max body \(maxBodyBytes) B, queue \(queue.capacity), workers \(queue.workers), dedup \(queue.dedupCapacity), "
            + "api attempts \(retry.maxAttempts), shutdown grace \(queue.shutdownGrace), private addresses \(fetch.allowPrivateAddresses ? "allowed" : "blocked")"
    }
}

/// A setting that stops the server from starting.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The environment variable (or its flag) at fault.
    public var setting: String
    public var problem: String
    public var description: String { "\(setting) \(problem)" }
}
