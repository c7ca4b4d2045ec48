import DeskKitURL
@testable import DeskKitMetadata
import Testing
import DeskKitTestSupport

/// The text and URL helpers work on UTF-8 bytes for speed; each must answer exactly as the `Character` or
/// code-point version it replaced, kept here as the reference, on strings built to hit the edges:
/// combining marks after delimiters, a Prepend mark before a space, overlapping separators, entities cut
/// at 32 bytes, multi-byte text.
@Suite("Byte-level text helpers")
struct ByteLevelTextTests {
    static let alphabet: [String] = [
        " ", " ", "|", "-", "–", "_", "a", "B", "é", "腾", "\u{301}", "\u{600}", "&", ";", "#", "?", ":", "/", ".", "@",
        "[", "]", "amp", "#39", "#x27", "png", "JPG", "http", "//", "\u{64B}", "nbsp", "0",
    ]

    /// Deterministic strings of 0–24 pieces of the alphabet.
    static func strings(_ count: Int, seed: UInt64) -> [String] {
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        return (0..<count).map { _ in (0..<next() % 25).map { _ in alphabet[next() % alphabet.count] }.joined() }
    }

    @Test func titleSplitMatchesCharacterSplit() async throws {
        try await onThreadOfItsOwn {
            for title in Self.strings(20_000, seed: 1) {
                for separator in TitleSegments.separators {
                    #expect(
                        bytes(TitleSegments.split(title, separator)) == bytes(title.split(separator: separator)),
                        "\(title.debugDescription) by \(separator.debugDescription)")
                }
            }
            // The hand-picked edges: a combining mark after the separator's last space, a Prepend mark before its
            // first, overlapping separators, separators at both ends.
            for title in [" | \u{301}x | y", "a\u{600} | b | c", "a | | b", " | a | ", " |  | ", "x - y – z — w"] {
                for separator in TitleSegments.separators {
                    #expect(
                        bytes(TitleSegments.split(title, separator)) == bytes(title.split(separator: separator)),
                        "\(title.debugDescription)")
                }
            }
        }
    }

    @Test func entitiesDecodeAsByCodePoint() {
        for text in Self.strings(20_000, seed: 2) + [
            "&" + String(repeating: "a", count: 31) + ";", "&#" + String(repeating: "1", count: 40) + ";", "&amp;amp;",
            "&#x1F600;&#0;&#+39;",
        ] {
            #expect(
                Array(TextCleaning.decodeEntities(text).utf8) == Array(Reference.decodeEntities(text).utf8),
                "\(text.debugDescription)")
        }
    }

    @Test func imageFilesAsBySplitting() {
        for src in Self.strings(20_000, seed: 3) + [
            "?#a.png", "#?a.png", "??a.PNG", "a.jpg?x", "a.JPEG#f", ".png", "a.p\u{301}ng", "a.\u{301}png",
        ] {
            #expect(Collector.looksLikeImageFile(src) == Reference.looksLikeImageFile(src), "\(src.debugDescription)")
        }
    }

    @Test func urlPartsAsByCodePoint() async throws {
        try await onThreadOfItsOwn {
            for url in Self.strings(20_000, seed: 4) + [
                "http://u:p@[::1]:80/a?b#c", "a+b.c-d:x", "1a:b", "#\u{64B}x", "//h\u{301}/p",
            ] {
                let ours = URLResolution.split(Substring(url))
                let reference = Reference.split(Substring(url))
                #expect(
                    bytes([ours.scheme, ours.authority, ours.path, ours.query, ours.fragment])
                        == bytes([
                            reference.scheme, reference.authority, reference.path, reference.query, reference.fragment,
                        ]),
                    "\(url.debugDescription)")
                if let authority = ours.authority {
                    #expect(
                        bytes([URLResolution.host(ofAuthority: authority)])
                            == bytes([Reference.host(ofAuthority: authority)]))
                }
            }
        }
    }
}

/// Pieces as their exact bytes: `Substring`'s `==` compares canonically equivalent text as equal.
private func bytes(_ pieces: [Substring?]) -> [[UInt8]?] { pieces.map { $0.map { Array($0.utf8) } } }

/// The code-point and `Character` versions the byte-level helpers replaced.
private enum Reference {
    static func decodeEntities(_ s: String) -> String {
        guard s.utf8.contains(UInt8(ascii: "&")) else { return s }
        var out = String.UnicodeScalarView()
        var rest = s.unicodeScalars[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semi = after.prefix(32).firstIndex(of: ";"),
                let decoded = TextCleaning.entity(Substring(after[..<semi]))
            else {
                out.append("&")
                rest = after
                continue
            }
            out += decoded.unicodeScalars
            rest = after[after.index(after: semi)...]
        }
        return String(out + rest)
    }

    static func looksLikeImageFile(_ src: String) -> Bool {
        let path = src.split(separator: "?", maxSplits: 1).first?.split(separator: "#", maxSplits: 1).first ?? ""
        guard let dot = path.lastIndex(of: ".") else { return false }
        return ["jpg", "jpeg", "png", "gif", "webp", "avif", "bmp", "svg"].contains(
            path[path.index(after: dot)...].lowercased())
    }

    static func split(_ s: Substring) -> URLResolution.Parts {
        func isLetter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
        var rest = s.unicodeScalars
        var fragment: Substring?
        if let hash = rest.firstIndex(of: "#") {
            fragment = Substring(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        var query: Substring?
        if let q = rest.firstIndex(of: "?") {
            query = Substring(rest[rest.index(after: q)...])
            rest = rest[..<q]
        }
        var scheme: Substring?
        if let colon = rest.firstIndex(of: ":"), let first = rest.first, isLetter(first),
            rest[..<colon].allSatisfy({
                isLetter($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "."
            })
        {
            scheme = Substring(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        var authority: Substring?
        if rest.starts(with: "//".unicodeScalars) {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            authority = Substring(afterSlashes[..<end])
            rest = afterSlashes[end...]
        }
        return URLResolution.Parts(
            scheme: scheme, authority: authority, path: Substring(rest), query: query, fragment: fragment)
    }

    static func host(ofAuthority authority: Substring) -> Substring {
        var host = authority.unicodeScalars
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if host.first == "[", let close = host.firstIndex(of: "]") { return Substring(host[...close]) }
        if let colon = host.firstIndex(of: ":") { host = host[..<colon] }
        return Substring(host)
    }
}
