/// A Sendbird message as a server or client sees it, with its `data` decoded into typed content.
///
/// ```swift
/// let message = DeskMessage(json: line)           // never throws: bad input becomes .malformed
/// if message.isVisible(to: .customer) { render(message.content) }
/// if message.closesTicket { hideReplyBar() }
/// ```
public struct DeskMessage: Sendable, Hashable {
    /// `type` of the envelope: user, admin or file message. Unknown values are kept as written.
    public struct MessageType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let user = MessageType(rawValue: "MESG")
        public static let admin = MessageType(rawValue: "ADMM")
        public static let file = MessageType(rawValue: "FILE")
        public var isKnown: Bool { self == .user || self == .admin || self == .file }
        public var description: String { rawValue }
    }

    /// The longest `custom_type` Sendbird accepts.
    public static let maxCustomTypeLength = 128

    public var messageType: MessageType?
    public var messageID: Int64?
    /// `message`: the text shown to people.
    public var text: String?
    public var customType: String?
    /// `data` exactly as received.
    public var data: String?
    /// `created_at`, milliseconds since the epoch.
    public var createdAt: Int64?
    /// How `data` was written.
    public var encoding: DataEncoding
    /// `data` decoded as JSON, when it is JSON or base64 JSON.
    public var payload: JSONValue?
    public var content: DeskContent
    /// Everything found wrong with the envelope and its data. Empty for a valid message.
    public var problems: [PayloadProblem]

    /// Decodes one envelope (lenient: never throws; bad input becomes ``DeskContent/malformed(_:)``).
    public init(json envelope: JSONValue, options: DecodingOptions = .lenient) {
        self.init(problem: nil, data: nil)
        var reader = FieldReader()
        defer { problems = reader.problems }
        guard let o = envelope.objectValue else {
            let problem = PayloadProblem(.wrongType, at: "$", "a message is a JSON object, found \(envelope.typeName)")
            reader.problems.append(problem)
            content = .malformed(MalformedPayload(data: envelope.jsonString, reason: problem))
            return
        }
        if options.checksDuplicateKeys { reader.checkDuplicateKeys(envelope, at: "$") }
        messageType = reader.string(o, "type", at: "$").map(MessageType.init(rawValue:))
        if let t = messageType, !t.isKnown {
            reader.report(.unknownValue, "$.type", "\"\(t.rawValue.prefix(40))\" is not one of MESG, ADMM, FILE")
        }
        messageID = reader.int64(o, "message_id", at: "$")
        text = reader.string(o, "message", at: "$")
        customType = reader.string(o, "custom_type", at: "$")
        if let ct = customType, ct.count > Self.maxCustomTypeLength {
            reader.report(.tooLong, "$.custom_type", "\(ct.count) characters, more than \(Self.maxCustomTypeLength)")
        }
        createdAt = reader.int64(o, "created_at", at: "$")
        switch o["data"] {
        case .string(let s)?:
            data = s
        case nil, .null?:
            data = nil
        case let other?:
            let problem = PayloadProblem(.wrongType, at: "$.data", "expected a string, found \(other.typeName)")
            reader.problems.append(problem)
            content = .malformed(MalformedPayload(data: other.jsonString, reason: problem))
            return
        }
        let decoded = DeskPayload.decode(
            data ?? "", customType: customType, path: "$.data", options: options, reader: &reader)
        encoding = decoded.encoding
        payload = decoded.payload
        content = decoded.content
    }

    /// Decodes one envelope from JSON text. Text that is not JSON gives a ``DeskContent/malformed(_:)``
    /// message whose problem says where the text breaks.
    public init(json text: String, options: DecodingOptions = .lenient) {
        do {
            self.init(json: try JSONValue.parse(text, limits: options.limits), options: options)
        } catch {
            let code: PayloadProblem.Code =
                error.code == .trailingGarbage ? .trailingGarbage : error.code == .tooDeep ? .tooDeep : .invalidJSON
            self.init(problem: PayloadProblem(code, at: "$", error.description), data: text)
        }
    }

    private init(problem: PayloadProblem?, data: String?) {
        encoding = .none
        if let problem {
            content = .malformed(MalformedPayload(data: data ?? "", reason: problem))
            problems = [problem]
        } else {
            content = .plain
            problems = []
        }
    }

    /// `data.type` when `data` is a JSON object with a string `type`.
    public var dataType: String? { payload?["type"]?.stringValue }
}

/// How leniently to read.
public struct DecodingOptions: Sendable, Hashable {
    /// Parser bounds for the envelope and for `data`.
    public var limits: JSONLimits
    /// Report keys written twice in one object (costs a pass over every object).
    public var checksDuplicateKeys: Bool

    public init(limits: JSONLimits = .default, checksDuplicateKeys: Bool = false) {
        self.limits = limits
        self.checksDuplicateKeys = checksDuplicateKeys
    }

    /// The default: fast, never throws, keeps what it cannot type.
    public static let lenient = DecodingOptions()
    /// Every check, for validation.
    public static let strict = DecodingOptions(checksDuplicateKeys: true)
}
