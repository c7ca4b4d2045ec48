/// Writes JSON text: compact, members in their order, UTF-8 kept as is, control characters escaped.
public struct JSONWriter: Sendable {
    /// The UTF-8 bytes written so far.
    public var bytes: [UInt8] = []

    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// Appends `value` as JSON.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let b): raw(b ? "true" : "false")
        case .integer(let i): write(i)
        case .number(let s): bytes.append(contentsOf: s.utf8)
        case .string(let s): write(s)
        case .array(let a):
            bytes.append(UInt8(ascii: "["))
            for (i, e) in a.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                write(e)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let o):
            bytes.append(UInt8(ascii: "{"))
            for (i, m) in o.members.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                write(m.key)
                bytes.append(UInt8(ascii: ":"))
                write(m.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends an integer.
    public mutating func write(_ i: Int64) {
        if i >= 0 && i < 10 {
            bytes.append(UInt8(truncatingIfNeeded: i) + 0x30)
        } else {
            bytes.append(contentsOf: String(i).utf8)
        }
    }

    /// Appends a JSON string literal for `s`.
    public mutating func write(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(b)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(b)
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20, 0x7F:
                raw("\\u00")
                bytes.append(Hex.lowercaseDigits[Int(b >> 4)])
                bytes.append(Hex.lowercaseDigits[Int(b & 0xF)])
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends text that is already JSON (punctuation, a prepared literal).
    public mutating func raw(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// The text written so far.
    public var string: String { String(decoding: bytes, as: UTF8.self) }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text for this value.
    public var jsonString: String {
        var w = JSONWriter()
        w.write(self)
        return w.string
    }

    public var description: String { jsonString }
}
