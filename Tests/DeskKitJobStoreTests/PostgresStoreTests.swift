@testable import DeskKitJobStore
import DeskKitModel
import DeskKitPageServer
import DeskKitPreview
import DeskKitTestSupport
import Foundation
import PostgresNIO
import Synchronization
import Testing

/// What only the PostgreSQL store does: migrate safely when instances start together, and share the
/// preview cache between them.
@Suite("PostgreSQL store")
struct PostgresStoreTests {
    @Test func instancesStartingTogetherMigrateOnce() async throws {
        let cluster = try PostgresCluster.shared()
        let location = try PostgresLocation(parsing: try cluster.makeDatabase())
        let stores = try await withThrowingTaskGroup(of: PostgresJobStore.self) { group in
            for _ in 0..<3 { group.addTask { try await PostgresJobStore.open(location) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(stores.count == 3)
        #expect(
            try cluster.psql(
                location.database, "SELECT string_agg(version::text, ',' ORDER BY version) FROM deskkit_schema")
                == "1,2,3")
        // Each sees what another admits.
        #expect(
            try await stores[0].admit(
                EnrichmentJob(channelURL: "c", messageID: 7, text: "x"), now: Date(), dedupWindow: .seconds(60)))
        #expect(
            try await !stores[1].admit(
                EnrichmentJob(channelURL: "c", messageID: 7, text: "x"), now: Date(), dedupWindow: .seconds(60)))
        #expect(try await stores[2].counts()[.queued] == 1)
        for store in stores { await store.close() }
        // Opening again migrates nothing.
        let again = try await PostgresJobStore.open(location)
        await again.close()
        #expect(try cluster.psql(location.database, "SELECT count(*) FROM deskkit_schema") == "3")
    }

    /// Admissions wait for the disk; the workers' statements do not (at-least-once covers their loss).
    @Test func onlyAdmissionsCommitSynchronously() async throws {
        let store = try await PostgresJobStore.open(
            PostgresLocation(parsing: try PostgresCluster.shared().makeDatabase()))
        func setting(_ client: PostgresClient) async throws -> String {
            var value = ""
            for try await v in try await client.query("SHOW synchronous_commit").decode(String.self) { value = v }
            return value
        }
        #expect(try await setting(store.client) == "on")
        #expect(try await setting(store.lazyClient) == "off")
        await store.close()
    }

    @Test func anUnreachableDatabaseIsAClearErrorNotAHang() async throws {
        let port = try PostgresCluster.shared().port + 1  // nothing listens there (a port next to the cluster's)
        var options = PostgresJobStore.Options()
        options.connectTimeout = .seconds(1)
        let started = ContinuousClock.now
        let error = await #expect(throws: JobStoreError.self) {
            _ = try await PostgresJobStore.open(
                PostgresLocation(host: "127.0.0.1", port: port, username: "deskkit", database: "x", tls: .disable),
                options: options)
        }
        #expect(error?.kind == .cannotOpen)
        #expect(started.duration(to: .now) < .seconds(40))
    }

    /// Two services (two instances) on one database, 20 concurrent previews of each of 5 URLs spread over
    /// them: each page is fetched once; the answers, a failure included, are the same everywhere.
    @Test func thePreviewCacheIsSharedAcrossInstances() async throws {
        let location = try PostgresLocation(parsing: try PostgresCluster.shared().makeDatabase())
        let fetches = Mutex<[String: Int]>([:])
        let pages = try await PageServer.start { path in
            fetches.withLock { $0[path, default: 0] += 1 }
            if path == "/missing" { return .init(status: 404) }
            return .html("<title>Page \(path)</title><meta property=og:description content='About \(path)'>")
        }
        let a = try await PostgresJobStore.open(location)
        let b = try await PostgresJobStore.open(location)
        var fetch = FetchConfiguration()
        fetch.allowPrivateAddresses = true
        fetch.allowedPorts = [pages.port]
        let services = [a, b].map {
            PreviewService(fetcher: PageFetcher(configuration: fetch), sharedCache: $0.previewCache)
        }
        let urls = ["/one", "/two", "/three", "/four", "/missing"].map { pages.baseURL + $0 }
        let results = await withTaskGroup(of: (String, Result<URLPreview, FetchError>).self) { group in
            for i in 0..<100 {
                let url = urls[i % urls.count]
                group.addTask { (url, await services[i % 2].preview(for: url)) }
            }
            return await group.reduce(into: [String: Set<Result<URLPreview, FetchError>>]()) {
                $0[$1.0, default: []].insert($1.1)
            }
        }
        #expect(fetches.withLock { $0 } == ["/one": 1, "/two": 1, "/three": 1, "/four": 1, "/missing": 1])
        for url in urls {
            #expect(results[url]?.count == 1, "one answer for \(url)")
        }
        #expect(try results[pages.baseURL + "/two"]?.first?.get().title == "Page /two")
        let missing = results[pages.baseURL + "/missing"]?.first
        #expect(
            missing.map { if case .failure(let e) = $0 { e.kind == .httpStatus } else { false } } == true,
            "the 404 page's answer: \(String(describing: missing))")
        let shared = await services[0].statistics.sharedCacheHits + services[1].statistics.sharedCacheHits
        #expect(shared >= 1, "one service found the other's answer in the database")
        // Cards are kept with their details: a third instance, its own cache empty, reads them from the database.
        let c = try await PostgresJobStore.open(location)
        let card = try await PreviewService(fetcher: PageFetcher(configuration: fetch), sharedCache: c.previewCache)
            .card(for: pages.baseURL + "/two").get()
        #expect(card.preview.title == "Page /two")
        #expect(card.details.sources.title == .pageFallback && card.details.sources.description == .page)
        #expect(card.details.charset?.name == "UTF-8")
        #expect(fetches.withLock { $0["/two"] } == 1)
        await c.close()
        await a.close()
        await b.close()
        try await pages.stop()
    }
}
