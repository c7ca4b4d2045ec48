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

extension CharsetDecision {
    /// Whether every ASCII character is its own byte and no other character uses those bytes, so the
    /// page's markup can be found in its bytes (true of UTF-8, windows-125x, ISO-8859, EUC, Shift_JIS,
    /// GBK, Big5; not of UTF-16 or ISO-2022-JP).
    var isASCIICompatible: Bool {
        !name.hasPrefix("UTF-16") && !name.hasPrefix("UTF-32") && !name.hasPrefix("ISO-2022")
    }
}
