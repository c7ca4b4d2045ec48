import DeskKitLinks
import Testing

/// The rules of where links begin and end in chat text, one test a rule, from cases of our own.
@Suite("Link rules")
struct LinkRuleTests {
    @Test(arguments: [
        ("look:(example.net/x)then", "example.net/x"),
        ("asd(example.net/docs)asd", "example.net/docs"),
        ("https://example.com/a]b", "https://example.com/a"),
        ("https://example.com/a}b", "https://example.com/a"),
        ("https://example.com/wiki/A_(B_(C))", "https://example.com/wiki/A_(B_(C))"),
        ("https://example.com/a[0][1]", "https://example.com/a[0][1]"),
        ("https://example.com/(", "https://example.com/"),
        ("https://example.com/(.", "https://example.com/"),
        ("https://example.com/a(b)[", "https://example.com/a(b)"),
        ("https://example.com/(open", "https://example.com/(open"),
    ])
    func bracketsTheLinkDidNotOpenEndIt(_ text: String, _ link: String) {
        #expect(texts(text) == [link], "\(text)")
    }

    @Test func aMarkdownLinkIsTwoLinks() {
        #expect(
            texts("[https://example.com/x](https://example.com/y)") == [
                "https://example.com/x", "https://example.com/y",
            ])
    }

    @Test(arguments: [
        ("<a href=\"https://example.com/(\"onclick=\"alert(1)\")\">", "https://example.com/"),
        ("https://example.com/\"quoted\"", "https://example.com/"),
        ("https://example.com/x=\"1\"", "https://example.com/x="),
        ("https://example.com/name_\"nick\"", "https://example.com/name_\"nick\""),
        ("https://example.com/a<b", "https://example.com/a"),
        ("https://example.com/Bob's_page", "https://example.com/Bob's_page"),
        ("'https://example.com/Bob's'", "https://example.com/Bob's"),
        ("https://example.com/x'.", "https://example.com/x"),
    ])
    func quotes(_ text: String, _ link: String) {
        #expect(texts(text) == [link], "\(text)")
    }

    @Test(arguments: [
        ("*https://example.com/a*", "https://example.com/a"),
        ("**https://example.com/a**", "https://example.com/a"),
        ("https://example.com/*/a", "https://example.com/*/a"),
        ("~~old https://example.com/a~~ new", "https://example.com/a"),
        ("_see https://example.com/a_", "https://example.com/a"),
        ("~https://example.com/a~", "https://example.com/a"),
        ("see https://example.com/a_", "https://example.com/a_"),
        ("snake_case https://example.com/a_", "https://example.com/a_"),
        ("https://example.com/~user~", "https://example.com/~user~"),
        ("https://example.com/?q=a&amp;", "https://example.com/?q=a"),
        ("https://example.com/?q=a&hl;", "https://example.com/?q=a"),
        ("https://example.com/?q=a&hl=en", "https://example.com/?q=a&hl=en"),
        ("https://example.com/?q=a&;", "https://example.com/?q=a&"),
    ])
    func emphasisAndEntitiesAroundLinks(_ text: String, _ link: String) {
        #expect(texts(text) == [link], "\(text)")
    }

    @Test(arguments: [
        ("http://nick.is.awesome/?q=1", "http://nick.is.awesome/?q=1"),
        ("ftp://files.example.internal.", "ftp://files.example.internal"),
        ("https://build.ci.example.dev/job/7 done", "https://build.ci.example.dev/job/7"),
        ("http://www.example.comだよね", "http://www.example.com"),
    ])
    func afterASchemeTheWholeHostIsTheHost(_ text: String, _ link: String) {
        #expect(texts(text) == [link], "\(text)")
    }

    @Test(arguments: [
        ("write to ann..lee@example.org", "lee@example.org"),
        ("(.ann@example.org)", "ann@example.org"),
        ("ann+support@example.org", "ann+support@example.org"),
        ("o'neil@example.org", "o'neil@example.org"),
        ("'ann@example.org'", "ann@example.org"),
        ("zoë@example.org", "zoë@example.org"),
        ("連絡先ann@example.org", "ann@example.org"),
        ("mailto:ann@example.org?subject=Order%2042&body=Hi", "mailto:ann@example.org?subject=Order%2042&body=Hi"),
        ("(mailto:ann@example.org?subject=Hi)", "mailto:ann@example.org?subject=Hi"),
    ])
    func emailLocalParts(_ text: String, _ link: String) {
        #expect(texts(text) == [link], "\(text)")
    }

    @Test func aLocalPartStartsWithALetterNotACombiningMark() {
        let links = LinkDetector().links(in: "\u{09BE}\u{09B0}e@example.com")
        #expect(links.map(\.text) == ["\u{09B0}e@example.com"])
        #expect(links.allSatisfy { $0.href.hasPrefix("mailto:") })
    }

    @Test func aLocalPartEndingInADotIsNotAnAddress() {
        #expect(texts("ann.@example.org") == [])
        #expect(texts(".@example.org") == [])
    }

    @Test(arguments: [
        ("https://ko.wikipedia.org/wiki/서울특별시", "https://ko.wikipedia.org/wiki/서울특별시"),
        ("https://ja.wikipedia.org/wiki/トヨタ自動車", "https://ja.wikipedia.org/wiki/トヨタ自動車"),
        ("https://example.com/search?q=부산&page=2", "https://example.com/search?q=부산&page=2"),
        ("https://example.com/#カタカナ", "https://example.com/#カタカナ"),
        ("https://example.com/guideをご覧ください", "https://example.com/guide"),
        ("https://example.com/をご覧ください", "https://example.com/"),
        ("https://example.com/abc서울", "https://example.com/abc"),
        ("https://ja.wikipedia.org/wiki/トヨタ自動車をご覧ください", "https://ja.wikipedia.org/wiki/トヨタ自動車"),
        ("https://th.wikipedia.org/wiki/ประเทศไทย", "https://th.wikipedia.org/wiki/ประเทศไทย"),
        ("https://ar.wikipedia.org/wiki/القاهرة", "https://ar.wikipedia.org/wiki/القاهرة"),
        ("https://ru.wikipedia.org/wiki/Санкт-Петербург", "https://ru.wikipedia.org/wiki/Санкт-Петербург"),
        ("https://el.wikipedia.org/wiki/Θεσσαλονίκη", "https://el.wikipedia.org/wiki/Θεσσαλονίκη"),
        ("https://hi.wikipedia.org/wiki/दिल्ली", "https://hi.wikipedia.org/wiki/दिल्ली"),
        ("https://ko.wikipedia.org/wiki/%EC%84%9C%EC%9A%B8", "https://ko.wikipedia.org/wiki/%EC%84%9C%EC%9A%B8"),
    ])
    func pathSegmentsInOtherScripts(_ text: String, _ link: String) {
        #expect(texts(text) == [link], "\(text)")
    }

    @Test func protocolRelativeLinksCanBeTurnedOff() {
        #expect(texts("see //cdn.example.com/a.js") == ["//cdn.example.com/a.js"])
        #expect(texts("see //cdn.example.com/a.js", .init(protocolRelative: false)) == [])
        #expect(
            texts("see https://cdn.example.com/a.js", .init(protocolRelative: false)) == [
                "https://cdn.example.com/a.js"
            ])
    }

    @Test func pipesInPathsAreAnOption() {
        #expect(texts("https://example.com/a|b") == ["https://example.com/a"])
        #expect(texts("https://example.com/a|b", .init(pipesInPaths: true)) == ["https://example.com/a|b"])
        #expect(texts("<https://example.com/a|label>", .init(pipesInPaths: true)) == ["https://example.com/a"])
    }

    @Test func localhostIsAnOption() {
        let text = "dev server on localhost:3000/admin and localhost:8080, not localhost or mylocalhost:1"
        #expect(texts(text) == [])
        let links = LinkDetector(options: .init(localhost: true)).links(in: text)
        #expect(links.map(\.text) == ["localhost:3000/admin", "localhost:8080"])
        #expect(links.map(\.href) == ["http://localhost:3000/admin", "http://localhost:8080"])
        #expect(texts("localhost:99999", .init(localhost: true)) == [])
    }
}
