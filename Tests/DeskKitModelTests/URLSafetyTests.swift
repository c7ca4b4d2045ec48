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
    ]
    static let safe = [
        "https://example.com", "HTTP://EXAMPLE.COM/A?b=c#d", "https://example.com:8443/path", "https://[2001:db8::1]/x",
        "https://例え.jp/パス", "https://example.com/a%20b",
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
