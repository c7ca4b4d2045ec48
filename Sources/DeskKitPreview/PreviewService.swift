import DeskKitLinks
import DeskKitMetadata
import CoreMetrics
import DeskKitModel
import DeskKitTime
import Foundation
import Synchronization
import Tracing

/// The preview of one link of a message.
public struct LinkPreview: Sendable {
    /// The link, as found in the text.
    public var link: Link
    /// The preview, or why there is none. A failed preview never fails its message.
    public var result: Result<URLPreview, FetchError>
    /// What is known beyond the preview's five fields (nil when there is no preview).
    public var details: PreviewDetails?

    /// The preview of `link`, or why there is none, and its details.
    public init(link: Link, result: Result<URLPreview, FetchError>, details: PreviewDetails? = nil) {
        self.link = link
        self.result = result
        self.details = details
    }
}

/// Text in, `SENDBIRD_DESK_URL_PREVIEW` payloads out: finds the links of a message, fetches them
/// concurrently (each URL once at a time, within a global and a per-host limit), merges what their oEmbed
/// providers say, probes their images, and caches the cards.
///
/// Its cache counts time on its fetcher's clock (the system's; a test's in the package's tests): a test that drives that clock expires
/// cards, failures and refusals, here and in a shared cache, without waiting.
public actor PreviewService {
    /// Cache, concurrency and link-finding settings.
    public struct Configuration: Sendable {
        /// Links previewed per message, in order. Default 3.
        public var maxLinksPerMessage = 3
        /// Cached answers kept at most. Default 10,000.
        public var cacheCapacity = 10_000
        /// How long a preview is cached. Default 1 hour.
        public var successTTL: Duration = .seconds(3600)
        /// How long a failure is cached. Default 5 minutes.
        public var failureTTL: Duration = .seconds(300)
        /// How long a refusal (a bot check, a login or consent wall, an error page, a parked domain, an app
        /// shell: `FetchError.Kind.isRefusal`) is cached, here and in the shared cache, so that a busy
        /// channel does not fetch the same wall again and again. Default 10 minutes.
        public var refusalTTL: Duration = .seconds(600)
        /// Fetches running at once. Default 64.
        public var maxConcurrentFetches = 64
        /// Fetches to one host at once. Default 4.
        public var maxConcurrentFetchesPerHost = 4
        /// How links are found in text. Default: chat defaults, e-mail addresses excluded.
        public var linkOptions = LinkDetector.Options(emails: false)
        /// Whether oEmbed answers are merged into cards: the built-in provider table's
        /// (``oEmbedProviders``) and the ones pages point to. Default on.
        public var oEmbed = true
        /// The providers known without discovery. Default ``OEmbedProviders/builtIn``.
        public var oEmbedProviders = OEmbedProviders.builtIn
        /// Whether a card's image is fetched (its first bytes) for its type and pixel size, and taken off the
        /// card when it is none. Default on.
        public var probeImages = true
        /// Whether a deep link's site is asked for a made-up address of its own beside the link's page, so that a
        /// page with nothing of its own that every address gets (a block, a gate, a queue, an outage, an app's
        /// shell) is refused as the notice it is (`SiteProbeAnswer`). One request for each site in
        /// ``siteProbeTTL``, through the same guard, site policy and limits as a page. Default on.
        public var siteProbe = true
        /// How long a site's answer to its made-up address is kept, for every link to the site. Default 10 minutes.
        public var siteProbeTTL: Duration = .seconds(600)
        /// With a shared cache: how long a service may fetch a URL before another one may fetch it in its
        /// place (the others wait for its answer until then). Default (nil): the fetcher's total timeout
        /// and 2 seconds.
        public var sharedFetchLease: Duration?
        /// The default configuration (see each property).
        public init() {}
    }

    /// Fetches the pages, through the guard.
    public nonisolated let fetcher: PageFetcher
    /// Cache, concurrency and link-finding settings.
    public nonisolated let configuration: Configuration
    /// The cache shared with other services, behind this one's own.
    public nonisolated let sharedCache: (any SharedPreviewCache)?
    private let detector: LinkDetector
    private let metrics: PreviewMetrics
    private var cache: PreviewCache<Result<PreviewCard, FetchError>>
    /// The fetches under way, each with how many callers wait for it: when every one of them is
    /// cancelled (a server shutting down), the fetch is cancelled too, instead of running to its timeout.
    private var inFlight: [String: SharedFetch] = [:]
    private let global: AsyncLimiter
    /// Each host's limiter while fetches to it run or wait.
    private let perHost: HostLimiters
    /// Each site's answer to a made-up address, kept and shared by its links.
    private let siteProbes: SiteProbes

    /// A service that fetches with `fetcher`; `sharedCache` (a database) lets several services fetch each URL
    /// once; `metrics` counts its requests, cache hits, fetches and failed fetches (`deskkit_preview_*_total`,
    /// `deskkit_fetch_errors_total{kind}`, `deskkit_refusals_total{kind,provider}`) in any swift-metrics
    /// backend, by default the one bootstrapped in `MetricsSystem`.
    public init(
        fetcher: PageFetcher = PageFetcher(), configuration: Configuration = Configuration(),
        sharedCache: (any SharedPreviewCache)? = nil, metrics: any MetricsFactory = MetricsSystem.factory
    ) {
        self.metrics = PreviewMetrics(factory: metrics)
        self.fetcher = fetcher
        self.configuration = configuration
        self.sharedCache = sharedCache
        detector = LinkDetector(options: configuration.linkOptions)
        cache = PreviewCache(capacity: configuration.cacheCapacity)
        global = AsyncLimiter(limit: configuration.maxConcurrentFetches)
        perHost = HostLimiters(limit: configuration.maxConcurrentFetchesPerHost, clock: fetcher.clock)
        siteProbes = SiteProbes(
            capacity: configuration.cacheCapacity, ttl: configuration.siteProbeTTL, metrics: self.metrics)
        // A card another service took back goes from this one's cache too.
        sharedCache?.whenForgotten { [weak self] key in await self?.dropCached(key) }
    }

    /// The links of `text` that `previews(for:)` previews: its first ``Configuration/maxLinksPerMessage``
    /// web links (an e-mail address is not one), found with ``Configuration/linkOptions``.
    public nonisolated func linksToPreview(in text: String) -> [Link] {
        Array(detector.links(in: text).lazy.filter { $0.kind == .url }.prefix(configuration.maxLinksPerMessage))
    }

    /// Previews of the first ``Configuration/maxLinksPerMessage`` web links of `text`, fetched concurrently,
    /// in the order of the links; `language` asks the pages for a language other than the fetcher's
    /// (``FetchConfiguration/acceptLanguage``).
    public func previews(for text: String, language: AcceptLanguage? = nil) async -> [LinkPreview] {
        let links = linksToPreview(in: text)
        return zip(links, await cards(for: links.map(\.href), language: language)).map { link, card in
            LinkPreview(link: link, result: card.map(\.preview), details: try? card.get().details)
        }
    }

    /// The cards of `urls` (links already found, as ``linksToPreview(in:)`` finds them), with their details,
    /// fetched concurrently, in the order of `urls`, in `language` when one is given.
    public func cards(for urls: [String], language: AcceptLanguage? = nil) async -> [Result<PreviewCard, FetchError>] {
        await withTaskGroup(of: (Int, Result<PreviewCard, FetchError>).self) { group in
            for (i, url) in urls.enumerated() {
                group.addTask { (i, await self.card(for: url, language: language)) }
            }
            var out: [(Int, Result<PreviewCard, FetchError>)] = []
            for await item in group { out.append(item) }
            return out.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// The card of one URL: from the cache (this service's, then the shared one), from a fetch already under
    /// way for it, or fetched now. `language` asks the page for a language other than the fetcher's
    /// (``FetchConfiguration/acceptLanguage``); the caches keep a card for each URL and language.
    public func card(for url: String, language: AcceptLanguage? = nil) async -> Result<PreviewCard, FetchError> {
        await traced("preview") { span in
            if span.isRecording { span.attributes["url.full"] = SpanURL.redacted(url) }
            let result = await card(for: url, language: language, span: span)
            if case .failure(let error) = result { span.record(error) }
            return result
        }
    }

    /// ``card(for:language:)`` in `span`, which learns where the card came from (`deskkit.preview.source`:
    /// `cache`, `in_flight` or `fetch`).
    private func card(for url: String, language: AcceptLanguage?, span: any Span) async -> Result<
        PreviewCard, FetchError
    > {
        let language = language ?? fetcher.configuration.acceptLanguage
        let key = Self.cacheKey(url, language == fetcher.configuration.acceptLanguage ? nil : language)
        metrics.requests.increment()
        // A site the operator refuses gets no fetch, and nothing is cached of it.
        if let refusal = fetcher.configuration.sitePolicy.refusal(url: url) {
            metrics.fetchFailed(refusal)
            span.attributes["deskkit.preview.source"] = "policy"
            return .failure(refusal)
        }
        if let cached = cache.value(for: key, now: fetcher.clock.elapsed()) {
            metrics.cacheHits.increment()
            span.attributes["deskkit.preview.source"] = "cache"
            return cached
        }
        let fetch: SharedFetch
        if let running = inFlight[key], running.join() {
            metrics.joinedFetches.increment()
            span.attributes["deskkit.preview.source"] = "in_flight"
            fetch = running
        } else {
            span.attributes["deskkit.preview.source"] = "fetch"
            // A task of its own (the one of a preview): every caller asking for the page meanwhile waits on it,
            // and it ends when the last of them is cancelled, not with the first.
            fetch = SharedFetch(Task { await self.fetchOnce(url, key: key, language: language) })
            inFlight[key] = fetch
        }
        let result = await withTaskCancellationHandler {
            await fetch.task.value
        } onCancel: {
            fetch.leave()
        }
        if inFlight[key] === fetch { inFlight[key] = nil }
        // A cancelled fetch says nothing about the page: it is not remembered.
        guard !fetch.task.isCancelled else { return result }
        cache.insert(result, for: key, ttl: ttl(of: result), now: fetcher.clock.elapsed())
        return result
    }

    /// Fetches `url` again, past the caches and any fetch under way, recording every request (`FetchLog`), and
    /// explains the card it gives, beside what this service's cache holds for it now. The answer goes into no
    /// cache: an inspection changes nothing a message gets (``forget(_:)`` does). It waits for a place like any
    /// fetch, within the same limits. `publicAddressesOnly`: the fetch reaches public addresses only, whatever the
    /// fetcher allows (``FetchConfiguration/allowPrivateAddresses``) — a link typed by an operator rather than one a
    /// message carries.
    package func explain(_ url: String, language: AcceptLanguage? = nil, publicAddressesOnly: Bool = false) async
        -> PreviewExplanation
    {
        let language = language ?? fetcher.configuration.acceptLanguage
        let key = Self.cacheKey(url, language == fetcher.configuration.acceptLanguage ? nil : language)
        let cached = cache.value(for: key, now: fetcher.clock.elapsed())
        let log = FetchLog()
        let started = ContinuousClock.now
        let result: Result<PreviewCard, FetchError>
        if let refusal = fetcher.configuration.sitePolicy.refusal(url: url) {
            // Nothing is fetched of a site the operator refuses: the one hop says so.
            FetchLog.$current.withValue(log) {
                log.update(log.begin(url)) { $0.failed(refusal) }
            }
            result = .failure(refusal)
        } else {
            result = await FetchLog.$current.withValue(log) {
                await fetchLimited(url, language: language, fresh: true, publicAddressesOnly: publicAddressesOnly)
            }
        }
        return PreviewExplanation(
            url: url, cached: cached, hops: log.hops, page: log.page, oEmbed: log.oEmbed, siteProbe: log.siteProbe,
            result: result, duration: .now - started)
    }

    /// The key of the caches and of the fetches under way: the URL (its spaces as `%20`), then — for a language
    /// other than the fetcher's — a space and the language's `Accept-Language` value. The first space ends the
    /// URL, so no URL written with spaces can stand for another URL in another language.
    static func cacheKey(_ url: String, _ language: AcceptLanguage?) -> String {
        let url = url.contains(" ") ? url.replacing(" ", with: "%20") : url
        return language.map { url + " " + $0.header } ?? url
    }

    /// How long `result` is cached: a card ``Configuration/successTTL``, a refusal
    /// ``Configuration/refusalTTL``, another failure ``Configuration/failureTTL``.
    private func ttl(of result: Result<PreviewCard, FetchError>) -> Duration {
        switch result {
        case .success: configuration.successTTL
        case .failure(let e): e.kind.isRefusal ? configuration.refusalTTL : configuration.failureTTL
        }
    }

    /// Takes back the card (or the refusal) cached for `url`, in every language: from this service's cache and
    /// from the shared one, which tells the other services sharing it to drop theirs (PostgreSQL's, while it
    /// listens), so that the next message gets a fresh card wherever it is enriched. Returns the entries dropped here and
    /// in the shared cache (nil without one).
    /// - Throws: the shared cache's error when it cannot be reached (this service's entries are gone already).
    public func forget(_ url: String) async throws -> (memory: Int, shared: Int?) {
        let key = Self.cacheKey(url, nil)
        let memory = dropCached(key)
        guard let sharedCache else { return (memory, nil) }
        return (memory, try await sharedCache.forget(key))
    }

    /// Drops this service's entries for the URL whose key is `key`, in every language.
    @discardableResult
    private func dropCached(_ key: String) -> Int {
        cache.removeAll { $0 == key || ($0.hasPrefix(key) && $0.dropFirst(key.count).first == " ") }
    }

    /// Cached entries (for tests and metrics).
    public var cachedCount: Int { cache.count }

    /// Hosts with fetches running or waiting (for tests and metrics).
    package var hostsInFlight: Int { perHost.count }

    /// Fetches `url` unless the shared cache has its answer or another service is fetching it (then waits
    /// for that answer, up to the fetch lease). A shared cache that fails is passed by, and counted
    /// (`deskkit_preview_shared_cache_errors_total`).
    private func fetchOnce(_ url: String, key: String, language: AcceptLanguage) async -> Result<
        PreviewCard, FetchError
    > {
        guard let sharedCache else { return await fetchLimited(url, language: language) }
        let lease = configuration.sharedFetchLease ?? fetcher.configuration.totalTimeout + .seconds(2)
        let clock = fetcher.clock
        let giveUp = clock.elapsed() + lease + .seconds(1)
        while !Task.isCancelled, clock.elapsed() < giveUp {
            let lookup: SharedPreviewLookup
            do {
                lookup = try await sharedCache.lookup(key, now: clock.now(), fetchLease: lease)
            } catch {
                metrics.sharedCacheFailed("lookup")
                break
            }
            switch lookup.code {
            case .cached:
                guard let result = lookup.cached else { break }
                metrics.sharedCacheHits.increment()
                return result
            case .fetch:
                let result = await fetchLimited(url, language: language)
                if !Task.isCancelled {
                    do {
                        try await sharedCache.store(result, for: key, ttl: ttl(of: result), now: clock.now())
                    } catch {
                        metrics.sharedCacheFailed("store")
                    }
                }
                return result
            case .fetchingElsewhere:
                // Until the cache tells of the answer, and never more than a second between looks: a notice
                // missed (a listener reconnecting) or a fetcher that died costs little.
                await sharedCache.waitForAnswer(
                    to: key, upTo: min(.seconds(1), giveUp - clock.elapsed()), sleep: clock.sleep)
            }
        }
        return await fetchLimited(url, language: language)
    }

    /// Fetches `url`'s card within the limits; `fresh`: the site is asked its made-up address again, past the
    /// answers kept (an inspection); `publicAddressesOnly`: no private address is reached, whatever the fetcher allows.
    private func fetchLimited(
        _ url: String, language: AcceptLanguage, fresh: Bool = false, publicAddressesOnly: Bool = false
    ) async -> Result<PreviewCard, FetchError> {
        // Parsed once: for the per-host limit and for the fetch.
        let parsed = Result { () throws(FetchError) in try WebURL(url) }
        do {
            // A caller gone while waiting for a place (a server shutting down) fetches nothing.
            return try await perHost.withPlace(for: (try? parsed.get())?.host ?? url) {
                try await global.acquire()
                defer { global.release() }
                metrics.fetches.increment()
                var fetcher = self.fetcher
                fetcher.configuration.acceptLanguage = language
                if publicAddressesOnly { fetcher.configuration.allowPrivateAddresses = false }
                let builder = CardBuilder(
                    fetcher: fetcher, oEmbedProviders: configuration.oEmbed ? configuration.oEmbedProviders : nil,
                    probeImages: configuration.probeImages,
                    siteProbe: configuration.siteProbe ? siteProbe(fetcher: fetcher, fresh: fresh) : nil)
                do throws(FetchError) {
                    return .success(try await builder.card(for: try parsed.get(), link: url))
                } catch {
                    metrics.fetchFailed(error)
                    return .failure(error)
                }
            }
        } catch {
            return .failure(PageFetcher.map(error))
        }
    }
}

extension PreviewService {
    /// How a card asks its site for a made-up address with `fetcher`: through the answers kept, or — `fresh`, for an
    /// inspection — anew.
    nonisolated private func siteProbe(fetcher: PageFetcher, fresh: Bool)
        -> @Sendable (WebURL) -> Task<
            SiteProbeAnswer?, Never
        >
    {
        if fresh {
            let metrics = metrics
            return { url in Task { await SiteProbes.ask(url, fetcher: fetcher, metrics: metrics) } }
        }
        let probes = siteProbes
        return { url in probes.answer(for: url, fetcher: fetcher) }
    }
}

/// A page's fetch that the callers asking for it at once wait on together: the last of them to be cancelled
/// cancels it (a lock, so that a cancellation handler does it at once, without a task to reach the service).
private final class SharedFetch: Sendable {
    let task: Task<Result<PreviewCard, FetchError>, Never>
    /// Callers waiting; 0 once the last was cancelled, and then no one joins.
    private let waiters = Mutex(1)

    init(_ task: Task<Result<PreviewCard, FetchError>, Never>) { self.task = task }

    /// Counts one more caller waiting; false when the fetch was cancelled.
    func join() -> Bool {
        waiters.withLock { waiters in
            guard waiters > 0 else { return false }
            waiters += 1
            return true
        }
    }

    /// A caller was cancelled: the last one to go cancels the fetch.
    func leave() {
        if waiters.withLock({ waiters in
            waiters -= 1
            return waiters == 0
        }) {
            task.cancel()
        }
    }
}
