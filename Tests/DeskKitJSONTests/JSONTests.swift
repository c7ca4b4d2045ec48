import DeskKitInvariants
import Testing

@testable import DeskKitJSON

@Suite("JSON parser and writer")
struct JSONTests {
    @Test func parsesEveryKindOfValue() throws {
        let v = try JSONValue.parse(#" {"a": [1, -2, 3.5, 1e3, true, false, null, "x\n\u00e9\ud83d\ude00"], "b": {}} "#)
        #expect(
            v == [
                "a": [.integer(1), .integer(-2), .number("3.5"), .number("1e3"), true, false, nil, "x\né😀"],
                "b": .object(JSONObject()),
            ])
    }

    @Test func keepsInt64ExtremesAndBigNumbersExactly() throws {
        #expect(try JSONValue.parse("9223372036854775807") == .integer(.max))
        #expect(try JSONValue.parse("-9223372036854775808") == .integer(.min))
        #expect(try JSONValue.parse("9223372036854775808") == .number("9223372036854775808"))
        #expect(try JSONValue.parse("-0") == .number("-0"))
        let big = "123456789012345678901234567890"
        #expect(try JSONValue.parse(big).jsonString == big)
    }

    /// Integers are read eight digits at a time: every length, both signs, and the edges of 64 bits.
    @Test func integersOfEveryLengthReadExactly() throws {
        var rng = SplitMix64(seed: 8)
        for length in 1...19 {
            for _ in 0..<50 {
                var digits = String(UInt64.random(in: 1...9, using: &rng))
                for _ in 1..<length { digits += String(UInt64.random(in: 0...9, using: &rng)) }
                for text in [digits, "-" + digits] {
                    let expected = Int64(text).map(JSONValue.integer) ?? .number(text)
                    #expect(try JSONValue.parse(text) == expected, "\(text)")
                }
            }
        }
        #expect(try JSONValue.parse("9223372036854775808") == .number("9223372036854775808"))
        #expect(try JSONValue.parse("-9223372036854775809") == .number("-9223372036854775809"))
        #expect(try JSONValue.parse("18446744073709551616") == .number("18446744073709551616"))
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse("[12345678, 00]") }
    }

    @Test func duplicateKeysKeepBothAndLookupTakesTheLast() throws {
        let v = try JSONValue.parse(#"{"k": 1, "k": 2, "j": 0}"#)
        #expect(v["k"] == .integer(2))
        #expect(v.objectValue?.count == 3)
        #expect(v.objectValue?.duplicateKeys == ["k"])
    }

    /// Each repeated key once, where it appears the second time, in the object's order; keys equal as Swift
    /// strings are (canonically equivalent: `é` written as one scalar or as `e` and a combining accent).
    @Test func duplicateKeysAreListedAtTheirSecondAppearance() {
        #expect(DuplicateKeys.secondAppearances([]) == [])
        #expect(DuplicateKeys.secondAppearances(["a", "b", "c"]) == [])
        #expect(DuplicateKeys.secondAppearances(["b", "a", "b", "a", "b", "c", "a"]) == [2, 3])
        #expect(DuplicateKeys.secondAppearances(["z", "\u{E9}", "y", "e\u{301}"]) == [3])
        let many = (0..<50_000).map { "key\($0 % 25_000)" }
        #expect(DuplicateKeys.secondAppearances(many) == Array(25_000..<50_000))
    }

    struct Bad: Sendable, CustomStringConvertible {
        let text: String
        let code: JSONSyntaxError.Code
        let offset: Int
        var description: String { text }
    }

    @Test(arguments: [
        Bad(text: "", code: .empty, offset: 0),
        Bad(text: "   ", code: .empty, offset: 0),
        Bad(text: #"{"a": 1"#, code: .unexpectedEnd, offset: 7),
        Bad(text: #"{"a" 1}"#, code: .unexpectedCharacter, offset: 5),
        Bad(text: #"{"a": 1,}"#, code: .unexpectedCharacter, offset: 8),
        Bad(text: "[1] x", code: .trailingGarbage, offset: 4),
        Bad(text: "01", code: .invalidNumber, offset: 0),
        Bad(text: "-", code: .invalidNumber, offset: 0),
        Bad(text: "1.", code: .invalidNumber, offset: 0),
        Bad(text: "1e+", code: .invalidNumber, offset: 0),
        Bad(text: #""\x""#, code: .invalidEscape, offset: 1),
        Bad(text: #""\ud800""#, code: .invalidEscape, offset: 1),
        Bad(text: #""\udc00\ud800""#, code: .invalidEscape, offset: 1),
        Bad(text: #""\u12G4""#, code: .invalidEscape, offset: 1),
        Bad(text: "\"a\u{01}\"", code: .controlCharacter, offset: 2),
        // Right after a run of other scripts' characters (validated apart from the ASCII block scan).
        Bad(text: "\"Привет\u{01}\"", code: .controlCharacter, offset: 13),
        Bad(text: "\"日本\u{1F}\"", code: .controlCharacter, offset: 7),
        Bad(text: #""abc"#, code: .unexpectedEnd, offset: 0),
        Bad(text: "tru", code: .unexpectedEnd, offset: 3),
        Bad(text: "nul1", code: .unexpectedCharacter, offset: 3),
        // The same errors after a string's first escape (the part of the scanner that also unescapes).
        Bad(text: #""\n\x""#, code: .invalidEscape, offset: 3),
        Bad(text: #""\n\ud800""#, code: .invalidEscape, offset: 3),
        Bad(text: "\"\\n\u{01}\"", code: .controlCharacter, offset: 3),
        Bad(text: #""\nabcdefghijklmnop"#, code: .unexpectedEnd, offset: 0),
        Bad(text: #""\n\u12"#, code: .unexpectedEnd, offset: 5),  // where the four digits should be
        Bad(text: #""\n\"#, code: .unexpectedEnd, offset: 4),
    ])
    func reportsWhatAndWhere(_ bad: Bad) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(bad.text) }
        do {
            _ = try JSONValue.parse(bad.text)
        } catch {
            #expect(error.code == bad.code)
            #expect(error.offset == bad.offset)
        }
    }

    /// Strings with escapes are unescaped by the parser, sixteen bytes at a time: at every alignment, at the
    /// very end of the text, many in one text, they must read as written.
    @Test func escapedStringsReadAsWrittenAtEveryAlignment() throws {
        let escaped = #"a\"b\\c\/d\b\f\n\r\t\u00e9\u4e2d\ud83d\ude00e"#
        let value = "a\"b\\c/d\u{08}\u{0C}\n\r\té中😀e"
        for pad in 0..<17 {
            let p = String(repeating: "p", count: pad)
            let text =
                #"{"\#(p)\#(escaped)": ["\#(escaped)\#(p)", "plain\#(p)", "\#(p)\#(escaped)"], "k\n": "\#(escaped)"}"#
            let v = try JSONValue.parse(text)
            #expect(v[p + value] == [.string(value + p), .string("plain" + p), .string(p + value)])
            #expect(v["k\n"] == .string(value))
            // A string with an escape that ends the text.
            #expect(try JSONValue.parse("\"" + p + escaped + "\"") == .string(p + value))
        }
    }

    /// Long strings of random pieces (escapes of every kind, dense or far apart, multi-byte characters,
    /// runs of plain text) read as the characters they stand for, as values and as keys; a bad piece put
    /// anywhere in such a string is reported with its own offset.
    @Test func randomEscapedStringsReadAsTheirCharacters() throws {
        let pieces: [(written: String, value: String)] = [
            (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\b"#, "\u{08}"), (#"\f"#, "\u{0C}"), (#"\n"#, "\n"),
            (#"\r"#, "\r"), (#"\t"#, "\t"), (#"\u00e9"#, "é"), (#"\u4E2D"#, "中"), (#"\ud83d\ude00"#, "😀"),
            (#"\u005C"#, "\\"), (#"\u0022"#, "\""), ("a", "a"), ("é", "é"), ("中", "中"), ("😀", "😀"), (" ", " "),
            ("abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyz"), (#"\\\""#, "\\\""),
        ]
        var rng = SplitMix64(seed: 16)
        for _ in 0..<400 {
            var written = ""
            var value = ""
            var boundaries = [0]  // UTF-8 lengths of `written` between pieces
            for _ in 0..<Int.random(in: 0..<80, using: &rng) {
                let piece = pieces[Int.random(in: 0..<pieces.count, using: &rng)]
                written += piece.written
                value += piece.value
                boundaries.append(written.utf8.count)
            }
            let text = #"{"\#(written)": ["\#(written)", 1], "k": "\#(written)x"}"#
            let v = try JSONValue.parse(text)
            #expect(v[value] == [.string(value), .integer(1)])
            #expect(v["k"] == .string(value + "x"))

            // A bad piece between two pieces: its offset is where the escape (or the control byte) starts.
            let bad = [
                (#"\x"#, JSONSyntaxError.Code.invalidEscape), (#"\ud800a"#, .invalidEscape),
                ("\u{01}", .controlCharacter),
            ]
            .randomElement(using: &rng)!
            let cut = boundaries.randomElement(using: &rng)!
            let prefix = String(decoding: written.utf8.prefix(cut), as: UTF8.self)
            let broken = "[\"" + prefix + bad.0 + "\"]"
            do {
                _ = try JSONValue.parse(broken)
                Issue.record("parsed \(broken)")
            } catch {
                #expect(error.code == bad.1, "\(broken)")
                #expect(error.offset == 2 + prefix.utf8.count, "\(broken)")
            }
        }
    }

    @Test func aReusedTapeStorageForgetsThePreviousText() {
        let storage = TapeStorage(capacity: 8)
        let many = "[" + String(repeating: #""\n","#, count: 500) + #""\t"]"#
        for (text, expected) in [
            (#"["\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9", "x\ty"]"#, ["ééééééé", "x\ty"]),
            (#"["a\nb"]"#, ["a\nb"]),
            (many, Array(repeating: "\n", count: 500) + ["\t"]),  // grows tokens and text
            (#"["\/"]"#, ["/"]),
        ] {
            let bytes = Array(text.utf8)
            let strings = bytes.withUnsafeBufferPointer { b -> [String]? in
                guard case .success(let tape) = JSONTape.parse(b, limits: .default, into: storage) else { return nil }
                return tape.elements(0).map { tape.string(at: $0) }
            }
            #expect(strings == expected)
        }
    }

    @Test func rejectsInvalidUTF8WithItsOffset() throws {
        let bytes: [UInt8] = Array(#"{"a": "caf"#.utf8) + [0xE9] + Array(#""}"#.utf8)
        do {
            _ = try JSONValue.parse(bytes)
            Issue.record("parsed invalid UTF-8")
        } catch {
            #expect(error.code == .invalidUTF8)
            #expect(error.offset == 10)
        }
        // Overlong encoding and UTF-8-encoded surrogates are invalid too.
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse([0x22, 0xC0, 0xAF, 0x22]) }
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse([0x22, 0xED, 0xA0, 0x80, 0x22]) }
        // Inside a run of other-script characters, and cut short at the end of the text: the offset is the
        // bad sequence's.
        let run = Array("\"こんにちは".utf8)
        let cases: [([UInt8], Int)] = [([0xFF], run.count), ([0xE3, 0x81], run.count), ([0xE3, 0x22], run.count)]
        for (bad, offset) in cases {
            do {
                _ = try JSONValue.parse(run + bad + Array("世界\"".utf8))
                Issue.record("parsed invalid UTF-8 \(bad)")
            } catch let error as JSONSyntaxError {
                #expect(error.code == .invalidUTF8)
                #expect(error.offset == offset)
            }
        }
        #expect(try JSONValue.parse(run + Array("мир世界😀\"".utf8)) == .string("こんにちはмир世界😀"))
    }

    @Test func boundsNesting() throws {
        let ok = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
        #expect(throws: Never.self) { try JSONValue.parse(ok) }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try JSONValue.parse(deep)
            Issue.record("no depth limit")
        } catch {
            #expect(error.code == .tooDeep)
        }
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse("[[1]]", limits: JSONLimits(maxDepth: 1)) }
    }

    @Test func writerEscapesAndRoundTrips() throws {
        let value: JSONValue = ["q": "say \"hi\"\\ \u{01}\t\n", "u": "日本語 😀", "n": .number("1.50"), "a": [nil, true]]
        let text = value.jsonString
        #expect(text == #"{"q":"say \"hi\"\\ \u0001\t\n","u":"日本語 😀","n":1.50,"a":[null,true]}"#)
        #expect(try JSONValue.parse(text) == value)
    }

    @Test func writerWritesIntegersAtTheirExtremes() {
        for i: Int64 in [0, 7, 10, -1, -10, 99, 100, 1_234_567_890, .max, .min, .max - 1, .min + 1] {
            var w = JSONWriter(capacity: 0)
            w.write(i)
            #expect(w.string == String(i))
        }
    }

    @Test func writerIsAValueAndGrowsFromNothing() throws {
        var a = JSONWriter(capacity: 0)
        for i in 0..<1_000 { a.member("k", "value \(i) \u{7F}\"", first: i == 0) }
        var b = a  // a copy: writing to one leaves the other as it was
        b.raw("}")
        a.raw("]")
        #expect(a.count == b.count)
        #expect(a.string.hasSuffix("]") && b.string.hasSuffix("}"))
        #expect(a.string.dropLast() == b.string.dropLast())
        #expect(a.bytes == Array(a.string.utf8))
        b.removeAll(keepingCapacity: true)
        #expect(b.count == 0 && a.count > 0)
        b.bytes = Array("[1]".utf8)
        b.append(contentsOf: [0x0A])
        #expect(b.string == "[1]\n")
        let strings = (0..<300).map { "\u{01}x\(String(repeating: "\\", count: $0 % 5))y" }
        var c = JSONWriter(capacity: 1)
        c.array(strings) { $0.write($1) }
        #expect(try JSONValue.parse(c.string) == .array(strings.map(JSONValue.string)))
    }
}

@Suite("Base64")
struct Base64Tests {
    func decode(_ s: String) throws(Base64.DecodingError) -> ([UInt8], Base64.Style) {
        var s = s
        let r = s.withUTF8 { b in Result { () throws(Base64.DecodingError) in try Base64.decode(b) } }
        return try r.get()
    }

    @Test func decodesEveryVariant() throws {
        #expect(try decode("aGk/Pz8+") == (Array("hi???>".utf8), []))
        #expect(try decode("aGk_Pz8-") == (Array("hi???>".utf8), [.urlSafe]))
        #expect(try decode("aGk") == (Array("hi".utf8), [.unpadded]))
        #expect(try decode("aGk=") == (Array("hi".utf8), []))
        #expect(try decode("aG\r\nk=") == (Array("hi".utf8), [.wrapped]))
        #expect(try decode("") == ([], []))
    }

    @Test(arguments: ["a", "aGk==", "aG=k", "a===", "aGk/_z8+", "aGk*", "=aGk"])
    func rejectsBadText(_ text: String) {
        #expect(throws: Base64.DecodingError.self) { try decode(text) }
    }

    /// Long texts go through the four-characters-at-a-time path: wrapped at any place, in either alphabet,
    /// and caught when they mix the two however far apart the characters are.
    @Test func decodesLongTextsAndCatchesMixedAlphabetsFarApart() throws {
        var rng = SplitMix64(seed: 64)
        for n in stride(from: 0, to: 600, by: 7) {
            let bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var wrapped = Base64.encode(bytes)
            if !wrapped.isEmpty {
                let at = wrapped.index(wrapped.startIndex, offsetBy: Int.random(in: 0..<wrapped.count, using: &rng))
                wrapped.insert(contentsOf: "\r\n", at: at)
            }
            let (decoded, style) = try decode(wrapped)
            #expect(decoded == bytes)
            #expect(style.contains(.wrapped) == !bytes.isEmpty)
            #expect(try decode(Base64.encode(bytes, urlSafe: true)).0 == bytes)
        }
        let standard = Base64.encode([0xFB, 0xFF] + Array(repeating: 0x41, count: 300))  // starts "+/"
        let urlSafe = Base64.encode(Array(repeating: 0x41, count: 300) + [0xFB, 0xFF], urlSafe: true)  // ends in "-_"
        #expect(throws: Base64.DecodingError.self) { try decode(String(standard.dropLast(4)) + urlSafe) }
    }

    @Test func encodesAsTheStandardPaddedAlphabet() throws {
        var rng = SplitMix64(seed: 7)
        for n in 0..<64 {
            let bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let text = Base64.encode(bytes)
            #expect(text.count == (n + 2) / 3 * 4)
            #expect(try decode(text).0 == bytes)
            #expect(try decode(Base64.encode(bytes, urlSafe: true)).0 == bytes)
        }
    }
}
