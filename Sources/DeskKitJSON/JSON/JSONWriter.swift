/// Writes JSON text: compact, members in their order, UTF-8 kept as is, control characters escaped.
///
/// A value type over a growable buffer of its own (copied on write, like an array): each piece — a
/// member's key, a string, an integer — is one capacity check and one copy, which matters when millions of
/// small values are written (`deskkit decode --messages` writes a summary a message).
public struct JSONWriter: Sendable {
    /// The memory written into, shared by copies until one of them writes.
    @usableFromInline var buffer: Buffer
    /// How many bytes of `buffer` this writer has written (here, not in the buffer: a class's stored `var` is
    /// checked for exclusive access at run time, which cost more than the writing).
    @usableFromInline var written = 0
    /// Whether ``member(_:first:)`` writes its snake_case key in camelCase (`ticket_id` as `ticketId`), for
    /// JavaScript's conventions (the web module's answers). Keys inside a ``JSONValue`` are written as they are.
    @usableFromInline package var camelCaseKeys = false

    /// A writer whose buffer holds `capacity` bytes before it grows.
    public init(capacity: Int = 256) { buffer = Buffer(capacity: capacity) }

    /// The UTF-8 bytes written so far, as an array (a copy; ``withBytes(_:)`` reads them in place).
    public var bytes: [UInt8] {
        get { withUnsafeBufferPointer { Array($0) } }
        set {
            buffer = Buffer(capacity: newValue.count)
            written = 0
            append(contentsOf: newValue)
        }
    }

    /// How many bytes have been written.
    @inlinable public var count: Int { written }

    /// Calls `body` with the bytes written so far, in place.
    @inlinable public func withBytes<R>(_ body: (Span<UInt8>) throws -> R) rethrows -> R {
        try withUnsafeBufferPointer { try body(Span(_unsafeElements: $0)) }
    }

    /// `withBytes(_:)` as a buffer (the package's writers of output and bodies).
    @inlinable package func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withExtendedLifetime(buffer) { try body(UnsafeBufferPointer(start: buffer.base, count: written)) }
    }

    /// Appends one byte as it is.
    @inlinable public mutating func append(_ byte: UInt8) {
        reserve(1)
        buffer.base[written] = byte
        written &+= 1
    }

    /// Appends bytes as they are (text that is already JSON, a line's end).
    @inlinable package mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(buffer.base + written).copyMemory(from: source, byteCount: bytes.count)
        written &+= bytes.count
    }

    /// Appends bytes as they are.
    @inlinable public mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil {
            for byte in bytes { append(byte) }
        }
    }

    /// Forgets what was written; with `keepingCapacity`, the buffer is kept for what is written next.
    public mutating func removeAll(keepingCapacity: Bool = false) {
        if !keepingCapacity || !isKnownUniquelyReferenced(&buffer) {
            buffer = Buffer(capacity: keepingCapacity ? buffer.capacity : 0)
        }
        written = 0
    }

    /// Makes room for `n` more bytes in a buffer of this writer's own.
    @inlinable mutating func reserve(_ n: Int) {
        if _slowPath(!isKnownUniquelyReferenced(&buffer) || buffer.capacity &- written < n) { grow(n) }
    }

    @usableFromInline mutating func grow(_ n: Int) {
        let larger = Buffer(capacity: max(written + n, buffer.capacity * 2, 64))
        UnsafeMutableRawPointer(larger.base).copyMemory(from: buffer.base, byteCount: written)
        buffer = larger
    }

    /// Memory for `capacity` bytes, written only by a writer that holds the only reference.
    @usableFromInline final class Buffer: @unchecked Sendable {
        @usableFromInline let base: UnsafeMutablePointer<UInt8>
        @usableFromInline let capacity: Int

        @usableFromInline init(capacity: Int) {
            self.capacity = max(capacity, 0)
            base = .allocate(capacity: max(capacity, 1))
        }

        deinit { base.deallocate() }
    }

    /// Appends `value` as JSON.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let b): raw(b ? "true" : "false")
        case .integer(let i): write(i)
        case .number(let s): append(contentsOf: s.utf8)
        case .string(let s): write(s)
        case .array(let a):
            append(UInt8(ascii: "["))
            for (i, e) in a.enumerated() {
                if i > 0 { append(UInt8(ascii: ",")) }
                write(e)
            }
            append(UInt8(ascii: "]"))
        case .object(let o):
            append(UInt8(ascii: "{"))
            for (i, m) in o.members.enumerated() {
                if i > 0 { append(UInt8(ascii: ",")) }
                write(m.key)
                append(UInt8(ascii: ":"))
                write(m.value)
            }
            append(UInt8(ascii: "}"))
        }
    }

    /// Appends an integer.
    @inlinable public mutating func write(_ i: Int64) {
        reserve(20)
        var magnitude = i.magnitude
        var digits = 0
        repeat {
            digits &+= 1
            magnitude /= 10
        } while magnitude > 0
        let sign = i < 0 ? 1 : 0
        let start = buffer.base + written
        if sign == 1 { start.pointee = UInt8(ascii: "-") }
        magnitude = i.magnitude
        var at = start + sign + digits
        repeat {
            at -= 1
            at.pointee = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
            magnitude /= 10
        } while magnitude > 0
        written &+= sign + digits
    }

    /// Appends a JSON string literal for `s`: runs that need no escape are copied whole.
    @inlinable public mutating func write(_ s: String) {
        var s = s
        s.withUTF8 { writeString(utf8: $0) }
    }

    /// Appends a JSON string literal for UTF-8 text. Bytes are copied as they are scanned; the first that
    /// needs an escape hands the rest to the slower, escaping loop.
    @inlinable package mutating func writeString(utf8: UnsafeBufferPointer<UInt8>) {
        let n = utf8.count
        reserve(n &+ 2)
        let at = buffer.base + written
        at.pointee = UInt8(ascii: "\"")
        var i = 0
        while i < n {
            let b = utf8[i]
            if Self.needsEscape(b) { break }
            at[i &+ 1] = b
            i &+= 1
        }
        if i == n {
            at[n &+ 1] = UInt8(ascii: "\"")
            written &+= n &+ 2
        } else {
            written &+= i &+ 1
            writeEscaped(UnsafeBufferPointer(rebasing: utf8[i...]))
        }
    }

    /// The rest of a string literal from a byte that needs an escape: runs without one copied whole.
    @usableFromInline mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var run = 0
        for (i, b) in utf8.enumerated() where Self.needsEscape(b) {
            append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
            run = i + 1
            switch b {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            default:
                raw("\\u00")
                append(Hex.lowercaseDigits[Int(b >> 4)])
                append(Hex.lowercaseDigits[Int(b & 0xF)])
            }
        }
        append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        append(UInt8(ascii: "\""))
    }

    /// Whether a byte of a string is written escaped: controls, `"`, `\\` and DEL.
    @inlinable static func needsEscape(_ b: UInt8) -> Bool {
        b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b == 0x7F
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
        if _slowPath(camelCaseKeys) { return camelCaseMember(key, first: first) }
        let n = key.utf8CodeUnitCount
        reserve(n &+ 4)
        let at = buffer.base + written
        at[0] = first ? UInt8(ascii: "{") : UInt8(ascii: ",")
        at[1] = UInt8(ascii: "\"")
        UnsafeMutableRawPointer(at + 2).copyMemory(from: key.utf8Start, byteCount: n)
        at[n &+ 2] = UInt8(ascii: "\"")
        at[n &+ 3] = UInt8(ascii: ":")
        written &+= n &+ 4
    }

    /// ``member(_:first:)`` with the key in camelCase: each `_` dropped and the letter after it capitalised.
    @usableFromInline mutating func camelCaseMember(_ key: StaticString, first: Bool) {
        let n = key.utf8CodeUnitCount
        reserve(n &+ 4)
        let at = buffer.base + written
        at[0] = first ? UInt8(ascii: "{") : UInt8(ascii: ",")
        at[1] = UInt8(ascii: "\"")
        var out = 2
        var upper = false
        for byte in UnsafeBufferPointer(start: key.utf8Start, count: n) {
            if byte == UInt8(ascii: "_") {
                upper = true
                continue
            }
            at[out] = upper && byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte &- 32 : byte
            out &+= 1
            upper = false
        }
        at[out] = UInt8(ascii: "\"")
        at[out &+ 1] = UInt8(ascii: ":")
        written &+= out &+ 2
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
        switch w.withUnsafeBufferPointer({ JSONValue.parseResult($0, limits: JSONLimits(maxDepth: 1_000)) }) {
        case .success(let value): return value
        case .failure(let error): preconditionFailure("JSONWriter wrote invalid JSON: \(error)")
        }
    }

    /// Appends text that is already JSON (punctuation, a prepared literal).
    @inlinable public mutating func raw(_ s: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// The text written so far.
    public var string: String { withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) } }
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
