/// A JSON value that keeps what a payload said: member order, duplicate keys and number literals.
///
/// DeskKit parses message `data` with its own parser (``JSONValue/parse(_:limits:)-(String,_)``) so that a
/// malformed payload is reported with the byte offset of the problem, never silently repaired, and so
/// that 64-bit message ids and long numbers survive a round trip unchanged.
///
/// ```swift
/// let value = try JSONValue.parse(#"{"type": "NOTIFICATION_WELCOME"}"#)
/// value["type"]?.stringValue  // "NOTIFICATION_WELCOME"
/// ```
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number, kept exactly as written (fractions, exponents, integers beyond 64 bits).
    case number(String)
    /// A string, unescaped.
    case string(String)
    /// An array, its elements in order.
    case array([JSONValue])
    /// An object, its members in order (duplicates kept).
    case object(JSONObject)

    /// The string, when this is a string.
    @inlinable public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The object, when this is an object.
    @inlinable public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The elements, when this is an array.
    @inlinable public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The boolean, when this is `true` or `false`.
    @inlinable public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The value as a 64-bit integer when it is an integer number that fits.
    @inlinable public var int64Value: Int64? {
        if case .integer(let i) = self { return i }
        return nil
    }

    /// The value as a `Double` when it is any number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .number(let s): return Double(s)
        default: return nil
        }
    }

    /// The member named `key` when this is an object (the last one when a key is repeated).
    @inlinable public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// A short name of the value's JSON type, as used in error messages ("string", "object", …).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer, .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// A JSON object: its members in the order written, duplicates included.
///
/// Lookup by key returns the *last* member with that key, as JavaScript's `JSON.parse` does;
/// ``duplicateKeys`` lists the keys written more than once so that strict validation can report them.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One `"key": value` member.
    public struct Member: Sendable, Hashable {
        /// The member's name, unescaped.
        public var key: String
        /// The member's value.
        public var value: JSONValue
        /// A member named `key` with `value`.
        @inlinable public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members in the order they were written.
    public var members: [Member]

    /// An object with `members`, in their order.
    @inlinable public init(_ members: [Member] = []) { self.members = members }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { Member(key: $0.0, value: $0.1) }
    }

    @inlinable public var startIndex: Int { members.startIndex }
    @inlinable public var endIndex: Int { members.endIndex }
    @inlinable public subscript(position: Int) -> Member { members[position] }

    /// The value of the last member named `key`; setting replaces it, or appends a new member.
    @inlinable public subscript(key: String) -> JSONValue? {
        get {
            var i = members.count
            while i > 0 {
                i -= 1
                if members[i].key == key { return members[i].value }
            }
            return nil
        }
        set {
            if let i = members.lastIndex(where: { $0.key == key }) {
                if let newValue { members[i].value = newValue } else { members.remove(at: i) }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// Keys that appear more than once, each reported once, in order of their second appearance.
    public var duplicateKeys: [String] {
        DuplicateKeys.secondAppearances(members.map { $0.key }).map { members[$0].key }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
    public init(nilLiteral: ()) { self = .null }
}
