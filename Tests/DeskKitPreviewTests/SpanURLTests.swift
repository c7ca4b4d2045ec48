import DeskKitPreview
import Testing

/// URLs as spans hold them: no credentials, no query values, no fragment.
@Suite("Span URLs")
struct SpanURLTests {
    @Test(arguments: [
        ("https://example.com/a/b", "https://example.com/a/b"),
        (
            "https://user:pw@example.com:8443/p?token=abc&x=1#frag",
            "https://example.com:8443/p?token=REDACTED&x=REDACTED"
        ),
        ("https://a@b@example.com?q", "https://example.com?q"),
        ("http://example.com/p?=v&&k=", "http://example.com/p?=REDACTED&&k=REDACTED"),
        ("http://example.com/a@b/c", "http://example.com/a@b/c"),
        ("/relative?key=secret", "/relative?key=REDACTED"),
        // A delimiter followed by a combining mark is one Character with it, and still a delimiter.
        ("https://u@\u{301}h/p?k=\u{301}s3cret&a\u{301}=b#\u{64B}x", "https://\u{301}h/p?k=REDACTED&a\u{301}=REDACTED"),
        ("", ""),
    ])
    func redacted(_ url: String, _ expected: String) {
        #expect(SpanURL.redacted(url) == expected)
    }

    /// Whatever the text, no value after `=` in the query survives.
    @Test func noQueryValueSurvives() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab:/@?#&=%.")
        for _ in 0..<5_000 {
            let url = String((0..<Int.random(in: 0..<24, using: &generator)).map { _ in alphabet.randomElement()! })
            let secret = "s3cret"
            let redacted = SpanURL.redacted("https://h/p?" + url + "&k=" + secret)
            #expect(!redacted.contains(secret), "\(url)")
        }
    }
}
