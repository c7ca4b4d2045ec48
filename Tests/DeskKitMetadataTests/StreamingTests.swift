import DeskKitMetadata
import Testing
import DeskKitTestSupport

@Suite("Streaming and limits")
struct StreamingTests {
    static let files = OGCase.load().map(\.file) + ["charsets/shift_jis-meta-late.html", "charsets/utf-16le-bom.html"]

    @Test(arguments: files)
    func chunkedEqualsOneShot(_ file: String) {
        let page = file.hasPrefix("charsets/") ? bytes(file) : bytes("og/" + file)
        let whole = MetadataExtractor.extract(html: page, pageURL: "https://example.com/")
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<5 {
            let parser = HTMLMetadataParser(pageURL: "https://example.com/")
            var i = 0
            while i < page.count {
                let n = Int.random(in: 1...max(1, min(700, page.count - i)), using: &rng)
                if parser.feed(page[i..<i + n]) { break }
                i += n
            }
            var chunked = parser.finish()
            chunked.bytesParsed = whole.bytesParsed
            #expect(chunked == whole)
        }
    }

    /// Fuzz finding: the charset is decided on the head through `<body` and the byte after it; a chunk that
    /// ended right after `<body` had it decided without that byte (here the one that is not UTF-8).
    @Test(arguments: [5, 10, 11, 12])
    func charsetWindowIsWholeBeforeDeciding(_ cut: Int) {
        let page = Array("yL{\0\0<body".utf8) + [0xFF, 0x41]
        let whole = MetadataExtractor.extract(html: page, pageURL: nil)
        #expect(whole.charset.name != "UTF-8")  // the byte after `<body` was looked at
        let parser = HTMLMetadataParser(pageURL: nil)
        parser.feed(page[..<cut])
        parser.feed(page[cut...])
        #expect(parser.finish().charset == whole.charset)
    }

    @Test func aHugePageCostsItsHead() {
        let head = """
            <html><head><meta property="og:title" content="T"><meta property="og:description" content="D">
            <meta property="og:image" content="https://example.com/i.png"></head><body>
            """
        let body = String(repeating: "<div><p>lots of body text here</p></div>\n", count: 130_000)
        let page = Array((head + body + "</body></html>").utf8)
        #expect(page.count > 5_000_000)
        let parser = HTMLMetadataParser(pageURL: "https://example.com/")
        var fed = 0
        while fed < page.count {
            let n = min(16_384, page.count - fed)
            fed += n
            if parser.feed(page[fed - n..<fed]) { break }
        }
        let m = parser.finish()
        #expect(fed < 100_000, "reading stopped at the end of the head")
        #expect(m.stoppedEarly)
        #expect(m.title == "T")
    }

    @Test func imageSearchIsBounded() {
        let page = Array(
            ("<html><head><title>T</title><meta name=description content=D></head><body><h1>H</h1>"
                + String(repeating: "<p>some words of text here</p>", count: 2_000)
                + "<img src=\"/far.png\"></body></html>").utf8)
        #expect(MetadataExtractor.extract(html: page, pageURL: "https://example.com/").image == nil)
        var limits = ExtractionLimits()
        limits.fallbackSearchBytes = 200_000
        #expect(
            MetadataExtractor.extract(html: page, pageURL: "https://example.com/", limits: limits).image
                == "https://example.com/far.png")
    }

    @Test func firstParagraphEndsTheSearchForAHeadingSoon() {
        // Documentation pages: no <h1>, the first paragraph near the top, then a long body.
        let page = Array(
            ("<html><head><title>T</title></head><body><p>Lead paragraph.</p>"
                + String(repeating: "<div>some words of text here</div>", count: 8_000)
                + "<h1>H</h1><p>After the heading.</p></body></html>").utf8)
        let m = MetadataExtractor.extract(html: page, pageURL: "https://example.com/")
        #expect(m.description == "Lead paragraph.")
        #expect(m.bytesParsed < 64 * 1024, "read \(m.bytesParsed) of \(page.count) bytes")
        var limits = ExtractionLimits()
        limits.fallbackSearchBytes = 1_000_000
        let far = MetadataExtractor.extract(html: page, pageURL: "https://example.com/", limits: limits)
        #expect(far.description == "After the heading.")
        #expect(far.bytesParsed >= page.count)
    }

    @Test func theSearchWindowOpensAtTheFirstParagraph() {
        // Sphinx pages: a long sidebar, its first <p>, then the article's <h1> and lead a little further.
        let page = Array(
            ("<html><head><title>T</title></head><body><ul>"
                + String(repeating: "<li><a href=\"/x\">sidebar entry</a></li>", count: 2_000)
                + "</ul><p>Previous topic</p><div>" + String(repeating: "<a href=\"/y\">y</a>", count: 200)
                + "</div><h1>H</h1><p>The lead.</p></body></html>").utf8)
        #expect(MetadataExtractor.extract(html: page, pageURL: "https://example.com/").description == "The lead.")
    }

    @Test func bodyReadingIsBounded() {
        var limits = ExtractionLimits()
        limits.maxBodyBytes = 64 * 1024
        let page = Array(("<html><head></head><body>" + String(repeating: "<div>text</div>", count: 100_000)).utf8)
        let m = MetadataExtractor.extract(html: page, pageURL: nil, limits: limits)
        #expect(m.bytesParsed < 200_000)
        #expect(m.title == nil)
        // Script text, which libxml2 never sees, counts too.
        let script = Array(("<html><head></head><body><script>" + String(repeating: "x", count: 1_000_000)).utf8)
        #expect(MetadataExtractor.extract(html: script, pageURL: nil, limits: limits).bytesParsed < 200_000)
    }
}

@Suite("Bad input")
struct BadInputTests {
    enum Shape: String, CaseIterable, Sendable {
        case empty, unterminated, hugeAttribute, manyMetas, deepNesting, nulBytes, invalidUTF8, binary

        var bytes: [UInt8] {
            switch self {
            case .empty: return []
            case .unterminated: return Array(#"<html><head><meta property="og:title" content="Open <title>Half"#.utf8)
            case .hugeAttribute:
                return Array(
                    ("<meta property=\"og:title\" content=\"" + String(repeating: "x", count: 1_000_000) + "\">").utf8)
            case .manyMetas:
                return Array(
                    ("<head>" + String(repeating: "<meta name=\"k\" content=\"v\">", count: 100_000)
                        + "<meta property=\"og:title\" content=\"late\"></head>").utf8)
            case .deepNesting: return Array((String(repeating: "<div>", count: 100_000) + "<h1>deep</h1>").utf8)
            case .nulBytes: return Array("<title>a".utf8) + [0, 0] + Array("b</title>".utf8)
            case .invalidUTF8:
                return Array("<meta charset=utf-8><title>ok ".utf8) + [0xFF, 0xFE, 0xC3] + Array("</title>".utf8)
            case .binary: return (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
            }
        }
    }

    @Test(arguments: Shape.allCases)
    func neverCrashesAndStaysWithinCaps(_ shape: Shape) async throws {
        try await onThreadOfItsOwn {
            let m = MetadataExtractor.extract(html: shape.bytes, pageURL: "https://example.com/")
            #expect((m.title?.count ?? 0) <= ExtractionLimits.default.maxTitleLength)
            #expect(m.openGraph.count <= ExtractionLimits.default.maxMetaTags)
            for url in [m.image, m.url].compactMap({ $0 }) { #expect(url.hasPrefix("http")) }
            switch shape {
            case .unterminated: #expect(m.title == "Open <title>Half" || m.title == nil)
            case .hugeAttribute: #expect(m.title?.hasSuffix("…") == true)
            case .manyMetas: #expect(m.title == nil, "metas past the cap are not kept")
            case .deepNesting: #expect(m.title == "deep" || m.title == nil)
            case .nulBytes: #expect(m.title != nil)
            default: break
            }
        }
    }

    @Test func manyParsersAtOnce() async {
        let page = bytes("og/" + OGCase.load()[0].file)
        let expected = MetadataExtractor.extract(html: page, pageURL: "https://example.com/")
        await withTaskGroup(of: PageMetadata.self) { group in
            for _ in 0..<64 {
                group.addTask { MetadataExtractor.extract(html: page, pageURL: "https://example.com/") }
            }
            for await m in group { #expect(m == expected) }
        }
    }
}
