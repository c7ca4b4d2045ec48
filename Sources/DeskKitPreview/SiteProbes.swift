import DeskKitMetadata
import DeskKitTime
import Synchronization

/// Each site's answer to an address of its own that cannot exist (`SiteProbeAnswer`), asked once in a while and
/// shared by the site's links: the made-up address is a sibling of the first link that asks (its last segment
/// replaced, its extension kept, its query dropped), fetched through the same guard, site policy and limits as a page,
/// beside the link's own page so that a card waits for it no longer than for the page; its answer is kept per site
/// (scheme, host and port) for ``PreviewService/Configuration/siteProbeTTL``, at most
/// ``PreviewService/Configuration/cacheCapacity`` sites.
final class SiteProbes: Sendable {
    private struct State {
        var answers: PreviewCache<SiteProbeAnswer?>
        var running: [String: Task<SiteProbeAnswer?, Never>] = [:]
    }
    private let state: Mutex<State>
    private let ttl: Duration
    private let metrics: PreviewMetrics

    init(capacity: Int, ttl: Duration, metrics: PreviewMetrics) {
        state = Mutex(State(answers: PreviewCache(capacity: capacity)))
        self.ttl = ttl
        self.metrics = metrics
    }

    /// The answer of `url`'s site: kept, under way, or asked now with `fetcher` — in a task of its own, so that it is
    /// kept for the site's next links whether this one waits for it or not. Nil when it could not be had (a
    /// time-out, a refused address): no verdict then rests on it.
    func answer(for url: WebURL, fetcher: PageFetcher) -> Task<SiteProbeAnswer?, Never> {
        let site = Self.site(of: url)
        let now = fetcher.clock.elapsed()
        return state.withLock { state in
            if let kept = state.answers.value(for: site, now: now) {
                metrics.siteProbeCacheHits.increment()
                return Task { kept }
            }
            if let running = state.running[site] { return running }
            let task = Task {
                let answer = await Self.ask(url, fetcher: fetcher, metrics: metrics)
                self.state.withLock { state in
                    state.running[site] = nil
                    state.answers.insert(answer, for: site, ttl: ttl, now: fetcher.clock.elapsed())
                }
                return answer
            }
            state.running[site] = task
            return task
        }
    }

    /// Asks `url`'s site for a made-up sibling of it now, counted by outcome (`answered`, `failed`); an inspection's
    /// log (`FetchLog`) keeps the answer.
    static func ask(_ url: WebURL, fetcher: PageFetcher, metrics: PreviewMetrics) async -> SiteProbeAnswer? {
        let madeUp = madeUpSibling(of: url)
        do {
            let answer = try await fetcher.probe(madeUp)
            metrics.siteProbed("answered")
            FetchLog.current?.probed(answer)
            return answer
        } catch {
            metrics.siteProbed("failed")
            return nil
        }
    }

    /// Scheme, host and port: whose answers are one site's.
    static func site(of url: WebURL) -> String { "\(url.scheme)://\(url.asciiHost):\(url.port)" }

    /// `url` with its last path segment made up — twelve random hex digits after `deskkit-`, the segment's extension
    /// kept (`.html`, `.php`: sites route by it), a trailing slash kept — and no query: an address of the same
    /// place in the site that no page has.
    static func madeUpSibling(of url: WebURL) -> WebURL {
        var madeUp = url
        let path = url.pathAndQuery.prefix { $0 != "?" }
        let directory = path.hasSuffix("/") && path.count > 1
        var segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let last = segments.popLast() ?? ""
        let dot = last.lastIndex(of: ".").map { last[$0...] } ?? ""
        let random = (0..<12).map { _ in String(UInt8.random(in: 0...15), radix: 16) }.joined()
        segments.append(Substring("deskkit-\(random)\(directory ? "" : dot)"))
        madeUp.pathAndQuery = "/" + segments.joined(separator: "/") + (directory ? "/" : "")
        return madeUp
    }
}
