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
        Page(
            file: "iso-8859-1-meta", contentType: nil, title: "Café “Müller” – Straße", charset: "WINDOWS-1252",
            source: .meta),
        Page(
            file: "utf-16le-bom", contentType: nil, title: "UTF-16 страница ✓", charset: "UTF-16LE",
            source: .byteOrderMark),
        Page(
            file: "utf-16be-bom", contentType: "text/html; charset=iso-8859-1", title: "UTF-16 big end ✓",
            charset: "UTF-16BE", source: .byteOrderMark),
        Page(
            file: "utf-8-lying-windows-1251", contentType: nil, title: "Правдивый UTF-8", charset: "UTF-8",
            source: .utf8OverDeclaration),
        Page(
            file: "undeclared-latin1", contentType: nil, title: "Crème brûlée à la carte", charset: "WINDOWS-1252",
            source: .detected),
        Page(
            file: "undeclared-utf-8", contentType: "text/html", title: "Ünïcödé ✓ 日本", charset: "UTF-8",
            source: .detectedUTF8),
        Page(
            file: "utf-8-bom-over-meta", contentType: nil, title: "BOM wins: ü", charset: "UTF-8",
            source: .byteOrderMark),
        Page(
            file: "meta-in-comment-ignored", contentType: nil, title: "Crème", charset: "WINDOWS-1252",
            source: .detected),
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

    /// A page in a legacy encoding whose declarations are missing or lie (written by iconv in
    /// `Scripts/make-charset-pages.py`), with what the tests read back.
    struct Legacy: Sendable, CustomStringConvertible {
        let slug: String
        let title: String
        let summary: String
        /// The name the page is read with (uchardet's answer for GBK pages is GB18030, its superset).
        let detected: String
        var declared: String { slug == "gbk" ? "GBK" : detected }
        var description: String { slug }
    }

    static let legacy: [Legacy] = [
        .init(
            slug: "shift_jis", title: "トヨタ自動車の新型車が発表されました",
            summary: "東京で開かれた記者会見で、同社の社長は新しい電気自動車の販売計画について説明しました。", detected: "CP932"),
        .init(
            slug: "euc-jp", title: "日本経済新聞の今日のニュース",
            summary: "政府は来年度の予算案について、社会保障費の増加を抑えるための新しい方針を決定しました。", detected: "EUC-JP"),
        .init(
            slug: "gbk", title: "淘宝网 女装夏季新款连衣裙",
            summary: "本店销售各种时尚女装，质量保证，价格优惠，欢迎选购。全场包邮，七天无理由退换货。", detected: "GB18030"),
        .init(
            slug: "gb18030", title: "中国青年网 教育频道新闻",
            summary: "海外留学生看两会：出国前后关注点大不同，很多学生表示更加关心就业和教育政策。", detected: "GB18030"),
        .init(
            slug: "big5", title: "台灣新聞網 今日頭條",
            summary: "行政院今天召開會議，討論颱風過後的災後重建工作，並宣布將提供補助給受災民眾。", detected: "BIG5-HKSCS"),
        .init(
            slug: "euc-kr", title: "서울시 새 교통 정책 발표",
            summary: "서울시는 오늘 대중교통 요금 인상 계획을 발표했습니다. 시민들의 의견을 수렴할 예정입니다.", detected: "CP949"),
        .init(
            slug: "windows-1251", title: "Новости дня: главное за сутки",
            summary: "Сегодня в Москве прошло заседание правительства, на котором обсуждались вопросы бюджета.",
            detected: "WINDOWS-1251"),
        .init(
            slug: "koi8-r", title: "Погода в Санкт-Петербурге на неделю",
            summary: "Синоптики обещают дожди и сильный ветер, температура воздуха опустится до пяти градусов.",
            detected: "KOI8-R"),
    ]

    /// How a legacy page comes: what declares its charset, and what the decision must be.
    enum Scenario: String, CaseIterable, Sendable {
        /// Nothing declares: detected.
        case undeclared
        /// The header says UTF-8, the page's meta is right: the meta wins over the lying header.
        case lyingHeaderRightMeta
        /// The header says UTF-8 and nothing else declares: detected.
        case lyingHeader
        /// The meta says UTF-8 and nothing else declares: detected.
        case lyingMeta

        var file: String {
            switch self {
            case .undeclared: "undeclared"
            case .lyingHeaderRightMeta: "lying-header"
            case .lyingHeader, .lyingMeta: "lying-meta"
            }
        }
        var contentType: String? {
            self == .lyingHeader || self == .lyingHeaderRightMeta ? "text/html; charset=UTF-8" : nil
        }
        var source: CharsetDecision.Source { self == .lyingHeaderRightMeta ? .meta : .detected }
        var declared: String? { self == .undeclared ? nil : "UTF-8" }
    }

    @Test(arguments: legacy, Scenario.allCases)
    func legacyPagesWhoseDeclarationsAreMissingOrLie(_ page: Legacy, _ scenario: Scenario) {
        let m = MetadataExtractor.extract(
            html: bytes("charsets/\(scenario.file)-\(page.slug).html"), pageURL: nil, contentType: scenario.contentType)
        #expect(m.title == page.title)
        #expect(m.description == page.summary)
        #expect(m.charset.name == (scenario == .lyingHeaderRightMeta ? page.declared : page.detected))
        #expect(m.charset.source == scenario.source)
        #expect(m.charset.declared == scenario.declared)
    }

    @Test func aMultiByteDeclarationContradictedByTheBytesGivesWayToDetection() {
        let m = MetadataExtractor.extract(html: bytes("charsets/gbk-declared-shift_jis.html"), pageURL: nil)
        #expect(m.title == "淘宝网 女装夏季新款连衣裙")
        #expect(m.charset.name == "GB18030")
        #expect(m.charset.source == .detected)
        #expect(m.charset.declared == "CP932")
    }

    @Test func aStrayInvalidByteDoesNotOverruleAUTF8Declaration() {
        // One character cut by a CMS among many valid ones: still UTF-8, as declared.
        var html = Array("<html><head><meta charset=utf-8><title>Überschrift für Straßen und Plätze".utf8)
        html += [0xC3]
        html += Array(" in München, Köln, Düsseldorf</title></head></html>".utf8)
        let m = MetadataExtractor.extract(html: html, pageURL: nil)
        #expect(m.charset.name == "UTF-8")
        #expect(m.charset.source == .meta)
        #expect(m.title?.hasPrefix("Überschrift für Straßen") == true)
    }

    @Test func scriptCharsetAttributesDeclareNothing() {
        let html = Array(
            #"<html><head><script charset="shift_jis" src="/a.js"></script><title>plain ascii</title></head></html>"#
                .utf8)
        let m = MetadataExtractor.extract(html: html, pageURL: nil)
        #expect(m.charset.name == "UTF-8")
        #expect(m.charset.source == .detectedUTF8)
    }
}
