/// Why a text is not valid JSON, and where: ``offset`` is the byte offset of the problem in the input.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of syntax problem was found.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case empty, unexpectedEnd, unexpectedCharacter, invalidNumber, invalidEscape, controlCharacter,
                invalidUTF8, tooDeep, trailingGarbage
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The input holds nothing but white space.
        public static let empty = Code(.empty)
        /// The input ends in the middle of a value (truncated JSON).
        public static let unexpectedEnd = Code(.unexpectedEnd)
        /// A character that cannot stand where it stands.
        public static let unexpectedCharacter = Code(.unexpectedCharacter)
        /// A number that does not follow JSON's grammar.
        public static let invalidNumber = Code(.invalidNumber)
        /// A backslash escape JSON does not have, or a lone UTF-16 surrogate.
        public static let invalidEscape = Code(.invalidEscape)
        /// An unescaped control character inside a string.
        public static let controlCharacter = Code(.controlCharacter)
        /// Bytes that are not UTF-8.
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// Arrays and objects nested deeper than ``JSONLimits/maxDepth``.
        public static let tooDeep = Code(.tooDeep)
        /// Something other than white space after the value.
        public static let trailingGarbage = Code(.trailingGarbage)

        public var description: String { base.rawValue }
    }

    public var code: Code
    /// Byte offset of the problem in the parsed input.
    public var offset: Int
    /// A sentence for people.
    public var message: String

    public var description: String { "\(message) at byte \(offset)" }
}

/// Bounds the parser keeps so that hostile input costs bounded stack and time.
public struct JSONLimits: Sendable, Hashable {
    /// Deepest nesting of arrays and objects accepted. Default 128.
    public var maxDepth: Int
    public init(maxDepth: Int = 128) { self.maxDepth = maxDepth }
    public static let `default` = JSONLimits()
}

extension JSONValue {
    /// Parses a complete JSON text (RFC 8259). White space around the value is allowed, nothing else.
    public static func parse(_ text: String, limits: JSONLimits = .default) throws(JSONSyntaxError) -> JSONValue {
        var text = text
        return try text.withUTF8 { parseResult($0, limits: limits) }.get()
    }

    /// Parses a complete JSON text from UTF-8 bytes.
    public static func parse(_ bytes: some Collection<UInt8>, limits: JSONLimits = .default)
        throws(JSONSyntaxError) -> JSONValue
    {
        if let result = bytes.withContiguousStorageIfAvailable({ parseResult($0, limits: limits) }) {
            return try result.get()
        }
        return try Array(bytes).withUnsafeBufferPointer { parseResult($0, limits: limits) }.get()
    }

    /// Parses a complete JSON text from a buffer of UTF-8 bytes.
    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>, limits: JSONLimits = .default)
        throws(JSONSyntaxError) -> JSONValue
    {
        try parseResult(buffer, limits: limits).get()
    }

    /// Parses like `parse(_:limits:)` and returns the outcome as a `Result`.
    public static func parseResult(_ buffer: UnsafeBufferPointer<UInt8>, limits: JSONLimits = .default)
        -> Result<JSONValue, JSONSyntaxError>
    {
        var parser = JSONParser(buffer, maxDepth: limits.maxDepth)
        parser.skipWhitespace()
        if parser.index == buffer.count {
            return .failure(JSONSyntaxError(code: .empty, offset: 0, message: "no JSON value"))
        }
        do {
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            if parser.index != buffer.count {
                return .failure(
                    JSONSyntaxError(
                        code: .trailingGarbage, offset: parser.index, message: "unexpected data after the JSON value"))
            }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }
}

/// A recursive-descent parser over UTF-8 bytes.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    let maxDepth: Int
    private var scratch: [UInt8] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    @inline(__always) mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func error(_ code: JSONSyntaxError.Code, _ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(code: code, offset: offset ?? index, message: message)
    }

    private func unexpected() -> JSONSyntaxError {
        if index >= bytes.count { return error(.unexpectedEnd, "the JSON text ends too early") }
        let b = bytes[index]
        let shown = b >= 0x20 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x\(String(b, radix: 16))"
        return error(.unexpectedCharacter, "unexpected \(shown)")
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw unexpected() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected()
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        let start = word.utf8Start
        for i in 0..<count {
            guard index < bytes.count, bytes[index] == start[i] else { throw unexpected() }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        if depth > maxDepth { throw error(.tooDeep, "nested deeper than \(maxDepth) levels") }
        index += 1
        var members: [JSONObject.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(members))
        }
        members.reserveCapacity(8)
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw unexpected() }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw unexpected() }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append(JSONObject.Member(key: key, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw unexpected() }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(JSONObject(members))
            } else {
                throw unexpected()
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        if depth > maxDepth { throw error(.tooDeep, "nested deeper than \(maxDepth) levels") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw unexpected() }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw unexpected()
            }
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error(.invalidNumber, "a number needs digits", at: start)
        }
        var magnitude: UInt64 = 0
        var overflow = false
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error(.invalidNumber, "a number cannot start with 0", at: start)
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) {
                let (m1, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (m2, o2) = m1.addingReportingOverflow(UInt64(bytes[index] &- 0x30))
                overflow = overflow || o1 || o2
                magnitude = m2
                index += 1
            }
        }
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error(.invalidNumber, "a fraction needs digits after '.'", at: start)
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error(.invalidNumber, "an exponent needs digits", at: start)
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if integral, !overflow {
            if negative {
                if magnitude <= UInt64(Int64.max) + 1, magnitude != 0 { return .integer(Int64(truncatingIfNeeded: 0 &- magnitude)) }
            } else if magnitude <= UInt64(Int64.max) {
                return .integer(Int64(magnitude))
            }
        }
        return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    @inline(__always) private func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    /// Parses a string starting at its opening quote.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        let start = index
        var ascii = true
        // Fast path: no escapes.
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                if !ascii { try validateUTF8(from: start, to: index) }
                index += 1
                return String(decoding: slice, as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw error(.controlCharacter, "unescaped control character in a string") }
            if b >= 0x80 { ascii = false }
            index += 1
        }
        if index >= bytes.count { throw error(.unexpectedEnd, "a string is not closed", at: start - 1) }
        if !ascii { try validateUTF8(from: start, to: index) }
        // Slow path: unescape into scratch.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        var runStart = index
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                try flushRun(from: runStart)
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if b < 0x20 { throw error(.controlCharacter, "unescaped control character in a string") }
            if b == UInt8(ascii: "\\") {
                try flushRun(from: runStart)
                try parseEscape()
                runStart = index
            } else {
                index += 1
            }
        }
        throw error(.unexpectedEnd, "a string is not closed", at: start - 1)
    }

    private mutating func flushRun(from runStart: Int) throws(JSONSyntaxError) {
        guard runStart < index else { return }
        try validateUTF8(from: runStart, to: index)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
    }

    private mutating func parseEscape() throws(JSONSyntaxError) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { throw error(.unexpectedEnd, "a string ends inside an escape") }
        let c = bytes[index]
        index += 1
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(c)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4(escapeStart)
            if scalar >= 0xD800, scalar < 0xDC00 {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error(.invalidEscape, "lone UTF-16 surrogate in \\u escape", at: escapeStart) }
                index += 2
                let low = try hex4(escapeStart)
                guard low >= 0xDC00, low < 0xE000 else {
                    throw error(.invalidEscape, "lone UTF-16 surrogate in \\u escape", at: escapeStart)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if scalar >= 0xDC00, scalar < 0xE000 {
                throw error(.invalidEscape, "lone UTF-16 surrogate in \\u escape", at: escapeStart)
            }
            appendUTF8(scalar)
        default:
            throw error(.invalidEscape, "invalid escape in a string", at: escapeStart)
        }
    }

    private mutating func hex4(_ escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error(.unexpectedEnd, "a string ends inside a \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - 0x61 + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - 0x41 + 10
            default: throw error(.invalidEscape, "\\u needs four hex digits", at: escapeStart)
            }
            v = v << 4 | UInt32(d)
            index += 1
        }
        return v
    }

    private mutating func appendUTF8(_ v: UInt32) {
        switch v {
        case 0..<0x80: scratch.append(UInt8(v))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | v >> 6)); scratch.append(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | v >> 12)); scratch.append(UInt8(0x80 | v >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | v & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | v >> 18)); scratch.append(UInt8(0x80 | v >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | v >> 6 & 0x3F)); scratch.append(UInt8(0x80 | v & 0x3F))
        }
    }

    /// Checks that `bytes[from..<to]` is well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF).
    private func validateUTF8(from: Int, to: Int) throws(JSONSyntaxError) {
        if let bad = UTF8Validation.firstInvalidOffset(in: UnsafeBufferPointer(rebasing: bytes[from..<to])) {
            throw error(.invalidUTF8, "invalid UTF-8 in a string", at: from + bad)
        }
    }
}

/// UTF-8 well-formedness (Unicode Table 3-7).
package enum UTF8Validation {
    /// The offset of the first byte that starts an ill-formed sequence, or nil when all is well-formed.
    package static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 { i += 1; continue }
            func cont(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool {
                i + k < n && bytes[i + k] >= lo && bytes[i + k] <= hi
            }
            switch b0 {
            case 0xC2...0xDF:
                guard cont(1) else { return i }
                i += 2
            case 0xE0:
                guard cont(1, 0xA0), cont(2) else { return i }
                i += 3
            case 0xE1...0xEC, 0xEE...0xEF:
                guard cont(1), cont(2) else { return i }
                i += 3
            case 0xED:
                guard cont(1, 0x80, 0x9F), cont(2) else { return i }
                i += 3
            case 0xF0:
                guard cont(1, 0x90), cont(2), cont(3) else { return i }
                i += 4
            case 0xF1...0xF3:
                guard cont(1), cont(2), cont(3) else { return i }
                i += 4
            case 0xF4:
                guard cont(1, 0x80, 0x8F), cont(2), cont(3) else { return i }
                i += 4
            default:
                return i
            }
        }
        return nil
    }

    /// True when every byte is well-formed UTF-8.
    package static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        if let r = bytes.withContiguousStorageIfAvailable({ firstInvalidOffset(in: $0) == nil }) { return r }
        return Array(bytes).withUnsafeBufferPointer { firstInvalidOffset(in: $0) == nil }
    }
}
