import DeskKitJobStore
import DeskKitModel
import DeskKitPreview
import Foundation
import PostgresNIO
import Synchronization

/// The preview cache shared by every instance on one PostgreSQL database (table `deskkit_previews`).
///
/// A row holds an answer until `expires_at`; `fetching_until` marks the instance that fetches it now, so
/// the others wait for its answer instead of fetching the page too. Expired rows are deleted, a slice at a
/// time, at most once a minute by each instance.
public final class PostgresPreviewCache: SharedPreviewCache {
    private let client: PostgresClient
    private let operationTimeout: Duration
    private let lastSweep = Mutex<ContinuousClock.Instant?>(nil)

    /// The cache in `store`'s database (its table comes with the store's schema), on the store's pool of
    /// commits that may lag, within its operation deadline.
    public init(sharing store: PostgresJobStore) {
        self.client = store.lazyClient
        self.operationTimeout = store.options.operationTimeout
    }

    public func lookup(_ url: String, now: Date, fetchLease: Duration) async throws -> SharedPreviewLookup {
        let client = self.client
        return try await withDeadline(operationTimeout) {
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
        let sweep = lastSweep.withLock { last in
            guard last.map({ $0.duration(to: .now) > .seconds(60) }) ?? true else { return false }
            last = .now
            return true
        }
        try await withDeadline(operationTimeout) { [preview, details, failure] in
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
