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
        let cluster = try await PostgresCluster.shared()
        let fresh = try PostgresLocation(parsing: try await cluster.makeDatabase())
        let store = try await PostgresJobStore.open(fresh, options: .unhurried)
        func tables(_ database: String) async throws -> String {
            try await cluster.psql(
                database,
                "SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables WHERE table_name LIKE 'deskkit%'"
            )
        }
        #expect(try await tables(fresh.database) == "deskkit_jobs,deskkit_schema")
        _ = try await PostgresPreviewCache.open(sharing: store)
        _ = try await PostgresPreviewCache.open(sharing: store)  // opening again changes nothing
        #expect(
            try await tables(fresh.database) == "deskkit_jobs,deskkit_previews,deskkit_previews_schema,deskkit_schema")
        #expect(try await cluster.psql(fresh.database, "SELECT max(version) FROM deskkit_previews_schema") == "2")
        await store.close()

        // A database an older deskkit migrated: its job store made deskkit_previews, with a row in it.
        let older = try PostgresLocation(parsing: try await cluster.makeDatabase())
        _ = try await cluster.psql(
            older.database,
            """
            CREATE TABLE deskkit_previews (url text PRIMARY KEY, expires_at timestamptz NOT NULL,
              fetching_until timestamptz, page_url text, site_name text, title text, description text, image text,
              error_kind text, error_detail text, details text);
            INSERT INTO deskkit_previews (url, expires_at, title) VALUES ('https://example.com/', now() + interval '1 hour', 'Kept');
            """)
        let olderStore = try await PostgresJobStore.open(older, options: .unhurried)
        let cache = try await PostgresPreviewCache.open(sharing: olderStore)
        let kept = try await cache.lookup("https://example.com/", now: Date(), fetchLease: .seconds(5)).cached?.get()
        #expect(kept?.preview.title == "Kept")
        await olderStore.close()
    }

    /// Two services (two instances) on one database, 20 concurrent previews of each of 5 URLs spread over
    /// them: each page is fetched once; the answers, a failure included, are the same everywhere.
    @Test func thePreviewCacheIsSharedAcrossInstances() async throws {
        let location = try PostgresLocation(parsing: try await PostgresCluster.shared().makeDatabase())
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
        // The stores' operation deadlines count on a clock that stands still: on a loaded machine a slow query
        // is slow, not a failure the service passes by with a fetch of its own (which would change the counts).
        var options = PostgresJobStore.Options.unhurried
        options.clock = ServiceClock(TestClock())
        let a = try await PostgresJobStore.open(location, options: options)
        let b = try await PostgresJobStore.open(location, options: options)
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
        // Each page once among the instances (their made-up addresses, each instance's own, aside).
        #expect(
            fetches.withLock { $0 }.filter { !$0.key.hasPrefix("/deskkit-") }
                == ["/one": 1, "/two": 1, "/three": 1, "/four": 1, "/missing": 1])
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
        let c = try await PostgresJobStore.open(location, options: options)
        let card = try await PreviewService(
            fetcher: PageFetcher(configuration: fetch), sharedCache: try await PostgresPreviewCache.open(sharing: c)
        )
        .card(for: pages.baseURL + "/two").get()
        #expect(card.preview.title == "Page /two")
        #expect(card.details.sources.title == .pageFallback && card.details.sources.description == .page)
        #expect(card.details.charset?.name == "UTF-8")
        #expect(fetches.withLock { $0["/two"] } == 1)
        // A refusal is kept with who ran it: the third instance reads the bot check's provider from the database.
        // It is stored by an instance on a test clock, so that its 10 minutes below are counted from the moment
        // it was stored, exactly, and not from some seconds later.
        let clock = TestClock()
        let instant = ServiceClock(clock)
        let wall = pages.baseURL + "/wall"
        let storing = PreviewService(
            fetcher: PageFetcher(configuration: fetch, clock: instant), sharedCache: caches[0], metrics: metrics)
        guard case .failure(let first) = await storing.card(for: wall) else {
            Issue.record("a card for a bot check")
            return
        }
        #expect(first.kind == .challenge && first.provider == "datadome")
        let third = PreviewService(
            fetcher: PageFetcher(configuration: fetch), sharedCache: try await PostgresPreviewCache.open(sharing: c))
        let read = await third.card(for: wall)
        #expect(read.map(\.preview) == .failure(first))
        #expect(fetches.withLock { $0["/wall"] } == 1)
        // It is kept for the refusal's 10 minutes, on the clock of the service asking (a new one each time, its own
        // cache empty): still there a second before, fetched again at 10 minutes.
        for (elapsed, fetched) in [(Duration.seconds(599), 1), (.seconds(1), 2)] {
            await clock.advance(by: elapsed)
            let later = PreviewService(
                fetcher: PageFetcher(configuration: fetch, clock: instant),
                sharedCache: try await PostgresPreviewCache.open(sharing: c))
            let answer = await later.card(for: wall).map(\.preview)
            #expect(answer == .failure(first), "at \(clock.now): \(answer)")
            #expect(fetches.withLock { $0["/wall"] } == fetched, "at \(clock.now)")
        }
        for operation in ["lookup", "store"] {
            #expect(
                metrics.total("deskkit_preview_shared_cache_errors_total", [("operation", operation)]) == 0,
                "no \(operation) failed and was passed by")
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
        let location = try PostgresLocation(parsing: try await PostgresCluster.shared().makeDatabase())
        let a = try await PostgresJobStore.open(location, options: .unhurried)
        let b = try await PostgresJobStore.open(location, options: .unhurried)
        let listener = try await PostgresPreviewCache.open(sharing: a)
        let writer = try await PostgresPreviewCache.open(sharing: b)
        let listening = Task { await listener.run() }
        try await until("the cache listening") { listener.isListening }
        let card = PreviewCard(preview: URLPreview(url: "https://example.com/told", title: "Told"), details: .init())
        for url in ["https://example.com/told", "https://example.com/" + String(repeating: "long", count: 2000)] {
            let waiter = Task { await listener.waitForAnswer(to: url, upTo: .seconds(60), sleep: service.sleep) }
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
            await writer.waitForAnswer(to: "https://example.com/other", upTo: .seconds(60), sleep: service.sleep)
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

    /// A shared cache that fails is passed by, not an answer lost: the service answers with the page it fetched
    /// and counts the failure — a store the database refuses, then a look-up of a table gone.
    @Test func aFailingSharedCacheIsPassedByAndCounted() async throws {
        let cluster = try await PostgresCluster.shared()
        let location = try PostgresLocation(parsing: try await cluster.makeDatabase())
        let store = try await PostgresJobStore.open(location, options: .unhurried)
        let cache = try await PostgresPreviewCache.open(sharing: store)
        let pages = try await PageServer.start { path in .html("<title>Fetched \(path)</title>") }
        var fetch = FetchConfiguration()
        fetch.allowPrivateAddresses = true
        let metrics = TestMetrics()
        func failures(_ operation: String) -> Int64 {
            metrics.total("deskkit_preview_shared_cache_errors_total", [("operation", operation)])
        }
        try await pages.scoped {
            // An answer stored clears the row's fetch claim; the database refuses exactly that write.
            _ = try await cluster.psql(
                location.database,
                """
                CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$;
                CREATE TRIGGER refuse_answers BEFORE INSERT OR UPDATE ON deskkit_previews
                  FOR EACH ROW WHEN (NEW.fetching_until IS NULL) EXECUTE FUNCTION refuse();
                """)
            let service = PreviewService(
                fetcher: PageFetcher(configuration: fetch), sharedCache: cache, metrics: metrics)
            #expect(try await service.card(for: pages.baseURL + "/a").get().preview.title == "Fetched /a")
            #expect(failures("lookup") == 0 && failures("store") == 1)

            _ = try await cluster.psql(location.database, "DROP TABLE deskkit_previews")
            #expect(try await service.card(for: pages.baseURL + "/b").get().preview.title == "Fetched /b")
            #expect(failures("lookup") == 1 && failures("store") == 1)
            #expect(metrics.total("deskkit_preview_fetches_total") == 2)
        }
        await store.close()
    }

    /// `forget` drops a URL's answers in every language, and nothing of another URL that starts like it.
    @Test func aURLsCardsAreTakenBackInEveryLanguage() async throws {
        let location = try PostgresLocation(parsing: try await PostgresCluster.shared().makeDatabase())
        let store = try await PostgresJobStore.open(location, options: .unhurried)
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
        let location = try PostgresLocation(parsing: try await PostgresCluster.shared().makeDatabase())
        let version = Mutex(1)
        let pages = try await PageServer.start { path in
            path == "/post" ? .html("<title>Version \(version.withLock { $0 })</title>") : .init(status: 404)
        }
        var fetch = FetchConfiguration()
        fetch.allowPrivateAddresses = true
        let (a, b) = (
            try await PostgresJobStore.open(location, options: .unhurried),
            try await PostgresJobStore.open(location, options: .unhurried)
        )
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
