import DeskKitFetchPolicy
import DeskKitMetadata
import Synchronization

/// What the fetches of one inspection did, hop by hop (`PreviewService.explain(_:language:publicAddressesOnly:)`): a fetcher
/// running in a task that holds a log (a task-local value) writes each request into it — the URL, the site policy's and
/// the address guard's verdicts, the status, the content type, the charset, the bytes read, the time — and the
/// page it read, and the oEmbed answer. A fetch without a log records nothing and pays one task-local read per hop.
package final class FetchLog: Sendable {
    /// The log the fetches of the current task write to.
    @TaskLocal static var current: FetchLog?
    /// What the current task's fetches are for: the page, an oEmbed answer, the card's image.
    @TaskLocal static var purpose: FetchHop.Purpose = .page

    private struct State {
        var hops: [FetchHop] = []
        var page: PageMetadata?
        var oEmbed: OEmbedDocument?
        var siteProbe: SiteProbeAnswer?
    }
    private let state = Mutex(State())
    /// Hops recorded at most: a redirect chain is bounded by the fetcher, a page's three fetches by the card.
    static let maxHops = 64

    init() {}

    /// The hops, in the order they began.
    var hops: [FetchHop] { state.withLock { $0.hops } }
    /// The page as its parser read it (the link's own page, not an oEmbed answer or an image).
    var page: PageMetadata? { state.withLock { $0.page } }

    /// The oEmbed answer read (the provider table's, or the page's discovery link's).
    var oEmbed: OEmbedDocument? { state.withLock { $0.oEmbed } }

    /// Starts a hop of the current purpose; its index for ``update(_:_:)``.
    func begin(_ url: String) -> Int? {
        let purpose = Self.purpose
        return state.withLock { state in
            guard state.hops.count < Self.maxHops else { return nil }
            state.hops.append(FetchHop(purpose: purpose, url: url, started: .now))
            return state.hops.count - 1
        }
    }

    /// Changes hop `index` (nil: one that was not recorded).
    func update(_ index: Int?, _ change: (inout FetchHop) -> Void) {
        guard let index else { return }
        state.withLock { change(&$0.hops[index]) }
    }

    /// Changes the last hop of the current purpose: the one whose answer is being read.
    func updateLast(_ change: (inout FetchHop) -> Void) {
        let purpose = Self.purpose
        state.withLock { state in
            if let index = state.hops.lastIndex(where: { $0.purpose == purpose }) { change(&state.hops[index]) }
        }
    }

    /// The site's answer to the made-up address asked (nil when none came: its hop says why).
    var siteProbe: SiteProbeAnswer? { state.withLock { $0.siteProbe } }

    /// Keeps the site's answer to its made-up address.
    func probed(_ answer: SiteProbeAnswer) {
        state.withLock { $0.siteProbe = answer }
    }

    /// Keeps the oEmbed answer read.
    func answered(_ document: OEmbedDocument) {
        state.withLock { $0.oEmbed = document }
    }

    /// Keeps the page the parser read, when it is the link's own.
    func read(_ page: PageMetadata) {
        guard Self.purpose == .page else { return }
        state.withLock { if $0.page == nil { $0.page = page } }
    }
}

/// One request of an inspected fetch (`FetchLog`).
package struct FetchHop: Sendable, Hashable {
    /// What a request was for.
    package enum Purpose: String, Sendable, Hashable {
        /// The link's page (or file), and its redirects.
        case page
        /// An oEmbed answer: the provider table's or the page's discovery link.
        case oEmbed = "oembed"
        /// The card's image, probed for its type and size.
        case image
        /// An address of the link's site that cannot exist, asked to see whether the site answers it with the
        /// link's page (`SiteProbeAnswer`).
        case siteProbe = "site_probe"
    }

    /// What the request was for.
    package var purpose: Purpose
    /// The URL requested.
    package var url: String
    /// The site policy's refusal of its host; nil when the policy lets it through.
    package var sitePolicyRefusal: String?
    /// The address connected to, once the guard let it through.
    package var address: String?
    /// The address guard's refusal (the rule, or a port not allowed); nil when it let the request through.
    package var addressRefusal: String?
    /// The answer's status.
    package var status: Int?
    /// Its `Content-Type`.
    package var contentType: String?
    /// Where a redirect pointed (`Location`).
    package var redirect: String?
    /// The charset the page was read in, and what decided it (a page's hop only).
    package var charset: CharsetDecision?
    /// Body bytes read.
    package var bytesRead: Int?
    /// What ended the request, when it failed.
    package var error: String?
    let started: ContinuousClock.Instant
    /// How long the request took, to its answer read (or its failure).
    package var duration: Duration?

    init(purpose: Purpose, url: String, started: ContinuousClock.Instant) {
        self.purpose = purpose
        self.url = url
        self.started = started
    }

    /// Records the error that ended the request: a refusal of the site policy or of the address guard is its
    /// verdict.
    mutating func failed(_ error: FetchError) {
        duration = .now - started
        switch error.kind {
        case .policy: sitePolicyRefusal = error.detail
        case .blockedAddress where status == nil: addressRefusal = error.detail
        default: break
        }
        self.error = error.description
    }

    /// The charset the answer's `Content-Type` declares.
    package var declaredCharset: String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingCharacters(in: " \t").lowercased() == "charset" {
                return pair[1].trimmingCharacters(in: " \t\"'")
            }
        }
        return nil
    }
}
