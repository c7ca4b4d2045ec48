import DeskKitTime
import DeskKitFetchPolicy
import DeskKitModel
import Foundation

/// A preview cache that several ``PreviewService``s share (several `deskkit serve` instances on one
/// PostgreSQL database), behind each service's own in-memory cache: a URL is fetched once per
/// time-to-live across all of them. Cards are kept with their details.
///
/// A service asks ``lookup(_:now:fetchLease:)`` before fetching: it gets the cached answer, or the right to fetch the
/// page itself for `fetchLease` (and then ``store(_:for:ttl:now:)``s the answer), or learns that another service is
/// fetching it and asks again when ``waitForAnswer(to:upTo:sleep:)`` returns. If that service dies, its right runs out
/// with the lease. A cache that cannot be reached throws, and the service fetches the page as if it had none.
///
/// The `url` of each call is the cache's key: the URL (a space in it as `%20`), and — for a card asked in a
/// language other than the fetcher's (``PreviewService/card(for:language:)``) — a space and the
/// `Accept-Language` value after it.
public protocol SharedPreviewCache: Sendable {
    /// What the cache holds for `url` at `now`; when it holds nothing fresh and nobody is fetching it,
    /// the caller is granted the fetch until `now + fetchLease`.
    func lookup(_ url: String, now: Date, fetchLease: Duration) async throws -> SharedPreviewLookup

    /// Keeps an answer for `url` until `now + ttl` (and ends the fetch right on it).
    func store(_ result: Result<PreviewCard, FetchError>, for url: String, ttl: Duration, now: Date) async throws

    /// Waits, at most `limit`, until another service may have stored an answer for `url`, after
    /// ``lookup(_:now:fetchLease:)`` said it is fetching it: a cache that is told of answers (PostgreSQL's,
    /// through `LISTEN`) returns when it is; one that is not, after a pause of 100 ms (the default). The
    /// service then looks the URL up again. `limit` and the pause are waited with `sleep`, on the service's clock
    /// (which a test moves).
    func waitForAnswer(
        to url: String, upTo limit: Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) async

    /// Drops what the cache holds for `url`, in every language (the keys `url` and `url` + space + a language),
    /// answer and refusal alike, so that the next message gets a fresh card; returns how many entries went.
    func forget(_ url: String) async throws -> Int

    /// Calls `action` with the key of every URL forgotten through the cache by any service — so that each
    /// service drops it from its own cache too. A cache that is not told of them (the default) never calls it.
    func whenForgotten(_ action: @escaping @Sendable (String) async -> Void)
}

extension SharedPreviewCache {
    /// Never calls `action`: for a cache that is not told of what others forget.
    public func whenForgotten(_ action: @escaping @Sendable (String) async -> Void) {}

    /// Pauses 100 ms, or `limit` if shorter: for a cache that is not told of answers.
    public func waitForAnswer(
        to url: String, upTo limit: Duration, sleep: @escaping @Sendable (Duration) async throws -> Void
    ) async {
        await pauseBeforeLookingAgain(upTo: limit, sleep: sleep)
    }

    /// The wait of a cache not told of answers (or not listening now): 100 ms, or `limit` if shorter.
    package func pauseBeforeLookingAgain(
        upTo limit: Duration, sleep: @escaping @Sendable (Duration) async throws -> Void
    ) async {
        try? await sleep(min(limit, .milliseconds(100)))
    }
}

/// The answer of ``SharedPreviewCache/lookup(_:now:fetchLease:)``. A struct rather than an enum, so that an
/// answer added later breaks no `switch`.
public struct SharedPreviewLookup: Sendable, Hashable {
    /// What the service switches on, exhaustively (inside the module, a new answer must be handled).
    enum Code: Hashable { case cached, fetch, fetchingElsewhere }
    let code: Code
    /// The fresh answer, for ``cached(_:)``: the card with its details, or why there is none.
    public let cached: Result<PreviewCard, FetchError>?

    /// A fresh answer, fetched by any of the services: the card with its details, or why there is none.
    public static func cached(_ result: Result<PreviewCard, FetchError>) -> SharedPreviewLookup {
        SharedPreviewLookup(code: .cached, cached: result)
    }
    /// Nothing fresh: the caller fetches the page.
    public static let fetch = SharedPreviewLookup(code: .fetch, cached: nil)
    /// Another service is fetching the page: ask again shortly.
    public static let fetchingElsewhere = SharedPreviewLookup(code: .fetchingElsewhere, cached: nil)
}
