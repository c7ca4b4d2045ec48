import DeskKitLinks
import Testing

/// Where links meet characters, schemes, e-mail punctuation and host shapes at their edges: graphemes,
/// scripts inside path segments, any-scheme links, address lists, fully qualified hosts, `<…>` in paths.
@Suite("Link edges")
struct LinkEdgeTests {
    static let anyScheme = LinkDetector.Options(anyScheme: true)

    // MARK: Graphemes

    @Test(arguments: [
        // An emoji with a skin tone, a ZWJ sequence, a flag with tags, a keycap: whole, in a path or a host.
        ("https://example.com/team/🧑🏽‍💻 joined", "https://example.com/team/🧑🏽‍💻"),
        ("https://example.com/👋🏿/wave", "https://example.com/👋🏿/wave"),
        ("https://example.com/pride/🏳️‍🌈 now", "https://example.com/pride/🏳️‍🌈"),
        ("https://example.com/🏴󠁧󠁢󠁳󠁣󠁴󠁿/x", "https://example.com/🏴󠁧󠁢󠁳󠁣󠁴󠁿/x"),
        ("https://example.com/1️⃣", "https://example.com/1️⃣"),
        ("https://👍🏽.example/", "https://👍🏽.example/"),
        // A base letter with its combining marks, kana with its voicing mark written apart.
        ("https://example.com/cafe\u{301}s and more", "https://example.com/cafe\u{301}s"),
        (
            "https://example.com/wiki/\u{30AB}\u{3099}\u{30A4}\u{30C9}",
            "https://example.com/wiki/\u{30AB}\u{3099}\u{30A4}\u{30C9}"
        ),
        ("https://example.com/a\u{301}\u{308}", "https://example.com/a\u{301}\u{308}"),
    ])
    func aLinkNeverEndsInsideAGraphemeCluster(_ text: String, _ link: String) {
        #expect(texts(text) == [link], "\(text)")
        for found in LinkDetector().links(in: text) {
            // The link's end is a boundary between characters of the text.
            let end = text.unicodeScalars.index(text.unicodeScalars.startIndex, offsetBy: found.range.upperBound)
            #expect(end == text.endIndex || text.index(after: text.index(before: end)) == end, "\(text)")
            #expect(String(text[..<end]).hasSuffix(found.text))
        }
    }

    // MARK: Scripts inside a path segment

    @Test(arguments: [
        ("https://example.com/docs/manual-マニュアル.pdf", "https://example.com/docs/manual-マニュアル.pdf"),
        ("https://example.com/files/report_報告書_v2.xlsx", "https://example.com/files/report_報告書_v2.xlsx"),
        ("https://example.com/a.서울 ok", "https://example.com/a.서울"),
        // Hiragana still ends a link: it is the prose around it.
        ("https://example.com/setup-ガイドをご覧ください", "https://example.com/setup-ガイド"),
        ("https://example.com/x-をみて", "https://example.com/x-"),
        // Glued without a separator: the script still ends the link.
        ("https://example.com/manualマニュアル", "https://example.com/manual"),
    ])
    func otherScriptsAfterADashUnderscoreOrDot(_ text: String, _ link: String) {
        #expect(texts(text) == [link], "\(text)")
    }

    // MARK: Schemes

    @Test(arguments: [
        ("open file:///etc/hosts now", "file:///etc/hosts"),
        ("or file:/tmp/notes.txt", "file:/tmp/notes.txt"),
        ("call facetime://+15551234567 later", "facetime://+15551234567"),
        ("clone git:github.example/deskkit/deskkit.git", "git:github.example/deskkit/deskkit.git"),
        ("view-source://example.com/page", "view-source://example.com/page"),
        ("svn+ssh://svn.example.org/repo/trunk", "svn+ssh://svn.example.org/repo/trunk"),
        ("pip install git+https://example.com/pkg.git", "git+https://example.com/pkg.git"),
        ("magnet:?xt=urn:btih:c12fe1 (a torrent)", "magnet:?xt=urn:btih:c12fe1"),
        ("(steam://run/440)", "steam://run/440"),
    ])
    func anySchemeLinksSchemesFollowedByAPlausibleRest(_ text: String, _ link: String) {
        #expect(texts(text, Self.anyScheme) == [link], "\(text)")
    }

    @Test(arguments: [
        "Note:this is prose", "Re:hello", "ratio 3:2", "c:/windows", "at 10:30 today", "-:x/y", "a :/b",
        // A combining mark right after the colon would fuse with it (a fuzz finding).
        "ab:\u{0D3E}x/y.z",
    ])
    func anySchemeLeavesProseAlone(_ text: String) {
        #expect(texts(text, Self.anyScheme) == [], "\(text)")
    }

    @Test func aSchemeStartsAtAWordBoundaryWithALetter() {
        // Letters glued before a web scheme are the word's: the link starts at the scheme a reader sees.
        #expect(texts("xxxhttp://example.com/a") == ["http://example.com/a"])
        #expect(texts("xxxhttps://example.com/a", Self.anyScheme) == ["https://example.com/a"])
        #expect(texts("prefixftp://files.example.com") == ["ftp://files.example.com"])
        // A leading -, + or . is not part of a scheme.
        #expect(texts("-svn+ssh://svn.example.org/x", Self.anyScheme) == ["svn+ssh://svn.example.org/x"])
        #expect(texts("+git://example.org/x", Self.anyScheme) == ["git://example.org/x"])
        #expect(texts(".ssh://example.org/x", Self.anyScheme) == ["ssh://example.org/x"])
        // Without --any-scheme, an unknown compound scheme still gives its web part.
        #expect(texts("git+https://example.com/pkg.git") == ["https://example.com/pkg.git"])
        #expect(texts("git://example.org/x") == [])
        let link = LinkDetector().links(in: "xxxHTTP://Example.com")
        #expect(link.map(\.href) == ["http://example.com"])
        #expect(link.map(\.range) == [3..<21])
    }

    @Test func xmppAddressesAreLinkedWholeWithTheirResource() {
        let links = LinkDetector().links(
            in: "ping xmpp:ann@chat.example.com/phone, or mailto:bob@example.com?subject=hi.")
        #expect(links.map(\.text) == ["xmpp:ann@chat.example.com/phone", "mailto:bob@example.com?subject=hi"])
        #expect(links.map(\.href) == ["xmpp:ann@chat.example.com/phone", "mailto:bob@example.com?subject=hi"])
        #expect(texts("XMPP:ann@chat.example.com?message;body=hi") == ["XMPP:ann@chat.example.com?message;body=hi"])
        // With --any-scheme too, the address is found at its `@`, whole.
        #expect(
            texts("mailto:bob@example.com and xmpp:ann@example.com/a", Self.anyScheme) == [
                "mailto:bob@example.com", "xmpp:ann@example.com/a",
            ])
    }

    // MARK: E-mail addresses

    @Test(arguments: [
        ("ann@example.com,bob@example.org", ["ann@example.com", "bob@example.org"]),
        ("ann@example.com;bob@example.org;cy@example.net", ["ann@example.com", "bob@example.org", "cy@example.net"]),
        ("to ann@example.com,;bob@example.org", ["ann@example.com", "bob@example.org"]),
        ("cc: ,ann@example.com", ["ann@example.com"]),
        ("ann@example.com-", ["ann@example.com"]),
        ("write ann@example.com.", ["ann@example.com"]),
        ("ann@example.com... then", ["ann@example.com"]),
        ("ann@example..com", []),
        ("ann@example.com..org", []),
        ("ann@ex--ample.com", []),
        ("ann@xn--bcher-kva.de", ["ann@xn--bcher-kva.de"]),
        ("ann@a--b.com", ["ann@a--b.com"]),
    ])
    func addressesAndTheirPunctuation(_ text: String, _ links: [String]) {
        #expect(texts(text) == links, "\(text)")
        #expect(LinkDetector().links(in: text).allSatisfy { $0.href == "mailto:\($0.text)" })
    }

    @Test func uncheckedEmailDomainsAreAnOption() {
        #expect(texts("ann@build.internal") == [])
        #expect(texts("ann@build.internal", .init(anyEmailDomain: true)) == ["ann@build.internal"])
        #expect(texts("ann@localhost", .init(anyEmailDomain: true)) == [], "two labels at least")
        #expect(texts("ann@-build.internal", .init(anyEmailDomain: true)) == [])
        // Without bare domains, e-mail addresses are still found, with a known top-level domain.
        let noBare = LinkDetector.Options(bareDomains: false)
        #expect(texts("ann@example.com and example.com", noBare) == ["ann@example.com"])
        #expect(texts("ann@build.internal", noBare) == [])
        #expect(texts("ann@build.internal", .init(bareDomains: false, anyEmailDomain: true)) == ["ann@build.internal"])
    }

    // MARK: Hosts

    @Test(arguments: [
        ("https://example.com./x", "https://example.com./x"),
        ("https://example.com.:8443/x", "https://example.com.:8443/x"),
        ("http://user:p!$&'()*+,;=@example.com/x", "http://user:p!$&'()*+,;=@example.com/x"),
        ("https://example.com-/x", "https://example.com"),
        ("see example.com- now", "example.com"),
    ])
    func hostEdges(_ text: String, _ link: String) {
        #expect(texts(text) == [link], "\(text)")
    }

    @Test func aLabelWithADashAtADotIsNoHost() {
        #expect(texts("https://example-.com/x") == [])
        #expect(texts("https://www.-example.com/x") == [])
        #expect(texts("ann@example-.com") == [])
    }

    @Test(arguments: [
        "http://1.2.3/x", "http://10.0.0.1-2/x", "https://1-2.3.4.5", "http://1.2.3.4.5/", "http://256.1.1.1/",
    ])
    func dottedNumbersThatAreNoAddress(_ text: String) {
        #expect(texts(text) == [], "\(text)")
    }

    @Test func dottedNumbersThatAreAnAddressOrADomain() {
        #expect(texts("http://10.0.0.1/x") == ["http://10.0.0.1/x"])
        #expect(texts("http://1.2.3.example/x") == ["http://1.2.3.example/x"])
        #expect(texts("http://12345/x") == ["http://12345/x"], "one label: not dotted")
    }

    // MARK: Ends

    @Test(arguments: [
        ("https://example.com/a<b>c d", "https://example.com/a<b>c"),
        ("https://example.com/a<b>/<c> d", "https://example.com/a<b>/<c>"),
        ("https://example.com/a<b c", "https://example.com/a"),
        ("<https://example.com/a<b>>", "https://example.com/a"),
        ("<a href=https://example.com/x>link</a>", "https://example.com/x"),
        ("(https://example.com/(x)))", "https://example.com/(x)"),
        ("https://example.com/(x))", "https://example.com/(x)"),
        ("https://example.com/it's", "https://example.com/it's"),
        ("https://example.com/say\"hi\"there", "https://example.com/say\"hi\"there"),
    ])
    func whereAPathEnds(_ text: String, _ link: String) {
        #expect(texts(text) == [link], "\(text)")
    }

    @Test func pipeRunsInPaths() {
        let pipes = LinkDetector.Options(pipesInPaths: true)
        #expect(texts("https://example.com/a||b|c", pipes) == ["https://example.com/a||b|c"])
        #expect(texts("https://example.com/a|| next", pipes) == ["https://example.com/a"])
        #expect(texts("| https://example.com/a | b |", pipes) == ["https://example.com/a"])
    }
}
