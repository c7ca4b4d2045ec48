import DeskKitJobStore
import DeskKitPreview

/// One setting of the server, declared once — its environment variable, its type and range, how its value is
/// read from a configuration and written into one, whether it is a secret, what it means — from which the
/// rest follows: its key in a `ConfigReader` and a `SettingsFile` (the variable without its prefix, in lower
/// case), the `deskkit serve` flag named after the key (``flag``) and its help (``help``), its default (read off
/// a default ``ServerConfiguration``), the server article's table of settings and the configuration's
/// `description`.
///
/// ``ServerConfiguration/settings`` is the one table of them: adding a setting is one entry there and its
/// use. ``ServerConfiguration/init(reader:)`` reads each by its key from a swift-configuration `ConfigReader`;
/// `ServerConfiguration.resolve(flags:environment:file:)` builds that reader over the flags, the environment
/// and a `SettingsFile`, and names a problem by the flag, the variable or the file's key that gave it.
package struct ServerSetting: Sendable {
    /// The type a setting's value is read as.
    package enum Kind: Sendable, Hashable {
        /// Text, checked by the setting itself (a URL, a list of keys, a store).
        case text
        /// A whole number in the range.
        case wholeNumber(ClosedRange<Int>)
        /// `1`, `true`, `yes` or `0`, `false`, `no`.
        case onOff
        /// A duration in the range, as `DurationText` writes it (`500ms`, `10s`, `5m`, `1d`; a bare number
        /// is seconds).
        case duration(ClosedRange<Duration>)
    }

    /// A setting's value, of its ``Kind``.
    enum Value {
        case text(String)
        case wholeNumber(Int)
        case onOff(Bool)
        case duration(Duration)
    }

    /// The environment variable (`DESKKIT_PORT`).
    package let variable: String
    /// The `deskkit serve` flag that overrides the variable, named after the key: `--port`, `--fetch-timeout`;
    /// a switch that turns a setting off is `--no-` and the key (`--no-oembed`). Nil for the API token, which
    /// is never an option (other users could read it in the process list).
    package var flag: String? {
        guard hasFlag else { return nil }
        return "--" + (flagSets == "0" ? "no-" : "") + key.replacing("_", with: "-")
    }
    private let hasFlag: Bool
    /// The setting's key in a `SettingsFile` and in the `ConfigReader`: the variable without its `DESKKIT_`
    /// or `SENDBIRD_` prefix, in lower case (`port`, `fetch_timeout`, `api_keys`, `api_token`, `oembed`).
    package var key: String {
        let name = variable.split(separator: "_", maxSplits: 1).last.map(String.init) ?? variable
        return name.lowercased()
    }
    /// For a flag that takes no value (`--allow-private`, `--no-oembed`), the value it gives the
    /// variable (`1`, `0`); nil for a flag followed by its value (`--port 8080` or `--port=8080`).
    package let flagSets: String?
    /// The type its value is read as.
    package let kind: Kind
    /// Whether its value is a secret (the API token, the API keys, the store with its password): marked so in
    /// swift-configuration, so that no access log shows it, and never printed.
    package let isSecret: Bool
    /// What the setting means (for a switch, what its flag does).
    package let meaning: String
    /// Its default as written in a setting, read off a default configuration; nil when it has none to show.
    package var defaultText: String? { shown(ServerConfiguration.defaults) }
    /// Why it must be set, when it must.
    let required: String?
    /// Its value in a configuration as a setting writes it (`10m`, `8080`, `sqlite:deskkit-state.sqlite`), a
    /// secret's redacted; nil when it has none to show.
    let shown: @Sendable (ServerConfiguration) -> String?
    /// Gives the value to a configuration; answers what is wrong with it, or nil.
    let apply: @Sendable (_ value: Value, _ configuration: inout ServerConfiguration) -> String?

    /// What `deskkit serve --help` says of it: its meaning, variable and default.
    package var help: String {
        let variable = "\(variable)\(flagSets.map { "=\($0)" } ?? "")"
        return "\(meaning) (\(variable)\(defaultText.map { "; default \($0)" } ?? ""))"
    }

    /// What is wrong with `text`, a source's value that does not read as this setting's ``kind`` or lies
    /// outside its range.
    func problem(reading text: String) -> String {
        switch kind {
        case .text: "\"\(text.prefix(40))\" cannot be read"
        case .wholeNumber(let range):
            "\"\(text.prefix(40))\" is not a whole number in \(range.lowerBound)...\(range.upperBound)"
        case .onOff: "\"\(text.prefix(20))\" is not 1 or 0"
        case .duration(let range):
            "\"\(text.prefix(40))\" is not a duration from \(DurationText.format(range.lowerBound)) to "
                + "\(DurationText.format(range.upperBound)) (like \(DurationText.examples))"
        }
    }

    /// Whether `value` is of this setting's ``kind`` and within its range.
    func admits(_ value: Value) -> Bool {
        switch (kind, value) {
        case (.text, .text), (.onOff, .onOff): true
        case (.wholeNumber(let range), .wholeNumber(let n)): range.contains(n)
        case (.duration(let range), .duration(let d)): range.contains(d)
        default: false
        }
    }

    /// Text checked by `apply`, which answers what is wrong with it; `shown`: the value a configuration has,
    /// as written (a secret's redacted); `flag`: whether it has an option.
    static func text(
        _ variable: String, _ meaning: String, secret: Bool = false, flag: Bool = true, required: String? = nil,
        shown: @escaping @Sendable (ServerConfiguration) -> String?,
        _ apply: @escaping @Sendable (_ text: String, _ configuration: inout ServerConfiguration) -> String?
    ) -> ServerSetting {
        ServerSetting(
            variable: variable, hasFlag: flag, flagSets: nil, kind: .text, isSecret: secret, meaning: meaning,
            required: required, shown: shown
        ) { value, c in
            guard case .text(let text) = value else { return nil }
            return apply(text, &c)
        }
    }

    /// A whole number in `range`.
    static func integer(
        _ variable: String, _ meaning: String, _ range: ClosedRange<Int>,
        _ get: @escaping @Sendable (ServerConfiguration) -> Int,
        _ set: @escaping @Sendable (inout ServerConfiguration, Int) -> Void
    ) -> ServerSetting {
        ServerSetting(
            variable: variable, hasFlag: true, flagSets: nil, kind: .wholeNumber(range), isSecret: false,
            meaning: meaning, required: nil, shown: { String(get($0)) }
        ) { value, c in
            if case .wholeNumber(let n) = value { set(&c, n) }
            return nil
        }
    }

    /// On or off; its flag takes no value and sets `flagSets` (`0`: the flag is `--no-` and the key).
    static func onOff(
        _ variable: String, flagSets: String = "1", _ meaning: String,
        _ get: @escaping @Sendable (ServerConfiguration) -> Bool,
        _ set: @escaping @Sendable (inout ServerConfiguration, Bool) -> Void
    ) -> ServerSetting {
        ServerSetting(
            variable: variable, hasFlag: true, flagSets: flagSets, kind: .onOff, isSecret: false,
            meaning: meaning, required: nil, shown: { get($0) ? "1" : "0" }
        ) { value, c in
            if case .onOff(let on) = value { set(&c, on) }
            return nil
        }
    }

    /// A duration within `range`.
    static func duration(
        _ variable: String, _ meaning: String, _ range: ClosedRange<Duration>,
        _ get: @escaping @Sendable (ServerConfiguration) -> Duration,
        _ set: @escaping @Sendable (inout ServerConfiguration, Duration) -> Void
    ) -> ServerSetting {
        ServerSetting(
            variable: variable, hasFlag: true, flagSets: nil, kind: .duration(range), isSecret: false,
            meaning: meaning, required: nil, shown: { DurationText.format(get($0)) }
        ) { value, c in
            if case .duration(let duration) = value { set(&c, duration) }
            return nil
        }
    }
}

extension ServerConfiguration {
    /// A configuration with every default, whose values the settings' help shows.
    static let defaults = ServerConfiguration(apiToken: "", apiBase: "")

    /// Every setting, in the order they are read and listed.
    package static let settings: [ServerSetting] = [
        .text(
            "SENDBIRD_API_TOKEN", "API token: Platform API calls and webhook signatures", secret: true, flag: false,
            required: "is required (it signs webhooks and authenticates API calls)",
            shown: { $0.apiToken.isEmpty ? nil : "<redacted>" }
        ) { text, c in
            c.apiToken = text
            return nil
        },
        .text(
            "SENDBIRD_APP_ID",
            "application id; the API base is https://api-{id}.sendbird.com unless DESKKIT_API_BASE is set",
            shown: \.appID
        ) { text, c in
            guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                return "\"\(text.prefix(40))\" is not an application id"
            }
            c.appID = text
            return nil
        },
        .text("DESKKIT_API_BASE", "Platform API base URL", shown: { $0.apiBase.isEmpty ? nil : $0.apiBase }) {
            text, c in
            guard text.hasPrefix("http://") || text.hasPrefix("https://"), text.count > 8, !text.contains(" ") else {
                return "\"\(text.prefix(80))\" is not an http(s) URL"
            }
            c.apiBase = text
            return nil
        },
        .text(
            "DESKKIT_API_KEYS",
            "client keys, a chat backend's: /v1/preview and /v1/decode (Authorization: Bearer KEY), comma-separated, 16+ characters each, NAME:KEY to name one; none: those routes answer 401",
            secret: true, shown: { $0.apiKeys.count == 0 ? nil : $0.apiKeys.description }
        ) { text, c in
            do throws(APIKeysError) { c.apiKeys = try APIKeys(parsing: text, kind: "client") } catch {
                return error.description
            }
            return nil
        },
        .text(
            "DESKKIT_OPERATOR_KEYS",
            "the operator's keys: the console's routes (queue, jobs, retries, refusals, inspect, forgetting cards) and /metrics, and what a client key opens; as DESKKIT_API_KEYS, each its own",
            secret: true, shown: { $0.operatorKeys.count == 0 ? nil : $0.operatorKeys.description }
        ) { text, c in
            do throws(APIKeysError) { c.operatorKeys = try APIKeys(parsing: text, kind: "operator") } catch {
                return error.description
            }
            return nil
        },
        .text(
            "DESKKIT_METRICS_KEYS",
            "a metrics scraper's keys: /metrics only; as DESKKIT_API_KEYS, each its own",
            secret: true, shown: { $0.metricsKeys.count == 0 ? nil : $0.metricsKeys.description }
        ) { text, c in
            do throws(APIKeysError) { c.metricsKeys = try APIKeys(parsing: text, kind: "metrics") } catch {
                return error.description
            }
            return nil
        },
        .integer(
            "DESKKIT_RATE_LIMIT",
            "requests a second each key may make to the /v1 routes (0: no limit)", 0...1_000_000,
            \.rateLimit.perSecond
        ) { $0.rateLimit.perSecond = $1 },
        .integer(
            "DESKKIT_RATE_BURST", "requests a key may make at once", 1...1_000_000,
            \.rateLimit.burst
        ) { $0.rateLimit.burst = $1 },
        .integer(
            "DESKKIT_INSPECT_RATE",
            "inspections a second each operator key may make (each fetches past the caches; 0: no limit but the keys' rate)",
            0...1_000_000, \.inspectRate.perSecond
        ) { $0.inspectRate.perSecond = $1 },
        .integer(
            "DESKKIT_INSPECT_BURST", "inspections an operator key may make at once", 1...1_000_000,
            \.inspectRate.burst
        ) { $0.inspectRate.burst = $1 },
        .text("DESKKIT_HOST", "address to listen on", shown: \.host) { text, c in
            c.host = text
            return nil
        },
        .integer("DESKKIT_PORT", "port (0 picks a free one)", 0...65535, \.port) { $0.port = $1 },
        .onOff(
            "DESKKIT_ALLOW_PRIVATE", "fetch pages on private addresses (tests, intranets)",
            \.fetch.allowPrivateAddresses
        ) { $0.fetch.allowPrivateAddresses = $1 },
        .onOff(
            "DESKKIT_OEMBED", flagSets: "0",
            "do not ask oEmbed providers (the built-in table's, or a page's discovery link)", \.previews.oEmbed
        ) { $0.previews.oEmbed = $1 },
        .onOff(
            "DESKKIT_IMAGE_PROBE", flagSets: "0",
            "do not fetch a card's image for its size and type (nor drop it when it is none)",
            \.previews.probeImages
        ) { $0.previews.probeImages = $1 },
        .onOff(
            "DESKKIT_SITE_PROBE", flagSets: "0",
            "do not ask a deep link's site for a made-up address of its own (which tells a notice every address gets from the page)",
            \.previews.siteProbe
        ) { $0.previews.siteProbe = $1 },
        .text(
            "DESKKIT_USER_AGENT",
            "User-Agent of page and image fetches (by default DeskKit, its version and a URL)",
            shown: { $0.fetch.userAgent == defaults.fetch.userAgent ? nil : $0.fetch.userAgent }
        ) { text, c in
            guard FetchConfiguration.isValidUserAgent(text) else {
                return "is not 1 to 512 printable ASCII characters"
            }
            c.fetch.userAgent = text
            return nil
        },
        .text(
            "DESKKIT_ACCEPT_LANGUAGE",
            "languages asked of pages: a tag (ru: Russian first, then any) or an Accept-Language list; a /v1/preview request's \"language\" and a webhook sender's language come before it",
            shown: \.fetch.acceptLanguage.header
        ) { text, c in
            do throws(AcceptLanguage.Problem) { c.fetch.acceptLanguage = try AcceptLanguage(text) } catch {
                return error.reason
            }
            return nil
        },
        .text(
            "DESKKIT_PREVIEW_HOSTS_DENY",
            "hosts that get no fetch and no card, comma-separated: example.com covers its subdomains, *.example.com only them; every redirect, oEmbed endpoint and image is held to it",
            shown: { c in
                c.fetch.sitePolicy.deny.isEmpty
                    ? nil : c.fetch.sitePolicy.deny.map(\.description).joined(separator: ",")
            }
        ) { text, c in
            do throws(SitePolicy.Problem) { c.fetch.sitePolicy.deny = try SitePolicy.patterns(text) } catch {
                return error.description
            }
            return nil
        },
        .text(
            "DESKKIT_PREVIEW_HOSTS_ALLOW",
            "when given, the only hosts that get a fetch (less those denied), patterns as for the deny list",
            shown: { $0.fetch.sitePolicy.allow?.map(\.description).joined(separator: ",") }
        ) { text, c in
            do throws(SitePolicy.Problem) {
                let patterns = try SitePolicy.patterns(text)
                c.fetch.sitePolicy.allow = patterns.isEmpty ? nil : patterns
            } catch {
                return error.description
            }
            return nil
        },
        .text(
            "DESKKIT_PUBLIC_URL",
            "where clients reach this server (https://chat-media.example.com): the start of the proxied images' URLs",
            shown: \.publicURL
        ) { text, c in
            do throws(ImageProxyError) { c.publicURL = try ImageURLSigner.publicURL(text) } catch {
                return error.description
            }
            return nil
        },
        .text(
            "DESKKIT_IMAGE_PROXY_KEYS",
            "keys that sign the image proxy's URLs, comma-separated, 16+ characters each: the first signs, every one verifies; with DESKKIT_PUBLIC_URL, cards name their images through /images/",
            secret: true, shown: { $0.imageProxyKeys == nil ? nil : "<redacted>" }
        ) { text, c in
            do throws(ImageProxyError) { _ = try ImageURLSigner.keys(text) } catch { return error.description }
            c.imageProxyKeys = text
            return nil
        },
        .integer(
            "DESKKIT_IMAGE_PROXY_MAX_PIXELS",
            "pixels (width × height, read from its header) a proxied image may have", 1...1_000_000_000,
            \.imageLimits.maxPixels
        ) { $0.imageLimits.maxPixels = $1 },
        .integer(
            "DESKKIT_IMAGE_PROXY_MAX_BYTES", "bytes a proxied image may have", 1024...1_000_000_000,
            \.imageLimits.maxBytes
        ) { $0.imageLimits.maxBytes = $1 },
        .duration(
            "DESKKIT_IMAGE_PROXY_TIMEOUT", "how long one proxied image's fetch may take, redirects and body included",
            .seconds(1) ... .seconds(3600), \.imageLimits.timeout
        ) { $0.imageLimits.timeout = $1 },
        .duration(
            "DESKKIT_IMAGE_PROXY_MAX_AGE",
            "the longest Cache-Control max-age of a proxied image (the origin's when shorter)",
            .zero ... .seconds(365 * 86400), \.imageMaxAge
        ) { $0.imageMaxAge = $1 },
        .duration(
            "DESKKIT_FETCH_TIMEOUT",
            "how long a page fetch may take, redirects and body included", .seconds(1) ... .seconds(600),
            { $0.fetch.totalTimeout }
        ) { $0.fetch.totalTimeout = $1 },
        .duration(
            "DESKKIT_REFUSAL_TTL",
            "how long a refused page (a bot check, a login or consent wall, an error page, a parked domain, an app shell, a notice) is remembered before it is fetched again",
            .zero ... .seconds(86400), \.previews.refusalTTL
        ) {
            $0.previews.refusalTTL = $1
            $0.retry.challenge.minimumDelay = $1
        },
        .duration(
            "DESKKIT_SITE_PROBE_TTL",
            "how long a site's answer to its made-up address is kept for its next links",
            .seconds(1) ... .seconds(86400),
            \.previews.siteProbeTTL
        ) { $0.previews.siteProbeTTL = $1 },
        .integer(
            "DESKKIT_CHALLENGE_RETRIES",
            "times a job whose pages a bot check stood in for is tried again (0: never)", 0...20,
            \.retry.challenge.retries
        ) { $0.retry.challenge.retries = $1 },
        .duration(
            "DESKKIT_CHALLENGE_RETRY_WINDOW",
            "how long those retries are spread over, from the first attempt", .seconds(60) ... .seconds(7 * 86400),
            \.retry.challenge.window
        ) { $0.retry.challenge.window = $1 },
        .integer(
            "DESKKIT_MAX_BODY_BYTES", "largest webhook body, in bytes", 1024...(64 << 20),
            \.maxBodyBytes
        ) { $0.maxBodyBytes = $1 },
        .integer(
            "DESKKIT_QUEUE_CAPACITY",
            "with --store memory: unfinished jobs at most before webhooks get 503", 1...10_000_000,
            \.memory.capacity
        ) { $0.memory.capacity = $1 },
        .integer("DESKKIT_WORKERS", "jobs at once", 1...4096, \.queue.workers) { $0.queue.workers = $1 },
        .integer(
            "DESKKIT_DEDUP_CAPACITY",
            "with --store memory: ended jobs remembered as duplicates", 0...100_000_000, \.memory.remembered
        ) { $0.memory.remembered = $1 },
        .duration(
            "DESKKIT_SHUTDOWN_GRACE",
            "how long requests and jobs may still run after SIGTERM; past it they are cut", .zero ... .seconds(3600),
            \.queue.shutdownGrace
        ) { $0.queue.shutdownGrace = $1 },
        .text(
            "DESKKIT_STORE",
            "where jobs are kept: sqlite:PATH, postgres://USER:PASSWORD@HOST:PORT/DATABASE or memory",
            secret: true, shown: \.store.description
        ) { text, c in
            do throws(JobStoreError) { c.store = try StoreLocation(parsing: text) } catch { return error.detail }
            return nil
        },
        .duration(
            "DESKKIT_RETRY_HORIZON",
            "how long Platform API failures are retried, from the webhook", .zero ... .seconds(365 * 86400),
            \.retry.horizon
        ) { $0.retry.horizon = $1 },
        .duration(
            "DESKKIT_JOB_LEASE",
            "how long a claimed job is a worker's unless it renews it (every third of it, while it runs); a dead instance's jobs are taken up after it",
            .seconds(3) ... .seconds(86400), \.queue.lease
        ) { $0.queue.lease = $1 },
        .integer(
            "DESKKIT_DEFER_ENRICHMENT_ABOVE",
            "webhooks a second above which enrichment runs on one worker, so that admissions keep a low latency under bursts (0: off)",
            0...10_000_000, \.queue.deferEnrichmentAbove
        ) { $0.queue.deferEnrichmentAbove = $1 },
        .duration(
            "DESKKIT_HEAD_TIMEOUT",
            "how long a connection may take to send a request's head, from when it opens",
            .milliseconds(100) ... .seconds(3600),
            \.clients.headTimeout
        ) { $0.clients.headTimeout = $1 },
        .duration(
            "DESKKIT_BODY_TIMEOUT", "how long a request's body may take, from its head",
            .milliseconds(100) ... .seconds(3600), \.clients.bodyTimeout
        ) { $0.clients.bodyTimeout = $1 },
        .duration(
            "DESKKIT_IDLE_TIMEOUT",
            "how long a kept-alive connection may wait for its next request after a response",
            .milliseconds(100) ... .seconds(86400),
            \.clients.idleTimeout
        ) { $0.clients.idleTimeout = $1 },
        .integer(
            "DESKKIT_MAX_CONNECTIONS",
            "connections open at once; one more is closed as soon as it is accepted", 1...1_000_000,
            \.clients.maxConnections
        ) { $0.clients.maxConnections = $1 },
        .duration(
            "DESKKIT_STORE_TIMEOUT",
            "how long a PostgreSQL store may take to answer before it counts as down", .seconds(1) ... .seconds(3600),
            \.storeTimeout
        ) { $0.storeTimeout = $1 },
    ]

    /// The table of settings in the DeskKitServer article, as the declarations give it: variable (and its type
    /// when it is a duration), flag (with the value a switch stands for), default, meaning. A test keeps the
    /// article's copy equal to it (DocC cannot run code).
    package static var settingsTable: String {
        var rows = ["| environment | flag | default | meaning |", "|---|---|---|---|"]
        for setting in settings {
            var variable = "`\(setting.variable)`"
            if case .duration = setting.kind { variable += " (duration)" }
            if setting.required != nil { variable += " (required)" }
            let flag = setting.flag.map { "`\($0)`" + (setting.flagSets.map { " (\($0))" } ?? "") } ?? "—"
            let meaning = setting.meaning.replacing("|", with: "\\|")
            rows.append("| \(variable) | \(flag) | \(setting.defaultText.map { "`\($0)`" } ?? "—") | \(meaning) |")
        }
        return rows.joined(separator: "\n")
    }

    /// The setting read from `variable`.
    package static func setting(_ variable: String) -> ServerSetting? {
        settings.first { $0.variable == variable }
    }

    /// The text `environment` gives the setting whose ``ServerSetting/key`` is `key`, unless it is empty: for
    /// the commands that share a setting of `deskkit serve` (`deskkit jobs` its store, `deskkit preview` its
    /// User-Agent).
    package static func environmentValue(of key: String, in environment: [String: String]) -> String? {
        setting(key: key).flatMap { environment[$0.variable] }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The setting whose ``ServerSetting/key`` is `key` (`fetch_timeout`).
    package static func setting(key: String) -> ServerSetting? {
        settings.first { $0.key == key }
    }

    /// The variables of `environment` named like a setting (`DESKKIT_…`) that no setting reads — a typo, or
    /// a setting a newer or older deskkit has (`DESKKIT_API_ATTEMPTS` went with the client's own retries):
    /// `deskkit serve` warns of each at start.
    package static func unknownVariables(in environment: [String: String]) -> [String] {
        let known = Set(settings.map(\.variable))
        return environment.keys.filter { $0.hasPrefix("DESKKIT_") && !known.contains($0) }.sorted()
    }
}
