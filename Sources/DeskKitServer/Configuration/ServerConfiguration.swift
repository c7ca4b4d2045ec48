public import Configuration
import DeskKitJobStore
import DeskKitPreview
import Logging

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
    /// The client keys, a chat backend's: they open `POST /v1/preview` and `POST /v1/decode` (`DESKKIT_API_KEYS`).
    /// None by default: those routes then answer 401 (the webhook and `/health` need no key).
    public var apiKeys = APIKeys.none
    /// The operator's keys (`DESKKIT_OPERATOR_KEYS`): the console's routes — the queue, the jobs and their retries,
    /// the refusals, inspections, forgetting cards — and `GET /metrics`, and what a client key opens. None by
    /// default: those routes answer 401, and 403 to a client key.
    public var operatorKeys = APIKeys.none
    /// A metrics scraper's keys (`DESKKIT_METRICS_KEYS`): `GET /metrics` only.
    public var metricsKeys = APIKeys.none
    /// The rate each API key may use the `/v1` routes at (`DESKKIT_RATE_LIMIT`, `DESKKIT_RATE_BURST`); webhooks are
    /// not limited.
    public var rateLimit = RateLimiter.Configuration()
    /// The rate each operator key may inspect links at (`DESKKIT_INSPECT_RATE`, `DESKKIT_INSPECT_BURST`), besides
    /// ``rateLimit``: an inspection fetches past the caches, so each costs a fetch. Default 1 a second, bursts of 5.
    public var inspectRate = RateLimiter.Configuration(perSecond: 1, burst: 5)

    /// The three kinds of key together (`AccessKeys`).
    /// - Throws: when a key is in two of the lists (reading a configuration names it as a problem).
    package func accessKeys() throws(APIKeysError) -> AccessKeys {
        try AccessKeys(client: apiKeys, operator: operatorKeys, metrics: metricsKeys)
    }
    /// `https://api-{app_id}.sendbird.com` unless set (`DESKKIT_API_BASE`).
    public var apiBase: String
    /// How long clients may take to send a request and sit idle, and how many may be connected at once.
    public var clients = ClientLimits()
    /// The largest webhook body read (`DESKKIT_MAX_BODY_BYTES`); larger ones get 413. Default 256 KiB.
    public var maxBodyBytes = 256 * 1024
    /// Where jobs are kept. Default `StoreLocation.default`, a SQLite file in the working directory: the
    /// one default of `deskkit serve`, `deskkit jobs` and this initialiser.
    public var store = StoreLocation.default
    /// Workers, leases, dedup window and shutdown grace of the one queue, whatever the store.
    public var queue = JobQueueConfiguration()
    /// What follows a job's outcome: when a failed Platform API call or a bot-checked page is tried again,
    /// and for how long (`DESKKIT_RETRY_HORIZON`, `DESKKIT_CHALLENGE_RETRIES`, …).
    public var retry = EnrichmentRetry()
    /// The size of the memory store (`--store memory`): unfinished jobs at most, ended ones remembered.
    public var memory = MemoryJobStore.Configuration()
    /// How long one operation of a PostgreSQL store (`DESKKIT_STORE_TIMEOUT`, default 5 s) or a connection
    /// to it may take before the store counts as unavailable: webhooks get 503, a job's end is recorded
    /// again later.
    public var storeTimeout: Duration = .seconds(5)
    /// How long one Platform API call may take. Default 10 s; a call that fails is retried by the queue
    /// (``retry``).
    public var apiTimeout: Duration = .seconds(10)
    /// How pages are fetched; `--allow-private` sets `allowPrivateAddresses` (tests and intranets only).
    public var fetch = FetchConfiguration()
    /// Cache and concurrency of previews.
    public var previews = PreviewService.Configuration()
    /// The image proxy: where clients reach this server (`DESKKIT_PUBLIC_URL`) and the keys that sign its
    /// image URLs (`DESKKIT_IMAGE_PROXY_KEYS`). Nil unless both are given: then the cards the server writes name
    /// their images through `GET /images/{signature}/{url}`; without them, cards name the images' own URLs
    /// and the route answers 404.
    public var imageProxy: ImageURLSigner?
    /// The proxy's limits: pixels (`DESKKIT_IMAGE_PROXY_MAX_PIXELS`), bytes (`DESKKIT_IMAGE_PROXY_MAX_BYTES`) and
    /// time (`DESKKIT_IMAGE_PROXY_TIMEOUT`) of one image.
    public var imageLimits = ImageLimits()
    /// The longest `max-age` the proxy passes on (`DESKKIT_IMAGE_PROXY_MAX_AGE`): the origin's when shorter.
    /// Default 1 day.
    public var imageMaxAge: Duration = .seconds(86400)
    /// What the cards the server writes name as their images, by ``imageProxy`` and ``imageLimits``.
    var cardImages: CardImages { CardImages(signer: imageProxy, limits: imageLimits) }
    /// The two settings of ``imageProxy``, as read, until both are known.
    var imageProxyKeys: String?
    /// The URL clients reach this server at (`DESKKIT_PUBLIC_URL`): the image proxy's URLs start with it, and the
    /// served OpenAPI document names it as its server. Nil: the document names the default local address.
    public var publicURL: String?

    /// A configuration with defaults for everything but the API token and base URL.
    public init(apiToken: String, apiBase: String) {
        self.apiToken = apiToken
        self.apiBase = apiBase
    }

    /// Opens (creating and migrating as needed) the job store at ``store``, within ``storeTimeout``, of
    /// ``memory``'s size when it is memory; `pools`: who runs a PostgreSQL store's connection pools (`deskkit
    /// serve`: its service group).
    public func openStore(
        pools: PostgresJobStore.Pools = .runByTheStore, logger: Logger = Logger(label: "deskkit.store")
    ) async throws(JobStoreError) -> any JobStore {
        try await store.open(timeout: storeTimeout, memory: memory, pools: pools, logger: logger)
    }

    /// Reads every setting from `reader` by its key (the variable without its prefix, in lower case: `port`,
    /// `fetch_timeout`, `api_token`, `store`…; `deskkit serve --help` and the DeskKitServer article list them), as
    /// the type the setting takes: an application embedding the server hands it a reader of its own — scoped as it likes,
    /// over the providers it likes, whose order is the precedence. A key no provider has keeps its default.
    /// Throws a ``ConfigurationError`` that names every setting at fault, by its key, and what is wrong with
    /// it.
    ///
    /// ```swift
    /// let reader = ConfigReader(providers: [
    ///     InMemoryProvider(values: ["port": 9090, "workers": 8]),
    ///     EnvironmentVariablesProvider(),
    /// ])
    /// let configuration = try ServerConfiguration(reader: reader.scoped(to: "deskkit"))
    /// ```
    public init(reader: ConfigReader) throws(ConfigurationError) {
        self = try Self.read(SettingSources(reader: reader), problems: [])
    }

    /// Builds the configuration from `flags` (keyed by variable, values as text, as `deskkit serve` reads
    /// them) over `environment`, through the table of settings, with one swift-configuration `ConfigReader`
    /// over the two. An empty text is not set. Throws a ``ConfigurationError`` that names every setting at fault
    /// and what is wrong with it — by its flag when the value came from one, by its variable from the
    /// environment. A settings file of your own is read by a `ConfigReader` of its providers
    /// (``init(reader:)``).
    public static func resolve(
        flags: [String: String] = [:], environment: [String: String]
    ) throws(ConfigurationError) -> ServerConfiguration {
        try resolve(flags: flags, environment: environment, file: nil)
    }

    /// ``resolve(flags:environment:)`` over `file` too (`deskkit serve --config`), the file's key named in a
    /// problem that came from it.
    package static func resolve(
        flags: [String: String] = [:], environment: [String: String], file: SettingsFile?
    ) throws(ConfigurationError) -> ServerConfiguration {
        try read(
            SettingSources(flags: flags, environment: environment, file: file), problems: file?.problems ?? [])
    }

    /// Every setting of `sources`, then what follows from several (the API base, the image proxy); throws
    /// `problems` and those found.
    private static func read(_ sources: SettingSources, problems: [ConfigurationError.Problem])
        throws(ConfigurationError) -> ServerConfiguration
    {
        var problems = problems
        var failed: Set<String> = []  // the variables at fault
        var c = ServerConfiguration(apiToken: "", apiBase: "")
        for setting in settings {
            let problem: (String, SettingSources.Origin)?
            switch sources.lookUp(setting) {
            case .absent:
                problem = setting.required.map { ($0, .environment) }
            case .unreadable(let text, let origin):
                problem = (setting.problem(reading: text), origin)
            case .value(let value, let origin):
                if !setting.admits(value) {
                    problem = (setting.problem(reading: sources.text(of: setting, value)), origin)
                } else {
                    problem = setting.apply(value, &c).map { ($0, origin) }
                }
            }
            guard let (text, origin) = problem else { continue }
            let name =
                switch origin {
                case .flag: setting.flag ?? setting.variable
                case .environment: setting.variable
                case .file(let path): "\(path): \(setting.key)"
                case .reader: setting.key
                }
            problems.append(.init(setting: name, problem: text))
            failed.insert(setting.variable)
        }
        // The API base follows from the application id unless it is given.
        if c.apiBase.isEmpty && !failed.contains("DESKKIT_API_BASE") {
            if let appID = c.appID {
                c.apiBase = PlatformAPIClient.defaultBaseURL(appID: appID)
            } else if !failed.contains("SENDBIRD_APP_ID") {
                problems.append(
                    .init(setting: "SENDBIRD_APP_ID", problem: "is required unless DESKKIT_API_BASE is set"))
            }
        }
        // A key is one kind only.
        do throws(APIKeysError) { _ = try c.accessKeys() } catch {
            problems.append(.init(setting: "DESKKIT_OPERATOR_KEYS", problem: error.description))
        }
        // The proxy needs both its keys and the address clients reach it at.
        if let keys = c.imageProxyKeys {
            if let publicURL = c.publicURL {
                c.imageProxy = try? ImageURLSigner(keys: keys, publicURL: publicURL)
            } else if !failed.contains("DESKKIT_PUBLIC_URL") {
                problems.append(
                    .init(
                        setting: "DESKKIT_PUBLIC_URL",
                        problem: "is required with DESKKIT_IMAGE_PROXY_KEYS (the proxied images' URLs start with it)"))
            }
        }
        guard problems.isEmpty else { throw ConfigurationError(problems: problems) }
        return c
    }

    /// Every setting that has a value, by its key, as a setting writes it (`port 8080, fetch_timeout 10s, …`),
    /// the secrets redacted: safe to log.
    public var description: String {
        Self.settings.compactMap { setting in setting.shown(self).map { "\(setting.key) \($0)" } }
            .joined(separator: ", ")
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

        /// `setting` (a variable, a flag, a file's key) and what is wrong with it.
        public init(setting: String, problem: String) {
            self.setting = setting
            self.problem = problem
        }
        public var description: String { "\(setting) \(problem)" }
    }

    /// Every setting at fault, in the order they were read.
    public var problems: [Problem]

    /// An error of `problems`.
    public init(problems: [Problem]) { self.problems = problems }
    /// The first setting at fault.
    public var setting: String { problems.first?.setting ?? "" }
    /// Every problem, separated by "; ".
    public var description: String { problems.map(\.description).joined(separator: "; ") }
}
