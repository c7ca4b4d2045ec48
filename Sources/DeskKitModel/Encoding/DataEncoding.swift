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

    /// JSON, base64 of JSON, other text, or no `data`.
    public var form: Form
    /// For ``Form/base64``: which alphabet, padding and wrapping were seen.
    public var base64Style: Base64.Style
    /// A UTF-8 byte order mark stood before the JSON (or before the base64 text).
    public var byteOrderMark: Bool
    /// White space surrounded the JSON or base64 text.
    public var surroundingWhitespace: Bool

    /// An encoding from its parts.
    public init(
        form: Form, base64Style: Base64.Style = [], byteOrderMark: Bool = false, surroundingWhitespace: Bool = false
    ) {
        self.form = form
        self.base64Style = base64Style
        self.byteOrderMark = byteOrderMark
        self.surroundingWhitespace = surroundingWhitespace
    }

    /// No `data`, or an empty one.
    public static let none = DataEncoding(form: .none)
    /// The JSON text itself, as most writers put it.
    public static let json = DataEncoding(form: .json)
    /// Base64 of the JSON text, standard alphabet, padded.
    public static let base64 = DataEncoding(form: .base64)
    /// Text that is not JSON.
    public static let text = DataEncoding(form: .text)

    /// The form followed by its details: `json`, `base64`, `base64+urlsafe+unpadded`, `json+bom`, …
    public var description: String {
        var w = JSONWriter(capacity: 32)
        writeName(to: &w)
        return w.string
    }

    /// Writes ``description`` as a JSON string, without building it first (one a message in a summary).
    func write(to w: inout JSONWriter) {
        w.raw("\"")
        writeName(to: &w)
        w.raw("\"")
    }

    private func writeName(to w: inout JSONWriter) {
        switch form {
        case .none: w.raw("none")
        case .json: w.raw("json")
        case .base64: w.raw("base64")
        case .text: w.raw("text")
        }
        if base64Style.contains(.urlSafe) { w.raw("+urlsafe") }
        if base64Style.contains(.unpadded) { w.raw("+unpadded") }
        if base64Style.contains(.wrapped) { w.raw("+wrapped") }
        if byteOrderMark { w.raw("+bom") }
        if surroundingWhitespace { w.raw("+whitespace") }
    }
}

/// Finds the JSON inside a `data` string: raw, or base64 of it, with a BOM and white space around.
enum DataDecoder {
    /// Where the JSON is: a range of the data's own bytes, or the decoded base64.
    enum Found {
        case none
        case text
        case json(Range<Int>)
        /// The decoded bytes live in the scratch memory given to ``locate(_:scratch:)``.
        case base64JSON(UnsafeBufferPointer<UInt8>, Range<Int>)
    }

    static func locate(_ bytes: UnsafeBufferPointer<UInt8>, scratch: DecodingScratch) -> (Found, DataEncoding) {
        var encoding = DataEncoding.none
        let (lo, hi) = trim(bytes, encoding: &encoding)
        if lo == hi { return (.none, encoding) }
        let first = bytes[lo]
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"") {
            encoding.form = .json
            return (.json(lo..<hi), encoding)
        }
        encoding.form = .text
        guard looksLikeBase64(first) else { return (.text, encoding) }
        let text = UnsafeBufferPointer(rebasing: bytes[lo..<hi])
        let out = scratch.bytes(capacity: Base64.decodedCapacity(text.count))
        var count = 0
        guard case .success(let style) = Base64.decode(text, into: out, written: &count) else {
            return (.text, encoding)
        }
        let decoded = UnsafeBufferPointer(start: out, count: count)
        var inner = DataEncoding.none
        let range = trim(decoded, encoding: &inner)
        guard range.0 < range.1, decoded[range.0] == UInt8(ascii: "{") || decoded[range.0] == UInt8(ascii: "[") else {
            return (.text, encoding)
        }
        encoding.form = .base64
        encoding.base64Style = style
        encoding.byteOrderMark = encoding.byteOrderMark || inner.byteOrderMark
        return (.base64JSON(decoded, range.0..<range.1), encoding)
    }

    /// Strict reading of text meant to be base64 JSON: why it is not, as a problem.
    static func base64Problem(_ bytes: UnsafeBufferPointer<UInt8>, path: StaticString) -> PayloadProblem? {
        var enc = DataEncoding.none
        let (lo, hi) = trim(bytes, encoding: &enc)
        do throws(Base64.DecodingError) {
            _ = try Base64.decode(UnsafeBufferPointer(rebasing: bytes[lo..<hi]))
            return nil
        } catch {
            return PayloadProblem(
                .invalidBase64, at: path.description,
                "neither JSON nor base64 JSON: \(error.message) at byte \(error.offset + lo)")
        }
    }

    /// The problem for JSON that does not parse.
    static func problem(_ error: JSONSyntaxError, path: StaticString, offsetBase: Int?) -> PayloadProblem {
        let place = offsetBase.map { "at byte \(error.offset + $0)" } ?? "at byte \(error.offset) of the decoded base64"
        return PayloadProblem(.syntax(error.code), at: path.description, "\(error.message) \(place)")
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
    private static func looksLikeBase64(_ first: UInt8) -> Bool {
        switch first {
        case UInt8(ascii: "e"), UInt8(ascii: "W"), UInt8(ascii: "7"), UInt8(ascii: "I"), UInt8(ascii: "C"),
            UInt8(ascii: "D"):
            return true
        default:
            return false
        }
    }
}
