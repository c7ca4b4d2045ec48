import DeskKitInvariants
import DeskKitFetchPolicy
import Testing

@Suite("Address policy")
struct AddressPolicyTests {
    @Test(arguments: [
        ("127.0.0.1", "loopback"), ("2130706433", "loopback"), ("0177.0.0.1", "loopback"), ("0x7f.1", "loopback"),
        ("127.1", "loopback"), ("0x7f000001", "loopback"), ("10.1.2.3", "private"), ("172.16.0.1", "private"),
        ("172.31.255.255", "private"), ("192.168.1.1", "private"), ("100.64.0.1", "CGNAT"),
        ("169.254.169.254", "link-local"),
        ("0.0.0.0", "this network"), ("192.0.0.8", "IETF protocol assignments"), ("192.0.2.1", "documentation"),
        ("198.51.100.7", "documentation"), ("203.0.113.9", "documentation"), ("198.18.0.1", "benchmarking"),
        ("192.88.99.1", "6to4 relay"), ("224.0.0.1", "multicast"), ("240.0.0.1", "reserved"),
        ("255.255.255.255", "reserved"),
        ("::1", "loopback"), ("::", "unspecified"), ("[::ffff:127.0.0.1]", "loopback (IPv4 inside IPv6)"),
        ("::ffff:7f00:1", "loopback (IPv4 inside IPv6)"), ("::127.0.0.1", "loopback (IPv4 inside IPv6)"),
        ("::ffff:10.0.0.1", "private (IPv4 inside IPv6)"), ("fe80::1", "link-local"), ("fc00::1", "unique local"),
        ("fd12:3456::1", "unique local"), ("fec0::1", "site-local"), ("ff02::1", "multicast"),
        ("64:ff9b::7f00:1", "NAT64"),
        ("64:ff9b:1::1", "NAT64"), ("100::1", "discard"), ("2001:db8::1", "documentation"), ("2001::1", "Teredo"),
        ("2002:7f00:1::", "6to4"), ("3fff::1", "documentation"), ("2001:10::1", "ORCHID"),
        ("4000::1", "not global unicast"),
    ])
    func blocks(_ host: String, _ rule: String) throws {
        let address = try #require(IPAddress(host: host))
        #expect(AddressPolicy.blockingRule(address) == rule)
        #expect(AlternativeBlockList.blocks(address), "the independent formulation agrees")
    }

    @Test(arguments: [
        "93.184.216.34", "8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "2a00:1450::1",
        "::ffff:8.8.8.8",
    ])
    func allows(_ host: String) throws {
        let address = try #require(IPAddress(host: host))
        #expect(AddressPolicy.blockingRule(address) == nil)
        #expect(!AlternativeBlockList.blocks(address))
    }

    @Test func numericFormsNormalise() {
        #expect(IPAddress(host: "2130706433") == .v4(0x7F00_0001))
        #expect(IPAddress(host: "0177.0.0.1") == .v4(0x7F00_0001))
        #expect(IPAddress(host: "0x7f.1") == .v4(0x7F00_0001))
        #expect(IPAddress(host: "127.1") == .v4(0x7F00_0001))
        #expect(IPAddress(host: "10.1.258") == .v4(0x0A01_0102))
        #expect(IPAddress(host: "256.1.1.1") == nil)
        #expect(IPAddress(host: "0x") == nil, "a bare 0x is not a number for inet_aton (fuzz finding)")
        #expect(IPAddress(host: "255.-0.0.1") == nil, "no signs, as in inet_aton (fuzz finding)")
        #expect(IPAddress(host: "+1.2.3.4") == nil)
        #expect(IPAddress(host: "example.com") == nil)
        #expect(IPAddress(host: "1.2.3.4.5") == nil)
        #expect(IPAddress(host: "[::ffff:127.0.0.1]")?.description == "::ffff:127.0.0.1")
    }

    /// Fuzz finding: a host with `:` and `[` in it was accepted, and its request string did not parse back.
    @Test(arguments: [
        "https://user:rw2[::http://a:0/#c", "http://..:/x", "http://a<b/", "http://a^b/", "http://a|b/", "http://a\\b/",
    ])
    func forbiddenHostCharacters(_ url: String) {
        #expect(throws: FetchError.self) { try WebURL(url) }
    }

    /// Fuzz finding: a path with controls and non-ASCII bytes is sent percent-encoded.
    @Test(arguments: [
        "http://a:+80/", "http://a:-1/", "http://a:0/", "http://a:65536/", "http://a:8 0/", "http://a:\u{661}/",
    ])
    func badPorts(_ url: String) throws {
        #expect(throws: FetchError.self) { try WebURL(url) }
        #expect(try WebURL("http://a:08080/").port == 8080)
    }

    @Test func pathsAreSentInASCII() throws {
        #expect(
            try WebURL("http://example.com/caf\u{E9} x?q=\u{1B}\"").requestString
                == "http://example.com/caf%C3%A9%20x?q=%1B%22")
        #expect(try WebURL("http://example.com/a%20b").requestString == "http://example.com/a%20b")
    }

    /// Fuzz finding: `#` followed by a combining mark is one `Character` with it, so a `Character` search
    /// kept the fragment in the path (and sent it). Delimiters are found by code point.
    @Test func delimitersBeforeCombiningMarks() throws {
        #expect(try WebURL("http://a/b#\u{64B}c").requestString == "http://a/b")
        let hidden = try WebURL("http://evil.example/\u{301}@127.0.0.1/")
        #expect(hidden.host == "evil.example" && hidden.pathAndQuery == "/%CC%81@127.0.0.1/")
        #expect(throws: FetchError.self) { try WebURL("http://a.example:8\u{301}0/") }
        #expect(try WebURL("http://a.\u{301}b/").asciiHost.split(separator: ".").count == 2)
        #expect(IPAddress(host: "::1%\u{301}eth0") == IPAddress(host: "::1"))
    }

    @Test func names() {
        #expect(AddressPolicy.blockingRule(hostName: "localhost") != nil)
        #expect(AddressPolicy.blockingRule(hostName: "printer.local") != nil)
        #expect(AddressPolicy.blockingRule(hostName: "xyz.onion") != nil)
        #expect(AddressPolicy.blockingRule(hostName: "example.com") == nil)
    }

    /// An HTTP status error carries its status, and keeps it through a cache's kind-and-detail form.
    @Test func statusErrorsCarryTheirStatus() {
        let gone = FetchError.httpStatus(410)
        #expect(gone.kind == .httpStatus && gone.status == 410 && gone.description == "http_status: HTTP 410")
        #expect(FetchError(kindName: "http_status", detail: "HTTP 410") == gone)
        #expect(FetchError(kindName: "timeout", detail: "connect took longer than 5 s")?.status == nil)
        #expect(FetchError(kindName: "no_such_kind", detail: "") == nil)
        #expect(FetchError.Kind.allCases.count == 20)
        #expect(FetchError.Kind.allCases.filter(\.isRefusal) == FetchError.Kind.refusals)
        #expect(
            FetchError.Kind.refusals.map(\.rawValue) == [
                "challenge", "consent_wall", "login_wall", "error_page", "parked_domain", "empty_shell", "notice",
            ])
        #expect(FetchError.Kind.allCases.allSatisfy { FetchError.Kind(rawValue: $0.rawValue) == $0 })
    }
}
