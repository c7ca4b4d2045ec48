/// A parsed JSON text as a flat list of tokens over the original bytes (in the manner of simdjson's tape).
///
/// Parsing validates everything (grammar, escapes, UTF-8, depth) but builds no strings, arrays or
/// dictionaries: values are read from the bytes only when asked for. DeskKit's decoders read the few
/// members they model this way, which is what makes decoding a message cost little more than scanning it.
/// A tape borrows its bytes and its tokens: use it only while the buffer it was parsed from and the
/// ``TapeStorage`` it was parsed into are alive and not parsed into again.
struct JSONTape {
    enum Kind: UInt8 { case null, `true`, `false`, number, string, array, object }

    /// One value. Strings and numbers: `start..<end` are the bytes (without quotes). Arrays and
    /// objects: `start` is the offset of the bracket and `end` the number of elements (members).
    /// `next` is the index of the token after this value and everything inside it.
    struct Token {
        var kind: Kind
        var flags: UInt8
        var start: UInt32
        var end: UInt32
        var next: UInt32
    }

    /// Strings: the text has backslash escapes. Numbers: written with a fraction or an exponent.
    static let escaped: UInt8 = 1
    static let fractional: UInt8 = 1

    let bytes: UnsafeBufferPointer<UInt8>
    let tokens: UnsafePointer<Token>

    @inline(__always) func kind(_ i: Int) -> Kind { tokens[i].kind }
    @inline(__always) func next(_ i: Int) -> Int { Int(tokens[i].next) }

    // MARK: Reading

    /// The value of the last member of object `object` whose key is `key`.
    func member(_ object: Int, _ key: StaticString) -> Int? {
        guard tokens[object].kind == .object else { return nil }
        let keyStart = key.utf8Start
        let keyCount = key.utf8CodeUnitCount
        let first = keyCount > 0 ? keyStart[0] : 0
        var found: Int?
        let end = next(object)
        let base = bytes.baseAddress!
        var i = object + 1
        while i < end {
            let k = tokens[i]
            let length = Int(k.end &- k.start)
            if k.flags & Self.escaped == 0 {
                if length == keyCount && (keyCount == 0 || base[Int(k.start)] == first)
                    && memEqual(base + Int(k.start), keyStart, keyCount)
                {
                    found = i + 1
                }
            } else if string(at: i) == key.description {
                found = i + 1
            }
            i = Int(tokens[i + 1].next)
        }
        return found
    }

    /// Calls `body` with the key and value index of each member of `object`, in order.
    func forEachMember(_ object: Int, _ body: (Int, Int) -> Void) {
        var i = object + 1
        let end = next(object)
        while i < end {
            body(i, i + 1)
            i = next(i + 1)
        }
    }

    /// The element indices of array `array`.
    func elements(_ array: Int) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(Int(tokens[array].end))
        var i = array + 1
        let end = next(array)
        while i < end {
            out.append(i)
            i = next(i)
        }
        return out
    }

    /// Whether string token `i` equals `text`.
    func stringEquals(_ i: Int, _ text: StaticString) -> Bool {
        let t = tokens[i]
        guard t.kind == .string else { return false }
        if t.flags & Self.escaped != 0 { return string(at: i) == text.description }
        return Int(t.end - t.start) == text.utf8CodeUnitCount
            && memEqual(bytes.baseAddress! + Int(t.start), text.utf8Start, text.utf8CodeUnitCount)
    }

    /// Whether string token `i` starts with `prefix`.
    func stringHasPrefix(_ i: Int, _ prefix: StaticString) -> Bool {
        let t = tokens[i]
        guard t.kind == .string, t.flags & Self.escaped == 0 else {
            return t.kind == .string && string(at: i).utf8.starts(with: UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
        }
        return Int(t.end - t.start) >= prefix.utf8CodeUnitCount
            && memEqual(bytes.baseAddress! + Int(t.start), prefix.utf8Start, prefix.utf8CodeUnitCount)
    }

    /// The text of string token `i`, escapes resolved.
    func string(at i: Int) -> String {
        let t = tokens[i]
        let raw = UnsafeBufferPointer(rebasing: bytes[Int(t.start)..<Int(t.end)])
        if t.flags & Self.escaped == 0 { return String(decoding: raw, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: raw.count) { out in JSONTape.unescape(raw, into: out) }
    }

    /// The value of number token `i`: `.integer` when it is written as an integer that fits in 64 bits.
    func number(at i: Int) -> JSONValue {
        let t = tokens[i]
        let raw = UnsafeBufferPointer(rebasing: bytes[Int(t.start)..<Int(t.end)])
        if t.flags & Self.fractional == 0, let v = Self.integer(raw) { return .integer(v) }
        return .number(String(decoding: raw, as: UTF8.self))
    }

    /// The number's literal text.
    func numberText(at i: Int) -> String {
        let t = tokens[i]
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(t.start)..<Int(t.end)]), as: UTF8.self)
    }

    /// The JSONPath of token `target`, found by walking down from the root (only problems need it).
    func path(to target: Int, root: String) -> String {
        var path = root
        var i = 0
        while i != target {
            let container = i
            var child = container + 1
            var position = 0
            let end = next(container)
            var found = false
            while child < end {
                let value = kind(container) == .object ? child + 1 : child
                if target >= value && target < next(value) {
                    path = kind(container) == .object ? JSONPath.member(path, string(at: child)) : path + "[\(position)]"
                    i = value
                    found = true
                    break
                }
                child = next(value)
                position += 1
            }
            if !found { break }
        }
        return path
    }

    /// A JSON type name for messages ("string", "number", …).
    func typeName(_ i: Int) -> String {
        switch tokens[i].kind {
        case .null: return "null"
        case .true, .false: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// Builds the ``JSONValue`` of token `i` and everything inside it.
    func value(at i: Int) -> JSONValue {
        switch tokens[i].kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number: return number(at: i)
        case .string: return .string(string(at: i))
        case .array: return .array(elements(i).map { value(at: $0) })
        case .object:
            var members: [JSONObject.Member] = []
            members.reserveCapacity(Int(tokens[i].end))
            forEachMember(i) { k, v in members.append(JSONObject.Member(key: string(at: k), value: value(at: v))) }
            return .object(JSONObject(members))
        }
    }

    static func integer(_ digits: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        let negative = digits.first == UInt8(ascii: "-")
        if negative { i = 1 }
        var magnitude: UInt64 = 0
        if digits.count - i <= 18 {
            // 18 digits cannot overflow.
            while i < digits.count {
                magnitude = magnitude &* 10 &+ UInt64(digits[i] &- 0x30)
                i += 1
            }
        } else {
            while i < digits.count {
                let (m1, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (m2, o2) = m1.addingReportingOverflow(UInt64(digits[i] &- 0x30))
                if o1 || o2 { return nil }
                magnitude = m2
                i += 1
            }
        }
        if negative {
            if magnitude == 0 || magnitude > UInt64(Int64.max) + 1 { return nil }  // keep "-0" as written
            return Int64(truncatingIfNeeded: 0 &- magnitude)
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// Resolves the escapes of validated string content; returns the number of bytes written (at most
    /// `raw.count`).
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        guard let source = raw.baseAddress, let target = out.baseAddress else { return 0 }
        let count = raw.count
        var i = 0
        var n = 0
        @inline(__always) func put(_ b: UInt8) {
            target[n] = b
            n += 1
        }
        // The parser has checked the four digits.
        func hex4(_ at: Int) -> UInt32 { raw[at..<at + 4].reduce(0) { $0 << 4 | UInt32(Hex.value($1) ?? 0) } }
        let ones: UInt64 = 0x0101_0101_0101_0101
        while i < count {
            // Copy eight bytes at a time up to the next backslash (the output never runs ahead of the input,
            // so a whole word written past the backslash is overwritten or beyond what is returned).
            while i + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self))
                UnsafeMutableRawPointer(target + n).storeBytes(of: word.littleEndian, as: UInt64.self)
                let x = word ^ (ones &* 0x5C)
                let hit = (x &- ones) & ~x & (ones &* 0x80)
                let run = hit == 0 ? 8 : hit.trailingZeroBitCount >> 3
                i += run
                n += run
                if hit != 0 { break }
            }
            guard i < count else { break }
            let b = source[i]
            guard b == UInt8(ascii: "\\") else {
                put(b)
                i += 1
                continue
            }
            let c = source[i + 1]
            i += 2
            switch c {
            case UInt8(ascii: "b"): put(0x08)
            case UInt8(ascii: "f"): put(0x0C)
            case UInt8(ascii: "n"): put(0x0A)
            case UInt8(ascii: "r"): put(0x0D)
            case UInt8(ascii: "t"): put(0x09)
            case UInt8(ascii: "u"):
                var v = hex4(i)
                i += 4
                if v >= 0xD800 && v < 0xDC00 {
                    v = 0x10000 + ((v - 0xD800) << 10) + (hex4(i + 2) - 0xDC00)
                    i += 6
                }
                switch v {
                case 0..<0x80: put(UInt8(v))
                case 0x80..<0x800:
                    put(UInt8(0xC0 | v >> 6)); put(UInt8(0x80 | v & 0x3F))
                case 0x800..<0x10000:
                    put(UInt8(0xE0 | v >> 12)); put(UInt8(0x80 | v >> 6 & 0x3F)); put(UInt8(0x80 | v & 0x3F))
                default:
                    put(UInt8(0xF0 | v >> 18)); put(UInt8(0x80 | v >> 12 & 0x3F))
                    put(UInt8(0x80 | v >> 6 & 0x3F)); put(UInt8(0x80 | v & 0x3F))
                }
            default: put(c)  // " \\ /
            }
        }
        return n
    }
}

@inline(__always) func memEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    var i = 0
    while i < n {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}
