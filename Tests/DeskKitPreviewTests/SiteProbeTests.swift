import Clocks
import DeskKitJSON
import DeskKitMetadata
import DeskKitPageServer
import DeskKitTestSupport
import DeskKitTime
import Foundation
import Synchronization
import Testing

@testable import DeskKitPreview

/// The site's answer to an address that cannot exist, asked beside a deep link's page from a real server on
/// 127.0.0.2 through the whole pipeline: walls of kinds no issue named (`Corpus/refusals/kinds.jsonl`) served at
/// every address as their sites serve them, real pages beside a 404, a "not found" page served as 200 or the front
/// page; the answer asked once for a site and kept; a front page's link never refused for what every address gets;
/// the setting that turns it off; what an inspection shows.
@Suite("The site's answer to a made-up address", .serialized, .timeLimit(.minutes(10)))
struct SiteProbeTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus/refusals/kinds.jsonl")

    /// One page of the corpus: a wall of a kind, served at every address of its site, or a real page about the
    /// same subject, beside what its site answers an unknown address (`404`, `soft_404`, `front_page`).
    struct Page: Sendable, CustomStringConvertible {
        var name: String
        var kind: String
        var path: String
        var status: Int
        var headers: [(String, String)]
        var html: String
        var isWall: Bool
        var unknownAddress: String
        var description: String { name }
    }

    static func load() -> [Page] {
        guard let text = try? String(contentsOf: corpus, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let v = try? JSONValue.parse(String(line)), let name = v["name"]?.stringValue,
                let html = v["html"]?.stringValue, let expect = v["expect"]?.stringValue
            else { return nil }
            return Page(
                name: name, kind: v["kind"]?.stringValue ?? "", path: v["path"]?.stringValue ?? "/",
                status: Int(v["status"]?.int64Value ?? 200),
                headers: v["headers"]?.objectValue.map { $0.map { ($0.key, $0.value.stringValue ?? "") } } ?? [],
                html: html, isWall: expect != "card", unknownAddress: v["unknown_address"]?.stringValue ?? "404")
        }
    }

    static let frontPage =
        #"<!DOCTYPE html><html><head><title>Example Site</title><meta property="og:description" content="News, guides and more from Example Site."></head><body><h1>Example Site</h1><p>The latest stories, guides and reviews, updated every day.</p></body></html>"#
    static let softNotFound =
        #"<!DOCTYPE html><html><head><title>Page not found | Example Site</title></head><body><h1>Sorry, we couldn't find that page</h1><p>Try the search.</p></body></html>"#

    /// Serves `page` at its path, and every other address as its site does: the wall itself, or the real page's
    /// site's answer to an unknown address.
    static func serve(_ page: Page) async throws -> PageServer {
        try await PageServer.start(host: "127.0.0.2") { path in
            if path == page.path || page.isWall {
                return .init(status: page.status, headers: page.headers, body: .bytes(Array(page.html.utf8)))
            }
            switch page.unknownAddress {
            case "front_page": return path == "/" ? .html(frontPage) : .redirect("/")
            case "soft_404": return .html(softNotFound)
            default: return .init(status: 404)
            }
        }
    }

    static func service(
        _ server: PageServer, clock: ServiceClock = TestServer.still, metrics: TestMetrics = TestMetrics(),
        change: (inout PreviewService.Configuration) -> Void = { _ in }
    ) -> PreviewService {
        var configuration = PreviewService.Configuration()
        configuration.probeImages = false
        configuration.oEmbed = false
        change(&configuration)
        return PreviewService(
            fetcher: PageFetcher(configuration: TestServer.configuration(server), clock: clock),
            configuration: configuration, metrics: metrics)
    }

    @Test func theCorpusIsThere() {
        let pages = Self.load()
        #expect(Set(pages.filter(\.isWall).map(\.kind)).count >= 10, "walls of ten kinds or more")
        #expect(pages.contains { !$0.isWall && $0.unknownAddress == "front_page" })
        #expect(pages.contains { !$0.isWall && $0.unknownAddress == "soft_404" })
    }

    /// Every wall, served at every address of its site, gets no card; every real page keeps its card beside a 404,
    /// a "not found" page served as 200, or its site's front page for unknown addresses.
    @Test(arguments: load())
    func eachPageAsItsSiteServesIt(_ page: Page) async throws {
        let server = try await Self.serve(page)
        try await server.scoped {
            let result = await Self.service(server).card(for: server.baseURL + page.path)
            switch (page.isWall, result) {
            case (true, .success(let card)): Issue.record("a card for a \(page.kind): \(card.preview)")
            case (false, .failure(let error)): Issue.record("refused a real page: \(error)")
            case (true, .failure(let error)): #expect(error.kind.isRefusal || error.kind == .httpStatus, "\(error)")
            case (false, .success): break
            }
        }
    }

    /// One made-up address a site, kept for ``PreviewService/Configuration/siteProbeTTL`` on the fetcher's clock and
    /// shared by the site's links; a sibling of the first link, its extension kept.
    @Test func aSitesAnswerIsAskedOnceAndKept() async throws {
        let notice = "<title>Acme</title><h1>Not here</h1><p>This service is not offered where you are.</p>"
        let asked = Paths()
        let server = try await PageServer.start(host: "127.0.0.2") { path in
            asked.add(path)
            return .html(notice)
        }
        try await server.scoped {
            let clock = TestClock()
            let metrics = TestMetrics()
            let service = Self.service(server, clock: ServiceClock(clock), metrics: metrics)
            for path in ["/shop/one.html", "/shop/two.html", "/other/three"] {
                let result = await service.card(for: server.baseURL + path)
                #expect((try? result.get()) == nil && result.error?.kind == .notice, "\(path): \(result)")
            }
            #expect(metrics.total("deskkit_site_probes_total", [("outcome", "answered")]) == 1)
            #expect(metrics.total("deskkit_site_probe_cache_hits_total") == 2)
            let made = asked.all.filter { $0.contains("deskkit-") }
            #expect(made.count == 1 && made[0].hasPrefix("/shop/deskkit-") && made[0].hasSuffix(".html"), "\(made)")
            await clock.advance(by: .seconds(601))
            _ = await service.card(for: server.baseURL + "/other/four")
            #expect(metrics.total("deskkit_site_probes_total", [("outcome", "answered")]) == 2)
        }
    }

    /// A front page's link keeps its card when every address gets the front page or the app, and its site is not
    /// asked; a deep link into the app that every address gets is the app's shell.
    @Test func aFrontPageKeepsItsCard() async throws {
        let shell =
            #"<title>Tasks</title><meta property="og:description" content="Plan your week with Tasks."><div id="root"></div><script src="/app.js"></script>"#
        let asked = Paths()
        let server = try await PageServer.start(host: "127.0.0.2") { path in
            asked.add(path)
            return .html(shell)
        }
        try await server.scoped {
            let service = Self.service(server)
            for path in ["/", "/en/", "/index.html"] {
                #expect((try? await service.card(for: server.baseURL + path).get()) != nil, "\(path)")
            }
            #expect(!asked.all.contains { $0.contains("deskkit-") }, "no made-up address for a front page")
            let deep = await service.card(for: server.baseURL + "/board/42")
            #expect(deep.error?.kind == .emptyShell, "\(deep)")
        }
    }

    /// A page with content of its own gets its card while the made-up address has not answered: it is not waited
    /// for. The site's answer, when it comes, is kept.
    @Test func aPageOfItsOwnWaitsForNoAnswer() async throws {
        let gate = PageServer.Gate()
        let article =
            #"<meta property="og:type" content="article"><title>Budget passes</title><p>The council voted 7 to 2 for the new budget.</p>"#
        let server = try await PageServer.start(host: "127.0.0.2") { path in
            path.contains("deskkit-")
                ? .init(
                    headers: [("Content-Type", "text/html")],
                    body: .held(Array("<title>Nope</title>".utf8), until: gate))
                : .html(article)
        }
        try await server.scoped {
            let metrics = TestMetrics()
            let card = await Self.service(server, metrics: metrics).card(for: server.baseURL + "/news/budget")
            #expect(card.error == nil, "\(card)")
            #expect(metrics.total("deskkit_site_probes_total", [("outcome", "answered")]) == 0, "still held")
            gate.open()
            try await until("the held answer is kept") {
                metrics.total("deskkit_site_probes_total", [("outcome", "answered")]) == 1
            }
        }
    }

    /// Turned off, no made-up address is asked, and a notice every address gets keeps the card the page gives.
    @Test func theSettingTurnsItOff() async throws {
        let notice = "<title>Acme</title><h1>Not here</h1><p>This service is not offered where you are.</p>"
        let asked = Paths()
        let server = try await PageServer.start(host: "127.0.0.2") { path in
            asked.add(path)
            return .html(notice)
        }
        try await server.scoped {
            let service = Self.service(server) { $0.siteProbe = false }
            #expect(await service.card(for: server.baseURL + "/shop/one").error == nil)
            #expect(!asked.all.contains { $0.contains("deskkit-") })
        }
    }

    /// The made-up address is held to the same guard as a page: a redirect of it to an address the guard refuses
    /// fails the probe, counted, and the page keeps its card.
    @Test func theMadeUpAddressGoesThroughTheGuard() async throws {
        let notice = "<title>Acme</title><h1>Not here</h1><p>This service is not offered where you are.</p>"
        let server = try await PageServer.start(host: "127.0.0.2") { path in
            path.contains("deskkit-") ? .redirect("http://169.254.169.254/latest/meta-data/") : .html(notice)
        }
        try await server.scoped {
            let metrics = TestMetrics()
            #expect(await Self.service(server, metrics: metrics).card(for: server.baseURL + "/shop/one").error == nil)
            #expect(metrics.total("deskkit_site_probes_total", [("outcome", "failed")]) == 1)
        }
    }

    /// An inspection asks the made-up address anew and shows it: the request, its answer, what it shares.
    @Test func anInspectionShowsTheMadeUpAddress() async throws {
        let notice = "<title>Acme</title><h1>Not here</h1><p>This service is not offered where you are.</p>"
        let server = try await PageServer.start(host: "127.0.0.2") { _ in .html(notice) }
        try await server.scoped {
            let service = Self.service(server)
            _ = await service.card(for: server.baseURL + "/shop/one")
            let explanation = await service.explain(server.baseURL + "/shop/one")
            #expect(explanation.hops.contains { $0.purpose == .siteProbe && $0.url.contains("/shop/deskkit-") })
            let json = explanation.json()
            #expect(json["site_probe"]?["same"]?.boolValue == true)
            #expect(json["site_probe"]?["shared"]?.arrayValue?.count == 4)
            #expect(json["refusal"]?["kind"]?.stringValue == "notice")
        }
    }

    /// The made-up address is a sibling of the link's: its last segment replaced, its extension and a trailing
    /// slash kept, its query dropped.
    @Test func madeUpSiblings() throws {
        func sibling(_ url: String) throws -> String { SiteProbes.madeUpSibling(of: try WebURL(url)).pathAndQuery }
        let pattern = /\/a\/b\/deskkit-[0-9a-f]{12}\.html/
        #expect(try sibling("https://x.example/a/b/c.html?id=9").wholeMatch(of: pattern) != nil)
        #expect(try sibling("https://x.example/a/b/").wholeMatch(of: /\/a\/deskkit-[0-9a-f]{12}\//) != nil)
        #expect(try sibling("https://x.example/watch?v=1").wholeMatch(of: /\/deskkit-[0-9a-f]{12}/) != nil)
        #expect(try sibling("https://x.example/a") != sibling("https://x.example/a"), "random each time")
    }
}

/// The paths a server was asked, in order.
private final class Paths: Sendable {
    private let paths = Mutex<[String]>([])
    func add(_ path: String) { paths.withLock { $0.append(path) } }
    var all: [String] { paths.withLock { $0 } }
}

extension Result {
    fileprivate var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
