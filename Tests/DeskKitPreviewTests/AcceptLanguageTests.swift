import DeskKitPageServer
@testable import DeskKitPreview
import DeskKitTestSupport
import Synchronization
import Testing

/// The language a page is asked for: the `Accept-Language` value checked, sent on every fetch, and a card
/// kept for each URL and language.
@Suite("Accept-Language", .timeLimit(.minutes(10)))
struct AcceptLanguageTests {
    @Test func aTagMeansThatLanguageFirstAndAListIsKeptAsWritten() throws {
        #expect(AcceptLanguage.default.header == "en, *;q=0.5")
        #expect(try AcceptLanguage("ru").header == "ru, *;q=0.5")
        #expect(try AcceptLanguage(" zh-Hans ").header == "zh-Hans, *;q=0.5")
        #expect(try AcceptLanguage("de-CH-1996").header == "de-CH-1996, *;q=0.5")
        #expect(try AcceptLanguage("ru-RU,ru;q=0.9, en;Q=0.8").header == "ru-RU, ru;q=0.9, en;q=0.8")
        #expect(try AcceptLanguage("*").header == "*")
        #expect(try AcceptLanguage("en;q=1.000").header == "en;q=1.000")
    }

    @Test func aValueThatIsNoLanguageListIsRefusedSayingWhy() {
        let refused: [(String, String)] = [
            ("", "is empty"),
            ("ru\r\nX-Evil: 1", #""ru\r\nX-Evil: 1""#),
            ("english please", #""english please""#),
            ("toolongtag", #""toolongtag""#),
            ("ru-", #""ru-""#),
            ("1ru", #""1ru""#),
            ("en;q=2", "weight"),
            ("en;q=0.1234", "weight"),
            ("en;level=1", "weight"),
            ("en;q=0.5;q=0.4", "more than one weight"),
            ("ru,,en", #""""#),
            (Array(repeating: "en", count: 33).joined(separator: ","), "more than 32 languages"),
            (String(repeating: "a", count: 513), "longer than 512 bytes"),
        ]
        for (text, reason) in refused {
            #expect(throws: AcceptLanguage.Problem.self, "\(text)") { try AcceptLanguage(text) }
            do {
                _ = try AcceptLanguage(text)
            } catch {
                #expect(error.description.hasPrefix("the language ") && error.description.contains(reason), "\(error)")
            }
        }
    }

    /// Any text at all: refused, or a value that holds no control character (it cannot split the header),
    /// reads back as itself, and is no longer than the limit.
    @Test func anyTextIsRefusedOrAValueThatReadsBackAsItself() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = [
            "ru", "en", "zh-Hans", "*", ",", ";", "q=", "0.5", "1", " ", "\t", "-", "\r\n", "é", "x", ";q=0.9",
        ]
        var accepted = 0
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            guard let value = try? AcceptLanguage(text) else { continue }
            accepted += 1
            #expect(value.header.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }, "\(text)")
            #expect(value.header.utf8.count <= AcceptLanguage.maxBytes + 8)
            #expect(try AcceptLanguage(value.header) == value, "\(text) → \(value)")
        }
        #expect(accepted > 100, "the generator makes valid lists too")
    }

    /// A URL written with spaces never stands for another URL asked in another language.
    @Test func aCacheKeyNamesOneURLInOneLanguage() throws {
        let russian = try AcceptLanguage("ru")
        #expect(PreviewService.cacheKey("https://a.test/", nil) == "https://a.test/")
        #expect(PreviewService.cacheKey("https://a.test/", russian) == "https://a.test/ ru, *;q=0.5")
        #expect(
            PreviewService.cacheKey("https://a.test/ ru, *;q=0.5", nil)
                != PreviewService.cacheKey("https://a.test/", russian))
    }

    /// A shop that serves Russian and English: the default asks for English, a Russian customer's request
    /// for Russian; each card is cached apart, and asked again neither is fetched again.
    @Test func eachLanguageGetsItsOwnCardAndCacheEntry() async throws {
        let seen = Mutex<[String]>([])
        let server = try await PageServer.start(host: "127.0.0.2") { path, headers in
            // The shop's page, and a 404 for any other address (the made-up one its site is asked).
            guard path == "/shop" else { return .init(status: 404) }
            let language = headers.first { $0.0.lowercased() == "accept-language" }?.1 ?? ""
            seen.withLock { $0.append(language) }
            let title = language.hasPrefix("ru") ? "Магазин" : "The shop"
            return .html("<html><head><title>\(title)</title></head><body><p>…</p></body></html>")
        }
        try await server.scoped {
            var configuration = FetchConfiguration()
            configuration.allowedAddresses = [.v4(0x7F00_0002)]
            configuration.allowedPorts = [server.port]
            var serviceConfiguration = PreviewService.Configuration()
            serviceConfiguration.probeImages = false
            serviceConfiguration.oEmbed = false
            let metrics = TestMetrics()
            let service = PreviewService(
                fetcher: PageFetcher(configuration: configuration, clock: TestServer.still),
                configuration: serviceConfiguration,
                metrics: metrics)
            let url = server.baseURL + "/shop"
            let russian = try AcceptLanguage("ru")
            #expect(try await service.card(for: url).get().preview.title == "The shop")
            #expect(try await service.card(for: url, language: russian).get().preview.title == "Магазин")
            #expect(try await service.card(for: url, language: .default).get().preview.title == "The shop")
            #expect(try await service.previews(for: "see \(url)", language: russian)[0].result.get().title == "Магазин")
            #expect(seen.withLock { $0 } == ["en, *;q=0.5", "ru, *;q=0.5"])
            #expect(metrics.total("deskkit_preview_fetches_total") == 2)
            #expect(metrics.total("deskkit_preview_cache_hits_total") == 2)
            #expect(await service.cachedCount == 2)
        }
    }
}
