/// An encoding of the WHATWG Encoding Standard as DeskKit reads it: the one table of encoding labels, the
/// names decisions carry (``CharsetDecision/name``) and how each encoding is decoded.
///
/// A label is looked up as the standard's "get an encoding" does (white space trimmed, ASCII case ignored);
/// a label the standard does not list names no encoding, as in a browser. The names are iconv's, since
/// iconv (through ``LegacyDecoder``) or libxml2 does the decoding; they are what `deskkit extract` prints.
struct WebEncoding: Hashable, Sendable {
    /// The name decisions carry: libxml2's or iconv's name for it (`UTF-8`, `WINDOWS-1251`, `CP932`…).
    let name: String
    /// The iconv converter that reads it as the standard does (gb18030's for GBK, which the standard
    /// decodes as gb18030).
    let iconvName: String
    /// How its bytes make characters.
    let kind: Kind
    /// The standard's labels for it, lowercase.
    let labels: [String]

    enum Kind: Hashable, Sendable {
        case utf8
        case utf16
        /// One or two bytes a character, most byte sequences invalid (Shift_JIS, EUC-JP, GBK, gb18030,
        /// Big5, EUC-KR): text in another encoding shows up as errors.
        case multiByte
        /// A windows code page (windows-125x, windows-874): its undefined bytes are the C1 controls.
        case windowsCodePage
        /// Any other: one byte a character (ISO-8859-x, KOI8, IBM866, macintosh), or ISO-2022-JP.
        case other
    }

    private init(_ name: String, iconv: String? = nil, _ kind: Kind, _ labels: [String]) {
        self.name = name
        self.iconvName = iconv ?? name
        self.kind = kind
        self.labels = labels
    }

    /// The encoding a label names, by the standard's table; nil for a label it does not list, and for the
    /// ones it reads as "replacement" (ISO-2022-KR, HZ…: a whole page of one U+FFFD), which say nothing
    /// about a page's text.
    static func labelled(_ label: some StringProtocol) -> WebEncoding? {
        let trimmed = label.utf8.drop { isWhitespace($0) }.reversed().drop { isWhitespace($0) }.reversed()
        return byLabel[String(decoding: trimmed, as: UTF8.self).lowercased()]
    }

    /// The encoding a page whose label names this one is read in when no byte order mark says otherwise:
    /// UTF-8 for a UTF-16 label (markup that could be read to find the label is no UTF-16; the HTML
    /// standard's rule for `<meta>`), this one otherwise.
    var withoutByteOrderMark: WebEncoding { kind == .utf16 ? Self.all[0] : self }

    /// The encoding a decision names, by its ``name``.
    static func named(_ name: String) -> WebEncoding? { all.first { $0.name == name } }

    /// The encoding for a name a detector or iconv gives (uchardet's `SHIFT_JIS`, `UHC`, `MAC-CYRILLIC`): a
    /// label of the table, the name or iconv name of one of its encodings, or iconv's own spellings of them.
    static func detected(_ name: String) -> WebEncoding? {
        if let encoding = labelled(name) { return encoding }
        let upper = name.uppercased()
        return all.first { $0.name == upper || $0.iconvName == upper } ?? otherNames[upper].flatMap(named)
    }

    /// iconv's and uchardet's names for encodings of the table, which are not labels of the standard.
    private static let otherNames = ["UHC": "CP949", "CP936": "GBK", "MACCYRILLIC": "MAC-CYRILLIC", "MAC": "MACINTOSH"]

    private static func isWhitespace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D
    }

    private static let byLabel = Dictionary(
        all.flatMap { encoding in encoding.labels.map { ($0, encoding) } }, uniquingKeysWith: { first, _ in first })

    /// The standard's encodings and their labels (https://encoding.spec.whatwg.org/#names-and-labels), in
    /// its order. ISO-8859-8-I's labels read as ISO-8859-8 (the direction of text is not read here).
    static let all: [WebEncoding] = {
        var table: [WebEncoding] = []
        func add(_ name: String, iconv: String? = nil, _ kind: Kind, _ labels: [String]) {
            table.append(WebEncoding(name, iconv: iconv, kind, labels))
        }
        add(
            "UTF-8", .utf8,
            ["unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8"])
        add("IBM866", .other, ["866", "cp866", "csibm866", "ibm866"])
        add(
            "ISO-8859-2", .other,
            [
                "csisolatin2", "iso-8859-2", "iso-ir-101", "iso8859-2", "iso88592", "iso_8859-2", "iso_8859-2:1987",
                "l2", "latin2",
            ])
        add(
            "ISO-8859-3", .other,
            [
                "csisolatin3", "iso-8859-3", "iso-ir-109", "iso8859-3", "iso88593", "iso_8859-3", "iso_8859-3:1988",
                "l3", "latin3",
            ])
        add(
            "ISO-8859-4", .other,
            [
                "csisolatin4", "iso-8859-4", "iso-ir-110", "iso8859-4", "iso88594", "iso_8859-4", "iso_8859-4:1988",
                "l4", "latin4",
            ])
        add(
            "ISO-8859-5", .other,
            [
                "csisolatincyrillic", "cyrillic", "iso-8859-5", "iso-ir-144", "iso8859-5", "iso88595", "iso_8859-5",
                "iso_8859-5:1988",
            ])
        add(
            "ISO-8859-6", .other,
            [
                "arabic", "asmo-708", "csiso88596e", "csiso88596i", "csisolatinarabic", "ecma-114", "iso-8859-6",
                "iso-8859-6-e", "iso-8859-6-i", "iso-ir-127", "iso8859-6", "iso88596", "iso_8859-6",
                "iso_8859-6:1987",
            ])
        add(
            "ISO-8859-7", .other,
            [
                "csisolatingreek", "ecma-118", "elot_928", "greek", "greek8", "iso-8859-7", "iso-ir-126", "iso8859-7",
                "iso88597", "iso_8859-7", "iso_8859-7:1987", "sun_eu_greek",
            ])
        add(
            "ISO-8859-8", .other,
            [
                "csiso88598e", "csisolatinhebrew", "hebrew", "iso-8859-8", "iso-8859-8-e", "iso-ir-138", "iso8859-8",
                "iso88598", "iso_8859-8", "iso_8859-8:1988", "visual", "csiso88598i", "iso-8859-8-i", "logical",
            ])
        add(
            "ISO-8859-10", .other,
            ["csisolatin6", "iso-8859-10", "iso-ir-157", "iso8859-10", "iso885910", "l6", "latin6"])
        add("ISO-8859-13", .other, ["iso-8859-13", "iso8859-13", "iso885913"])
        add("ISO-8859-14", .other, ["iso-8859-14", "iso8859-14", "iso885914"])
        add("ISO-8859-15", .other, ["csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15", "l9"])
        add("ISO-8859-16", .other, ["iso-8859-16"])
        add("KOI8-R", .other, ["cskoi8r", "koi", "koi8", "koi8-r", "koi8_r"])
        add("KOI8-U", .other, ["koi8-ru", "koi8-u"])
        add("MACINTOSH", .other, ["csmacintosh", "mac", "macintosh", "x-mac-roman"])
        add(
            "CP874", .windowsCodePage,
            ["dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620", "windows-874"])
        add("WINDOWS-1250", .windowsCodePage, ["cp1250", "windows-1250", "x-cp1250"])
        add("WINDOWS-1251", .windowsCodePage, ["cp1251", "windows-1251", "x-cp1251"])
        add(
            "WINDOWS-1252", .windowsCodePage,
            [
                "ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100",
                "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252",
                "x-cp1252",
            ])
        add("WINDOWS-1253", .windowsCodePage, ["cp1253", "windows-1253", "x-cp1253"])
        add(
            "WINDOWS-1254", .windowsCodePage,
            [
                "cp1254", "csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9", "iso88599", "iso_8859-9",
                "iso_8859-9:1989", "l5", "latin5", "windows-1254", "x-cp1254",
            ])
        add("WINDOWS-1255", .windowsCodePage, ["cp1255", "windows-1255", "x-cp1255"])
        add("WINDOWS-1256", .windowsCodePage, ["cp1256", "windows-1256", "x-cp1256"])
        add("WINDOWS-1257", .windowsCodePage, ["cp1257", "windows-1257", "x-cp1257"])
        add("WINDOWS-1258", .windowsCodePage, ["cp1258", "windows-1258", "x-cp1258"])
        add("MAC-CYRILLIC", .other, ["x-mac-cyrillic", "x-mac-ukrainian"])
        add(
            "GBK", iconv: "GB18030", .multiByte,
            ["chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk", "iso-ir-58", "x-gbk"])
        add("GB18030", .multiByte, ["gb18030"])
        add("BIG5-HKSCS", .multiByte, ["big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"])
        add("EUC-JP", .multiByte, ["cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"])
        add("ISO-2022-JP", .other, ["csiso2022jp", "iso-2022-jp"])
        add(
            "CP932", .multiByte,
            ["csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis", "windows-31j", "x-sjis"])
        add(
            "CP949", .multiByte,
            [
                "cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987", "ks_c_5601-1989",
                "ksc5601", "ksc_5601", "windows-949",
            ])
        add("UTF-16BE", .utf16, ["unicodefffe", "utf-16be"])
        add(
            "UTF-16LE", .utf16,
            ["csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16", "utf-16le"])
        return table
    }()
}
