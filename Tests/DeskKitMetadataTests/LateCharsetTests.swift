import DeskKitMetadata
import Testing

/// The HTML standard's "change the encoding": a page whose encoding was only a guess, and whose head
/// declares another one after the bytes the guess looked at (a shop page's `<meta charset="gbk">` behind
/// 150 KB of scripts), is read again in the declared encoding.
@Suite("Late charset declarations")
struct LateCharsetTests {
    /// `<head>`, `filler` bytes of inline script, then `late` (a `<meta>`), a title in `title` bytes.
    static func page(filler: Int, late: String, title: [UInt8], body: [UInt8] = []) -> [UInt8] {
        var page = Array("<!doctype html><html><head><script>var x = \"".utf8)
        page += Array(repeating: UInt8(ascii: "a"), count: filler)
        page += Array("\";</script>\(late)<title>".utf8) + title + Array("</title></head><body><p>".utf8)
        return page + body + Array("</p></body></html>".utf8)
    }

    static let gbkTitle: [UInt8] = [0xD6, 0xD0, 0xCE, 0xC4, 0xB1, 0xEA, 0xCC, 0xE2]  // 中文标题

    /// The whole page at once, and in chunks of every size given: the same answer.
    static func extract(_ html: [UInt8], chunks: [Int] = [1000, 4096, 65536, 1 << 20]) -> [PageMetadata] {
        var results = [MetadataExtractor.extract(html: html, pageURL: "https://shop.example/")]
        for size in chunks {
            let parser = HTMLMetadataParser(pageURL: "https://shop.example/")
            var at = 0
            while at < html.count, !parser.feed(html[at..<min(html.count, at + size)]) { at += size }
            results.append(parser.finish())
        }
        return results
    }

    @Test(arguments: [
        #"<meta charset="gbk">"#, #"<meta http-equiv="Content-Type" content="text/html; charset=GB2312">"#,
    ])
    func aLateDeclarationDecodesThePageAgain(_ late: String) {
        for m in Self.extract(Self.page(filler: 150_000, late: late, title: Self.gbkTitle)) {
            #expect(m.title == "中文标题")
            #expect(m.charset.name == "GBK")
            #expect(m.charset.source == .meta)
        }
    }

    @Test func aDeclarationInTheWindowIsNotLate() {
        for m in Self.extract(Self.page(filler: 2_000, late: #"<meta charset="gbk">"#, title: Self.gbkTitle)) {
            #expect(m.title == "中文标题")
            #expect(m.charset.source == .meta)
        }
    }

    @Test func aGuessTheBytesConfirmStandsAgainstALateDeclarationTheyContradict() {
        // Valid UTF-8 with multi-byte characters before the declaration: UTF-8 stays, as at the start.
        let html = Self.page(
            filler: 100_000, late: #"<meta charset="windows-1251">"#, title: Array("Ünïcödé ✓".utf8))
        var withText = html
        withText.insert(contentsOf: Array("<!-- déjà vu -->".utf8), at: 15)
        for m in Self.extract(withText) {
            #expect(m.title == "Ünïcödé ✓")
            #expect(m.charset.name == "UTF-8")
        }
        // An encoding the bytes so far are invalid in is not switched to either.
        var invalid = Self.page(filler: 100_000, late: #"<meta charset="shift_jis">"#, title: [0x41])
        invalid.insert(contentsOf: [0x3C, 0x21, 0x2D, 0x2D, 0x82, 0xFF, 0x2D, 0x2D, 0x3E], at: 15)
        for m in Self.extract(invalid) { #expect(m.charset.source != .meta) }
    }

    /// The declaration is judged on the page up to the slice libxml2 found it in, never on what follows:
    /// bytes far behind it that the declared encoding cannot read (here 20 KB no GBK text has) change
    /// nothing, whether they arrived before the declaration was seen (the whole page at once) or after
    /// (a page streamed in small chunks). A fuzzer found the two disagreeing.
    @Test func bytesFarAfterTheDeclarationDoNotJudgeIt() {
        let body = Array(repeating: UInt8(ascii: "a"), count: 60_000) + Array(repeating: 0xFF, count: 20_000)
        let html = Self.page(filler: 100_000, late: #"<meta charset="gbk">"#, title: Self.gbkTitle, body: body)
        for m in Self.extract(html, chunks: [7, 300, 1000, 4096, 65536]) {
            #expect(m.title == "中文标题")
            #expect(m.charset.name == "GBK")
        }
    }

    @Test func aDeclarationAfterTheHeadChangesNothing() {
        let html = Self.page(
            filler: 100_000, late: "", title: Array("Plain".utf8), body: Array(#"<meta charset="gbk">"#.utf8))
        for m in Self.extract(html) {
            #expect(m.title == "Plain")
            #expect(m.charset.source != .meta)
        }
    }

    @Test func aDeclaredHTTPCharsetIsNeverChanged() {
        let html = Self.page(filler: 100_000, late: #"<meta charset="gbk">"#, title: Array("Plain".utf8))
        let m = MetadataExtractor.extract(
            html: html, pageURL: nil, contentType: "text/html; charset=windows-1252")
        #expect(m.charset.source == .httpHeader)
        #expect(m.charset.name == "WINDOWS-1252")
    }
}
