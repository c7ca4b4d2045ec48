import DeskKitJobStore
import DeskKitModel
import DeskKitPreview
import DeskKitTime
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The preview cache shared by every instance on one PostgreSQL database (table `deskkit_previews`).
///
/// A row holds an answer until `expires_at`; `fetching_until` marks the instance that fetches it now, so
/// the others wait for its answer instead of fetching the page too. Expired rows are deleted, a slice at a
/// time, at most once a minute by each instance.
///
/// An answer stored is announced on the channel `deskkit_previews` (`NOTIFY`, the URL as payload, or an
/// empty one for a URL over 7,000 bytes: everyone looks again); while the cache runs as a service
/// (``run()``, one connection kept listening), an instance waiting for another's fetch is woken by it.
/// Without it, waiting instances look again every 100 ms. A URL forgotten (``forget(_:)``) is announced on
/// the same channel as `forget ` and the URL: every listening instance drops it from its own cache.
public final class PostgresPreviewCache: SharedPreviewCache, Service {
    /// The channel answers are announced on.
    static let channel = "deskkit_previews"
    private let client: PostgresClient
    private let operationTimeout: Duration
    /// The store's clock (`PostgresJobStore.Options.clock`): the operation timeout, the pauses of a wait for
    /// another instance's answer and the sweeps' pace count on it.
    private let clock: ServiceClock
    private let lastSweep = Mutex<Duration?>(nil)
    private let waiters = Mutex(Waiters())
    /// What the services sharing this cache do when a URL is forgotten (``whenForgotten(_:)``).
    private let forgetActions = Mutex<[@Sendable (String) async -> Void]>([])
    /// The start of a notice that a URL was forgotten (an answer's notice is the URL itself).
    static let forgetNotice = "forget "

    /// Who waits for which answer, while a connection listens.
    private struct Waiters {
        var listening = false
        var next = 0
        /// By notice payload (the URL, or "" for the long ones), then by waiter.
        var byPayload: [String: [Int: AsyncStream<Void>.Continuation]] = [:]
    }

    private init(sharing store: PostgresJobStore) {
        self.client = store.lazyClient
        self.operationTimeout = store.options.operationTimeout
        self.clock = store.options.clock
    }

    /// The cache in `store`'s database, on the store's pool of commits that may lag, within its operation
    /// deadline. Its table is its own: created or brought up to date here (on a connection of its own, so
    /// that the store's pools need not run yet) (`deskkit_previews`, its versions
    /// in `deskkit_previews_schema`), under a lock of its own, so instances that start together migrate one
    /// after the other.
    /// - Throws: `JobStoreError` `cannotOpen` when the database cannot be migrated, or a newer deskkit
    ///   migrated it.
    public static func open(sharing store: PostgresJobStore, logger: Logger = Logger(label: "deskkit.previews"))
        async throws(JobStoreError) -> PostgresPreviewCache
    {
        let cache = PostgresPreviewCache(sharing: store)
        do {
            try await store.withOwnConnection {
                try await schema.migrate($0, clock: store.options.clock, logger: logger)
            }
        } catch {
            if let refused = error as? JobStoreError { throw refused }
            throw JobStoreError(
                .cannotOpen, "cannot migrate the shared preview cache: \(PostgresJobStore.describe(error))")
        }
        return cache
    }

    /// The cache's schema: `deskkit_previews`, its versions in `deskkit_previews_schema`. A database whose
    /// job store created the table (before the cache owned it) keeps it: every step is written to be one.
    static let schema = PostgresSchema(
        name: "shared preview cache", versionTable: "deskkit_previews_schema",
        // "dkprevs" in ASCII.
        lockKey: 0x64_6B70_7265_7673,
        steps: [
            [
                """
                CREATE TABLE IF NOT EXISTS deskkit_previews (
                    url text PRIMARY KEY,
                    expires_at timestamptz NOT NULL,
                    fetching_until timestamptz,
                    page_url text,
                    site_name text,
                    title text,
                    description text,
                    image text,
                    error_kind text,
                    error_detail text
                )
                """,
                "CREATE INDEX IF NOT EXISTS deskkit_previews_expiry ON deskkit_previews (expires_at)",
            ],
            // A cached card's details (image size and type, oEmbed, sources) as JSON; NULL for older rows.
            ["ALTER TABLE deskkit_previews ADD COLUMN IF NOT EXISTS details text"],
        ])

    /// Listens for the answers other instances store, on one connection of the store's pool, until
    /// graceful shutdown or cancellation; a lost connection is opened again after a second.
    public func run() async {
        await cancelWhenGracefulShutdown { [self] in
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.channel) { notices in
                            setListening(true)
                            defer { setListening(false) }
                            for try await notice in notices {
                                if notice.payload.hasPrefix(Self.forgetNotice) {
                                    let key = String(notice.payload.dropFirst(Self.forgetNotice.count))
                                    for action in forgetActions.withLock({ $0 }) { await action(key) }
                                } else {
                                    wake(notice.payload)
                                }
                            }
                        }
                    }
                } catch {}
                try? await clock.sleep(.seconds(1))
            }
        }
    }

    /// Whether a connection listens for answers now (for tests).
    package var isListening: Bool { waiters.withLock { $0.listening } }

    /// Callers in ``waitForAnswer(to:upTo:sleep:)`` now (for tests).
    public var waiting: Int { waiters.withLock { $0.byPayload.values.reduce(0) { $0 + $1.count } } }

    private func setListening(_ on: Bool) {
        waiters.withLock { $0.listening = on }
        // Those waiting for a notice no connection will bring look again now.
        if !on { wake("") }
    }

    /// Wakes those waiting for `payload`'s answer (everyone for an empty payload).
    private func wake(_ payload: String) {
        let woken = waiters.withLock { w in
            if payload.isEmpty {
                defer { w.byPayload = [:] }
                return w.byPayload.values.flatMap(\.values)
            }
            return Array(w.byPayload.removeValue(forKey: payload)?.values ?? [:].values)
        }
        for waiter in woken { waiter.finish() }
    }

    /// A notice's payload for `url`: the URL itself, or "" (everyone) when it is too long for one (8,000
    /// bytes at most, in the server's encoding).
    private static func payload(for url: String) -> String { fitsANotice(url) ? url : "" }

    /// Whether `url` fits in a notice's payload (8,000 bytes at most, in the server's encoding; 7,000 leaves room
    /// for the `forget ` prefix and the encoding).
    private static func fitsANotice(_ url: String) -> Bool { url.utf8.count <= 7000 }

    /// Returns when an answer for `url` is announced, at most `limit` later; without a listening
    /// connection, after 100 ms.
    public func waitForAnswer(
        to url: String, upTo limit: Duration, sleep: @escaping @Sendable (Duration) async throws -> Void
    ) async {
        let (notice, continuation) = AsyncStream<Void>.makeStream()
        let payload = Self.payload(for: url)
        let id: Int? = waiters.withLock { w in
            guard w.listening else { return nil }
            defer { w.next += 1 }
            w.byPayload[payload, default: [:]][w.next] = continuation
            return w.next
        }
        guard let id else { return await pauseBeforeLookingAgain(upTo: limit, sleep: sleep) }
        defer {
            waiters.withLock { w in
                w.byPayload[payload]?[id] = nil
                if w.byPayload[payload]?.isEmpty == true { w.byPayload[payload] = nil }
            }
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in notice {} }
            group.addTask { try? await sleep(limit) }
            await group.next()
            group.cancelAll()
        }
    }

    public func lookup(_ url: String, now: Date, fetchLease: Duration) async throws -> SharedPreviewLookup {
        let client = self.client
        return try await withDeadline(operationTimeout, clock: clock) {
            let rows = try await client.query(
                """
                SELECT expires_at > \(now), page_url, site_name, title, description, image, error_kind, error_detail,
                    details
                FROM deskkit_previews WHERE url = \(url)
                """)
            for try await (fresh, page, site, title, description, image, kind, detail, details) in rows.decode(
                (Bool, String?, String?, String?, String?, String?, String?, String?, String?).self)
            where fresh {
                if let kind {
                    var error =
                        FetchError(kindName: kind, detail: detail ?? "") ?? FetchError(.connection, detail ?? "")
                    // A refusal's provider is kept in the details column.
                    error.provider = details.flatMap { try? JSONValue.parse($0) }?["provider"]?.stringValue
                    return .cached(.failure(error))
                }
                let preview = URLPreview(
                    url: page ?? url, siteName: site, title: title, description: description, image: image)
                let parsed = details.flatMap { try? JSONValue.parse($0) }
                return .cached(
                    .success(PreviewCard(preview: preview, details: parsed.map(PreviewDetails.init) ?? .init())))
            }
            // Nothing fresh: take the fetch unless another instance holds it.
            let until = now.addingTimeInterval(fetchLease / .seconds(1))
            let claimed = try await client.query(
                """
                INSERT INTO deskkit_previews (url, expires_at, fetching_until) VALUES (\(url), '-infinity', \(until))
                ON CONFLICT (url) DO UPDATE SET fetching_until = excluded.fetching_until
                WHERE deskkit_previews.expires_at <= \(now)
                    AND (deskkit_previews.fetching_until IS NULL OR deskkit_previews.fetching_until <= \(now))
                RETURNING url
                """)
            for try await _ in claimed.decode(String.self) { return .fetch }
            return .fetchingElsewhere
        }
    }

    public func whenForgotten(_ action: @escaping @Sendable (String) async -> Void) {
        forgetActions.withLock { $0.append(action) }
    }

    public func forget(_ url: String) async throws -> Int {
        let client = self.client
        let prefix = url + " "
        return try await withDeadline(operationTimeout, clock: clock) {
            let rows = try await client.query(
                """
                DELETE FROM deskkit_previews WHERE url = \(url) OR starts_with(url, \(prefix)) RETURNING url
                """)
            var count = 0
            for try await _ in rows.decode(String.self) { count += 1 }
            // Every instance listening drops the URL from its own cache (a URL too long for a notice is not told).
            if Self.fitsANotice(url) {
                _ = try await client.query("SELECT pg_notify(\(Self.channel), \(Self.forgetNotice + url))")
            }
            return count
        }
    }

    public func store(_ result: Result<PreviewCard, FetchError>, for url: String, ttl: Duration, now: Date) async throws
    {
        let client = self.client
        let expires = now.addingTimeInterval(ttl / .seconds(1))
        var preview: URLPreview?
        var details: String?
        var failure: FetchError?
        switch result {
        case .success(let card):
            preview = card.preview
            details = card.details.json.jsonString
        case .failure(let e):
            failure = e
            details = e.provider.map { (["provider": .string($0)] as JSONValue).jsonString }
        }
        let elapsed = clock.elapsed()
        let sweep = lastSweep.withLock { last in
            guard last.map({ elapsed - $0 > .seconds(60) }) ?? true else { return false }
            last = elapsed
            return true
        }
        try await withDeadline(operationTimeout, clock: clock) { [preview, details, failure] in
            _ = try await client.query(
                """
                INSERT INTO deskkit_previews (url, expires_at, fetching_until, page_url, site_name, title, description, image,
                    error_kind, error_detail, details)
                VALUES (\(url), \(expires), NULL, \(preview?.url), \(preview?.siteName), \(preview?.title),
                    \(preview?.description), \(preview?.image), \(failure?.kind.rawValue), \(failure?.detail), \(details))
                ON CONFLICT (url) DO UPDATE SET expires_at = excluded.expires_at, fetching_until = NULL,
                    page_url = excluded.page_url, site_name = excluded.site_name, title = excluded.title,
                    description = excluded.description, image = excluded.image, error_kind = excluded.error_kind,
                    error_detail = excluded.error_detail, details = excluded.details
                """)
            _ = try await client.query("SELECT pg_notify(\(Self.channel), \(Self.payload(for: url)))")
            if sweep {
                _ = try await client.query(
                    """
                    DELETE FROM deskkit_previews WHERE url IN (
                        SELECT url FROM deskkit_previews WHERE expires_at < \(now) AND fetching_until IS NULL LIMIT 5000)
                    """)
            }
        }
    }
}
