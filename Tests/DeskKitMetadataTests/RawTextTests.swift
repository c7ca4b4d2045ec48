import DeskKitMetadata
import Testing
import DeskKitTestSupport

/// Script and style text never reaches libxml2; everything around it still does, exactly as before.
@Suite("Script and style text")
struct RawTextTests {
    /// Extracts `html` in one piece and cut in two at every byte (at 50 places on a long page), and
    /// expects the same metadata each way.
    func extractEveryWay(_ html: String) -> PageMetadata {
        let page = Array(html.utf8)
        let whole = MetadataExtractor.extract(html: page, pageURL: "https://example.com/")
        for cut in stride(from: 1, to: page.count, by: page.count < 2_000 ? 1 : page.count / 50) {
            let parser = HTMLMetadataParser(pageURL: "https://example.com/")
            parser.feed(page[..<cut])
            parser.feed(page[cut...])
            var m = parser.finish()
            m.bytesParsed = whole.bytesParsed
            m.stoppedEarly = whole.stoppedEarly
            #expect(m == whole, "cut at \(cut)")
        }
        return whole
    }

    @Test func scriptTextIsNotAParagraphsText() {
        let m = extractEveryWay(
            #"<head><title>T</title></head><body><h1>H</h1><p>Hello <script>var a = "</p>"; if (a < b) {}</script>world"#
                + #"<style>p > a { color: red }</style>!</p></body>"#)
        #expect(m.description == "Hello world!")
    }

    @Test func metadataAfterHugeInlineScripts() async throws {
        try await onThreadOfItsOwn {
            let script =
                "<script>" + String(repeating: "window.x = '<div>' + \"</p>\" < 3;\n", count: 40_000) + "</SCRIPT>"
            let m = extractEveryWay(
                "<head>" + script + "<style>" + String(repeating: "a{}", count: 30_000) + "</style >"
                    + #"<meta property="og:title" content="After the scripts"></head>"#)
            #expect(m.title == "After the scripts")
            #expect(m.bytesParsed > 1_000_000)
        }
    }

    @Test func jsonLDScriptsAreKept() {
        let m = extractEveryWay(
            #"<head><SCRIPT TYPE='Application/LD+JSON'>{"@type":"Article","headline":"From LD"}</script></head>"#)
        #expect(m.title == "From LD")
    }

    @Test func scriptsInCommentsAndAttributesAreNotScripts() {
        let m = extractEveryWay(
            #"<head><!-- <script> --><meta name="x" content="<script>"><meta name='y' content='<style>'>"#
                + #"<!--- -> <script> --!><meta property="og:title" content="Seen"><?pi <script>?></head>"#)
        #expect(m.title == "Seen")
    }

    @Test func anEmptyScriptElementHasNoText() {
        // libxml2 2.9 takes `<script/>` for an empty element: what follows is markup, not script text.
        let m = extractEveryWay(#"<head><script src="a.js"/><meta property="og:title" content="After"></head>"#)
        #expect(m.title == "After")
    }

    @Test func anUnterminatedScriptReadsToTheEnd() {
        let page = Array(("<head><title>T</title><script>" + String(repeating: "x", count: 100_000)).utf8)
        let m = MetadataExtractor.extract(html: page, pageURL: nil)
        #expect(m.title == "T")
        #expect(m.bytesParsed == page.count)
    }

    @Test func utf16PagesAreReadWhole() {
        // No byte scanning where `<` is not one byte: the page reaches libxml2 untouched.
        let html = "<head><script>var s = '</p>';</script><title>Sixteen</title></head>"
        let page: [UInt8] = [0xFF, 0xFE] + html.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(MetadataExtractor.extract(html: page, pageURL: nil).title == "Sixteen")
    }
}
