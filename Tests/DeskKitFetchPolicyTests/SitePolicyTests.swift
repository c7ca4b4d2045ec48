import DeskKitFetchPolicy
import Testing

@Suite("Site policy")
struct SitePolicyTests {
    @Test func aPatternCoversItsHostAndSubdomainsAndAStarOnlySubdomains() throws {
        let policy = try SitePolicy(deny: "Example.COM., *.ads.example", allow: nil)
        for host in ["example.com", "www.example.com", "a.b.example.com", "EXAMPLE.com.", "x.ads.example"] {
            #expect(policy.refusal(host: host)?.kind == .policy, "\(host)")
        }
        for host in ["notexample.com", "example.com.evil.test", "ads.example", "example.org", "com"] {
            #expect(policy.refusal(host: host) == nil, "\(host)")
        }
        #expect(policy.refusal(host: "cdn.example.com")?.detail.contains("example.com") == true)
    }

    @Test func anAllowListLetsOnlyItsHostsThroughLessTheDenied() throws {
        let policy = try SitePolicy(deny: "private.docs.example", allow: "docs.example, *.cdn.example")
        #expect(policy.refusal(host: "docs.example") == nil)
        #expect(policy.refusal(host: "v2.docs.example") == nil)
        #expect(policy.refusal(host: "img.cdn.example") == nil)
        #expect(policy.refusal(host: "cdn.example")?.kind == .policy)
        #expect(policy.refusal(host: "private.docs.example")?.kind == .policy)
        #expect(policy.refusal(host: "elsewhere.example")?.detail.contains("allow list") == true)
        // An empty allow list is none: every host not denied.
        #expect(try SitePolicy(deny: nil, allow: " , ").isOpen)
    }

    @Test func idnHostsAndAddressesAreComparedAsSent() throws {
        let policy = try SitePolicy(deny: "bücher.example, 10.0.0.7", allow: nil)
        #expect(policy.refusal(host: "xn--bcher-kva.example")?.kind == .policy)
        #expect(policy.refusal(host: "shop.bücher.example")?.kind == .policy)
        #expect(policy.refusal(url: "http://10.0.0.7:8080/a")?.kind == .policy)
        #expect(policy.refusal(url: "https://user:pw@SHOP.xn--bcher-kva.example/")?.kind == .policy)
        #expect(policy.refusal(url: "not a url") == nil)
    }

    @Test(arguments: [
        "a b.example", "*.", "exa mple", "*.*.example", "http://example.com", "a..b",
        String(repeating: "a", count: 64) + ".example",
    ])
    func whatIsNoHostIsNamed(_ pattern: String) {
        #expect(throws: SitePolicy.Problem.self) { try SitePolicy(deny: pattern, allow: nil) }
    }
}
