/// The character encoding a page was read with, and how it was chosen.
public struct CharsetDecision: Sendable, Hashable {
    /// Where the decision came from, strongest first.
    public struct Source: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String, CaseIterable {
            case byteOrderMark = "bom", httpHeader = "http", meta, detectedUTF8 = "detected-utf-8",
                utf8OverDeclaration = "utf-8-over-declaration", detected, fallback
        }
        private let code: Code
        private init(_ code: Code) { self.code = code }

        /// The member named `rawValue`, or nil for a name this version does not know.
        public init?(rawValue: String) {
            guard let code = Code(rawValue: rawValue) else { return nil }
            self.code = code
        }

        /// Its name, short and fixed: what the JSON and the metrics print.
        public var rawValue: String { code.rawValue }
        public var description: String { code.rawValue }

        /// A byte order mark.
        public static let byteOrderMark = Source(.byteOrderMark)

        /// The HTTP `Content-Type` charset parameter.
        public static let httpHeader = Source(.httpHeader)

        /// `<meta charset>` or `<meta http-equiv="Content-Type">`, anywhere in the head.
        public static let meta = Source(.meta)

        /// Nothing declared; the bytes are valid UTF-8.
        public static let detectedUTF8 = Source(.detectedUTF8)

        /// A declaration said otherwise, but the bytes are valid UTF-8 with multi-byte characters: pages
        /// that lie about their charset are common, valid UTF-8 by accident is not.
        public static let utf8OverDeclaration = Source(.utf8OverDeclaration)

        /// No declaration fits the bytes (none was made, or the bytes contradict it) and they are not UTF-8:
        /// uchardet named the encoding, and the bytes are valid in it.
        public static let detected = Source(.detected)

        /// No declaration fits, the bytes are not UTF-8 and the detector found nothing: windows-1252.
        public static let fallback = Source(.fallback)
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

extension CharsetDecision.Source {
    /// Whether the bytes chose the encoding, nothing declared it (or every declaration was contradicted):
    /// a `<meta>` later in the head may still change it (the HTML standard's "tentative" confidence).
    var isGuess: Bool { self == .detectedUTF8 || self == .detected || self == .fallback }
}

extension CharsetDecision {
    /// Whether every ASCII character is its own byte and no other character uses those bytes, so the
    /// page's markup can be found in its bytes (true of UTF-8, windows-125x, ISO-8859, EUC, Shift_JIS,
    /// GBK, Big5; not of UTF-16 or ISO-2022-JP).
    var isASCIICompatible: Bool {
        !name.hasPrefix("UTF-16") && !name.hasPrefix("UTF-32") && !name.hasPrefix("ISO-2022")
    }
}
