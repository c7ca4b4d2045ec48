import Clocks
import DeskKitJobStore
import DeskKitModel
import DeskKitPageServer
import DeskKitPreview
import DeskKitSharedPreviews
import DeskKitTestSupport
import DeskKitTime
import Foundation
import Synchronization
import Testing

/// The preview cache instances share in their PostgreSQL store's database.
@Suite("Shared preview cache")
struct PostgresPreviewCacheTests {
    /// The cache owns its table: the job store's migrations do not create it, the cache's own do (its
    /// versions in a table of its own), on a new database and on one whose job store created the table
    /// before the cache owned it.
    @Test func theCacheMigratesItsOwnTable() async throws {
        let cluster = try PostgresCluster.shared()
        let fresh = try PostgresLocation(parsing: try cluster.makeDatabase())
        let store = try await PostgresJobStore.open(fresh)
        func tables(_ database: String) throws -> String {
            try cluster.psql(
                database,
                "SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables WHERE table_name LIKE 'deskkit%'"
            )
        }
        #expect(try tables(fresh.database) == "deskkit_jobs,deskkit_schema")
        _ = try await PostgresPreviewCache.open(sharing: store)
        _ = try await PostgresPreviewCache.open(sharing: store)  // opening again changes nothing
        #expect(try tables(fresh.database) == "deskkit_jobs,deskkit_previews,deskkit_previews_schema,deskkit_schema")
        #expect(try cluster.psql(fresh.database, "SELECT max(version) FROM deskkit_previews_schema") == "2")
        await store.close()

        // A database an older deskkit migrated: its job store made deskkit_previews, with a row in it.
        let older = try PostgresLocation(parsing: try cluster.makeDatabase())
        _ = try cluster.psql(
            older.database,
            """
            CREATE TABLE deskkit_previews (url text PRIMARY KEY, expires_at timestamptz NOT NULL,
              fetching_until timestamptz, page_url text, site_name text, title text, description text, image text,
              error_kind text, error_detail text, details text);
            INSERT INTO deskkit_previews (url, expires_at, title) VALUES ('https://example.com/', now() + interval '1 hour', 'Kept');
            """)
        let olderStore = try await PostgresJobStore.open(older)
        let cache = try await PostgresPreviewCache.open(sharing: olderStore)
        let kept = try await cache.lookup("https://example.com/", now: Date(), fetchLease: .seconds(5)).cached?.get()
        #expect(kept?.preview.title == "Kept")
        await olderStore.close()
    }

    /// Two services (two instances) on one database, 20 concurrent previews of each of 5 URLs spread over
    /// them: each page is fetched once; the answers, a failure included, are the same everywhere.
    @Test func thePreviewCacheIsSharedAcrossInstances() async throws {
        let location = try PostgresLocation(parsing: try PostgresCluster.shared().makeDatabase())
        let fetches = Mutex<[String: Int]>([:])
        let pages = try await PageServer.start { path in
            fetches.withLock { $0[path, default: 0] += 1 }
            if path == "/missing" { return .init(status: 404) }
            if path == "/wall" {
                return .init(
                    status: 403, headers: [("Content-Type", "text/html")],
                    body: .bytes(
                        Array(#"<title>x</title><script src="https://ct.captcha-delivery.com/c.js"></script>"#.utf8)))
            }
            return .html("<title>Page \(path)</title><meta property=og:description content='About \(path)'>")
        }
        let a = try await PostgresJobStore.open(location)
        let b = try await PostgresJobStore.open(location)
        var fetch = FetchConfiguration()
        fetch.allowPrivateAddresses = true
        fetch.allowedPorts = [pages.port]
        let metrics = TestMetrics()
        let caches = [try await PostgresPreviewCache.open(sharing: a), try await PostgresPreviewCache.open(sharing: b)]
        let services = caches.map {
            PreviewService(fetcher: PageFetcher(configuration: fetch), sharedCache: $0, metrics: metrics)
        }
        let urls = ["/one", "/two", "/three", "/four", "/missing"].map { pages.baseURL + $0 }
        let results = await withTaskGroup(of: (String, Result<URLPreview, FetchError>).self) { group in
            for i in 0..<100 {
                let url = urls[i % urls.count]
                group.addTask { (url, await services[i % 2].card(for: url).map(\.preview)) }
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
        #expect(
            metrics.total("deskkit_preview_shared_cache_hits_total") >= 1,
            "one service found the other's answer in the database")
        // Cards are kept with their details: a third instance, its own cache empty, reads them from the database.
        let c = try await PostgresJobStore.open(location)
        let card = try await PreviewService(
            fetcher: PageFetcher(configuration: fetch), sharedCache: try await PostgresPreviewCache.open(sharing: c)
        )
        .card(for: pages.baseURL + "/two").get()
        #expect(card.preview.title == "Page /two")
        #expect(card.details.sources.title == .pageFallback && card.details.sources.description == .page)
        #expect(card.details.charset?.name == "UTF-8")
        #expect(fetches.withLock { $0["/two"] } == 1)
        // A refusal is kept with who ran it: the third instance reads the bot check's provider from the database.
        let wall = pages.baseURL + "/wall"
        guard case .failure(let first) = await services[0].card(for: wall) else {
            Issue.record("a card for a bot check")
            return
        }
        #expect(first.kind == .challenge && first.provider == "datadome")
        let third = PreviewService(
            fetcher: PageFetcher(configuration: fetch), sharedCache: try await PostgresPreviewCache.open(sharing: c))
        let read = await third.card(for: wall)
        #expect(read.map(\.preview) == .failure(first))
        #expect(fetches.withLock { $0["/wall"] } == 1)
        // It is kept for the refusal's 10 minutes, on the clock of the service asking: not quite gone after 9 min
        // 50 s (some seconds passed since it was stored), fetched again after 10.
        for (elapsed, fetched) in [(Duration.seconds(590), 1), (.seconds(600), 2)] {
            let clock = TestClock()
            let later = PreviewService(
                fetcher: PageFetcher(configuration: fetch, clock: ServiceClock(clock)),
                sharedCache: try await PostgresPreviewCache.open(sharing: c))
            await clock.advance(by: elapsed)
            let answer = await later.card(for: wall).map(\.preview)
            #expect(answer == .failure(first), "after \(elapsed): \(answer)")
            #expect(fetches.withLock { $0["/wall"] } == fetched, "after \(elapsed)")
        }
        await c.close()
        await a.close()
        await b.close()
        try await pages.stop()
    }

    /// An instance waiting for another's fetch is told of its answer (`LISTEN`/`NOTIFY`) instead of looking
    /// again and again; a URL too long for a notice wakes every waiter; without a listener, it waits 100 ms. The
    /// waits count on a clock the test holds: a waiter that returns while it stands still was woken by the notice.
    @Test func aWaitingInstanceIsToldOfTheAnswer() async throws {
        let clock = TestClock()
        let service = ServiceClock(clock)
        let location = try PostgresLocation(parsing: try PostgresCluster.shared().makeDatabase())
        let a = try await PostgresJobStore.open(location)
        let b = try await PostgresJobStore.open(location)
        let listener = try await PostgresPreviewCache.open(sharing: a)
        let writer = try await PostgresPreviewCache.open(sharing: b)
        let listening = Task { await listener.run() }
        try await until("the cache listening") { listener.isListening }
        let card = PreviewCard(preview: URLPreview(url: "https://example.com/told", title: "Told"), details: .init())
        for url in ["https://example.com/told", "https://example.com/" + String(repeating: "long", count: 2000)] {
            let waiter = Task { await listener.waitForAnswer(to: url, upTo: .seconds(60), clock: service) }
            try await until("the waiter registered") { listener.waiting == 1 }
            try await writer.store(.success(card), for: url, ttl: .seconds(60), now: Date())
            try await until("the waiter woken by the notice (its clock stands still)") { listener.waiting == 0 }
            await waiter.value
            let read = try #require(
                try await listener.lookup(url, now: Date(), fetchLease: .seconds(5)).cached?.get(),
                "the answer is in the cache")
            #expect(read.preview.title == "Told")
        }
        listening.cancel()
        _ = await listening.result
        #expect(!listener.isListening)
        // Not listening: a pause of 100 ms on the clock, which the test moves until the wait ends.
        let paused = Mutex(false)
        let pause = Task {
            await writer.waitForAnswer(to: "https://example.com/other", upTo: .seconds(60), clock: service)
            paused.withLock { $0 = true }
        }
        let start = service.elapsed()
        try await until("the pause of a cache that is not listening") {
            await clock.advance(by: .milliseconds(20))
            return paused.withLock { $0 }
        }
        await pause.value
        #expect(service.elapsed() - start >= .milliseconds(100))
        await a.close()
        await b.close()
    }

    /// `forget` drops a URL's answers in every language, and nothing of another URL that starts like it.
    @Test func aURLsCardsAreTakenBackInEveryLanguage() async throws {
        let location = try PostgresLocation(parsing: try PostgresCluster.shared().makeDatabase())
        let store = try await PostgresJobStore.open(location)
        let cache = try await PostgresPreviewCache.open(sharing: store)
        let card = PreviewCard(preview: URLPreview(url: "https://example.com/a", title: "A"), details: .init())
        for key in [
            "https://example.com/a", "https://example.com/a ru", "https://example.com/a de, *;q=0.5",
            "https://example.com/ab",
        ] {
            try await cache.store(.success(card), for: key, ttl: .seconds(600), now: Date())
        }
        try await cache.store(
            .failure(FetchError(.loginWall, "a form")), for: "https://example.com/b", ttl: .seconds(600), now: Date())
        #expect(try await cache.forget("https://example.com/a") == 3)
        #expect(try await cache.lookup("https://example.com/a ru", now: Date(), fetchLease: .seconds(5)).cached == nil)
        #expect(try await cache.lookup("https://example.com/ab", now: Date(), fetchLease: .seconds(5)).cached != nil)
        #expect(try await cache.forget("https://example.com/b") == 1)
        #expect(try await cache.forget("https://example.com/b") == 0)
        await store.close()
    }

    /// A card taken back on one instance goes from every listening instance's own cache: the next message
    /// gets a fresh card wherever it is enriched.
    @Test func aCardTakenBackOnOneInstanceGoesFromTheOthers() async throws {
        let location = try PostgresLocation(parsing: try PostgresCluster.shared().makeDatabase())
        let version = Mutex(1)
        let pages = try await PageServer.start { _ in .html("<title>Version \(version.withLock { $0 })</title>") }
        var fetch = FetchConfiguration()
        fetch.allowPrivateAddresses = true
        let (a, b) = (try await PostgresJobStore.open(location), try await PostgresJobStore.open(location))
        let (cacheA, cacheB) = (
            try await PostgresPreviewCache.open(sharing: a), try await PostgresPreviewCache.open(sharing: b)
        )
        let listening = Task { await cacheB.run() }
        try await until("the second cache listening") { cacheB.isListening }
        let serviceA = PreviewService(fetcher: PageFetcher(configuration: fetch), sharedCache: cacheA)
        let serviceB = PreviewService(fetcher: PageFetcher(configuration: fetch), sharedCache: cacheB)
        let url = pages.baseURL + "/post"
        #expect(try await serviceA.card(for: url).get().preview.title == "Version 1")
        #expect(try await serviceB.card(for: url).get().preview.title == "Version 1")
        #expect(await serviceB.cachedCount == 1)
        version.withLock { $0 = 2 }
        let dropped = try await serviceA.forget(url)
        #expect(dropped.memory == 1 && dropped.shared == 1)
        try await until("the other instance told to forget the card") { await serviceB.cachedCount == 0 }
        #expect(try await serviceB.card(for: url).get().preview.title == "Version 2")
        listening.cancel()
        await a.close()
        await b.close()
        try await pages.stop()
    }
}
