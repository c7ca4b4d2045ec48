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

    /// What kind of error, fit for programs.
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
    /// Limits with `maxDepth` levels of nesting at most (128 by default).
    public init(maxDepth: Int = 128) { self.maxDepth = maxDepth }
    /// 128 levels of nesting.
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

    /// Parses a complete JSON text from UTF-8 bytes in place.
    public static func parse(_ bytes: Span<UInt8>, limits: JSONLimits = .default) throws(JSONSyntaxError) -> JSONValue {
        try parseResult(bytes, limits: limits).get()
    }

    /// Parses like `parse(_:limits:)` and returns the outcome as a `Result`.
    public static func parseResult(_ bytes: Span<UInt8>, limits: JSONLimits = .default)
        -> Result<JSONValue, JSONSyntaxError>
    {
        bytes.withUnsafeBufferPointer { parseResult($0, limits: limits) }
    }

    /// `parse(_:limits:)` on a buffer (the package's readers of lines and bodies).
    package static func parse(_ buffer: UnsafeBufferPointer<UInt8>, limits: JSONLimits = .default)
        throws(JSONSyntaxError) -> JSONValue
    {
        try parseResult(buffer, limits: limits).get()
    }

    /// `parseResult(_:limits:)` on a buffer.
    package static func parseResult(_ buffer: UnsafeBufferPointer<UInt8>, limits: JSONLimits = .default)
        -> Result<JSONValue, JSONSyntaxError>
    {
        JSONTape.withParsed(buffer, limits: limits) { $0.map { $0.value(at: 0) } }
    }
}
