import DeskKitMetadata
import DeskKitModel
import Foundation
import Testing

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

func bytes(_ relative: String) -> [UInt8] {
    [UInt8]((try? Data(contentsOf: fixtures.appendingPathComponent(relative))) ?? Data())
}

struct OGCase: Sendable, CustomStringConvertible {
    let id: String
    let file: String
    let pageURL: String?
    let contentType: String?
    let expected: [(String, String?)]
    var description: String { id }

    static func load() -> [OGCase] {
        guard let text = try? String(contentsOf: fixtures.appendingPathComponent("og/cases.jsonl"), encoding: .utf8)
        else {
            return []
        }
        return text.split(separator: "\n").compactMap { line in
            guard let o = try? JSONValue.parse(String(line)), let expected = o["expected"]?.objectValue else {
                return nil
            }
            return OGCase(
                id: o["id"]!.stringValue!, file: o["file"]!.stringValue!, pageURL: o["page_url"]?.stringValue,
                contentType: o["http_headers"]?["content-type"]?.stringValue,
                expected: expected.members.map { ($0.key, $0.value.stringValue) })
        }
    }
}

/// The scorer's comparison (shared/tools/conformance.py): texts with entities decoded, quotes
/// straightened and white space collapsed; URLs resolved against the page, `utm_` parameters and a
/// trailing `/` dropped.
enum Compare {
    static func text(_ s: String) -> String {
        var t = s.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'")
        for (a, b) in [("\u{2019}", "'"), ("\u{2018}", "'"), ("\u{201C}", "\""), ("\u{201D}", "\"")] {
            t = t.replacingOccurrences(of: a, with: b)
        }
        return t.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ").precomposedStringWithCanonicalMapping
    }

    static func url(_ s: String, base: String?) -> String {
        var u = s.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "&amp;", with: "&")
        if let base, let resolved = URL(string: u, relativeTo: URL(string: base)) { u = resolved.absoluteString }
        while u.hasSuffix("/") { u.removeLast() }
        return u
    }
}

@Suite("Public page-metadata cases")
struct OGConformanceTests {
    @Test func casesAreThere() { #expect(OGCase.load().count == 91) }

    @Test(arguments: OGCase.load())
    func matchesTheCase(_ c: OGCase) {
        let m = MetadataExtractor.extract(html: bytes("og/" + c.file), pageURL: c.pageURL, contentType: c.contentType)
        let got: [String: String?] = [
            "title": m.title, "description": m.description, "image": m.image, "url": m.url, "site_name": m.siteName,
        ]
        for (field, want) in c.expected {
            let value = got[field] ?? nil
            guard let want else {
                #expect(value == nil, "\(field)")
                continue
            }
            guard let value else {
                Issue.record("\(field): nothing found, expected \(want)")
                continue
            }
            if field == "image" || field == "url" {
                #expect(Compare.url(value, base: c.pageURL) == Compare.url(want, base: c.pageURL), "\(field)")
            } else {
                #expect(Compare.text(value) == Compare.text(want), "\(field)")
            }
        }
    }
}
