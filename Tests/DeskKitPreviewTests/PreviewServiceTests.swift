import DeskKitModel
import DeskKitPageServer
import DeskKitPreview
import Foundation
import Testing

@Suite("Preview service", .serialized)
struct PreviewServiceTests {
    @Test func previewsTheLinksOfAMessageAndCaches() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.stop() } }
        let service = PreviewService(fetcher: PageFetcher(configuration: TestServer.configuration(server)))
        let text = "see \(server.baseURL)/page and \(server.baseURL)/missing and \(server.baseURL)/image.png"
        let previews = await service.previews(for: text)
        #expect(previews.count == 3)
        let first = try previews[0].result.get()
        #expect(first.title == "OG page" && first.description == "D" && first.url == server.baseURL + "/page")
        #expect((try? previews[1].result.get()) == nil, "a failed preview fails only itself")
        #expect(try previews[2].result.get().image == server.baseURL + "/image.png")
        _ = await service.previews(for: text)
        let stats = await service.statistics
        #expect(stats.fetches == 3)
        #expect(stats.cacheHits == 3, "successes and failures are cached")
        #expect(stats.failures[.httpStatus] == 1)
    }

    @Test func concurrentRequestsForOneURLShareOneFetch() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.stop() } }
        let service = PreviewService(fetcher: PageFetcher(configuration: TestServer.configuration(server)))
        let url = server.baseURL + "/redirect/2"
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { _ = await service.card(for: url) } }
        }
        let stats = await service.statistics
        #expect(stats.fetches == 1)
        #expect(stats.sharedFetches + stats.cacheHits == 19)
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
        let service = PreviewService(configuration: configuration)
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<500 { group.addTask { _ = await service.card(for: "http://10.1.\(i / 250).\(i % 250)/") } }
        }
        #expect(await service.hostsInFlight == 0)
        #expect(await service.statistics.fetches == 500)
    }

    @Test func cacheIsBoundedAndExpires() async throws {
        var configuration = PreviewService.Configuration()
        configuration.cacheCapacity = 10
        configuration.failureTTL = .milliseconds(200)
        let service = PreviewService(configuration: configuration)
        for i in 0..<50 { _ = await service.card(for: "http://10.0.0.\(i)/") }
        #expect(await service.cachedCount <= 10)
        _ = await service.card(for: "http://10.0.0.49/")
        #expect(await service.statistics.cacheHits == 1)
        try await Task.sleep(nanoseconds: 300_000_000)
        _ = await service.card(for: "http://10.0.0.49/")
        #expect(await service.statistics.cacheHits == 1, "expired failures are fetched again")
    }
}

@Suite("Pyrus replies through the pipeline", .serialized)
struct PyrusPreviewTests {
    @Test func linksInAReplyArePreviewed() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.stop() } }
        let body =
            #"{"ticket_id": 1, "token": {"user_id": "u", "app_id": "a", "device_id": "d", "type": "ios"}, "comment": {"comment_id": 2, "body": "See \#(server.baseURL)/page please", "is_inbound": false}}"#
        let reply = try #require(PyrusReplyWebhook.decode(Array(body.utf8)).value)
        let service = PreviewService(fetcher: PageFetcher(configuration: TestServer.configuration(server)))
        let previews = await service.previews(for: reply.comment.body ?? "")  // a reply's text, as any message's
        #expect(previews.count == 1)
        #expect(try previews[0].result.get().title == "OG page")
    }
}
