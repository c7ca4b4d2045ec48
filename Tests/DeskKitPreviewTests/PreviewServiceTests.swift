import Clocks
import DeskKitModel
import DeskKitPageServer
import DeskKitPreview
import DeskKitTestSupport
import DeskKitTime
import Foundation
import Synchronization
import Testing

@Suite("Preview service", .serialized, .timeLimit(.minutes(10)))
struct PreviewServiceTests {
    @Test func previewsTheLinksOfAMessageAndCaches() async throws {
        let server = try await TestServer.start()
        try await server.scoped {
            let metrics = TestMetrics()
            let service = PreviewService(
                fetcher: PageFetcher(configuration: TestServer.configuration(server), clock: TestServer.still),
                metrics: metrics)
            let text = "see \(server.baseURL)/page and \(server.baseURL)/missing and \(server.baseURL)/image.png"
            let previews = await service.previews(for: text)
            #expect(previews.count == 3)
            let first = try previews[0].result.get()
            #expect(first.title == "OG page" && first.description == "D" && first.url == server.baseURL + "/page")
            #expect((try? previews[1].result.get()) == nil, "a failed preview fails only itself")
            #expect(try previews[2].result.get().image == server.baseURL + "/image.png")
            _ = await service.previews(for: text)
            #expect(metrics.total("deskkit_preview_fetches_total") == 3)
            #expect(metrics.total("deskkit_preview_cache_hits_total") == 3, "successes and failures are cached")
            #expect(metrics.total("deskkit_preview_requests_total") == 6)
            #expect(
                metrics.total("deskkit_fetch_errors_total", [("kind", "http_status")]) == 1,
                "counted once, at the fetch")
        }
    }

    @Test func concurrentRequestsForOneURLShareOneFetch() async throws {
        let server = try await TestServer.start()
        try await server.scoped {
            let metrics = TestMetrics()
            let service = PreviewService(
                fetcher: PageFetcher(configuration: TestServer.configuration(server), clock: TestServer.still),
                metrics: metrics)
            let url = server.baseURL + "/redirect/2"
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<20 { group.addTask { _ = await service.card(for: url) } }
            }
            #expect(metrics.total("deskkit_preview_fetches_total") == 1)
            #expect(
                metrics.total("deskkit_preview_joined_fetches_total")
                    + metrics.total("deskkit_preview_cache_hits_total")
                    == 19)
        }
    }

    @Test func firstNLinksOnly() async throws {
        var configuration = PreviewService.Configuration()
        configuration.maxLinksPerMessage = 1
        let service = PreviewService(configuration: configuration)
        let previews = await service.previews(for: "http://127.0.0.1/a http://127.0.0.1/b")
        #expect(previews.count == 1)
        guard case .failure(let e) = previews[0].result else {
            Issue.record("loopback was fetched")
            return
        }
        #expect(e.kind == .blockedAddress)
    }

    /// A host's limiter goes with its last fetch: a server that meets a new host in every message keeps none.
    @Test func hostLimitersGoWithTheirLastFetch() async throws {
        var configuration = PreviewService.Configuration()
        configuration.cacheCapacity = 10
        let metrics = TestMetrics()
        let service = PreviewService(configuration: configuration, metrics: metrics)
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<500 { group.addTask { _ = await service.card(for: "http://10.1.\(i / 250).\(i % 250)/") } }
        }
        #expect(await service.hostsInFlight == 0)
        #expect(metrics.total("deskkit_preview_fetches_total") == 500)
        #expect(metrics.total("deskkit_fetch_errors_total", [("kind", "blocked_address")]) == 500)
    }

    /// The cache keeps at most its capacity, and a failure for ``PreviewService/Configuration/failureTTL`` on the
    /// fetcher's clock: a hit until the 5 minutes have passed, a fetch once they have.
    @Test func cacheIsBoundedAndExpires() async throws {
        var configuration = PreviewService.Configuration()
        configuration.cacheCapacity = 10
        let clock = TestClock()
        let metrics = TestMetrics()
        let service = PreviewService(
            fetcher: PageFetcher(clock: ServiceClock(clock)), configuration: configuration, metrics: metrics)
        for i in 0..<50 { _ = await service.card(for: "http://10.0.0.\(i)/") }
        #expect(await service.cachedCount <= 10)
        _ = await service.card(for: "http://10.0.0.49/")
        #expect(metrics.total("deskkit_preview_cache_hits_total") == 1)
        await clock.advance(by: .seconds(299))
        _ = await service.card(for: "http://10.0.0.49/")
        #expect(metrics.total("deskkit_preview_cache_hits_total") == 2, "a failure is kept 5 minutes")
        await clock.advance(by: .seconds(1))
        _ = await service.card(for: "http://10.0.0.49/")
        #expect(metrics.total("deskkit_preview_cache_hits_total") == 2, "expired failures are fetched again")
        #expect(metrics.total("deskkit_preview_fetches_total") == 51)
    }
}

@Suite("Pyrus replies through the pipeline", .serialized, .timeLimit(.minutes(10)))
struct PyrusPreviewTests {
    @Test func linksInAReplyArePreviewed() async throws {
        let server = try await TestServer.start()
        try await server.scoped {
            let body =
                #"{"ticket_id": 1, "token": {"user_id": "u", "app_id": "a", "device_id": "d", "type": "ios"}, "comment": {"comment_id": 2, "body": "See \#(server.baseURL)/page please", "is_inbound": false}}"#
            let reply = try #require(PyrusReplyWebhook.decode(Array(body.utf8)).value)
            let service = PreviewService(
                fetcher: PageFetcher(configuration: TestServer.configuration(server), clock: TestServer.still))
            let previews = await service.previews(for: reply.comment.body ?? "")  // a reply's text, as any message's
            #expect(previews.count == 1)
            #expect(try previews[0].result.get().title == "OG page")
        }
    }
}

/// The site policy holds for every request a card makes: the link's, a redirect's, an oEmbed endpoint's and the
/// image's; a refused link is not fetched, not cached, and counted.
@Suite("Site policy in previews", .timeLimit(.minutes(10)))
struct SitePolicyPreviewTests {
    @Test func everyRequestOfACardIsHeldToThePolicy() async throws {
        let hits = Mutex<[String]>([])
        let server = try await PageServer.start { path in
            hits.withLock { $0.append(path) }
            switch path {
            case "/page":
                return .html(
                    #"<title>Parcel</title><meta property="og:image" content="http://denied.localhost/i.png">"#
                        + #"<link rel="alternate" type="application/json+oembed" href="http://denied.localhost/oembed.json">"#
                )
            case "/to-denied": return .redirect("http://cdn.denied.localhost/page")
            default: return .init(status: 404)
            }
        }
        try await server.scoped {
            var configuration = FetchConfiguration()
            configuration.allowedAddresses = [IPAddress(host: "127.0.0.1")!]
            configuration.allowedPorts.insert(server.port)
            configuration.sitePolicy = try SitePolicy(deny: "denied.localhost", allow: nil)
            let metrics = TestMetrics()
            let service = PreviewService(
                fetcher: PageFetcher(configuration: configuration, clock: TestServer.still), metrics: metrics)

            let card = try await service.card(for: server.baseURL + "/page").get()
            #expect(card.preview.title == "Parcel")
            #expect(card.preview.image == nil)
            #expect(card.details.imageDropped?.hasPrefix("policy:") == true)
            #expect(card.details.oEmbedError?.contains("policy") == true)

            guard case .failure(let redirected) = await service.card(for: server.baseURL + "/to-denied") else {
                Issue.record("a redirect to a denied host got a card")
                return
            }
            #expect(redirected.kind == .policy)

            for _ in 0..<2 {
                guard case .failure(let denied) = await service.card(for: "http://denied.localhost/x") else {
                    Issue.record("a denied link got a card")
                    return
                }
                #expect(denied.kind == .policy)
            }
            #expect(metrics.total("deskkit_fetch_errors_total", [("kind", "policy")]) == 3)
            // The page, the redirect, and once the site's made-up address (kept for the site's next link): each
            // held to the policy and let through.
            #expect(hits.withLock { $0 }.filter { !$0.hasPrefix("/deskkit-") } == ["/page", "/to-denied"])
            #expect(hits.withLock { $0 }.filter { $0.hasPrefix("/deskkit-") }.count == 1)
            // Without a probe the image is still taken off.
            var service2 = PreviewService.Configuration()
            service2.probeImages = false
            let unprobed = try await PreviewService(
                fetcher: PageFetcher(configuration: configuration, clock: TestServer.still), configuration: service2
            )
            .card(for: server.baseURL + "/page").get()
            #expect(unprobed.preview.image == nil)
        }
    }
}
