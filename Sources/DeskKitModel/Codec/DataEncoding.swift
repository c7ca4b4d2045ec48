/// How a message's `data` string was written: the form DeskKit recognised and its details.
public struct DataEncoding: Sendable, Hashable, CustomStringConvertible {
    /// The broad form of `data`.
    public enum Form: String, Sendable, Hashable {
        /// No `data`, or an empty string.
        case none
        /// JSON text written directly in the string (what Android, JS and the Desk dashboard write).
        case json
        /// Base64 of JSON text (what the iOS documentation writes).
        case base64
        /// Neither: free text, which is an ordinary message's business.
        case text
    }

    public var form: Form
    /// For ``Form/base64``: which alphabet, padding and wrapping were seen.
    public var base64Style: Base64.Style
    /// A UTF-8 byte order mark stood before the JSON (or before the base64 text).
    public var byteOrderMark: Bool
    /// White space surrounded the JSON or base64 text.
    public var surroundingWhitespace: Bool

    public init(
        form: Form, base64Style: Base64.Style = [], byteOrderMark: Bool = false, surroundingWhitespace: Bool = false
    ) {
        self.form = form
        self.base64Style = base64Style
        self.byteOrderMark = byteOrderMark
        self.surroundingWhitespace = surroundingWhitespace
    }

    public static let none = DataEncoding(form: .none)
    public static let json = DataEncoding(form: .json)
    public static let base64 = DataEncoding(form: .base64)
    public static let text = DataEncoding(form: .text)

    /// The form followed by its details: `json`, `base64`, `base64+urlsafe+unpadded`, `json+bom`, …
    public var description: String {
        var s = form.rawValue
        if base64Style.contains(.urlSafe) { s += "+urlsafe" }
        if base64Style.contains(.unpadded) { s += "+unpadded" }
        if base64Style.contains(.wrapped) { s += "+wrapped" }
        if byteOrderMark { s += "+bom" }
        if surroundingWhitespace { s += "+whitespace" }
        return s
    }
}

/// What a `data` string turned out to hold.
enum DecodedData {
    case none
    case json(JSONValue)
    case text
    /// Looked like JSON or base64 JSON and was not: the problem says why.
    case broken(PayloadProblem)
}

enum DataDecoder {
    /// Recognises raw JSON or base64 JSON in `data`, with BOM and white space around it.
    /// `path` is the JSONPath of the data string, used in problems.
    static func decode(bytes: UnsafeBufferPointer<UInt8>, path: String, limits: JSONLimits)
        -> (DecodedData, DataEncoding)
    {
        var encoding = DataEncoding.none
        let (lo, hi) = trim(bytes, encoding: &encoding)
        if lo == hi { return (.none, encoding) }
        let content = UnsafeBufferPointer(rebasing: bytes[lo..<hi])
        let first = content[0]
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"") {
            encoding.form = .json
            return (parseJSON(content, path: path, limits: limits, offsetBase: lo), encoding)
        }
        // Base64 of JSON? Cheap test first: base64 of "{" or "[" or a BOM starts with e, W, 7 (or w for "[").
        guard looksLikeBase64(content) else {
            encoding.form = .text
            return (.text, encoding)
        }
        guard let (decoded, style) = try? Base64.decode(content) else {
            encoding.form = .text
            return (.text, encoding)
        }
        encoding.form = .base64
        encoding.base64Style = style
        return decoded.withUnsafeBufferPointer { inner in
            var innerEncoding = DataEncoding.none
            let (ilo, ihi) = trim(inner, encoding: &innerEncoding)
            guard ilo < ihi, inner[ilo] == UInt8(ascii: "{") || inner[ilo] == UInt8(ascii: "[") else {
                encoding.form = .text
                encoding.base64Style = []
                return (.text, encoding)
            }
            encoding.byteOrderMark = encoding.byteOrderMark || innerEncoding.byteOrderMark
            let json = UnsafeBufferPointer(rebasing: inner[ilo..<ihi])
            return (parseJSON(json, path: path, limits: limits, offsetBase: nil), encoding)
        }
    }

    /// Strict reading of text meant to be base64 JSON: why it is not, as a problem.
    static func base64Problem(_ data: String, path: String) -> PayloadProblem? {
        var data = data
        return data.withUTF8 { bytes -> PayloadProblem? in
            var enc = DataEncoding.none
            let (lo, hi) = trim(bytes, encoding: &enc)
            do throws(Base64.DecodingError) {
                _ = try Base64.decode(UnsafeBufferPointer(rebasing: bytes[lo..<hi]))
                return nil
            } catch {
                return PayloadProblem(.invalidBase64, at: path, "neither JSON nor base64 JSON: \(error.message) at byte \(error.offset + lo)")
            }
        }
    }

    private static func parseJSON(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, limits: JSONLimits, offsetBase: Int?
    ) -> DecodedData {
        do {
            return .json(try JSONValue.parse(bytes, limits: limits))
        } catch {
            let code: PayloadProblem.Code
            switch error.code {
            case .trailingGarbage: code = .trailingGarbage
            case .tooDeep: code = .tooDeep
            default: code = .invalidJSON
            }
            let place = offsetBase.map { "at byte \(error.offset + $0)" } ?? "at byte \(error.offset) of the decoded base64"
            return .broken(PayloadProblem(code, at: path, "\(error.message) \(place)"))
        }
    }

    /// Bounds of the content without a leading BOM and surrounding white space.
    private static func trim(_ b: UnsafeBufferPointer<UInt8>, encoding: inout DataEncoding) -> (Int, Int) {
        var lo = 0
        var hi = b.count
        var space = false
        while lo < hi, isSpace(b[lo]) { lo += 1; space = true }
        if hi - lo >= 3, b[lo] == 0xEF, b[lo + 1] == 0xBB, b[lo + 2] == 0xBF {
            encoding.byteOrderMark = true
            lo += 3
        }
        while lo < hi, isSpace(b[lo]) { lo += 1; space = true }
        while hi > lo, isSpace(b[hi - 1]) { hi -= 1; space = true }
        if space { encoding.surroundingWhitespace = true }
        return (lo, hi)
    }

    @inline(__always) private static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09
    }

    /// Base64 of JSON starts with `e` (`{`), `W` (`[`), `7` (a BOM) or `I`/`C`/`D` (white space):
    /// a cheap test that keeps ordinary text away from the base64 decoder.
    private static func looksLikeBase64(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        switch b[0] {
        case UInt8(ascii: "e"), UInt8(ascii: "W"), UInt8(ascii: "7"), UInt8(ascii: "I"), UInt8(ascii: "C"),
            UInt8(ascii: "D"):
            return true
        default:
            return false
        }
    }
}
