import DeskKitLinks
import DeskKitTestSupport
import DeskKitURL
import Testing

func texts(_ text: String, _ options: LinkDetector.Options = .default) -> [String] {
    LinkDetector(options: options).links(in: text).map(\.text)
}

@Suite("Where a link ends")
struct LinkEndTests {
    @Test(arguments: [
        ("See https://example.com/a.", "https://example.com/a"),
        ("https://example.com/a, then", "https://example.com/a"),
        ("https://example.com/a; then", "https://example.com/a"),
        ("Is it https://example.com/a?", "https://example.com/a"),
        ("Wow https://example.com/a!!!", "https://example.com/a"),
        ("at https://example.com/a: yes", "https://example.com/a"),
        ("'https://example.com/a'", "https://example.com/a"),
        ("\"https://example.com/a\"", "https://example.com/a"),
        ("(https://example.com/a)", "https://example.com/a"),
        ("[https://example.com/a]", "https://example.com/a"),
        ("{https://example.com/a}", "https://example.com/a"),
        ("<https://example.com/a>", "https://example.com/a"),
        (
            "https://en.wikipedia.org/wiki/Swift_(programming_language)",
            "https://en.wikipedia.org/wiki/Swift_(programming_language)"
        ),
        ("(see https://en.wikipedia.org/wiki/Swift_(language))", "https://en.wikipedia.org/wiki/Swift_(language)"),
        ("https://example.com/a[1]/b{2}", "https://example.com/a[1]/b{2}"),
        ("看这个（https://example.com/a）", "https://example.com/a"),
        ("https://example.com/a。次", "https://example.com/a"),
        ("https://example.com/a，好", "https://example.com/a"),
        ("https://example.com/a、b", "https://example.com/a"),
        ("「https://example.com/a」", "https://example.com/a"),
        ("『https://example.com/a』", "https://example.com/a"),
        ("https://example.com/a！", "https://example.com/a"),
        ("https://example.com/a？", "https://example.com/a"),
        ("https://example.com/a：", "https://example.com/a"),
        ("https://example.com/a；", "https://example.com/a"),
        ("<https://example.com/a|Example>", "https://example.com/a"),
        ("<https://example.com/?q=1|Example>", "https://example.com/?q=1"),
        ("https://example.com/a|label", "https://example.com/a"),
        ("https://example.com/?a=1|2", "https://example.com/?a=1|2"),
        ("[label|https://jira.example.com/browse/X-1]", "https://jira.example.com/browse/X-1"),
        ("`https://example.com/code`", "https://example.com/code"),
        ("https://ja.wikipedia.org/wiki/東京です", "https://ja.wikipedia.org/wiki/東京"),
        ("https://example.com/pathです", "https://example.com/path"),
    ])
    func endsWhereItShould(_ text: String, _ link: String) {
        #expect(texts(text) == [link])
    }
}

@Suite("What is not a link")
struct NotALinkTests {
    @Test(arguments: [
        "README.md", "see setup.py", "main.swift", "edit lib.rs and Makefile.mk", "unzip report.zip",
        "version 1.2.3", "v2.0.1", "1.2.3.4.5", "144.2 MB", "example.invalid", "foo.test", "node.js",
        "index.html", "e.g. this", "i.e. that", "mr.smith", "3.14159", "@mention.com", "#hashtag.com", "$TSLA.US",
        "http://", "https://.", "http://-bad.com", "//", "a..b.com", "google.com:500000", "foo@bar",
        "http://google.com@evil.com/",
    ])
    func isNotLinked(_ text: String) {
        #expect(texts(text) == [], "\(text)")
    }

    @Test func fileNamesWithAPathSchemeOrWWWAreLinks() {
        #expect(texts("docs.rs/serde") == ["docs.rs/serde"])
        #expect(texts("https://docs.rs") == ["https://docs.rs"])
        #expect(texts("www.example.md") == ["www.example.md"])
        #expect(texts("gov.py.example.com.py") == ["gov.py.example.com.py"])
    }

    @Test func anEmailInsideAURLIsNotCountedTwice() {
        let links = LinkDetector().links(in: "https://example.com/u/bob@example.com and bob@example.com")
        #expect(links.map(\.text) == ["https://example.com/u/bob@example.com", "bob@example.com"])
        #expect(links.map(\.kind) == [.url, .email])
    }
}

@Suite("Link values")
struct LinkValueTests {
    @Test func normalisesHrefs() {
        let links = LinkDetector().links(
            in: "EXAMPLE.com/A HTTP://Example.COM/B //cdn.example.com/x bob@example.com mailto:Ann@Example.com")
        #expect(
            links.map(\.href) == [
                "https://example.com/A", "http://example.com/B", "https://cdn.example.com/x", "mailto:bob@example.com",
                "mailto:Ann@example.com",
            ])
    }

    @Test func idnHostsStayReadableWithPunycodeAvailable() {
        let link = LinkDetector().links(in: "see https://münchen.de/straße and президент.рф")
        #expect(link.map(\.href) == ["https://münchen.de/straße", "https://президент.рф"])
        #expect(
            link.map(\.asciiHref) == ["https://xn--mnchen-3ya.de/stra%C3%9Fe", "https://xn--d1abbgf6aiiy.xn--p1ai"])
        #expect(Punycode.encode("bücher") == "bcher-kva")
        #expect(Punycode.asciiHost("例え.テスト") == "xn--r8jz45g.xn--zckzah")
    }

    @Test func rangesInScalarsAndUTF16() {
        let text = "👋🏽 café → https://example.com/ü ok"
        let link = LinkDetector().links(in: text)[0]
        let scalars = Array(text.unicodeScalars)
        #expect(String(String.UnicodeScalarView(scalars[link.range])) == "https://example.com/ü")
        let utf16 = Array(text.utf16)
        #expect(String(decoding: utf16[link.utf16Range], as: UTF16.self) == "https://example.com/ü")
        #expect(link.range == 10..<31)
        #expect(link.utf16Range == 12..<33)
    }

    @Test func kinds() {
        let links = LinkDetector().links(in: "ftp://files.example.org/a user@example.org mailto:x@y.org")
        #expect(links.map(\.kind) == [.url, .email, .email])
    }
}

@Suite("Options")
struct LinkOptionTests {
    let text = "example.com www.example.org https://a.example.net bob@example.com 10.1.2.3/x ssh://host.example.com/x"

    @Test func defaults() {
        #expect(texts(text) == ["example.com", "www.example.org", "https://a.example.net", "bob@example.com"])
    }

    @Test func noBareDomainsKeepsWWWAndSchemes() {
        #expect(
            texts(text, .init(bareDomains: false)) == ["www.example.org", "https://a.example.net", "bob@example.com"])
    }

    @Test func noEmails() {
        #expect(texts(text, .init(emails: false)) == ["example.com", "www.example.org", "https://a.example.net"])
    }

    @Test func ipHostsAndAnyScheme() {
        #expect(texts(text, .init(ipHosts: true)).contains("10.1.2.3/x"))
        #expect(texts(text, .init(anyScheme: true)).contains("ssh://host.example.com/x"))
        #expect(!texts(text).contains("ssh://host.example.com/x"))
    }

    /// Only what is written with a scheme: no `www.`, bare domains, `//host`, `localhost:PORT` or address
    /// without `mailto:` — whatever the other options say.
    @Test func requireSchemeLinksOnlyWhatIsWrittenWithAScheme() {
        let options = LinkDetector.Options(ipHosts: true, localhost: true, requireScheme: true)
        #expect(texts(text, options) == ["https://a.example.net"])
        let mixed =
            "see //cdn.example.com/a, localhost:8080, HTTP://Example.com/x, mailto:ann@example.com?subject=hi, "
            + "ftp://files.example.net/x.zip and www.example.biz or www.foo-bar.com"
        #expect(
            texts(mixed, options) == [
                "HTTP://Example.com/x", "mailto:ann@example.com?subject=hi", "ftp://files.example.net/x.zip",
            ])
        var any = options
        any.anyScheme = true
        #expect(texts("ssh://host.example.com/x and example.com", any) == ["ssh://host.example.com/x"])
        let links = LinkDetector(options: options).links(in: "mailto:ann@example.com")
        #expect(links.map(\.kind) == [.email] && links.map(\.href) == ["mailto:ann@example.com"])
    }

    @Test func strictHostsNeedAKnownTLD() {
        #expect(
            texts("http://intranet/wiki http://localhost:8080") == ["http://intranet/wiki", "http://localhost:8080"])
        #expect(
            texts("http://intranet/wiki http://localhost:8080", .init(strictHosts: true)) == ["http://localhost:8080"])
    }
}

@Suite("Hostile input")
struct HostileInputTests {
    @Test func invalidUTF8ThroughTheByteAPI() {
        let bytes: [UInt8] =
            Array("x ".utf8) + [0xFF, 0xC3] + Array("example.com/a".utf8) + [0xE2, 0x82] + Array(" y".utf8)
        let links = bytes.withUnsafeBufferPointer { LinkDetector().links(utf8: $0) }
        #expect(links.map(\.text) == ["example.com/a"])
        #expect(links[0].utf8Range == 4..<17)
        #expect(links[0].range == 4..<17)
    }

    enum Hostile: String, CaseIterable, Sendable {
        case noSpaces, dots, labels, ats, schemes, brackets, trailingDots

        var text: String {
            switch self {
            case .noSpaces: return String(repeating: "a", count: 1_000_000)
            case .dots: return String(repeating: ".", count: 1_000_000)
            case .labels: return String(repeating: "a.", count: 500_000)
            case .ats: return String(repeating: "a@", count: 500_000)
            case .schemes: return String(repeating: "http://", count: 100_000)
            case .brackets:
                return String(repeating: "(", count: 500_000) + "http://example.com/"
                    + String(repeating: ")", count: 500_000)
            case .trailingDots: return "http://example.com/" + String(repeating: ".", count: 1_000_000)
            }
        }
    }

    /// A million bytes of each shape finish (the benchmark measures how fast) with sound answers. Seconds of CPU
    /// for the seven: detected on a thread of their own (`onThreadOfItsOwn`), asserted on the test's task.
    @Test(arguments: Hostile.allCases)
    func largeHostileInput(_ shape: Hostile) async throws {
        let (links, count) = try await onThreadOfItsOwn {
            let text = shape.text
            return (LinkDetector().links(in: text), text.unicodeScalars.count)
        }
        var previousEnd = 0
        for link in links {
            #expect(link.range.lowerBound >= previousEnd && link.range.upperBound <= count)
            previousEnd = link.range.upperBound
        }
        switch shape {
        case .brackets: #expect(links.map(\.text) == ["http://example.com/" + String(repeating: ")", count: 0)])
        case .trailingDots: #expect(links.map(\.text) == ["http://example.com/"])
        case .schemes: #expect(links.allSatisfy { $0.text == "http://http" })
        default: #expect(links.isEmpty)
        }
    }
}
