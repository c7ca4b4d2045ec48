/// One thing wrong with a message or its `data`, with the JSON path where it was found.
///
/// Lenient decoding attaches these to the ``DeskMessage`` it returns (and classifies the message as
/// ``DeskContent/malformed(_:)`` when a problem leaves no typed value); strict validation returns them all.
public struct PayloadProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is. New codes may be added; switch with a `default`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case wrongType = "wrong_type", outOfRange = "out_of_range", unknownValue = "unknown_value"
            case missingField = "missing_field", invalidBase64 = "invalid_base64", invalidJSON = "invalid_json"
            case trailingGarbage = "trailing_garbage", tooLong = "too_long", tooDeep = "too_deep"
            case duplicateKey = "duplicate_key", notJSON = "not_json", numberTooLarge = "number_too_large"
            case unsupportedValue = "unsupported_value", unsafeURL = "unsafe_url"
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A value of another JSON type than the format says (a number where a string is due…).
        public static let wrongType = Code(.wrongType)
        /// A number outside its range (a CSAT score outside 1–5); the value is kept.
        public static let outOfRange = Code(.outOfRange)
        /// An integer that does not fit in 64 bits (an id, a time), so it cannot be kept as a number.
        public static let numberTooLarge = Code(.numberTooLarge)
        /// A string outside its closed set (an unknown `state`).
        public static let unknownValue = Code(.unknownValue)
        /// A value the format does not allow at all (an unknown protocol version or platform): no typed value.
        public static let unsupportedValue = Code(.unsupportedValue)
        /// A required member is absent (or empty where it must not be).
        public static let missingField = Code(.missingField)
        /// Text that was meant to be base64 JSON and is not valid base64.
        public static let invalidBase64 = Code(.invalidBase64)
        /// Text that was meant to be JSON and does not parse.
        public static let invalidJSON = Code(.invalidJSON)
        /// A JSON value followed by more than white space.
        public static let trailingGarbage = Code(.trailingGarbage)
        /// A string longer than its limit (`custom_type` over 128 characters).
        public static let tooLong = Code(.tooLong)
        /// JSON nested deeper than the parser's limit.
        public static let tooDeep = Code(.tooDeep)
        /// The same key twice in one object (readers disagree on which one wins).
        public static let duplicateKey = Code(.duplicateKey)
        /// `data` that must carry JSON (a rich or Desk system message) carries plain text.
        public static let notJSON = Code(.notJSON)
        /// A URL a client must not open or load (`javascript:`, `data:`, `file:`, credentials, control
        /// characters: see ``URLSafety``). The text is kept; renderers use ``URLPreview/safeURL``.
        public static let unsafeURL = Code(.unsafeURL)

        /// The problem code for a JSON syntax error.
        static func syntax(_ code: JSONSyntaxError.Code) -> Code {
            code == .trailingGarbage ? .trailingGarbage : code == .tooDeep ? .tooDeep : .invalidJSON
        }

        /// The code's name in snake case, as printed in JSON output.
        public var description: String { base.rawValue }

        /// Whether the problem leaves no typed value, so lenient decoding reports the message as malformed.
        /// Range, set and length problems do not: the value is kept as written.
        public var isFatal: Bool {
            switch base {
            case .outOfRange, .unknownValue, .tooLong, .duplicateKey, .unsafeURL: return false
            default: return true
            }
        }
    }

    /// What kind of problem, fit for programs.
    public var code: Code
    /// Where: a JSONPath such as `$.data.body.state` (`$.data` is the decoded content of the `data` string).
    public var path: String
    /// A sentence for people that says what is wrong.
    public var message: String

    /// A problem of `code` at the JSON path `path`, said in `message`.
    public init(_ code: Code, at path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }

    /// The problem as a JSON object `{"code", "path", "message"}`.
    public var jsonValue: JSONValue {
        ["code": .string(code.description), "path": .string(path), "message": .string(message)]
    }
}
