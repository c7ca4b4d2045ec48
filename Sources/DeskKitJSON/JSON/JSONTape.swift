/// A parsed JSON text as a flat list of tokens over the original bytes (in the manner of simdjson's tape).
///
/// Parsing validates everything (grammar, escapes, UTF-8, depth) but builds no strings, arrays or
/// dictionaries: values are read from the bytes only when asked for. DeskKit's decoders read the few
/// members they model this way, which is what makes decoding a message cost little more than scanning it.
/// A tape borrows its bytes and its tokens: use it only while the buffer it was parsed from and the
/// ``TapeStorage`` it was parsed into are alive and not parsed into again.
package struct JSONTape {
    package enum Kind: UInt8 {
        case null, `true`, `false`, number, string, array, object

        /// By raw value, and inlinable: the synthesized `==` (and `Equatable`'s `!=`) are invisible to
        /// other modules, which then compared kinds through the witness table (2% of decoding a message).
        @inlinable package static func == (a: Kind, b: Kind) -> Bool { a.rawValue == b.rawValue }
        @inlinable package static func != (a: Kind, b: Kind) -> Bool { a.rawValue != b.rawValue }
    }

    /// One value. Strings and numbers: `start..<end` are the bytes (without quotes); for a string with
    /// escapes, its text in ``text`` with the escapes resolved. Arrays and objects: `start` is the offset of
    /// the bracket and `end` the number of elements (members).
    /// `next` is the index of the token after this value and everything inside it.
    package struct Token {
        package var kind: Kind
        package var flags: UInt8
        package var start: UInt32
        package var end: UInt32
        package var next: UInt32
    }

    /// Strings: written with backslash escapes (the token points into ``text``). Numbers: written with a
    /// fraction or an exponent.
    package static let escaped: UInt8 = 1
    package static let fractional: UInt8 = 1

    package let bytes: UnsafeBufferPointer<UInt8>
    package let tokens: UnsafePointer<Token>
    /// The text of the strings written with escapes, escapes resolved by the parser.
    package let text: UnsafePointer<UInt8>

    @inlinable @inline(__always) package func kind(_ i: Int) -> Kind { tokens[i].kind }
    @inlinable @inline(__always) package func next(_ i: Int) -> Int { Int(tokens[i].next) }

    // MARK: Reading

    /// The value of the last member of object `object` whose key is `key`.
    @inlinable package func member(_ object: Int, _ key: StaticString) -> Int? {
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
    @inlinable package func forEachMember(_ object: Int, _ body: (Int, Int) -> Void) {
        var i = object + 1
        let end = next(object)
        while i < end {
            body(i, i + 1)
            i = next(i + 1)
        }
    }

    /// The element indices of array `array`.
    package func elements(_ array: Int) -> [Int] {
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

    /// The text of string token `i`, escapes resolved.
    @inlinable package func string(at i: Int) -> String { String(decoding: utf8(at: i), as: UTF8.self) }

    /// The UTF-8 bytes of string token `i`, escapes resolved: in the parsed bytes, or in ``text``.
    @inlinable package func utf8(at i: Int) -> UnsafeBufferPointer<UInt8> {
        let t = tokens[i]
        let source = t.flags & Self.escaped == 0 ? bytes.baseAddress! : text
        return UnsafeBufferPointer(start: source + Int(t.start), count: Int(t.end &- t.start))
    }

    /// The value of number token `i`: `.integer` when it is written as an integer that fits in 64 bits.
    package func number(at i: Int) -> JSONValue {
        let t = tokens[i]
        let raw = UnsafeBufferPointer(rebasing: bytes[Int(t.start)..<Int(t.end)])
        if t.flags & Self.fractional == 0, let v = Self.integer(raw) { return .integer(v) }
        return .number(String(decoding: raw, as: UTF8.self))
    }

    /// The number's literal text.
    @inlinable package func numberText(at i: Int) -> String {
        let t = tokens[i]
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(t.start)..<Int(t.end)]), as: UTF8.self)
    }

    /// The JSONPath of token `target`, found by walking down from the root (only problems need it).
    package func path(to target: Int, from start: Int = 0, root: String) -> String {
        var path = root
        var i = start
        while i != target {
            let container = i
            var child = container + 1
            var position = 0
            let end = next(container)
            var found = false
            while child < end {
                let value = kind(container) == .object ? child + 1 : child
                if target >= value && target < next(value) {
                    path =
                        kind(container) == .object ? JSONPath.member(path, string(at: child)) : path + "[\(position)]"
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
    package func typeName(_ i: Int) -> String {
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
    package func value(at i: Int) -> JSONValue {
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

    /// The value of eight ASCII digits (validated by the parser), in a few multiplications (the method of
    /// Lemire's `parse_eight_digits_unrolled`).
    @inlinable @inline(__always) static package func eightDigits(_ p: UnsafePointer<UInt8>) -> UInt64 {
        var v = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)) &- 0x3030_3030_3030_3030
        v = (v &* 10) &+ (v &>> 8)
        let low = (v & 0x0000_00FF_0000_00FF) &* (100 &+ (1_000_000 &<< 32))
        let high = ((v &>> 16) & 0x0000_00FF_0000_00FF) &* (1 &+ (10_000 &<< 32))
        return (low &+ high) &>> 32
    }

    @inlinable package static func integer(_ digits: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        let negative = digits.first == UInt8(ascii: "-")
        if negative { i = 1 }
        var magnitude: UInt64 = 0
        if digits.count - i <= 19 {
            // 19 digits cannot overflow 64 bits; eight at a time where there are eight.
            let base = digits.baseAddress!
            while digits.count - i >= 8 {
                magnitude = magnitude &* 100_000_000 &+ eightDigits(base + i)
                i += 8
            }
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
}

@inlinable @inline(__always) package func memEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int)
    -> Bool
{
    var i = 0
    while i < n {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}
