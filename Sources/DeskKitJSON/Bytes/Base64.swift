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
        /// The byte offset of the first character that is not base64 (or where the text ends too early).
        public var offset: Int
        /// What is wrong, as a sentence.
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

    /// The fast path's tables, one for each place in a quantum of four characters: a character's sextet
    /// already shifted to its place in the 24 bits, with ``standardBit`` for `+` and `/`, ``urlSafeBit`` for
    /// `-` and `_`, and ``stopBit`` for every other byte (white space, `=`, and what is not base64).
    /// Written once, read only after that.
    nonisolated(unsafe) private static let quantum: UnsafePointer<UInt32> = {
        let t = UnsafeMutablePointer<UInt32>.allocate(capacity: 4 * 256)
        for place in 0..<4 {
            for c in 0..<256 {
                let v = table[c]
                var entry = v < 64 ? UInt32(v) << (6 * (3 - place)) : stopBit
                if c == Int(UInt8(ascii: "+")) || c == Int(UInt8(ascii: "/")) { entry |= standardBit }
                if c == Int(UInt8(ascii: "-")) || c == Int(UInt8(ascii: "_")) { entry |= urlSafeBit }
                t[place * 256 + c] = entry
            }
        }
        return UnsafePointer(t)
    }()
    private static let standardBit: UInt32 = 1 << 24
    private static let urlSafeBit: UInt32 = 1 << 25
    private static let stopBit: UInt32 = 1 << 31

    /// Decodes `text`, accepting either alphabet (not both at once), optional padding and white space.
    public static func decode(_ text: Span<UInt8>) throws(DecodingError) -> (bytes: [UInt8], style: Style) {
        try text.withUnsafeBufferPointer { buffer throws(DecodingError) in try decode(buffer) }
    }

    /// `decode(_:)` on a buffer.
    package static func decode(_ text: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> (
        bytes: [UInt8], style: Style
    ) {
        var result: Result<Style, DecodingError> = .success([])
        let bytes = [UInt8](unsafeUninitializedCapacity: decodedCapacity(text.count)) { out, written in
            result = decode(text, into: out.baseAddress!, written: &written)
        }
        return (bytes, try result.get())
    }

    /// The most bytes `count` characters of base64 decode to (what ``decode(_:into:written:)`` needs).
    package static func decodedCapacity(_ count: Int) -> Int { count / 4 * 3 + 3 }

    /// Decodes into memory of at least ``decodedCapacity(_:)`` bytes.
    package static func decode(
        _ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, written: inout Int
    )
        -> Result<Style, DecodingError>
    {
        var style: Style = []
        var standard = false
        var failure: DecodingError?
        table.withUnsafeBufferPointer { t in
            var acc: UInt32 = 0
            var n = 0  // sextets in the current quantum
            var padding = 0
            var o = 0
            var i = 0
            // Fast path: whole quanta of four alphabet characters, one lookup each. The three bytes are stored
            // as four: the fourth is overwritten by the next quantum or lies past the decoded bytes, inside
            // the capacity of `decodedCapacity(text.count)`.
            var seen: UInt32 = 0
            let q = quantum
            while i &+ 4 <= text.count {
                let v =
                    q[Int(text[i])] | q[256 &+ Int(text[i &+ 1])] | q[512 &+ Int(text[i &+ 2])]
                    | q[768 &+ Int(text[i &+ 3])]
                guard v & stopBit == 0 else { break }
                seen |= v
                UnsafeMutableRawPointer(out + o).storeBytes(of: (v &<< 8).bigEndian, as: UInt32.self)
                o &+= 3
                i &+= 4
            }
            if seen & standardBit != 0 { standard = true }
            if seen & urlSafeBit != 0 { style.insert(.urlSafe) }
            while i < text.count {
                let c = text[i]
                let v = t[Int(c)]
                if v < 64 {
                    if padding > 0 {
                        failure = DecodingError(offset: i, message: "base64 data after '=' padding")
                        return
                    }
                    if c == UInt8(ascii: "-") || c == UInt8(ascii: "_") {
                        style.insert(.urlSafe)
                    } else if c == UInt8(ascii: "+") || c == UInt8(ascii: "/") {
                        standard = true
                    }
                    acc = acc << 6 | UInt32(v)
                    n += 1
                    if n == 4 {
                        out[o] = UInt8(truncatingIfNeeded: acc >> 16)
                        out[o + 1] = UInt8(truncatingIfNeeded: acc >> 8)
                        out[o + 2] = UInt8(truncatingIfNeeded: acc)
                        o += 3
                        acc = 0
                        n = 0
                    }
                } else if v == 0xFE {
                    style.insert(.wrapped)
                } else if c == UInt8(ascii: "=") {
                    padding += 1
                    if padding > 2 || n < 2 {
                        failure = DecodingError(offset: i, message: "misplaced '=' padding")
                        return
                    }
                } else {
                    failure = DecodingError(offset: i, message: "character not in the base64 alphabet")
                    return
                }
                i += 1
            }
            switch n {
            case 0:
                if padding > 0 { failure = DecodingError(offset: text.count, message: "wrong amount of '=' padding") }
            case 1:
                failure = DecodingError(offset: text.count, message: "base64 data ends in the middle of a byte")
            default:
                if padding == 0 {
                    style.insert(.unpadded)
                } else if n + padding != 4 {
                    failure = DecodingError(offset: text.count, message: "wrong amount of '=' padding")
                }
                out[o] = UInt8(truncatingIfNeeded: n == 2 ? acc >> 4 : acc >> 10)
                o += 1
                if n == 3 {
                    out[o] = UInt8(truncatingIfNeeded: acc >> 2)
                    o += 1
                }
            }
            written = o
        }
        if let failure { return .failure(failure) }
        if style.contains(.urlSafe) && standard {
            return .failure(DecodingError(offset: 0, message: "base64 mixes the standard and URL-safe alphabets"))
        }
        return .success(style)
    }

    /// Encodes bytes as standard, padded base64.
    @inlinable public static func encode(_ bytes: some Collection<UInt8>, urlSafe: Bool = false) -> String {
        if let s = bytes.withContiguousStorageIfAvailable({ encode(buffer: $0, urlSafe: urlSafe) }) { return s }
        return Array(bytes).withUnsafeBufferPointer { encode(buffer: $0, urlSafe: urlSafe) }
    }

    /// Encodes a buffer as base64.
    @usableFromInline package static func encode(buffer bytes: UnsafeBufferPointer<UInt8>, urlSafe: Bool = false)
        -> String
    {
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
