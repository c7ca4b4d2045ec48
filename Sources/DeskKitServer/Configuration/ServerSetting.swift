import DeskKitPreview

/// One setting of the server: the environment variable that holds it, the `deskkit serve` flag that
/// overrides it, what it means, and how its text is read into a ``ServerConfiguration``.
///
/// ``ServerConfiguration/settings`` is the one table of them, where each name is written once:
/// ``ServerConfiguration/resolve(flags:environment:file:)`` reads the flags, the environment and a
/// ``SettingsFile`` through it, `deskkit serve` takes its options' help from it, and a problem is named by
/// the flag, the variable or the file's key it lists.
public struct ServerSetting: Sendable {
    /// The environment variable (`DESKKIT_PORT`).
    public let variable: String
    /// The `deskkit serve` flag that overrides the variable (`--port`), if there is one.
    public let flag: String?
    /// The setting's key in a ``SettingsFile``: the variable without its `DESKKIT_` or `SENDBIRD_` prefix,
    /// in lower case (`port`, `fetch_timeout`, `api_keys`, `api_token`, `oembed`).
    public var key: String {
        let name = variable.split(separator: "_", maxSplits: 1).last.map(String.init) ?? variable
        return name.lowercased()
    }
    /// For a flag that takes no value (`--allow-private`, `--no-oembed`), the value it gives the
    /// variable (`1`, `0`); nil for a flag followed by its value (`--port 8080` or `--port=8080`).
    public let flagSets: String?
    /// What the setting means (for a switch, what its flag does), with its default.
    public let meaning: String
    /// Reads the setting's text (nil when it is not set) into a configuration; answers what is wrong with
    /// the text, or nil.
    let read: @Sendable (_ text: String?, _ configuration: inout ServerConfiguration) -> String?

    init(
        _ variable: String, _ flag: String?, flagSets: String? = nil, _ meaning: String,
        read: @escaping @Sendable (String?, inout ServerConfiguration) -> String?
    ) {
        self.variable = variable
        self.flag = flag
        self.flagSets = flagSets
        self.meaning = meaning
        self.read = read
    }

    /// A whole number in `range`, given to `set`; absent leaves the default.
    static func integer(
        _ variable: String, _ flag: String?, _ meaning: String, _ range: ClosedRange<Int>,
        _ set: @escaping @Sendable (inout ServerConfiguration, Int) -> Void
    ) -> ServerSetting {
        ServerSetting(variable, flag, meaning) { text, c in
            guard let text else { return nil }
            guard let n = Int(text), range.contains(n) else {
                return "\"\(text.prefix(40))\" is not a whole number in \(range.lowerBound)...\(range.upperBound)"
            }
            set(&c, n)
            return nil
        }
    }

    /// `1`/`true`/`yes` or `0`/`false`/`no`, given to `set`; its flag, when it has one, takes no value and
    /// sets `flagSets`.
    static func onOff(
        _ variable: String, _ flag: String?, flagSets: String = "1", _ meaning: String,
        _ set: @escaping @Sendable (inout ServerConfiguration, Bool) -> Void
    ) -> ServerSetting {
        ServerSetting(variable, flag, flagSets: flag == nil ? nil : flagSets, meaning) { text, c in
            guard let text else { return nil }
            switch text.lowercased() {
            case "1", "true", "yes": set(&c, true)
            case "0", "false", "no": set(&c, false)
            default: return "\"\(text.prefix(20))\" is not 1 or 0"
            }
            return nil
        }
    }

    /// A duration (``DurationText``: `500ms`, `10s`, `5m`, `1d`, a bare number is seconds) within `range`
    /// seconds, given to `set`.
    static func seconds(
        _ variable: String, _ flag: String?, _ meaning: String, _ range: ClosedRange<Int>,
        _ set: @escaping @Sendable (inout ServerConfiguration, Duration) -> Void
    ) -> ServerSetting {
        ServerSetting(variable, flag, meaning) { text, c in
            guard let text else { return nil }
            guard let duration = DurationText.parse(text),
                duration >= .seconds(range.lowerBound) && duration <= .seconds(range.upperBound)
            else {
                return
                    "\"\(text.prefix(40))\" is not a duration from \(range.lowerBound)s to \(range.upperBound)s (like \(DurationText.examples))"
            }
            set(&c, duration)
            return nil
        }
    }
}

extension ServerConfiguration {
    /// Every setting, in the order they are read and listed.
    public static let settings: [ServerSetting] = [
        ServerSetting(
            "SENDBIRD_API_TOKEN", nil, "API token (required): Platform API calls and webhook signatures"
        ) { text, c in
            guard let text else { return "is required (it signs webhooks and authenticates API calls)" }
            c.apiToken = text
            return nil
        },
        ServerSetting(
            "SENDBIRD_APP_ID", "--app-id",
            "application id; the API base is https://api-{id}.sendbird.com unless DESKKIT_API_BASE is set"
        ) { text, c in
            guard let text else { return nil }
            guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                return "\"\(text.prefix(40))\" is not an application id"
            }
            c.appID = text
            return nil
        },
        ServerSetting("DESKKIT_API_BASE", "--api-base", "Platform API base URL") { text, c in
            guard let text else { return nil }
            guard text.hasPrefix("http://") || text.hasPrefix("https://"), text.count > 8, !text.contains(" ") else {
                return "\"\(text.prefix(80))\" is not an http(s) URL"
            }
            c.apiBase = text
            return nil
        },
        ServerSetting(
            "DESKKIT_API_KEYS", "--api-keys",
            "keys for /v1/preview, /v1/decode and /metrics (Authorization: Bearer KEY), comma-separated, 16+ characters each; none: those routes answer 401"
        ) { text, c in
            guard let text else { return nil }
            do throws(APIKeysError) { c.apiKeys = try APIKeys(parsing: text) } catch { return error.description }
            return nil
        },
        .integer(
            "DESKKIT_RATE_LIMIT", "--rate-limit",
            "requests a second each API key may make to /v1/preview and /v1/decode (default 20; 0: no limit)",
            0...1_000_000
        ) { $0.rateLimit.perSecond = $1 },
        .integer(
            "DESKKIT_RATE_BURST", "--rate-burst", "requests an API key may make at once (default 40)", 1...1_000_000
        ) { $0.rateLimit.burst = $1 },
        ServerSetting("DESKKIT_HOST", "--host", "address to listen on (default 127.0.0.1)") { text, c in
            if let text { c.host = text }
            return nil
        },
        .integer("DESKKIT_PORT", "--port", "port (default 8080; 0 picks a free one)", 0...65535) { $0.port = $1 },
        .onOff(
            "DESKKIT_ALLOW_PRIVATE", "--allow-private",
            "fetch pages on private addresses (tests, intranets); refused by default"
        ) {
            $0.fetch.allowPrivateAddresses = $1
        },
        .onOff(
            "DESKKIT_OEMBED", "--no-oembed", flagSets: "0",
            "do not ask oEmbed providers (the built-in table's, or a page's discovery link); asked by default"
        ) { $0.previews.oEmbed = $1 },
        .onOff(
            "DESKKIT_IMAGE_PROBE", "--no-image-probe", flagSets: "0",
            "do not fetch a card's image for its size and type (nor drop it when it is none); fetched by default"
        ) { $0.previews.probeImages = $1 },
        ServerSetting(
            "DESKKIT_USER_AGENT", "--user-agent",
            "User-Agent of page and image fetches (default: DeskKit, its version and a URL)"
        ) { text, c in
            guard let text else { return nil }
            guard FetchConfiguration.isValidUserAgent(text) else {
                return "is not 1 to 512 printable ASCII characters"
            }
            c.fetch.userAgent = text
            return nil
        },
        .seconds(
            "DESKKIT_FETCH_TIMEOUT", "--fetch-timeout",
            "how long a page fetch may take, redirects and body included (default 10s)", 1...600
        ) { $0.fetch.totalTimeout = $1 / .seconds(1) },
        .seconds(
            "DESKKIT_REFUSAL_TTL", "--refusal-ttl",
            "how long a refused page (a bot check, a login or consent wall, an error page, a parked domain, an app shell) is remembered before it is fetched again (default 10m)",
            0...86400
        ) {
            $0.previews.refusalTTL = $1
            $0.queue.challengeRetry.minimumDelay = $1
        },
        .integer(
            "DESKKIT_CHALLENGE_RETRIES", "--challenge-retries",
            "times a job whose pages a bot check stood in for is tried again (default 3; 0: never)", 0...20
        ) { $0.queue.challengeRetry.retries = $1 },
        .seconds(
            "DESKKIT_CHALLENGE_RETRY_WINDOW", "--challenge-retry-window",
            "how long those retries are spread over, from the first attempt (default 1h)", 60...(7 * 86400)
        ) { $0.queue.challengeRetry.window = $1 },
        .integer(
            "DESKKIT_MAX_BODY_BYTES", "--max-body-bytes", "largest webhook body (default 262144)", 1024...(64 << 20)
        ) {
            $0.maxBodyBytes = $1
        },
        .integer(
            "DESKKIT_QUEUE_CAPACITY", "--queue-capacity",
            "with --store memory: unfinished jobs at most before webhooks get 503 (default 10000)", 1...10_000_000
        ) { $0.memory.capacity = $1 },
        .integer("DESKKIT_WORKERS", "--workers", "jobs at once (default 32)", 1...4096) { $0.queue.workers = $1 },
        .integer(
            "DESKKIT_DEDUP_CAPACITY", "--dedup-capacity",
            "with --store memory: ended jobs remembered as duplicates (default 100000)",
            0...100_000_000
        ) { $0.memory.remembered = $1 },
        .seconds(
            "DESKKIT_SHUTDOWN_GRACE", "--shutdown-grace",
            "how long requests and jobs may still run after SIGTERM (default 20s); past it they are cut", 0...3600
        ) { $0.queue.shutdownGrace = $1 },
        ServerSetting(
            "DESKKIT_STORE", "--store",
            "where jobs are kept: sqlite:PATH (default sqlite:deskkit-state.sqlite), postgres://USER:PASSWORD@HOST:PORT/DATABASE or memory"
        ) { text, c in
            guard let text else { return nil }
            do throws(JobStoreError) { c.store = try StoreLocation(parsing: text) } catch { return error.detail }
            return nil
        },
        .seconds(
            "DESKKIT_RETRY_HORIZON", "--retry-horizon",
            "how long Platform API failures are retried, from the webhook (default 1d)", 0...(365 * 86400)
        ) { $0.queue.retry.horizon = $1 },
        .seconds(
            "DESKKIT_JOB_LEASE", "--job-lease",
            "how long a claimed job is a worker's unless it renews it (every third of it, while it runs); a dead instance's jobs are taken up after it (default 30s)",
            3...86400
        ) { $0.queue.lease = $1 },
        .integer(
            "DESKKIT_DEFER_ENRICHMENT_ABOVE", "--defer-enrichment-above",
            "webhooks a second above which enrichment runs on one worker, so that admissions keep a low latency under bursts (default 0: off)",
            0...10_000_000
        ) { $0.queue.deferEnrichmentAbove = $1 },
        .seconds(
            "DESKKIT_STORE_TIMEOUT", "--store-timeout",
            "how long a PostgreSQL store may take to answer before it counts as down (default 5s)", 1...3600
        ) { $0.storeTimeout = $1 },
    ]

    /// The setting read from `variable`.
    public static func setting(_ variable: String) -> ServerSetting? {
        settings.first { $0.variable == variable }
    }

    /// The text `environment` gives the setting whose ``ServerSetting/key`` is `key`, unless it is empty: for
    /// the commands that share a setting of `deskkit serve` (`deskkit jobs` its store, `deskkit preview` its
    /// User-Agent).
    public static func environmentValue(of key: String, in environment: [String: String]) -> String? {
        setting(key: key).flatMap { environment[$0.variable] }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The setting whose ``ServerSetting/key`` is `key` (`fetch_timeout`).
    public static func setting(key: String) -> ServerSetting? {
        settings.first { $0.key == key }
    }

    /// The variables of `environment` named like a setting (`DESKKIT_…`) that no setting reads — a typo, or
    /// a setting a newer or older deskkit has (`DESKKIT_API_ATTEMPTS` went with the client's own retries):
    /// `deskkit serve` warns of each at start.
    public static func unknownVariables(in environment: [String: String]) -> [String] {
        let known = Set(settings.map(\.variable))
        return environment.keys.filter { $0.hasPrefix("DESKKIT_") && !known.contains($0) }.sorted()
    }
}
