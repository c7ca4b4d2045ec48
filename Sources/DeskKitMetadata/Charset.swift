#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import DeskKitJSON

/// The character encoding a page was read with, and how it was chosen.
public struct CharsetDecision: Sendable, Hashable {
    /// Where the decision came from, strongest first.
    public enum Source: String, Sendable, Hashable {
        /// A byte order mark.
        case byteOrderMark = "bom"
        /// The HTTP `Content-Type` charset parameter.
        case httpHeader = "http"
        /// `<meta charset>` or `<meta http-equiv="Content-Type">`, anywhere in the head.
        case meta
        /// Nothing declared; the bytes are valid UTF-8.
        case detectedUTF8 = "detected-utf-8"
        /// A declaration said otherwise, but the bytes are valid UTF-8 with multi-byte characters: pages
        /// that lie about their charset are common, valid UTF-8 by accident is not.
        case utf8OverDeclaration = "utf-8-over-declaration"
        /// No declaration fits the bytes (none was made, or the bytes contradict it) and they are not UTF-8:
        /// uchardet named the encoding, and the bytes are valid in it.
        case detected
        /// No declaration fits, the bytes are not UTF-8 and the detector found nothing: windows-1252.
        case fallback
    }

    /// The encoding's name as libxml2/iconv know it (`UTF-8`, `SHIFT_JIS`, `WINDOWS-1251`, …).
    public var name: String
    /// Why this encoding was chosen.
    public var source: Source
    /// What the page or server declared, when that was overruled (the first declaration the bytes
    /// contradicted).
    public var declared: String?

    /// A decision for `name`, made by `source`, over `declared` when a declaration was overruled.
    public init(name: String, source: Source, declared: String? = nil) {
        self.name = name
        self.source = source
        self.declared = declared
    }
}

enum CharsetSniffer {
    /// How much of the page is looked at for a `<meta>` declaration (the whole head up to this size).
    static let prescanLimit = 64 * 1024

    /// The bytes the decision looks at: up to the end of the head (the first `</head` or `<body`), at most
    /// ``prescanLimit``. The same bytes however the page arrives, so streaming decides as a whole page does.
    static func window(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let limit = min(bytes.count, prescanLimit)
        let scope = UnsafeBufferPointer(rebasing: bytes[0..<limit])
        return headEnd(in: scope, from: 0).map { min(limit, $0 + headEndLength) } ?? limit
    }

    /// How many bytes from the start of `</head` or `<body` the window takes in.
    static let headEndLength = 6

    /// Whether `bytes`, the start of a page, hold the whole of ``window(_:)`` — which more bytes would not
    /// change — looking for the end of the head from `from` on.
    static func holdsWindow(_ bytes: UnsafeBufferPointer<UInt8>, searchingFrom from: Int) -> Bool {
        bytes.count >= prescanLimit || headEnd(in: bytes, from: from).map { $0 + headEndLength <= bytes.count } ?? false
    }

    /// Where the first `</head` or `<body` (any case) starts at or after `from`.
    static func headEnd(in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var i = from
        while let lt = find(UInt8(ascii: "<"), in: b, from: i) {
            if startsWith(b, at: lt, "</head") || startsWith(b, at: lt, "<body") { return lt }
            i = lt + 1
        }
        return nil
    }

    /// The first `byte` at or after `from` (memchr: many bytes at a time).
    static func find(_ byte: UInt8, in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let base = b.baseAddress, from < b.count, let hit = memchr(base + from, Int32(byte), b.count - from)
        else {
            return nil
        }
        return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
    }

    /// Decides the encoding: BOM > HTTP charset > `<meta>` > UTF-8 when the bytes are UTF-8 > what
    /// uchardet detects > windows-1252. A declaration the bytes contradict is passed over for the next: a
    /// UTF-8 one by bytes that are mostly not UTF-8, a multi-byte one (Shift_JIS, GBK, Big5…) by bytes
    /// that are mostly invalid in it, or that another multi-byte encoding the detector names reads without
    /// an error; a single-byte one by bytes that are valid UTF-8 with multi-byte characters.
    static func decide(_ bytes: UnsafeBufferPointer<UInt8>, contentType: String?) -> CharsetDecision {
        guard bytes.count > 0 else { return CharsetDecision(name: "UTF-8", source: .detectedUTF8) }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            return CharsetDecision(name: "UTF-8", source: .byteOrderMark)
        }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE {
            return CharsetDecision(name: "UTF-16LE", source: .byteOrderMark)
        }
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF {
            return CharsetDecision(name: "UTF-16BE", source: .byteOrderMark)
        }
        let sample = UnsafeBufferPointer(rebasing: bytes[0..<window(bytes)])
        var declarations: [(name: String, source: CharsetDecision.Source)] = []
        if let label = contentType.flatMap(charsetParameter), let name = canonicalName(label) {
            declarations.append((name, .httpHeader))
        }
        if let label = metaCharset(sample), let name = canonicalName(label) { declarations.append((name, .meta)) }
        let utf8 = UTF8Evidence(sample)
        var overruled: String?
        for (name, source) in declarations {
            if name == "UTF-8" {
                if !utf8.contradictsUTF8 { return CharsetDecision(name: name, source: source, declared: overruled) }
            } else if utf8.isUTF8, utf8.multibyte > 0 {
                return CharsetDecision(name: "UTF-8", source: .utf8OverDeclaration, declared: name)
            } else {
                switch CharsetDetection.fit(sample, as: name) {
                case .clean: return CharsetDecision(name: name, source: source, declared: overruled)
                case .strays:
                    // A page labelled with one CJK encoding and written in another (GBK declared as
                    // Shift_JIS) also reads with a few errors: when the detector names a multi-byte
                    // encoding that reads the bytes cleanly, it is that one; else the errors are stray bytes.
                    if let detected = CharsetDetection.detect(sample), detected != name,
                        CharsetDetection.isMultiByte(detected), CharsetDetection.fit(sample, as: detected) == .clean
                    {
                        return CharsetDecision(name: detected, source: .detected, declared: name)
                    }
                    return CharsetDecision(name: name, source: source, declared: overruled)
                case .contradicted: break
                }
            }
            overruled = overruled ?? name
        }
        if !utf8.contradictsUTF8 { return CharsetDecision(name: "UTF-8", source: .detectedUTF8, declared: overruled) }
        if let name = CharsetDetection.detect(sample), name != "UTF-8", CharsetDetection.decodes(sample, as: name) {
            return CharsetDecision(name: name, source: .detected, declared: overruled)
        }
        return CharsetDecision(name: "WINDOWS-1252", source: .fallback, declared: overruled)
    }

    /// How far bytes are UTF-8: their valid multi-byte sequences and their invalid ones.
    struct UTF8Evidence {
        var multibyte = 0
        var invalid = 0

        /// Valid UTF-8 (ASCII alone counts).
        var isUTF8: Bool { invalid == 0 }
        /// Invalid sequences that are not strays among valid characters: a title cut inside a character by a
        /// CMS leaves one among many; text in a legacy encoding is mostly invalid (GBK, whose pairs are
        /// the most often valid by accident, about nine in ten).
        var contradictsUTF8: Bool { invalid > 0 && invalid * 2 > multibyte }

        init(_ b: UnsafeBufferPointer<UInt8>) {
            var i = 0
            guard let base = b.baseAddress.map(UnsafeRawPointer.init) else { return }
            while i < b.count {
                // ASCII eight bytes at a time.
                while i + 8 <= b.count,
                    base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    i += 8
                }
                guard i < b.count else { break }
                if b[i] < 0x80 {
                    i += 1
                    continue
                }
                let n = UTF8Validation.sequenceLength(b, at: i)
                if n == 0 {
                    // A sequence cut by the end of the sample (a chunk boundary) is not evidence against UTF-8.
                    let cut =
                        b.count - i < 4 && b[i] >= 0xC2 && b[i] <= 0xF4
                        && b[(i + 1)...].allSatisfy { $0 & 0xC0 == 0x80 }
                    if cut { break }
                    invalid += 1
                    i += 1
                } else {
                    multibyte += 1
                    i += n
                }
            }
        }
    }

    /// `charset=` of a Content-Type value.
    static func charsetParameter(_ contentType: String) -> String? {
        for part in contentType.split(separator: ";").dropFirst() {
            let kv = part.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, kv[0].trimmingCharacters(in: " \t").lowercased() == "charset" else { continue }
            let value = kv[1].trimmingCharacters(in: " \t\"'")
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The libxml2/iconv name for a charset label, following the WHATWG Encoding Standard's aliases
    /// (latin1 and ascii are windows-1252, gb2312 is GBK, shift_jis is Windows-31J…). Nil when unknown.
    static func canonicalName(_ label: String) -> String? {
        let l = label.trimmingCharacters(in: " \t\"'").lowercased()
        switch l {
        case "utf-8", "utf8", "unicode-1-1-utf-8", "x-unicode20utf8": return "UTF-8"
        case "utf-16", "utf-16le", "utf-16be", "unicode", "ucs-2":
            return "UTF-8"  // a UTF-16 label without a BOM is UTF-8 (WHATWG)
        case "iso-8859-1", "latin1", "l1", "ascii", "us-ascii", "iso8859-1", "iso_8859-1", "cp1252", "windows-1252",
            "x-cp1252":
            return "WINDOWS-1252"
        case "shift_jis", "shift-jis", "sjis", "x-sjis", "ms_kanji", "csshiftjis", "windows-31j", "cp932", "ms932":
            return "CP932"
        case "euc-jp", "eucjp", "x-euc-jp", "cseucpkdfmtjapanese": return "EUC-JP"
        case "iso-2022-jp", "csiso2022jp": return "ISO-2022-JP"
        case "gb2312", "gbk", "x-gbk", "cp936", "chinese", "csgb2312", "gb_2312-80", "iso-ir-58": return "GBK"
        case "gb18030": return "GB18030"
        case "big5", "big5-hkscs", "x-x-big5", "cn-big5", "csbig5": return "BIG5-HKSCS"
        case "euc-kr", "ks_c_5601-1987", "windows-949", "cp949", "korean", "csksc56011987", "uhc": return "CP949"
        case "koi8-r", "koi8", "cskoi8r", "koi": return "KOI8-R"
        case "koi8-u", "koi8-ru": return "KOI8-U"
        case "tis-620", "iso-8859-11", "windows-874", "dos-874": return "CP874"
        default:
            if l.hasPrefix("windows-125"), l.count == 12 { return l.uppercased() }
            if l.hasPrefix("cp125"), l.count == 6 { return "WINDOWS-" + l.dropFirst(2) }
            if l.hasPrefix("iso-8859-") || l.hasPrefix("iso8859-") {
                let n = l.split(separator: "-").last.map(String.init) ?? ""
                if let v = Int(n), (2...16).contains(v) { return "ISO-8859-\(v)" }
            }
            return nil
        }
    }

    /// Looks for `<meta charset>` or `<meta http-equiv="content-type" content="…charset=…">` up to the
    /// end of the head (past WHATWG's first 1024 bytes: real pages declare later), skipping comments.
    static func metaCharset(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        var i = 0
        while i < b.count {
            guard let lt = find(UInt8(ascii: "<"), in: b, from: i) else { return nil }
            i = lt + 1
            if startsWith(b, at: lt, "<!--") {
                i = findSequence(Array("-->".utf8), in: b, from: lt + 4).map { $0 + 3 } ?? b.count
                continue
            }
            if startsWith(b, at: lt, "</head") || startsWith(b, at: lt, "<body") { return nil }
            guard startsWith(b, at: lt, "<meta"), lt + 5 < b.count, isSpace(b[lt + 5]) || b[lt + 5] == 0x2F else {
                continue
            }
            let (attributes, end) = TagAttributes.parse(b, from: lt + 5)
            i = end
            if let charset = attributes["charset"], !charset.isEmpty { return charset }
            if attributes["http-equiv"]?.lowercased() == "content-type", let content = attributes["content"],
                let charset = charsetParameter("x;" + String(content.map { $0 == "," ? ";" : $0 }))
            {
                return charset
            }
        }
        return nil
    }

    /// Where `s` (lowercase ASCII, not starting with a letter) first occurs at or after `from`, in any case.
    static func findSequence(_ s: [UInt8], in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var i = from
        while let first = find(s[0], in: b, from: i) {
            if startsWith(b, at: first, s) { return first }
            i = first + 1
        }
        return nil
    }

    /// Case-insensitive prefix test at `i` (the pattern is lowercase ASCII).
    static func startsWith(_ b: UnsafeBufferPointer<UInt8>, at i: Int, _ pattern: some Collection<UInt8>) -> Bool {
        guard i + pattern.count <= b.count else { return false }
        var j = i
        for p in pattern {
            let c = b[j]
            if (c >= 0x41 && c <= 0x5A ? c | 0x20 : c) != p { return false }
            j += 1
        }
        return true
    }

    static func startsWith(_ b: UnsafeBufferPointer<UInt8>, at i: Int, _ pattern: StaticString) -> Bool {
        startsWith(b, at: i, UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount))
    }

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C
    }
}

/// A tolerant reader of the attributes of one tag, for the charset prescan.
enum TagAttributes {
    /// Attributes (names lowercased) from `i` to the closing `>`, and the index after it.
    static func parse(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> ([String: String], Int) {
        var out: [String: String] = [:]
        var i = start
        func skipSpace() { while i < b.count, CharsetSniffer.isSpace(b[i]) || b[i] == 0x2F { i += 1 } }
        while true {
            skipSpace()
            guard i < b.count, b[i] != UInt8(ascii: ">") else { return (out, min(i + 1, b.count)) }
            let nameStart = i
            while i < b.count, !CharsetSniffer.isSpace(b[i]), b[i] != 0x3D, b[i] != 0x3E, b[i] != 0x2F { i += 1 }
            let name = String(decoding: b[nameStart..<i], as: UTF8.self).lowercased()
            while i < b.count, CharsetSniffer.isSpace(b[i]) { i += 1 }
            var value = ""
            if i < b.count, b[i] == 0x3D {
                i += 1
                while i < b.count, CharsetSniffer.isSpace(b[i]) { i += 1 }
                if i < b.count, b[i] == 0x22 || b[i] == 0x27 {
                    let quote = b[i]
                    let valueStart = i + 1
                    i = CharsetSniffer.find(quote, in: b, from: valueStart) ?? b.count
                    value = String(decoding: b[valueStart..<i], as: UTF8.self)
                    i = min(i + 1, b.count)
                } else {
                    let valueStart = i
                    while i < b.count, !CharsetSniffer.isSpace(b[i]), b[i] != 0x3E { i += 1 }
                    value = String(decoding: b[valueStart..<i], as: UTF8.self)
                }
            }
            if !name.isEmpty, out[name] == nil { out[name] = value }
            if i == nameStart { i += 1 }
        }
    }
}

extension StringProtocol {
    /// The string without the characters of `set` at either end.
    package func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
