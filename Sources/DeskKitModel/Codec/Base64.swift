/// Base64 as it appears in message `data`: both alphabets, with or without padding, wrapped in lines.
public enum Base64 {
    /// How a base64 text was written.
    public struct Style: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Used the URL-safe alphabet (`-` and `_`).
        public static let urlSafe = Style(rawValue: 1 << 0)
        /// Had no `=` padding where padding was due.
        public static let unpadded = Style(rawValue: 1 << 1)
        /// Had line breaks or other white space between its characters.
        public static let wrapped = Style(rawValue: 1 << 2)
    }

    /// Why a text is not base64; ``offset`` is the byte offset in the text.
    public struct DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        public var offset: Int
        public var message: String
        public var description: String { "\(message) at byte \(offset)" }
    }

    private static let table: [UInt8] = {
        var t = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8.enumerated() {
            t[Int(c)] = UInt8(i)
        }
        t[Int(UInt8(ascii: "+"))] = 62
        t[Int(UInt8(ascii: "/"))] = 63
        t[Int(UInt8(ascii: "-"))] = 62
        t[Int(UInt8(ascii: "_"))] = 63
        t[Int(UInt8(ascii: " "))] = 0xFE
        t[0x0A] = 0xFE
        t[0x0D] = 0xFE
        t[0x09] = 0xFE
        return t
    }()

    /// Decodes `text`, accepting either alphabet (not both at once), optional padding and white space.
    public static func decode(_ text: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> (bytes: [UInt8], style: Style) {
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3 + 3)
        var style: Style = []
        var sawStandard = false
        var acc: UInt32 = 0
        var n = 0  // sextets in the current quantum
        var total = 0  // alphabet characters seen
        var padding = 0
        var i = 0
        try table.withUnsafeBufferPointer { (t: UnsafeBufferPointer<UInt8>) throws(DecodingError) in
            while i < text.count {
                let c = text[i]
                let v = t[Int(c)]
                if v < 64 {
                    if padding > 0 { throw DecodingError(offset: i, message: "base64 data after '=' padding") }
                    if c == UInt8(ascii: "-") || c == UInt8(ascii: "_") {
                        style.insert(.urlSafe)
                    } else if c == UInt8(ascii: "+") || c == UInt8(ascii: "/") {
                        sawStandard = true
                    }
                    acc = acc << 6 | UInt32(v)
                    n += 1
                    total += 1
                    if n == 4 {
                        out.append(UInt8(truncatingIfNeeded: acc >> 16))
                        out.append(UInt8(truncatingIfNeeded: acc >> 8))
                        out.append(UInt8(truncatingIfNeeded: acc))
                        acc = 0
                        n = 0
                    }
                } else if v == 0xFE {
                    style.insert(.wrapped)
                } else if c == UInt8(ascii: "=") {
                    padding += 1
                    if padding > 2 || n < 2 { throw DecodingError(offset: i, message: "misplaced '=' padding") }
                } else {
                    throw DecodingError(offset: i, message: "character not in the base64 alphabet")
                }
                i += 1
            }
        }
        if style.contains(.urlSafe) && sawStandard {
            throw DecodingError(offset: 0, message: "base64 mixes the standard and URL-safe alphabets")
        }
        switch n {
        case 0: break
        case 1: throw DecodingError(offset: text.count, message: "base64 data ends in the middle of a byte")
        case 2:
            out.append(UInt8(truncatingIfNeeded: acc >> 4))
        default:
            out.append(UInt8(truncatingIfNeeded: acc >> 10))
            out.append(UInt8(truncatingIfNeeded: acc >> 2))
        }
        if n != 0 {
            if padding == 0 { style.insert(.unpadded) }
            else if n + padding != 4 { throw DecodingError(offset: text.count, message: "wrong amount of '=' padding") }
        } else if padding > 0 {
            throw DecodingError(offset: text.count, message: "wrong amount of '=' padding")
        }
        _ = total
        return (out, style)
    }

    /// Encodes bytes as standard, padded base64.
    public static func encode(_ bytes: some Collection<UInt8>, urlSafe: Bool = false) -> String {
        let alphabet: [UInt8] = Array(
            (urlSafe
                ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
                : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/").utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var it = bytes.makeIterator()
        while let b0 = it.next() {
            let b1 = it.next()
            let b2 = it.next()
            let v = UInt32(b0) << 16 | UInt32(b1 ?? 0) << 8 | UInt32(b2 ?? 0)
            out.append(alphabet[Int(v >> 18 & 63)])
            out.append(alphabet[Int(v >> 12 & 63)])
            out.append(b1 == nil ? UInt8(ascii: "=") : alphabet[Int(v >> 6 & 63)])
            out.append(b2 == nil ? UInt8(ascii: "=") : alphabet[Int(v & 63)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
