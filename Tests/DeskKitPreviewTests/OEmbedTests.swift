import DeskKitMetadata
import DeskKitPageServer
import Foundation
@testable import DeskKitPreview
import Synchronization
import Testing

/// oEmbed against a real page server on 127.0.0.2: provider answers from `Corpus/oembed`, pages that point to
/// their answers, and answers that are hostile. Their fetches count on a clock that never moves: no fetch limit is
/// what they check, and beside `stress-ng` an answer of the in-process server took more than a fetch's 10 s of real
/// time; the trait's limit is how long a test that hangs runs before it says so.
@Suite("oEmbed", .serialized, .timeLimit(.minutes(10)))
struct OEmbedTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus/oembed")

    /// What the server was asked for, and its own address (known once it listens).
    final class Log: Sendable {
        let paths = Mutex<[String]>([])
        let base = Mutex("")
    }

    /// The server, and the paths it was asked for.
    struct Site {
        let server: PageServer
        let log: Log
        var asked: [String] { log.paths.withLock { $0 } }
    }

    static func recorded(_ name: String, base: String) -> [UInt8] {
        let text = (try? String(contentsOf: corpus.appendingPathComponent(name), encoding: .utf8)) ?? ""
        return Array(text.replacingOccurrences(of: "{{base}}", with: base).utf8)
    }

    static func start() async throws -> Site {
        let log = Log()
        let server = try await PageServer.start(host: "127.0.0.2") { path in
            log.paths.withLock { $0.append(path) }
            let base = log.base.withLock { $0 }
            func json(_ bytes: [UInt8]) -> PageServer.Response {
                .init(headers: [("Content-Type", "application/json")], body: .bytes(bytes))
            }
            let route = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
            switch route {
            // A video site whose page says little: its provider (the table) says the rest.
            case "/watch": return .html("<html><head><title>DK-200 - Tube</title></head><body></body></html>")
            // The same video behind a consent wall, as a data centre's client meets it.
            case "/watch-eu":
                return .html(
                    #"<title>Before you continue to YouTube</title><form action="https://consent.youtube.com/save" method="post"><button>Accept all</button></form>"#
                )
            case "/tube/oembed": return json(recorded("youtube-video.json", base: base))
            case "/vi/dk200/hqdefault.png":
                return .init(headers: [("Content-Type", "image/png")], body: .bytes(MediaFiles.png(480, 360)))
            // A post whose page refuses robots: the card is the provider's.
            case "/deskkit/status/1138": return .init(status: 403)
            case "/birds/oembed": return json(recorded("twitter-post.json", base: base))
            // Discovery: a blog post with a title only; the JSON link.
            case "/post":
                return .html(
                    #"<title>Post</title><link rel="alternate" type="application/json+oembed" href="/wp-json/post">"#)
            case "/wp-json/post":
                return json(
                    Array(
                        #"{"type":"rich","version":"1.0","title":"Returns made simple","provider_name":"Shop Blog","html":"<p>Send it back <b>free</b> within 30 days.</p><script>alert(1)</script>"}"#
                            .utf8))
            // A page whose own tags are whole: its discovery link is not followed.
            case "/full":
                return .html(
                    #"<meta property="og:title" content="Own title"><meta property="og:image" content="/vi/dk200/hqdefault.png"><meta property="og:site_name" content="Own site"><link rel="alternate" type="application/json+oembed" href="/never">"#
                )
            // An app shell that names its answer, as video sites serve to clients without JavaScript; and one
            // whose answer is no answer.
            case "/v/shell", "/v/shell-bad":
                let answer = route == "/v/shell" ? "/tube/oembed?url=x" : "/answers/html"
                return .html(
                    #"<!doctype html><html><head><link rel="alternate" type="application/json+oembed" href="\#(answer)"><script src="/app.js"></script></head><body><div id="app"></div></body></html>"#
                )
            // The XML form when there is no JSON one.
            case "/photo":
                return .html(
                    #"<title>Photo</title><link rel="alternate" type="text/xml+oembed" href="/services/oembed.xml">"#)
            case "/services/oembed.xml":
                return .init(
                    headers: [("Content-Type", "text/xml+oembed")],
                    body: .bytes(recorded("flickr-photo.xml", base: base)))
            case "/live/dawn_b.png":
                return .init(headers: [("Content-Type", "image/png")], body: .bytes(MediaFiles.png(1024, 683)))
            // Hostile answers, each behind a page of its own.
            case "/h/html", "/h/big", "/h/private", "/h/loop", "/h/types":
                let name = route.dropFirst(3)
                return .html(
                    #"<title>Page \#(name)</title><link rel="alternate" type="application/json+oembed" href="/answers/\#(name)">"#
                )
            case "/answers/html": return .html("<html><body>Not found, but nicely</body></html>")
            case "/answers/big": return json(Array(repeating: 0x20, count: 10_000_000))
            case "/answers/private": return .redirect("http://169.254.169.254/latest/meta-data/")
            case "/answers/loop": return .redirect("/answers/loop")
            case "/answers/types": return json(Array(#"{"type":"video","version":"1.0","title":42}"#.utf8))
            default: return .init(status: 404)
            }
        }
        log.base.withLock { $0 = server.baseURL }
        return Site(server: server, log: log)
    }

    static func service(_ site: Site) -> PreviewService {
        let base = site.server.baseURL
        var configuration = PreviewService.Configuration()
        configuration.oEmbedProviders = OEmbedProviders(endpoints: [
            .init(providerName: "Tube", schemes: [base + "/watch*"], url: base + "/tube/oembed"),
            .init(providerName: "Birds", schemes: [base + "/*/status/*"], url: base + "/birds/oembed"),
        ])
        return PreviewService(
            fetcher: PageFetcher(
                configuration: TestServer.configuration(site.server), clock: TestServer.still),
            configuration: configuration)
    }

    @Test func aKnownProviderFillsWhatTheThinPageLacks() async throws {
        let site = try await Self.start()
        try await site.server.scoped {
            let base = site.server.baseURL
            let card = try await Self.service(site).card(for: base + "/watch?v=dk200").get()
            #expect(card.preview.title == "Setting up the DK-200 router in five minutes")
            #expect(card.preview.siteName == "YouTube")
            #expect(card.preview.image == base + "/vi/dk200/hqdefault.png")
            #expect(card.preview.url == base + "/watch?v=dk200")
            // A video's html is an iframe: no text; the author describes it.
            #expect(card.preview.description == "DeskKit Support")
            #expect(card.details.oEmbedType == .video && card.details.providerName == "YouTube")
            #expect(card.details.sources.title == .oEmbed && card.details.sources.image == .oEmbed)
            // The thumbnail was probed: its size is the image's, read from its bytes.
            #expect(card.details.imageWidth == 480 && card.details.imageHeight == 360 && card.details.imageType == .png)
            // The endpoint was asked with the link, escaped, in JSON.
            let asked = site.asked.first { $0.hasPrefix("/tube/oembed") }
            #expect(
                asked?.contains("url=http%3A%2F%2F127.0.0.2%3A") == true && asked?.hasSuffix("&format=json") == true)
        }
    }

    /// A consent or login wall in front of a page the provider table knows costs nothing: its answer is
    /// asked while the page is fetched, and the card is the provider's, never the wall's.
    @Test func aWallInFrontOfAKnownProvidersPageCostsNoCard() async throws {
        let site = try await Self.start()
        try await site.server.scoped {
            let card = try await Self.service(site).card(for: site.server.baseURL + "/watch-eu?v=dk200").get()
            #expect(card.preview.title == "Setting up the DK-200 router in five minutes")
            #expect(card.details.sources.title == .oEmbed && card.details.providerName == "YouTube")
            // Without the provider, the wall is refused: no card that says "Before you continue".
            var plain = PreviewService.Configuration()
            plain.oEmbed = false
            let service = PreviewService(fetcher: await Self.service(site).fetcher, configuration: plain)
            let refused = await service.card(for: site.server.baseURL + "/watch-eu?v=dk200")
            guard case .failure(let error) = refused else {
                Issue.record("a card for a consent wall: \(refused)")
                return
            }
            #expect(error.kind == .consentWall && error.provider == "google")
        }
    }

    @Test func aRefusedPageGetsItsProvidersCardAndNeverItsMarkup() async throws {
        let site = try await Self.start()
        try await site.server.scoped {
            let card = try await Self.service(site).card(for: site.server.baseURL + "/deskkit/status/1138").get()
            #expect(card.preview.title == "DeskKit")  // A post has no title: its author stands for it.
            #expect(card.preview.siteName == "Twitter")
            let text = try #require(card.preview.description)
            #expect(text.hasPrefix("Parcel delays in the Riverside area today"))
            #expect(text.contains("Sorry & thanks"))
            #expect(!text.contains("<") && !text.contains("widgets.js") && !text.contains("twsrc"))
            #expect(card.details.oEmbedType == .rich)
        }
    }

    @Test func aPagesDiscoveryLinkIsFollowedWhenItsTagsLeaveFieldsToFill() async throws {
        let site = try await Self.start()
        try await site.server.scoped {
            let base = site.server.baseURL
            let service = Self.service(site)
            let post = try await service.card(for: base + "/post").get()
            #expect(post.preview.title == "Returns made simple" && post.preview.siteName == "Shop Blog")
            #expect(post.preview.description == "Send it back free within 30 days.")
            let full = try await service.card(for: base + "/full").get()
            #expect(full.preview.title == "Own title" && full.preview.siteName == "Own site")
            #expect(full.details.sources.title == .page && full.details.oEmbedType == nil)
            #expect(!site.asked.contains("/never"))
            // The XML form, a photo: its image is the photo itself, probed.
            let photo = try await service.card(for: base + "/photo").get()
            #expect(photo.preview.title == "Riverside depot at dawn" && photo.preview.siteName == "Flickr")
            #expect(photo.preview.image == base + "/live/dawn_b.png")
            #expect(photo.details.imageWidth == 1024 && photo.details.imageHeight == 683)
            #expect(photo.details.oEmbedType == .photo)
        }
    }

    /// An empty app shell that names its oEmbed answer is judged with it: the answer is the card. Without a
    /// good answer, the shell is refused as it would be without one.
    @Test func aShellIsJudgedWithTheOEmbedAnswerItNames() async throws {
        let site = try await Self.start()
        try await site.server.scoped {
            let base = site.server.baseURL
            let card = try await Self.service(site).card(for: base + "/v/shell").get()
            #expect(card.preview.title == "Setting up the DK-200 router in five minutes")
            #expect(card.details.sources.title == .oEmbed && card.details.oEmbedType == .video)
            let refused = await Self.service(site).card(for: base + "/v/shell-bad")
            guard case .failure(let error) = refused else {
                Issue.record("a card for an empty shell whose answer is no answer: \(refused)")
                return
            }
            #expect(error.kind == .emptyShell)
            #expect(site.asked.contains("/answers/html"), "its answer was asked before the verdict")
        }
    }

    @Test(arguments: [
        ("html", "the answer is not JSON"), ("big", "too_large"), ("private", "blocked_address"),
        ("loop", "too_many_redirects"), ("types", "title: a number, not a string"),
    ])
    func aBadAnswerLeavesThePagesOwnCardAndSaysWhy(_ name: String, _ why: String) async throws {
        let site = try await Self.start()
        try await site.server.scoped {
            let card = try await Self.service(site).card(for: site.server.baseURL + "/h/" + name).get()
            #expect(card.preview.title == "Page \(name)")
            #expect(card.details.oEmbedType == nil)
            let error = try #require(card.details.oEmbedError)
            #expect(error.contains(why), "\(error)")
            if name == "html" { #expect(error.contains("served as text/html")) }
        }
    }

    @Test func oEmbedCanBeTurnedOff() async throws {
        let site = try await Self.start()
        try await site.server.scoped {
            let on = Self.service(site)
            var configuration = await on.configuration
            configuration.oEmbed = false
            let service = PreviewService(fetcher: await on.fetcher, configuration: configuration)
            let card = try await service.card(for: site.server.baseURL + "/watch?v=dk200").get()
            #expect(card.preview.title == "DK-200 - Tube" && card.details.oEmbedType == nil)
            #expect(!site.asked.contains { $0.hasPrefix("/tube/oembed") })
        }
    }

    @Test func theBuiltInTableNamesThePlatformsPeoplePaste() throws {
        let table = OEmbedProviders.builtIn
        #expect(table.endpoints.count >= 20)
        let cases: [(String, String?)] = [
            ("https://www.youtube.com/watch?v=dQw4w9WgXcQ", "YouTube"),
            ("https://youtu.be/dQw4w9WgXcQ", "YouTube"),
            ("http://youtube.com/watch?v=x", "YouTube"),  // http: matches the https: patterns
            ("https://vimeo.com/76979871", "Vimeo"),
            ("https://www.loom.com/share/abc", "Loom"),
            ("https://x.com/jack/status/20", "Twitter"),
            ("https://twitter.com/jack/status/20", "Twitter"),
            ("https://www.tiktok.com/@a/video/1", "TikTok"),
            ("https://open.spotify.com/track/1", "Spotify"),
            ("https://soundcloud.com/a/b", "SoundCloud"),
            ("https://www.flickr.com/photos/a/1", "Flickr"),
            ("HTTPS://WWW.YOUTUBE.COM/watch?v=x", "YouTube"),
            ("https://example.com/watch?v=x", nil),
            ("https://youtube.com.evil.example/watch", nil),
        ]
        for (link, provider) in cases {
            #expect(table.endpoint(for: link)?.providerName == provider, "\(link)")
        }
        let endpoint = try #require(table.endpoint(for: "https://vimeo.com/1?a=b&c"))
        #expect(
            endpoint.requestURL(for: "https://vimeo.com/1?a=b&c")
                == "https://vimeo.com/api/oembed.json?url=https%3A%2F%2Fvimeo.com%2F1%3Fa%3Db%26c&format=json")
        // A long link is not matched (each pattern is tried byte by byte).
        #expect(table.endpoint(for: "https://vimeo.com/" + String(repeating: "a", count: 5000)) == nil)
    }

    @Test(arguments: [
        ("https://*.youtube.com/watch*", "https://www.youtube.com/watch?v=1", true),
        ("https://*.youtube.com/watch*", "https://youtube.com/watch?v=1", false),
        ("https://vimeo.com/*", "https://vimeo.com/", true),
        ("https://a.com/*/status/*", "https://a.com/x/y/status/1", true),
        ("https://a.com/*/status/*", "https://a.com/x/status", false),
        ("*a*a*a*a*b", String(repeating: "a", count: 2000), false),
    ])
    func patternsMatchAsProvidersWriteThem(_ pattern: String, _ link: String, _ matches: Bool) {
        #expect(OEmbedProviders.matches(Array(link.utf8), pattern: Array(pattern.utf8)) == matches)
    }
}
