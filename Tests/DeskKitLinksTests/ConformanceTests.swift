import DeskKitLinks
import DeskKitModel
import Foundation
import Testing

/// A case of a public suite, with the options the scorer uses for its suite.
struct SuiteCase: Sendable, CustomStringConvertible {
    let suite: String
    let text: String
    let expected: [String]
    let indices: [[Int]]?
    let firstOnly: Bool
    let options: LinkDetector.Options
    let kinds: Set<Link.Kind>
    var description: String { "\(suite): \(text.prefix(60))" }

    static let suites: [(String, LinkDetector.Options, Set<Link.Kind>, Bool)] = [
        ("linkify_links", .init(ipHosts: true), [.url, .email], true),
        ("linkify_not_links", .init(), [.url, .email], false),
        ("linkify_py_port_links", .init(ipHosts: true), [.url, .email], true),
        ("twitter_extract_urls", .init(), [.url], false),
        ("twitter_extract_urls_with_indices", .init(), [.url], false),
        ("twitter_extract_urls_with_directional_markers", .init(), [.url], false),
        ("twitter_tlds_country", .init(), [.url], false),
        ("twitter_tlds_generic", .init(), [.url], false),
    ]

    static func load() -> [SuiteCase] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        return suites.flatMap { (name, options, kinds, firstOnly) -> [SuiteCase] in
            let url = dir.appendingPathComponent(name + ".jsonl")
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
            return text.split(separator: "\n").compactMap { line in
                guard let o = try? JSONValue.parse(String(line)), let expected = o["expected"]?.arrayValue else {
                    return nil
                }
                let indices = o["indices"]?.arrayValue?.map { $0.arrayValue!.map { Int($0.int64Value!) } }
                return SuiteCase(
                    suite: name, text: o["text"]!.stringValue!, expected: expected.compactMap(\.stringValue),
                    indices: indices, firstOnly: firstOnly, options: options, kinds: kinds)
            }
        }
    }
}

/// Where DeskKit's documented policy differs from a suite on purpose: the case, what DeskKit answers, why.
let policyDifferences: [String: ([String], String)] = [
    "text http://no-tld": (
        ["http://no-tld"], "a scheme says the writer meant a link: single-label hosts (intranet names) are links"
    ),
    "text http://tld-too-short.x": (["http://tld-too-short.x"], "after a scheme any well-formed host is a link"),
    "text http://domain.com-that-you-should-have-put-a-space-after": (
        ["http://domain.com-that-you-should-have-put-a-space-after"], "after a scheme any well-formed host is a link"
    ),
]

@Suite("Public conformance suites")
struct LinkConformanceTests {
    @Test func suitesAreThere() {
        #expect(SuiteCase.load().count == 1846)
    }

    @Test(arguments: SuiteCase.load())
    func matchesTheSuite(_ c: SuiteCase) {
        let links = LinkDetector(options: c.options).links(in: c.text).filter { c.kinds.contains($0.kind) }
        var got = links.map(\.text)
        var want = c.expected
        if let (documented, _) = policyDifferences[c.text] { want = documented }
        if c.firstOnly {
            got = Array(got.prefix(1))
            want = Array(want.prefix(1))
        }
        #expect(got == want)
        if let indices = c.indices {
            #expect(links.map { [$0.range.lowerBound, $0.range.upperBound] } == indices)
        }
    }
}
