import CICUFormat
import Synchronization

/// A language of the interface DeskKitCards and `deskkit demo` write: its strings table, and ICU's plural
/// rules, numbers, times and direction for it.
///
/// ```swift
/// let russian = InterfaceLanguage("ru-RU")        // the best table for a tag or an Accept-Language list
/// russian.text(.replyClosed)                      // "Обращение закрыто."
/// russian.text(.ratingStars, count: 3)            // "3 звезды из 5"
/// russian.fileSize(3_000)                         // "3 КБ"
/// ```
///
/// A language without a table falls back to English (``english``); a key missing from a table (a test keeps
/// every table whole) falls back to the English text.
public struct InterfaceLanguage: Sendable, Hashable, CustomStringConvertible {
    /// The table's BCP 47 tag: `en`, `zh-Hans`, `ru`, ….
    public let tag: String

    private init(table tag: String) { self.tag = tag }

    /// English, the fallback.
    public static let english = InterfaceLanguage(table: "en")

    /// Every language with a table, English first, then by tag.
    public static let available: [InterfaceLanguage] =
        [.english] + StringsTable.compiledIn.keys.filter { $0 != "en" }.sorted().map(InterfaceLanguage.init(table:))

    /// The best language for `requested` — a BCP 47 tag (`ru`, `zh-CN`, `pt-BR`) or an `Accept-Language` list
    /// (`ru-RU, ru;q=0.9, en;q=0.8`) — or English when none has a table.
    public init(_ requested: String) { self = Self.matching(requested) ?? .english }

    /// The best language with a table for `requested` (as ``init(_:)``), or nil when none has one.
    ///
    /// The ranges are tried by weight (`q`), each as written first and then by language and script, ICU's
    /// likely subtags filling in what a tag leaves out: `zh`, `zh-CN` and `zh-SG` are Simplified Chinese,
    /// `zh-TW` (Traditional) is not; `ru-RU` is Russian.
    public static func matching(_ requested: String) -> InterfaceLanguage? {
        let ranges = requested.split(separator: ",").enumerated().compactMap {
            (index, part) -> (tag: String, weight: Double, index: Int)? in
            let pieces = part.split(separator: ";")
            let tag = pieces.first.map { $0.trimmingSpaces } ?? ""
            var weight = 1.0
            for piece in pieces.dropFirst() {
                let p = piece.trimmingSpaces
                if p.hasPrefix("q=") || p.hasPrefix("Q=") { weight = Double(p.dropFirst(2)) ?? 0 }
            }
            guard weight > 0, isWellFormed(tag) else { return nil }
            return (tag, weight, index)
        }.sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.index < $1.index }
        for range in ranges {
            let asked = range.tag.lowercased()
            if let exact = tables.first(where: { $0.lowercasedTag == asked }) { return exact.language }
            guard let wanted = languageAndScript(range.tag) else { continue }
            if let match = tables.first(where: { $0.script == wanted }) { return match.language }
        }
        return nil
    }

    /// Each available language with its tag lowercased and its language and script (`zh-Hans`, `ru-Cyrl`),
    /// worked out once.
    private static let tables = available.map {
        (language: $0, lowercasedTag: $0.tag.lowercased(), script: languageAndScript($0.tag))
    }

    /// The language's name in itself (`Русский`, `简体中文`).
    public var name: String { table?.name ?? tag }

    public var description: String { tag }

    /// Whether the language is written right to left (Arabic, Hebrew…): its pages are `dir="rtl"`.
    public var isRightToLeft: Bool { deskkit_is_right_to_left(tag) == 1 }

    /// The HTML `dir` of the interface: `rtl` or `ltr`.
    public var direction: String { isRightToLeft ? "rtl" : "ltr" }

    // MARK: Texts

    /// The text of `string`, its `{name}`s replaced by `values`.
    public func text(_ string: InterfaceString, _ values: KeyValuePairs<String, String> = [:]) -> String {
        let template: String
        switch entry(string) {
        case .text(let text): template = text
        case .plural(let forms): template = forms["other"] ?? string.key
        }
        return Self.fill(template, values.map { ($0.key, $0.value) })
    }

    /// The text of `string` for `count` — the plural form ICU's rules choose for the language — with
    /// `{count}` written as the language writes numbers and the other `{name}`s replaced by `values`.
    public func text(_ string: InterfaceString, count: Int, _ values: KeyValuePairs<String, String> = [:]) -> String {
        let template: String
        switch entry(string) {
        case .text(let text): template = text
        case .plural(let forms): template = forms[pluralCategory(Double(count))] ?? forms["other"] ?? string.key
        }
        return Self.fill(template, [("count", number(Double(count)))] + values.map { ($0.key, $0.value) })
    }

    /// The entry of `string` in this table, else in English's.
    private func entry(_ string: InterfaceString) -> StringsTable.Entry {
        table?.entries[string.key] ?? Self.english.table?.entries[string.key] ?? .text(string.key)
    }

    /// This language's table, else English's (a language is made only for a table that was read).
    private var table: StringsTable? { StringsTable.compiledIn[tag] ?? StringsTable.compiledIn["en"] }

    /// `template` with each `{name}` of `values` replaced, in one pass: a value is never read as a template
    /// (a link holding `{reason}` stays as it is).
    static func fill(_ template: String, _ values: [(String, String)]) -> String {
        var out = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let after = rest[open...].dropFirst()
            if let close = after.firstIndex(of: "}"), let value = values.first(where: { $0.0 == after[..<close] }) {
                out += value.1
                rest = after[close...].dropFirst()
            } else {
                out += "{"
                rest = after
            }
        }
        return out + rest
    }

    // MARK: Numbers, sizes, times

    /// The CLDR plural category of `number` in this language (`one`, `few`, `many`, `other`…).
    public func pluralCategory(_ number: Double) -> String {
        Self.icu { deskkit_plural_category(tag, number, $0, $1) } ?? "other"
    }

    /// The plural categories this language's rules use (`one few many other` in Russian); each plural entry of
    /// its table has a form for every one.
    public var pluralCategories: Set<String> { Self.categories(of: tag) }

    static func categories(of tag: String) -> Set<String> {
        Set((icu { deskkit_plural_categories(tag, $0, $1) } ?? "other").split(separator: " ").map(String.init))
    }

    /// `value` as the language writes it: its grouping and decimal sign (`1,234.5`, `1 234,5`), in Latin digits in
    /// every language (as the tables write theirs, and the web module's `renderMessage` does).
    public func number(_ value: Double, maxFractionDigits: Int = 0) -> String {
        Self.icu { deskkit_format_number(tag + "-u-nu-latn", value, Int32(maxFractionDigits), $0, $1) } ?? "\(value)"
    }

    /// A file's size as the language writes it, in powers of 1,000 as file managers show them: bytes under a
    /// kilobyte (plural forms), whole kilobytes, then megabytes and gigabytes to a tenth (`980 bytes`, `12 KB`,
    /// `2.4 MB`; `2,4 МБ` in Russian).
    public func fileSize(_ bytes: Int64) -> String {
        let (unit, value, decimals): (InterfaceString, Double, Int)
        switch bytes {
        case ..<1000: return text(.bytes, count: Int(bytes))
        case ..<1_000_000: (unit, value, decimals) = (.kilobytes, Double((bytes + 500) / 1000), 0)
        case ..<1_000_000_000: (unit, value, decimals) = (.megabytes, Double(bytes / 100_000) / 10, 1)
        default: (unit, value, decimals) = (.gigabytes, Double(bytes / 100_000_000) / 10, 1)
        }
        return Self.fill(text(unit), [("count", number(value, maxFractionDigits: decimals))])
    }

    /// The time of day of `milliseconds` since 1970 in the language's clock (`2:05 PM`, `14:05`), in
    /// `timeZone` (an Olson ID; default UTC).
    public func time(_ milliseconds: Int64, timeZone: String = "UTC") -> String {
        date(milliseconds, skeleton: "jmm", timeZone: timeZone)
    }

    /// The date and time of `milliseconds` since 1970 in the language's form (`Nov 14, 2023, 10:13 PM`,
    /// `14 нояб. 2023 г., 22:13`), in `timeZone` (default UTC).
    public func dateTime(_ milliseconds: Int64, timeZone: String = "UTC") -> String {
        date(milliseconds, skeleton: "yMMMdjmm", timeZone: timeZone)
    }

    private func date(_ milliseconds: Int64, skeleton: String, timeZone: String) -> String {
        guard let pattern = datePattern(skeleton) else { return "\(milliseconds)" }
        return Self.icu { deskkit_format_date(tag, Double(milliseconds), pattern, timeZone, $0, $1) }
            ?? "\(milliseconds)"
    }

    /// The language's pattern for a date-time skeleton, worked out once (ICU loads the locale's pattern data
    /// for it: about a millisecond, where a date written with the pattern takes a fraction of that).
    private func datePattern(_ skeleton: String) -> String? {
        let key = tag + " " + skeleton
        if let known = Self.datePatterns.withLock({ $0[key] }) { return known }
        let pattern = Self.icu { deskkit_date_pattern(tag, skeleton, $0, $1) }
        if let pattern { Self.datePatterns.withLock { $0[key] = pattern } }
        return pattern
    }

    private static let datePatterns = Mutex<[String: String]>([:])

    // MARK: ICU

    /// The language and script of `tag`, likely subtags filled in (`zh-CN` → `zh-Hans`).
    static func languageAndScript(_ tag: String) -> String? {
        guard isWellFormed(tag) else { return nil }
        return icu { deskkit_language_and_script(tag, $0, $1) }
    }

    /// Letters, digits and `-` or `_`, 1 to 64 of them: what is handed to ICU as a tag.
    static func isWellFormed(_ tag: some StringProtocol) -> Bool {
        (1...64).contains(tag.utf8.count)
            && tag.utf8.allSatisfy {
                switch $0 {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }

    /// What an ICU shim function writes into a buffer, or nil when it fails.
    private static func icu(_ call: (UnsafeMutablePointer<CChar>, Int32) -> Int32) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer in
            let length = call(buffer.baseAddress!, Int32(buffer.count))
            guard length >= 0 else { return nil }
            return String(
                decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: Int(length)), as: UTF8.self)
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
