import DeskKitModel
import Testing

@Suite("Unsafe URLs in payloads")
struct URLSafetyTests {
    static let unsafe = [
        "javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "data:text/html,<script>x</script>",
        "vbscript:msgbox(1)", "file:///etc/passwd", "https://user:pass@example.com/",
        "https://example.com@evil.example/",
        "https://exa mple.com/", "https://example.com/\u{0}", "https://example.com/a\nb", "https://example.com/\u{7F}",
        "https:\\\\evil.example", "https:evil.example", "//example.com/a", "/relative", "example.com", "https://",
        "https:///path", "ftp://example.com/file", "\u{85}https://example.com", "https://example.com/\u{2028}",
        // Relative, scheme-relative and backslash forms, each read against the page's own address.
        "/account/settings", "account", "./a", "?q", "#f", "\\\\evil.example/x", "/\\evil.example",
        "https:/evil.example",
        "http:own", "https:/\\evil.example", "&#106;avascript:alert(1)", "%68ttps://example.com", "",
        // Hosts a browser reads as another.
        "https://%65xample.com/", "https://exa%2Emple.com", "https://0x7f.1/", "https://2130706433/", "https://127.1/",
        "https://0177.0.0.1/", "https://1.2.3.04/", "https://1.2.3.4./", "https://256.1.1.1/", "https://example.0x1/",
        "https://ｅｘａｍｐｌｅ.com/", "https://example。com/", "https://ⓔxample.com/", "https://𝐞xample.com/",
        "https://a..b/", "https://.example.com/", "https://exa!mple.com/", "https://[::1/", "https://[1::2::3]/",
        "https://[1:2:3:4:5:6:7:8:9]/", "https://[fe80::1%25eth0]/", "https://[::1]x/", "https://good.com\\@evil.com/",
        // Invisible characters, also where a browser would drop them.
        "https://exa\u{200B}mple.com/", "https://example.com/\u{202E}gpj.exe", "\u{200E}https://example.com",
        "https://example.com/\u{2066}x\u{2069}", "https://example.com/\u{AD}", "https://example.com/\u{FEFF}",
        "https://example.com/\u{E0041}",
        // Ports.
        "https://example.com:65536/", "https://example.com:8o/", "https://example.com:-1/",
        "https://example.com:80:80/",
        "https://example.com/" + String(repeating: "a", count: 8173),
        // Hosts a browser cannot parse (IDNA refuses them): a dead link on a card.
        "https://\u{FFFD}/", "http://" + String(Unicode.Scalar(UInt32(0xFDD0))!) + "zyx.com",
        "https://" + String(Unicode.Scalar(UInt32(0xFFFF))!) + "y/", "https://a\u{E000}.com/",
        "https://a\u{378}b.com/", "https://a\u{2049}.com/", "https://\u{2FF0}.cn/", "https://a.b.c.xn--pokxncvks",
        "http://10.0.0.XN--pokxncvks", "https://xn--abc-/", "https://xn--a-ecp.ru/", "https://xn--!.com/",
        "https://xn--/",
        "https://xn--xn--a--gua.pt/", "https://xn--wca.com/", "https://xn--20-9802c.cn/",
        "https://xn--" + String(repeating: "a", count: 300) + ".com/",
        // A right-to-left label beside one that begins with a digit, ends with a hyphen, or mixes directions.
        "https://1a.\u{645}\u{62B}\u{627}\u{644}.com/", "https://a-.\u{5E2}\u{5D1}/", "https://a\u{5D0}b.com/",
        "https://\u{5D0}a.com/", "https://\u{660}1\u{627}.com/", "https://\u{300}a.com/",
    ]
    static let safe = [
        "https://example.com", "HTTP://EXAMPLE.COM/A?b=c#d", "https://example.com:8443/path", "https://[2001:db8::1]/x",
        "https://例え.jp/パス", "https://example.com/a%20b",
        "https://xn--r8jz45g.jp/", "https://bücher.de/", "https://a_b.example.com/", "https://example.com./",
        "https://127.0.0.1:0/", "https://example.com:65535/", "https://example.com:/", "https://[::]/",
        "https://[::ffff:127.0.0.1]/", "https://[1:2:3:4:5:6:7:8]/", "https://example.com/a\\b",
        "https://example.com/%E2%80%AE", "https://example.com/" + String(repeating: "a", count: 8172),
        "https://example.com/" + String(repeating: "é", count: 8172),
        // Internationalized hosts a browser reads as shown (punycode of one among them).
        "https://xn--bcher-kva.de/", "https://XN--BCHER-KVA.de/", "https://\u{645}\u{62B}\u{627}\u{644}.com/",
        "https://\u{645}\u{62B}\u{627}\u{644}1.com/", "https://\u{5E2}\u{5D1}\u{5E8}\u{5D9}\u{5EA}.co.il/",
        "https://xn--ls8h.la/", "https://\u{D55C}\u{AD6D}.kr/",
    ]

    @Test(arguments: unsafe)
    func refused(_ url: String) {
        #expect(URLSafety.problem(with: url) != nil)
        let preview = URLPreview(url: url, image: url)
        #expect(preview.safeURL == nil)
        #expect(preview.safeImageURL == nil)
    }

    @Test(arguments: safe)
    func allowed(_ url: String) {
        #expect(URLSafety.problem(with: url) == nil)
        #expect(URLPreview(url: url, image: url).safeURL == url)
        #expect(URLPreview(url: url, image: url).safeImageURL == url)
    }

    @Test func eachRefusalSaysWhy() {
        #expect(URLSafety.problem(with: "/account")?.contains("own address") == true)
        #expect(URLSafety.problem(with: "//evil.example")?.contains("scheme-relative") == true)
        #expect(URLSafety.problem(with: "https:\\\\evil.example")?.contains("backslash") == true)
        #expect(URLSafety.problem(with: "https://0x7f.1/")?.contains("IPv4") == true)
        #expect(URLSafety.problem(with: "https://%65xample.com")?.contains("percent-encoded host") == true)
        #expect(URLSafety.problem(with: "vbscript:x") == "has the scheme \"vbscript:\", not http or https")
        // A decoded `xn--` label's character is not in the URL as written: the problem names the label.
        #expect(URLSafety.problem(with: "https://a\u{FFFD}.com/") == "has a character in its host that IDNA refuses")
        #expect(
            URLSafety.problem(with: "https://xn--a-q10i.com/")
                == "has an xn-- label in its host that decodes to a character IDNA refuses")
        #expect(
            URLSafety.problem(with: "https://xn--ab-c6t.com/")
                == "has an xn-- label in its host that decodes to a character a browser reads as another")
        #expect(
            URLSafety.problem(with: "https://xn--a-wbb.com/")
                == "has an xn-- label in its host that begins with a combining mark")
        #expect(URLSafety.safeURL("https://example.com/") == "https://example.com/")
        #expect(URLSafety.safeURL("/account") == nil)
    }

    @Test func strictValidationReportsThemAndLenientReadingKeepsTheText() throws {
        let data =
            #"{"type":"SENDBIRD_DESK_URL_PREVIEW","body":{"url":"javascript:alert(1)","title":"T","image":"data:image/png;base64,AA"}}"#
        let strict = DeskPayload.decode(data, options: .strict)
        #expect(strict.problems.map(\.code) == [.unsafeURL, .unsafeURL])
        #expect(strict.problems.map(\.path) == ["$.body.url", "$.body.image"])
        let lenient = DeskPayload.decode(data)
        guard case .urlPreview(let p) = lenient.content else {
            Issue.record("expected a URL preview, got \(lenient.content)")
            return
        }
        #expect(p.url == "javascript:alert(1)")
        #expect(p.safeURL == nil && p.safeImageURL == nil)
        #expect(lenient.problems.contains { $0.code == .unsafeURL })
        #expect(!PayloadProblem.Code.unsafeURL.isFatal)
    }
}

@Suite("Safe mailto: links")
struct SafeMailtoTests {
    @Test(arguments: [
        "mailto:help@example.com", "MAILTO:a.b+c@sub.example.co.uk", "mailto:ana@bücher.de",
        "mailto:x@xn--bcher-kva.de",
    ])
    func safe(_ href: String) { #expect(URLSafety.isSafeMailto(href)) }

    @Test(arguments: [
        "mailto:", "mailto:@example.com", "mailto:a@", "mailto:a@b@c.com", "mailto:a@example.com?cc=b@evil.example",
        "mailto:a@example.com,b@evil.example", "mailto:a b@example.com", "mailto:a%40b@example.com",
        "mailto:a@exa mple.com", "mailto:a@ex\u{202E}ample.com", "mailto:a\u{200B}@example.com", "mailto:a@[::1]",
        "mailto:a@example.com:25", "mailto:a/b@example.com", "mailto:a@%65xample.com", "https://a@example.com",
        "javascript:a@example.com", "mailto:a@\u{FFFD}.com", "mailto:a@example.com/x", "mailto:a@example.com#x",
    ])
    func unsafe(_ href: String) { #expect(!URLSafety.isSafeMailto(href)) }
}
