import DeskKitMetadata
import Testing

@Suite("Charsets")
struct CharsetTests {
    struct Page: Sendable, CustomStringConvertible {
        let file: String
        let contentType: String?
        let title: String
        let charset: String
        let source: CharsetDecision.Source
        var description: String { file }
    }

    @Test(arguments: [
        Page(file: "shift_jis-meta-late", contentType: nil, title: "日本語のタイトル：テスト", charset: "CP932", source: .meta),
        Page(file: "euc-jp-http-equiv", contentType: nil, title: "日本語のページ", charset: "EUC-JP", source: .meta),
        Page(file: "gbk-gb2312-label", contentType: nil, title: "中文标题测试", charset: "GBK", source: .meta),
        Page(
            file: "windows-1251-http-only", contentType: "text/html; charset=windows-1251", title: "Привет, мир",
            charset: "WINDOWS-1251", source: .httpHeader),
        Page(file: "koi8-r-meta", contentType: nil, title: "Заголовок страницы", charset: "KOI8-R", source: .meta),
        Page(file: "iso-8859-1-meta", contentType: nil, title: "Café “Müller” – Straße", charset: "WINDOWS-1252", source: .meta),
        Page(file: "utf-16le-bom", contentType: nil, title: "UTF-16 страница ✓", charset: "UTF-16LE", source: .byteOrderMark),
        Page(file: "utf-16be-bom", contentType: "text/html; charset=iso-8859-1", title: "UTF-16 big end ✓", charset: "UTF-16BE", source: .byteOrderMark),
        Page(
            file: "utf-8-lying-windows-1251", contentType: nil, title: "Правдивый UTF-8", charset: "UTF-8",
            source: .utf8OverDeclaration),
        Page(file: "undeclared-latin1", contentType: nil, title: "Crème brûlée à la carte", charset: "WINDOWS-1252", source: .fallback),
        Page(file: "undeclared-utf-8", contentType: "text/html", title: "Ünïcödé ✓ 日本", charset: "UTF-8", source: .detectedUTF8),
        Page(file: "utf-8-bom-over-meta", contentType: nil, title: "BOM wins: ü", charset: "UTF-8", source: .byteOrderMark),
        Page(file: "meta-in-comment-ignored", contentType: nil, title: "Crème", charset: "WINDOWS-1252", source: .fallback),
    ])
    func readsThePageInItsCharset(_ page: Page) {
        let m = MetadataExtractor.extract(
            html: bytes("charsets/\(page.file).html"), pageURL: "https://example.com/", contentType: page.contentType)
        #expect(m.title == page.title)
        #expect(m.charset.name == page.charset)
        #expect(m.charset.source == page.source)
    }

    @Test func httpHeaderBeatsMeta() {
        let m = MetadataExtractor.extract(
            html: bytes("charsets/koi8-r-meta.html"), pageURL: nil, contentType: "text/html; charset=\"KOI8-R\"")
        #expect(m.charset.source == .httpHeader)
        #expect(m.title == "Заголовок страницы")
    }

    @Test func unknownLabelsFallBackToDetection() {
        let html = Array(#"<html><head><meta charset="x-klingon"><title>plain</title></head></html>"#.utf8)
        let m = MetadataExtractor.extract(html: html, pageURL: nil)
        #expect(m.charset.source == .detectedUTF8)
        #expect(m.title == "plain")
    }
}
