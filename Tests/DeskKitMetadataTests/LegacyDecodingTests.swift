import DeskKitTestSupport
import Foundation
import Testing

@testable import DeskKitMetadata

/// Legacy encodings decoded as the WHATWG Encoding Standard decodes them: every sequence of its reference
/// decodings, and pages with a byte their declared encoding refuses.
struct LegacyDecodingTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/whatwg")

    /// glibc drops this one sequence silently (no error, no character); the standard reads U+FFFD.
    static let knownGaps: Set<String> = ["CP949 a2e8"]

    @Test(arguments: [
        ("CP932", "shift_jis"), ("EUC-JP", "jis0208"), ("GB18030", "gb18030"), ("GBK", "gb18030"),
        ("BIG5-HKSCS", "big5"), ("CP949", "euc_kr"),
    ])
    func everySequenceDecodesAsTheStandardSays(_ name: String, _ stem: String) async throws {
        let input = try Data(contentsOf: Self.fixtures.appendingPathComponent("\(stem)_in.txt"))
            .split(separator: 0x0A, omittingEmptySubsequences: false)
        let reference = try String(
            contentsOf: Self.fixtures.appendingPathComponent("\(stem)_in_ref.txt"), encoding: .utf8
        ).split(separator: "\n", omittingEmptySubsequences: false)
        try #require(input.count == reference.count && input.count > 5_000)
        try #require(LegacyDecoder(name: name) != nil)
        // Seconds of CPU, on a thread of its own: the cooperative pool's two threads stay with the suites that wait
        // on time.
        let pairs = zip(input, reference).filter { $0.0.count == 2 }.map { (Array($0.0), String($0.1)) }
        let (checked, wrong) = try await onThreadOfItsOwn { () -> (Int, [String]) in
            var wrong: [String] = []
            for (bytes, expected) in pairs {
                let decoder = LegacyDecoder(name: name)!  // required above
                var out: [UInt8] = []
                bytes.withUnsafeBufferPointer { decoder.decode($0, final: true, into: &out) }
                let key = "\(name == "GBK" ? "GB18030" : name) \(bytes.map { String(format: "%02x", $0) }.joined())"
                if String(decoding: out, as: UTF8.self) != expected, !Self.knownGaps.contains(key) { wrong.append(key) }
            }
            return (pairs.count, wrong)
        }
        #expect(checked > 5_000)
        #expect(wrong.isEmpty, "\(wrong.count) of \(checked) differ: \(wrong.prefix(10))")
    }

    /// A stray byte the declared encoding refuses is one U+FFFD, and the page goes on (libxml2's iconv
    /// handler stopped at it: the title and all after it were lost).
    @Test func aStrayByteIsOneReplacementCharacterAndThePageGoesOn() throws {
        func page(_ charset: String, _ title: [UInt8], _ description: [UInt8]) -> [UInt8] {
            Array(#"<html><head><meta charset="\#(charset)"><title>"#.utf8) + title
                + Array(#"</title><meta name="description" content=""#.utf8) + description
                + Array(#""></head><body></body></html>"#.utf8)
        }
        let sjis = page(
            "shift_jis",
            [0x89, 0x63, 0x8B, 0xC6, 0x81, 0xAD] + Array(" 10:00".utf8) + [0x81, 0x60] + Array("18:00".utf8),
            [0x82, 0xB1, 0x82, 0xF1, 0x82, 0xC9, 0x82, 0xBF, 0x82, 0xCD])
        let m = MetadataExtractor.extract(html: sjis, pageURL: nil)
        #expect(m.title == "営業\u{FFFD} 10:00～18:00")  // 0x8160 is U+FF5E in the standard's index, as in CP932
        #expect(m.description == "こんにちは")
        #expect(m.charset.name == "CP932")
        let latin = page("windows-1252", Array("Caf".utf8) + [0xE9, 0x20, 0x81, 0x20, 0x9D], Array("after".utf8))
        let l = MetadataExtractor.extract(html: latin, pageURL: nil)
        #expect(l.title == "Café \u{81} \u{9D}" || l.title == "Café")
        #expect(l.description == "after")
    }

    /// A page streamed in pieces cut anywhere — inside a two-byte character too — reads as the whole page.
    @Test func aCharacterCutBetweenSlicesIsReadWhole() throws {
        let title: [UInt8] = Array(repeating: [0x93, 0xFA, 0x96, 0x7B], count: 3000).flatMap { $0 }  // 日本
        let bytes = Array(#"<meta charset="shift_jis"><title>"#.utf8) + title + Array("</title>".utf8)
        let whole = MetadataExtractor.extract(html: bytes, pageURL: nil).title
        #expect(whole?.hasPrefix("日本日本") == true && whole?.contains("\u{FFFD}") == false)
        for step in [1, 7, 4095, 4097] {
            let parser = HTMLMetadataParser(pageURL: nil)
            var i = 0
            while i < bytes.count {
                parser.feed(bytes[i..<min(bytes.count, i + step)])
                i += step
            }
            #expect(parser.finish().title == whole, "step \(step)")
        }
    }
}
