import ArgumentParser
import DeskKitServer

/// `deskkit serve`'s settings as its options, so that swift-argument-parser parses them and lays out their
/// help: one line each, named after its setting's key (`fetchTimeout` is `fetch_timeout`, the option
/// `--fetch-timeout`; a switch that turns a setting off is `no` and the key: `noOembed`, `--no-oembed`). What
/// each one means, its variable, its default, its type and range are its setting's
/// (``ServerConfiguration/settings``); ``given`` hands the values to
/// ``ServerConfiguration/resolve(flags:environment:file:)`` by reading the options off this type, so no list of
/// them is written twice. A test checks that every setting has its option and every option its setting.
struct ServeSettings: ParsableArguments {
    @Option(help: .setting("app_id")) var appId: SettingArgument<String>?
    @Option(help: .setting("api_base")) var apiBase: SettingArgument<String>?
    @Option(help: .setting("api_keys")) var apiKeys: SettingArgument<String>?
    @Option(help: .setting("rate_limit")) var rateLimit: SettingArgument<Int>?
    @Option(help: .setting("rate_burst")) var rateBurst: SettingArgument<Int>?
    @Option(help: .setting("host")) var host: SettingArgument<String>?
    @Option(help: .setting("port")) var port: SettingArgument<Int>?
    @Flag(help: .setting("allow_private")) var allowPrivate = false
    @Flag(help: .setting("oembed")) var noOembed = false
    @Flag(help: .setting("image_probe")) var noImageProbe = false
    @Option(help: .setting("user_agent")) var userAgent: SettingArgument<String>?
    @Option(help: .setting("accept_language")) var acceptLanguage: SettingArgument<String>?
    @Option(help: .setting("preview_hosts_deny")) var previewHostsDeny: SettingArgument<String>?
    @Option(help: .setting("preview_hosts_allow")) var previewHostsAllow: SettingArgument<String>?
    @Option(help: .setting("public_url")) var publicUrl: SettingArgument<String>?
    @Option(help: .setting("image_proxy_keys")) var imageProxyKeys: SettingArgument<String>?
    @Option(help: .setting("image_proxy_max_pixels")) var imageProxyMaxPixels: SettingArgument<Int>?
    @Option(help: .setting("image_proxy_max_bytes")) var imageProxyMaxBytes: SettingArgument<Int>?
    @Option(help: .setting("image_proxy_timeout")) var imageProxyTimeout: SettingArgument<Duration>?
    @Option(help: .setting("image_proxy_max_age")) var imageProxyMaxAge: SettingArgument<Duration>?
    @Option(help: .setting("fetch_timeout")) var fetchTimeout: SettingArgument<Duration>?
    @Option(help: .setting("refusal_ttl")) var refusalTtl: SettingArgument<Duration>?
    @Option(help: .setting("challenge_retries")) var challengeRetries: SettingArgument<Int>?
    @Option(help: .setting("challenge_retry_window")) var challengeRetryWindow: SettingArgument<Duration>?
    @Option(help: .setting("max_body_bytes")) var maxBodyBytes: SettingArgument<Int>?
    @Option(help: .setting("queue_capacity")) var queueCapacity: SettingArgument<Int>?
    @Option(help: .setting("workers")) var workers: SettingArgument<Int>?
    @Option(help: .setting("dedup_capacity")) var dedupCapacity: SettingArgument<Int>?
    @Option(help: .setting("shutdown_grace")) var shutdownGrace: SettingArgument<Duration>?
    @Option(help: .setting("store")) var store: SettingArgument<String>?
    @Option(help: .setting("retry_horizon")) var retryHorizon: SettingArgument<Duration>?
    @Option(help: .setting("job_lease")) var jobLease: SettingArgument<Duration>?
    @Option(help: .setting("defer_enrichment_above")) var deferEnrichmentAbove: SettingArgument<Int>?
    @Option(help: .setting("head_timeout")) var headTimeout: SettingArgument<Duration>?
    @Option(help: .setting("body_timeout")) var bodyTimeout: SettingArgument<Duration>?
    @Option(help: .setting("idle_timeout")) var idleTimeout: SettingArgument<Duration>?
    @Option(help: .setting("max_connections")) var maxConnections: SettingArgument<Int>?
    @Option(help: .setting("store_timeout")) var storeTimeout: SettingArgument<Duration>?

    /// The settings given as options, keyed by variable, as ``ServerConfiguration/resolve(flags:environment:file:)``
    /// takes them (a switch gives the value it stands for): read off the options' names (`fetchTimeout`:
    /// `fetch_timeout`; `noOembed`: `oembed`).
    var given: [String: String] {
        var flags: [String: String] = [:]
        for child in Mirror(reflecting: self).children {
            guard let label = child.label?.drop(while: { $0 == "_" }) else { continue }
            let name = label.reduce(into: "") { key, c in key += c.isUppercase ? "_" + c.lowercased() : String(c) }
            if let option = child.value as? any GivenOption, let text = option.givenText,
                let setting = ServerConfiguration.setting(key: name)
            {
                flags[setting.variable] = text
            } else if let flag = child.value as? Flag<Bool>, flag.wrappedValue,
                let setting = ServerConfiguration.setting(key: name.hasPrefix("no_") ? String(name.dropFirst(3)) : name)
            {
                flags[setting.variable] = setting.flagSets
            }
        }
        return flags
    }
}

/// A setting's value as given on the command line, of the type its setting reads (`Int`, `Duration`,
/// `String`). The text is kept as written and read by ``ServerConfiguration/resolve(flags:environment:file:)``
/// with the environment and the file, so that every setting at fault is named at once, by the flag it came
/// in — swift-argument-parser would stop at the first value it cannot read.
struct SettingArgument<Value>: ExpressibleByArgument {
    let text: String
    init?(argument: String) { text = argument }
}

/// An option whose value is a ``SettingArgument`` (its text, when given).
protocol GivenOption { var givenText: String? { get } }

extension Option: GivenOption where Value: GivenText {
    var givenText: String? { wrappedValue.givenText }
}

/// An optional ``SettingArgument``.
protocol GivenText { var givenText: String? { get } }

extension Optional: GivenText where Wrapped: SettingText {
    var givenText: String? { self?.text }
}

/// What a ``SettingArgument`` of any type holds.
protocol SettingText { var text: String { get } }

extension SettingArgument: SettingText {}

extension ArgumentHelp {
    /// The help of the setting whose key is `key`: what it means, its variable (with the value a switch stands
    /// for: the oEmbed switch's `=0`) and its default.
    static func setting(_ key: String) -> ArgumentHelp {
        ArgumentHelp(ServerConfiguration.setting(key: key)?.help ?? "")
    }
}
