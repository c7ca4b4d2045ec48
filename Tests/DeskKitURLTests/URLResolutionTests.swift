import DeskKitURL
import Testing

/// RFC 3986 reference resolution, on the RFC's own examples (§5.4), and hosts as IDNA writes them.
@Suite("URL resolution")
struct URLResolutionTests {
    static let base = "http://a/b/c/d;p?q"

    /// §5.4.1, normal examples, and §5.4.2, abnormal ones (the strict parser's answer for `http:g`).
    @Test(arguments: [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
        ("../../g", "http://a/g"),
        ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"), ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"),
        ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"),
        ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"), ("g#s/./x", "http://a/b/c/g#s/./x"),
        ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
    ])
    func resolvesAsRFC3986Says(_ reference: String, _ expected: String) {
        #expect(URLResolution.resolve(reference, against: Self.base) == expected)
    }

    @Test func withoutABaseTheReferenceStays() {
        #expect(URLResolution.resolve("/a", against: nil) == "/a")
        #expect(URLResolution.resolve("/a", against: "no-scheme/here") == "/a")
        #expect(URLResolution.resolve("b", against: "https://example.com") == "https://example.com/b")
    }

    @Test func splitsAndFindsTheHost() {
        let parts = URLResolution.split("http://u:p@[::1]:80/a?b#c")
        #expect(parts.scheme == "http" && parts.authority == "u:p@[::1]:80" && parts.path == "/a")
        #expect(parts.query == "b" && parts.fragment == "c")
        #expect(URLResolution.host(ofAuthority: "u:p@[::1]:80") == "[::1]")
        #expect(URLResolution.host(ofAuthority: "example.com:8443") == "example.com")
    }

    /// RFC 3492's sample strings and IDNA hosts.
    @Test func punycode() {
        #expect(Punycode.encode("bücher") == "bcher-kva")
        #expect(Punycode.encode("münchen") == "mnchen-3ya")
        #expect(Punycode.asciiHost("例え.テスト") == "xn--r8jz45g.xn--zckzah")
        #expect(Punycode.asciiHost("президент.рф") == "xn--d1abbgf6aiiy.xn--p1ai")
        #expect(Punycode.asciiHost("example.com") == "example.com", "ASCII labels stay")
        let part = "see ПРЕЗИДЕНТ.рф".dropFirst(4)
        #expect(Punycode.asciiHost(part) == "xn--d1abbgf6aiiy.xn--p1ai", "any string, its labels lowercased")
    }
}
