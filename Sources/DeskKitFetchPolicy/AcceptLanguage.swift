/// The languages a fetch asks pages for: an HTTP `Accept-Language` value (RFC 9110 §12.5.4), checked.
///
/// One language tag stands for "this language first, any other after it" (`ru` sends `ru, *;q=0.5`): what a
/// customer's language means for a page that serves several. A list is sent as written, once every range and
/// weight in it is well-formed. A shop that serves Russian and English then gives a Russian customer its
/// Russian card; the preview cache keeps one card for each URL and language.
///
/// ```swift
/// let russian = try AcceptLanguage("ru")                      // ru, *;q=0.5
/// let list = try AcceptLanguage("pt-BR, pt;q=0.9, en;q=0.5")  // as written
/// try AcceptLanguage("ru\r\nX-Evil: 1")                       // throws: a header cannot be split
/// ```
public struct AcceptLanguage: Sendable, Hashable, CustomStringConvertible {
    /// The header's value.
    public let header: String

    /// English first, any other language after it (`en, *;q=0.5`).
    public static let `default` = AcceptLanguage(checked: "en, *;q=0.5")

    /// The most bytes a value may have.
    public static let maxBytes = 512
    /// The most languages a list may name.
    public static let maxRanges = 32

    private init(checked header: String) { self.header = header }

    /// A language tag (`ru`, `zh-Hans`, `pt-BR`: that language first, any other after it) or an
    /// `Accept-Language` list (`ru-RU, ru;q=0.9, en;q=0.8`), spaces around it ignored.
    public init(_ text: String) throws(Problem) {
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty else { throw Problem("is empty") }
        guard trimmed.utf8.count <= Self.maxBytes else { throw Problem("is longer than \(Self.maxBytes) bytes") }
        let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false).map(\.trimmingWhitespace)
        guard parts.count <= Self.maxRanges else { throw Problem("names more than \(Self.maxRanges) languages") }
        var ranges: [String] = []
        for part in parts {
            let pieces = part.split(separator: ";", omittingEmptySubsequences: false).map(\.trimmingWhitespace)
            guard Self.isLanguageRange(pieces[0]) else {
                throw Problem("has \(Self.quoted(pieces[0])) where a language tag (`ru`, `zh-Hans`) or `*` belongs")
            }
            guard pieces.count <= 2 else { throw Problem("has more than one weight in \(Self.quoted(part))") }
            if pieces.count == 2 {
                guard Self.isWeight(pieces[1]) else {
                    throw Problem("has \(Self.quoted(pieces[1])) where a weight q=0 … q=1 belongs")
                }
                ranges.append(pieces[0] + ";" + pieces[1].lowercased())
            } else {
                ranges.append(pieces[0])
            }
        }
        if ranges.count == 1, !ranges[0].contains(";"), ranges[0] != "*" { ranges.append("*;q=0.5") }
        header = ranges.joined(separator: ", ")
    }

    public var description: String { header }

    /// Why a text is no `Accept-Language` value.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, after "the language".
        public var reason: String
        init(_ reason: String) { self.reason = reason }
        public var description: String { "the language \(reason)" }
    }

    /// `*`, or a tag: 1 to 8 letters, then subtags of 1 to 8 letters or digits after `-`.
    static func isLanguageRange(_ range: String) -> Bool {
        if range == "*" { return true }
        let subtags = range.split(separator: "-", omittingEmptySubsequences: false)
        return subtags.enumerated().allSatisfy { index, subtag in
            (1...8).contains(subtag.utf8.count)
                && subtag.utf8.allSatisfy { isLetter($0) || (index > 0 && (0x30...0x39).contains($0)) }
        }
    }

    /// `q=0`, `q=0.5`, `q=1`, `q=1.000`: at most three decimals, at most 1.
    static func isWeight(_ text: String) -> Bool {
        let lower = text.lowercased()
        guard lower.hasPrefix("q=") else { return false }
        let value = Array(lower.utf8.dropFirst(2))
        guard let first = value.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return false }
        guard value.count > 1 else { return true }
        guard value[1] == UInt8(ascii: "."), value.count <= 5 else { return false }
        let decimals = value.dropFirst(2)
        return first == UInt8(ascii: "0")
            ? decimals.allSatisfy { (0x30...0x39).contains($0) } : decimals.allSatisfy { $0 == UInt8(ascii: "0") }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

    /// `text` quoted for a message, at most 40 characters of it, control characters escaped.
    private static func quoted(_ text: String) -> String {
        let shown = text.unicodeScalars.prefix(40).map {
            $0.value < 0x20 || $0.value == 0x7F ? $0.escaped(asASCII: true) : String($0)
        }
        return "\"" + shown.joined() + (text.unicodeScalars.count > 40 ? "…" : "") + "\""
    }
}

extension StringProtocol {
    fileprivate var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
