import Testing
import DeskKitTestSupport

@testable import DeskKitLinks

/// The scanner's shortcuts give what the slow ways give: the common letters need no property look-up, the
/// TLD table answers as the set of names does, the offsets counted eight bytes at a time are the scalars'.
@Suite("Fast paths")
struct FastPathTests {
    @Test func commonLettersAreLettersAndNoMarks() {
        for c in UInt32(0x80)...0xFFFF where CharClass.isCommonLetter(c) {
            let properties = Unicode.Scalar(c)!.properties
            #expect(properties.isAlphabetic, "U+\(String(c, radix: 16))")
            #expect(!properties.generalCategory.isMark, "U+\(String(c, radix: 16))")
        }
    }

    /// The byte classes' bitmaps are the rules they stand for.
    @Test func byteClassesByTheirBit() {
        for c in UInt8.min...UInt8.max {
            let alnum = c < 0x80 && (c.isASCIIDigitOrLetter)
            #expect(CharClass.isASCIIAlnum(UInt32(c)) == alnum, "\(c)")
            #expect(CharClass.isASCIIHostByte(c) == (alnum || c == 0x2D || c == 0x5F), "\(c)")
        }
        #expect(!CharClass.isASCIIAlnum(0x130) && !CharClass.isASCIIAlnum(0x10041))
    }

    /// Every name, ASCII ones in any case; names in other scripts as written (the scanner lowercases those
    /// it does not find).
    @Test func theTLDTableAnswersAsTheSet() {
        let all = Set(String(decoding: TopLevelDomains.bytes, as: UTF8.self).split(separator: " ").map(String.init))
        let ascii = all.filter { $0.utf8.allSatisfy { $0 < 0x80 } }
        let misses = [
            "co", "comm", "examplecom", "c", "", "xn--", "verylongnamethatisnotatld", "localhost", "рфф", "р", "ф",
        ]
        #expect(all.count > 1600, "the names string read whole")
        #expect(all.contains("рф") && all.contains("中国"))
        for name in ascii.map({ $0.uppercased() }) + all + misses {
            let bytes = Array(name.utf8)
            let found = bytes.withUnsafeBufferPointer { TLDTable.shared.contains($0, 0..<$0.count) }
            #expect(found == all.contains(name.lowercased()), "\(name)")
        }
        let capitals = Array("РФ".utf8)
        #expect(!capitals.withUnsafeBufferPointer { TLDTable.shared.contains($0, 0..<$0.count) })
        #expect(LinkDetector().links(in: "ПРИМЕР.РФ и пример.рф").map(\.text) == ["ПРИМЕР.РФ", "пример.рф"])
    }

    /// Blocks of sixteen ASCII bytes, of words with other scripts, the eight bytes that end at a target, and
    /// texts shorter than a word.
    @Test(arguments: [
        "a😀bé中\u{301}x" + String(repeating: "Ωz😀", count: 9) + "🇫🇷 end",
        String(repeating: "ascii only, no other script ", count: 3) + "😀" + String(repeating: "x", count: 40) + "中",
        "é😀", "short",
    ])
    func offsetsOfWellFormedTextAreCountedByBlocks(text: String) {
        var copy = text
        copy.withUTF8 { bytes in
            var fast = OffsetCounter(bytes: bytes, wellFormed: true)
            var slow = OffsetCounter(bytes: bytes, wellFormed: false)
            var index = text.unicodeScalars.startIndex
            for target in 0...bytes.count where target == bytes.count || bytes[target] & 0xC0 != 0x80 {
                let prefix = text.unicodeScalars[text.unicodeScalars.startIndex..<index]
                let expected = (prefix.count, prefix.reduce(0) { $0 + UTF16.width($1) })
                let got = fast.advance(to: target)
                #expect(got == expected && slow.advance(to: target) == expected, "at byte \(target)")
                if index < text.unicodeScalars.endIndex { text.unicodeScalars.formIndex(after: &index) }
            }
            // In one stride, over blocks that end inside scalars.
            var once = OffsetCounter(bytes: bytes, wellFormed: true)
            #expect(once.advance(to: bytes.count) == (text.unicodeScalars.count, text.utf16.count))
        }
    }

    /// A found link makes its strings when read, equals the link made with them, and keeps the others when
    /// one is set.
    @Test func aFoundLinkIsTheLinkItsStringsMake() {
        var found = LinkDetector().links(in: "über Bücher.de/café und MAILTO:Ann@Example.com")
        #expect(found.map(\.text) == ["Bücher.de/café", "MAILTO:Ann@Example.com"])
        #expect(found.map(\.href) == ["https://bücher.de/café", "mailto:Ann@example.com"])
        #expect(found[0].asciiHref == "https://xn--bcher-kva.de/caf%C3%A9")
        let given = Link(
            text: found[0].text, href: found[0].href, asciiHref: found[0].asciiHref, kind: .url,
            range: found[0].range, utf16Range: found[0].utf16Range, utf8Range: found[0].utf8Range)
        #expect(found[0] == given && found[0].hashValue == given.hashValue)
        found[0].href = "https://example.com/"
        #expect(found[0].text == "Bücher.de/café" && found[0].href == "https://example.com/")
        #expect(found[0].asciiHref == "https://xn--bcher-kva.de/caf%C3%A9" && found[0] != given)
    }

    /// The candidate search (32 and 16 bytes a test, then the last sixteen bytes with those already seen
    /// left out) finds what a byte-by-byte search finds, from every start, in texts of every length up to
    /// three blocks of 32 with candidates at every place, around multi-byte scalars.
    @Test func theBlockSearchFindsWhatAByteLoopFinds() async throws {
        try await onThreadOfItsOwn {
            var generator = SystemRandomNumberGenerator()
            let pieces: [[UInt8]] = [[0x61], [0x2E], [0x2F], [0x3A], [0x40], Array("ж".utf8), Array("😀".utf8), [0x20]]
            for length in 0...100 {
                for _ in 0..<20 {
                    var bytes: [UInt8] = []
                    while bytes.count < length { bytes += pieces[Int.random(in: 0..<pieces.count, using: &generator)] }
                    bytes.withUnsafeBufferPointer { buffer in
                        let scanner = LinkScanner(bytes: buffer, options: .default)
                        for from in 0...buffer.count {
                            let naive = buffer.indices.first { $0 >= from && LinkScanner.isCandidate(buffer[$0]) }
                            #expect(scanner.nextCandidate(from: from) == naive, "\(bytes) from \(from)")
                        }
                    }
                }
            }
        }
    }

    /// The block scan's edges: a link whose trigger falls on every place around the 16-byte blocks, after
    /// 4-byte scalars, at the very end; a megabyte without a trigger, and one of dots.
    @Test func triggersAtEveryPlaceOfABlock() async throws {
        try await onThreadOfItsOwn {
            for pad in 0..<70 {
                for filler in ["x", "😀", "ж"] {
                    let prefix = String(repeating: filler, count: pad)
                    let text = prefix + " example.com/a and https://example.org"
                    let links = LinkDetector().links(in: text)
                    #expect(links.map(\.text) == ["example.com/a", "https://example.org"], "\(filler) × \(pad)")
                    #expect(links.first?.range.lowerBound == prefix.unicodeScalars.count + 1)
                    #expect(links.first?.utf16Range.lowerBound == prefix.utf16.count + 1)
                    #expect(links.last?.utf8Range.upperBound == text.utf8.count, "a link at the very end")
                }
            }
            let plain = String(repeating: "no trigger here 😀 ", count: 50_000)
            #expect(LinkDetector().links(in: plain).isEmpty)
            #expect(LinkDetector().links(in: String(repeating: ".", count: 1 << 20)).isEmpty)
            #expect(LinkDetector().links(in: plain + "mail ann@example.com").map(\.text) == ["ann@example.com"])
        }
    }
}

extension UInt8 {
    fileprivate var isASCIIDigitOrLetter: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
