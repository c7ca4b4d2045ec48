import ArgumentParser
import DeskKitServer

/// `deskkit serve`'s settings as its options, so that swift-argument-parser parses them and lays out their
/// help. What each one means, its variable, its default and how its text is read are its setting's
/// (``ServerConfiguration/settings``, found by ``ServerSetting/key``); a value is read there, where a
/// problem is named by the flag it came in.
struct ServeSettings: ParsableArguments {
    @Option(name: .customLong("app-id"), help: .setting("app_id")) var appID: String?
    @Option(name: .customLong("api-base"), help: .setting("api_base")) var apiBase: String?
    @Option(name: .customLong("api-keys"), help: .setting("api_keys")) var apiKeys: String?
    @Option(name: .customLong("rate-limit"), help: .setting("rate_limit")) var rateLimit: String?
    @Option(name: .customLong("rate-burst"), help: .setting("rate_burst")) var rateBurst: String?
    @Option(name: .customLong("host"), help: .setting("host")) var host: String?
    @Option(name: .customLong("port"), help: .setting("port")) var port: String?
    @Flag(name: .customLong("allow-private"), help: .setting("allow_private")) var allowPrivate = false
    @Flag(name: .customLong("no-oembed"), help: .setting("oembed")) var noOEmbed = false
    @Flag(name: .customLong("no-image-probe"), help: .setting("image_probe")) var noImageProbe = false
    @Option(name: .customLong("user-agent"), help: .setting("user_agent")) var userAgent: String?
    @Option(name: .customLong("accept-language"), help: .setting("accept_language")) var acceptLanguage: String?
    @Option(name: .customLong("fetch-timeout"), help: .setting("fetch_timeout")) var fetchTimeout: String?
    @Option(name: .customLong("refusal-ttl"), help: .setting("refusal_ttl")) var refusalTTL: String?
    @Option(name: .customLong("challenge-retries"), help: .setting("challenge_retries")) var challengeRetries: String?
    @Option(name: .customLong("challenge-retry-window"), help: .setting("challenge_retry_window"))
    var challengeRetryWindow: String?
    @Option(name: .customLong("max-body-bytes"), help: .setting("max_body_bytes")) var maxBodyBytes: String?
    @Option(name: .customLong("queue-capacity"), help: .setting("queue_capacity")) var queueCapacity: String?
    @Option(name: .customLong("workers"), help: .setting("workers")) var workers: String?
    @Option(name: .customLong("dedup-capacity"), help: .setting("dedup_capacity")) var dedupCapacity: String?
    @Option(name: .customLong("shutdown-grace"), help: .setting("shutdown_grace")) var shutdownGrace: String?
    @Option(name: .customLong("store"), help: .setting("store")) var store: String?
    @Option(name: .customLong("retry-horizon"), help: .setting("retry_horizon")) var retryHorizon: String?
    @Option(name: .customLong("job-lease"), help: .setting("job_lease")) var jobLease: String?
    @Option(name: .customLong("defer-enrichment-above"), help: .setting("defer_enrichment_above"))
    var deferEnrichmentAbove: String?
    @Option(name: .customLong("store-timeout"), help: .setting("store_timeout")) var storeTimeout: String?
    @Option(name: .customLong("head-timeout"), help: .setting("head_timeout")) var headTimeout: String?
    @Option(name: .customLong("body-timeout"), help: .setting("body_timeout")) var bodyTimeout: String?
    @Option(name: .customLong("idle-timeout"), help: .setting("idle_timeout")) var idleTimeout: String?
    @Option(name: .customLong("max-connections"), help: .setting("max_connections")) var maxConnections: String?

    /// The settings given as flags, keyed by variable, as ``ServerConfiguration/resolve(flags:environment:file:)``
    /// takes them (a switch gives the value it stands for).
    var given: [String: String] {
        let options: [(key: String, value: String?)] = [
            ("app_id", appID), ("api_base", apiBase), ("api_keys", apiKeys), ("rate_limit", rateLimit),
            ("rate_burst", rateBurst), ("host", host), ("port", port), ("user_agent", userAgent),
            ("accept_language", acceptLanguage),
            ("fetch_timeout", fetchTimeout), ("refusal_ttl", refusalTTL), ("challenge_retries", challengeRetries),
            ("challenge_retry_window", challengeRetryWindow), ("max_body_bytes", maxBodyBytes),
            ("queue_capacity", queueCapacity), ("workers", workers), ("dedup_capacity", dedupCapacity),
            ("shutdown_grace", shutdownGrace), ("store", store), ("retry_horizon", retryHorizon),
            ("job_lease", jobLease), ("defer_enrichment_above", deferEnrichmentAbove), ("store_timeout", storeTimeout),
            ("head_timeout", headTimeout), ("body_timeout", bodyTimeout), ("idle_timeout", idleTimeout),
            ("max_connections", maxConnections),
        ]
        let switches = [("allow_private", allowPrivate), ("oembed", noOEmbed), ("image_probe", noImageProbe)]
        var flags: [String: String] = [:]
        for (key, value) in options {
            if let value, let setting = ServerConfiguration.setting(key: key) { flags[setting.variable] = value }
        }
        for (key, on) in switches where on {
            if let setting = ServerConfiguration.setting(key: key) { flags[setting.variable] = setting.flagSets }
        }
        return flags
    }
}

extension ArgumentHelp {
    /// The help of the setting whose key is `key`: what it means, its variable (with the value a switch stands
    /// for: the oEmbed switch's `=0`) and its default.
    static func setting(_ key: String) -> ArgumentHelp {
        ArgumentHelp(ServerConfiguration.setting(key: key)?.help ?? "")
    }
}
