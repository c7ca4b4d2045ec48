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
    @inlinable public mutating func write(_ i: Int64) {
        if i >= 0 && i < 10 {
            bytes.append(UInt8(truncatingIfNeeded: i) + 0x30)
        } else {
            bytes.append(contentsOf: String(i).utf8)
        }
    }

    /// Appends a JSON string literal for `s`: runs that need no escape are copied whole.
    @inlinable public mutating func write(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            var run = 0
            for (i, b) in utf8.enumerated()
            where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b == 0x7F {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
                run = i + 1
                switch b {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                default:
                    raw("\\u00")
                    bytes.append(Hex.lowercaseDigits[Int(b >> 4)])
                    bytes.append(Hex.lowercaseDigits[Int(b & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Appends a string, or `null`.
    @inlinable public mutating func write(_ s: String?) {
        if let s { write(s) } else { raw("null") }
    }

    /// Appends an integer, or `null`.
    @inlinable public mutating func write(_ i: Int64?) {
        if let i { write(i) } else { raw("null") }
    }

    /// Appends the key of an object member, `"key":`, after a `,` — or, for the first member, after the
    /// object's `{`. The caller closes the object with `}`. `key` is written as is: plain ASCII only.
    @inlinable public mutating func member(_ key: StaticString, first: Bool = false) {
        bytes.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
        bytes.append(UInt8(ascii: "\""))
        raw(key)
        raw("\":")
    }

    /// Appends a member: its key (as ``member(_:first:)``) and its string value, or `null`.
    @inlinable public mutating func member(_ key: StaticString, _ value: String?, first: Bool = false) {
        member(key, first: first)
        write(value)
    }

    /// Appends a member whose value is an integer, or `null`.
    @inlinable public mutating func member(_ key: StaticString, _ value: Int64?, first: Bool = false) {
        member(key, first: first)
        write(value)
    }

    /// Appends a member whose value is any JSON value.
    public mutating func member(_ key: StaticString, _ value: JSONValue, first: Bool = false) {
        member(key, first: first)
        write(value)
    }

    /// Appends an array: `[`, what `element` writes for each of `elements`, separated by commas, `]`.
    @inlinable public mutating func array<S: Sequence>(_ elements: S, _ element: (inout JSONWriter, S.Element) -> Void)
    {
        raw("[")
        var first = true
        for e in elements {
            if !first { raw(",") }
            first = false
            element(&self, e)
        }
        raw("]")
    }

    /// The value that `body` writes, read back (for the `JSONValue` forms of what is written directly).
    package static func value(_ body: (inout JSONWriter) -> Void) -> JSONValue {
        var w = JSONWriter()
        body(&w)
        // Valid JSON by construction (strings escaped, numbers as parsed), nested at most a few levels
        // deeper than values that were parsed within the default depth limit.
        switch w.bytes.withUnsafeBufferPointer({ JSONValue.parseResult($0, limits: JSONLimits(maxDepth: 1_000)) }) {
        case .success(let value): return value
        case .failure(let error): preconditionFailure("JSONWriter wrote invalid JSON: \(error)")
        }
    }

    /// Appends text that is already JSON (punctuation, a prepared literal).
    @inlinable public mutating func raw(_ s: StaticString) {
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
