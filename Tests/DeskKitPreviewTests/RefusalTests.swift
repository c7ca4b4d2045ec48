import Clocks
import DeskKitJSON
import DeskKitPageServer
import DeskKitPreview
import DeskKitTestSupport
import DeskKitTime
import Foundation
import Testing

/// Pages that stand in for the one a link points to, served with their status and headers from a real page
/// server on 127.0.0.1 and fetched through the whole pipeline: `Corpus/refusals/pages.jsonl`, each page with
/// what real page it imitates, what it must give (a card, an HTTP status, or a refusal's kind) and who ran it.
@Suite("Refusals", .serialized, .timeLimit(.minutes(10)))
struct RefusalTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus/refusals/pages.jsonl")

    /// One page of the corpus.
    struct Page: Sendable, CustomStringConvertible {
        var name: String
        var path: String
        var redirectFrom: String?
        var status: Int
        var headers: [(String, String)]
        var html: String
        /// `card`, `http_status`, or a refusal's kind.
        var expect: String
        var provider: String?
        var description: String { name }

        /// Served under `/c/<name>`: each page at an address of its own.
        var served: String { "/c/\(name)\(path)" }
        var asked: String { redirectFrom.map { "/c/\(name)\($0)" } ?? served }
    }

    static func load() -> [Page] {
        guard let text = try? String(contentsOf: corpus, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let v = try? JSONValue.parse(String(line)), let name = v["name"]?.stringValue,
                let html = v["html"]?.stringValue, let expect = v["expect"]?.stringValue
            else { return nil }
            let headers = v["headers"]?.objectValue.map { $0.map { ($0.key, $0.value.stringValue ?? "") } } ?? []
            return Page(
                name: name, path: v["path"]?.stringValue ?? "/", redirectFrom: v["redirect_from"]?.stringValue,
                status: Int(v["status"]?.int64Value ?? 200), headers: headers, html: html, expect: expect,
                provider: v["provider"]?.stringValue)
        }
    }

    static func serve(_ pages: [Page]) async throws -> PageServer {
        try await PageServer.start(host: "127.0.0.2") { path in
            if let page = pages.first(where: { $0.served == path }) {
                return .init(status: page.status, headers: page.headers, body: .bytes(Array(page.html.utf8)))
            }
            if let page = pages.first(where: { $0.asked == path }) { return .redirect(page.served) }
            return .init(status: 404)
        }
    }

    static func service(_ server: PageServer) -> PreviewService {
        var configuration = PreviewService.Configuration()
        configuration.probeImages = false
        configuration.oEmbed = false
        return PreviewService(
            fetcher: PageFetcher(configuration: TestServer.configuration(server), clock: TestServer.still),
            configuration: configuration)
    }

    @Test func theCorpusIsThere() {
        let pages = Self.load()
        #expect(pages.count >= 60)
        // Every kind, and pages that look like them but are themselves.
        for kind in ["challenge", "consent_wall", "login_wall", "error_page", "parked_domain", "empty_shell", "card"] {
            #expect(pages.contains { $0.expect == kind }, "no page of \(kind)")
        }
    }

    @Test(arguments: load())
    func eachPageGivesWhatItIs(_ page: Page) async throws {
        let server = try await Self.serve([page])
        try await server.scoped {
            let result = await Self.service(server).card(for: server.baseURL + page.asked)
            switch (page.expect, result) {
            case ("card", .success): break
            case ("card", .failure(let e)): Issue.record("refused a real page: \(e)")
            case (_, .success(let card)): Issue.record("a card for \(page.expect): \(card.preview)")
            case (let kind, .failure(let e)):
                #expect(e.kind.rawValue == kind, "\(e)")
                #expect(e.provider == page.provider, "\(e)")
                if e.kind.isRefusal { #expect(!e.detail.isEmpty) }
            }
        }
    }

    /// A wall is remembered for ``PreviewService/Configuration/refusalTTL`` (10 minutes), not for the shorter
    /// failure time (5 minutes), counted on the fetcher's clock.
    @Test func aRefusalIsCachedForItsOwnTime() async throws {
        let pages = Self.load().filter { ["cloudflare-challenge-200-no-header", "plain-404"].contains($0.name) }
        let server = try await Self.serve(pages)
        try await server.scoped {
            var configuration = PreviewService.Configuration()
            configuration.probeImages = false
            let clock = TestClock()
            let metrics = TestMetrics()
            let service = PreviewService(
                fetcher: PageFetcher(configuration: TestServer.configuration(server), clock: ServiceClock(clock)),
                configuration: configuration, metrics: metrics)
            for page in pages { _ = await service.card(for: server.baseURL + page.asked) }
            await clock.advance(by: .seconds(300))
            for page in pages { _ = await service.card(for: server.baseURL + page.asked) }
            #expect(metrics.total("deskkit_preview_fetches_total") == 3, "the wall once, the 404 twice")
            #expect(metrics.total("deskkit_preview_cache_hits_total") == 1)
            await clock.advance(by: .seconds(300))
            _ = await service.card(for: server.baseURL + pages[0].asked)
            _ = await service.card(for: server.baseURL + pages[1].asked)
            #expect(metrics.total("deskkit_preview_fetches_total") == 5, "and the wall again after 10 minutes")
            #expect(metrics.total("deskkit_fetch_errors_total", [("kind", "challenge")]) == 2)
            #expect(metrics.total("deskkit_fetch_errors_total", [("kind", "http_status")]) == 3)
        }
    }
}
