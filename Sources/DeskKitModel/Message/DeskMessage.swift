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
        /// `MESG`: a message a user sent.
        public static let user = MessageType(rawValue: "MESG")
        /// `ADMM`: an admin message (notifications, system messages).
        public static let admin = MessageType(rawValue: "ADMM")
        /// `FILE`: a file message.
        public static let file = MessageType(rawValue: "FILE")
        /// Whether this is one of Sendbird's three message types.
        public var isKnown: Bool { self == .user || self == .admin || self == .file }
        public var description: String { rawValue }
    }

    /// The longest `custom_type` Sendbird accepts, in characters (Unicode code points, as JSON Schema's `maxLength`
    /// counts them).
    public static let maxCustomTypeLength = 128

    /// `type`: user, admin or file message; nil when absent.
    public var messageType: MessageType?
    /// `message_id` (a numeric string is read too); nil when absent.
    public var messageID: Int64?
    /// `message`: the text shown to people.
    public var text: String?
    /// `custom_type`; Desk marks rich, system and bot messages with it.
    public var customType: String?
    /// `data` exactly as received.
    public var data: String?
    /// `created_at`, milliseconds since the epoch.
    public var createdAt: Int64?
    /// How `data` was written.
    public var encoding: DataEncoding
    /// `data.type` when `data` is a JSON object with a string `type` (also when the rest is malformed).
    public var dataType: String?
    /// The JSON text inside `data` (decoded from base64 when it was base64); nil when `data` is not JSON.
    public var payloadText: String?
    /// What `data` carries, typed.
    public var content: DeskContent
    /// Everything found wrong with the envelope and its data. Empty for a valid message.
    public var problems: [PayloadProblem]
    /// Sendbird's own link preview of the message — the Platform API's `og_tag` (`og:url`, `og:title`,
    /// `og:description`, `og:image` with `url`, `secure_url`, `width`, `height`) or `@sendbird/chat`'s
    /// `ogMetaData` (`url`, `title`, `description`, `defaultImage`) — as a preview's fields (only strings are texts,
    /// only integers sizes; the secure image first), or nil. ``LinkCard`` draws it for a message without a Desk
    /// preview, as the web module does.
    public var sendbirdPreview: URLPreview? = nil

    /// `data` decoded as JSON, with every member (parsed on each access).
    public var payload: JSONValue? { payloadText.flatMap { try? JSONValue.parse($0) } }

    /// The envelope members DeskKit reads.
    private enum EnvelopeKey: Int, JSONKeys {
        case type, message_id, message, custom_type, created_at, data, og_tag, ogMetaData
        static let table = StringTable(
            keys: Self.self, "type message_id message custom_type created_at data og_tag ogMetaData")
    }
}

extension DeskMessage {
    /// Decodes one envelope from JSON text (lenient: never throws). Text that is not JSON gives a
    /// ``DeskContent/malformed(_:)`` message whose problem says where the text breaks.
    public init(json text: String, options: DecodingOptions = .lenient) {
        var copy = text
        self = copy.withUTF8 { DeskMessage(jsonBytes: $0, options: options) }
    }

    /// A message from the fields a Sendbird SDK's message object holds — what an app reads off a `BaseMessage`:
    ///
    /// ```swift
    /// let desk = DeskMessage(
    ///     customType: message.customType, data: message.data, text: message.message,
    ///     messageID: message.messageId, messageType: message is AdminMessage ? .admin : .user,
    ///     createdAt: message.createdAt)
    /// if desk.isVisible(to: .customer) { show(desk.content) }
    /// ```
    ///
    /// The content, problems and visibility are those of the JSON envelope with the same members (`custom_type`,
    /// `data`, `message`, `message_id`, `type`, `created_at`); a parameter left nil is a member left out, and a
    /// problem's path names the envelope's member (`$.custom_type`). Lenient, like every decoding initializer.
    public init(
        customType: String? = nil, data: String, text: String? = nil, messageID: Int64? = nil,
        messageType: MessageType? = nil, createdAt: Int64? = nil, options: DecodingOptions = .lenient
    ) {
        var w = JSONWriter(capacity: 64 + data.utf8.count + (text?.utf8.count ?? 0))
        var first = true
        func member(_ key: StaticString) {
            w.member(key, first: first)
            first = false
        }
        if let messageType { member("type"); w.write(messageType.rawValue) }
        if let messageID { member("message_id"); w.write(messageID) }
        if let text { member("message"); w.write(text) }
        if let customType { member("custom_type"); w.write(customType) }
        if let createdAt { member("created_at"); w.write(createdAt) }
        member("data")
        w.write(data)
        w.raw("}")
        self = w.withUnsafeBufferPointer { DeskMessage(jsonBytes: $0, options: options) }
    }

    /// Decodes one envelope from a parsed JSON value.
    public init(json envelope: JSONValue, options: DecodingOptions = .lenient) {
        var w = JSONWriter()
        w.write(envelope)
        self = w.withUnsafeBufferPointer { DeskMessage(jsonBytes: $0, options: options) }
    }

    /// Decodes one envelope from UTF-8 bytes. Lenient: never throws. To decode many messages, a
    /// ``DeskMessageDecoder`` is faster: it keeps its working memory from one message to the next.
    public init(jsonBytes bytes: Span<UInt8>, options: DecodingOptions = .lenient) {
        self = bytes.withUnsafeBufferPointer { DeskMessage(jsonBytes: $0, options: options) }
    }

    /// `init(jsonBytes:options:)` on a buffer.
    package init(jsonBytes bytes: UnsafeBufferPointer<UInt8>, options: DecodingOptions = .lenient) {
        var decoder = DeskMessageDecoder(options: options)
        self = decoder.decode(bytes)
    }

    /// A message that is malformed before its data is reached.
    private static func malformed(_ problem: PayloadProblem, data: String) -> DeskMessage {
        DeskMessage(
            encoding: .none, content: .malformed(MalformedPayload(data: data, reason: problem)), problems: [problem])
    }

    /// The envelope's tape, parsed into `scratch`; the problem at `$` when it is not JSON or not an object.
    static func envelope(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodingOptions, scratch: DecodingScratch)
        -> Result<JSONTape, PayloadProblem>
    {
        switch JSONTape.parse(bytes, limits: options.limits, into: scratch.envelope) {
        case .failure(let error): return .failure(PayloadProblem(.syntax(error.code), at: "$", error.description))
        case .success(let tape):
            guard tape.kind(0) == .object else {
                return .failure(
                    PayloadProblem(.wrongType, at: "$", "a message is a JSON object, found \(tape.typeName(0))"))
            }
            return .success(tape)
        }
    }

    /// Decodes an envelope, working in `scratch`.
    ///
    /// Every path ends in the memberwise initializer that Swift synthesizes (which is why the initializers
    /// above live in an extension): Swift 6.3 copies a large struct whole, every string retained and the
    /// original released, at the end of an initializer that assigns its fields one by one, but builds it in
    /// place from the synthesized one.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodingOptions, scratch: DecodingScratch)
        -> DeskMessage
    {
        switch envelope(bytes, options: options, scratch: scratch) {
        case .success(let tape): return decode(tape, at: 0, typeIfAbsent: nil, options: options, scratch: scratch)
        case .failure(let problem): return malformed(problem, data: String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Decodes the envelope object at `index` of a parsed `tape` — the whole text, or a webhook's
    /// `payload` read in place, without a second parse. Problems' paths start at that object (`$`), and
    /// `typeIfAbsent` stands for a `type` member the object does not have.
    static func decode(
        _ tape: JSONTape, at index: Int, typeIfAbsent: String?, options: DecodingOptions, scratch: DecodingScratch
    ) -> DeskMessage {
        var reader = FieldReader()
        if options.checksDuplicateKeys { reader.checkDuplicateKeys(tape, index, at: "$") }
        let o = JSONFields(tape: tape, index: index, root: "$", base: index).fields(EnvelopeKey.self)
        let messageType = (o[.type] == nil ? typeIfAbsent : reader.string(o, .type)).map(MessageType.init(rawValue:))
        if let t = messageType, !t.isKnown {
            reader.report(.unknownValue, "$.type", "\"\(t.rawValue.prefix(40))\" is not one of MESG, ADMM, FILE")
        }
        let messageID = reader.int64(o, .message_id)
        let text = reader.string(o, .message)
        let customType = reader.string(o, .custom_type, known: DeskPayload.knownCustomTypes)
        if let ct = customType, ct.utf8.count > maxCustomTypeLength, ct.unicodeScalars.count > maxCustomTypeLength {
            reader.report(
                .tooLong, "$.custom_type",
                "\(ct.unicodeScalars.count) characters (code points), more than \(maxCustomTypeLength)")
        }
        let createdAt = reader.int64(o, .created_at)
        let sendbirdPreview = (o[.og_tag] ?? o[.ogMetaData]).flatMap {
            tape.kind($0) == .object ? tape.value(at: $0) : nil
        }
        .flatMap(URLPreview.init(sendbirdOG:))
        var data: String?
        let outcome: DeskPayload.Outcome
        if let d = o[.data], tape.kind(d) != .null {
            guard tape.kind(d) == .string else {
                let problem = PayloadProblem(.wrongType, at: "$.data", "expected a string, found \(tape.typeName(d))")
                reader.problems.append(problem)
                let content = DeskContent.malformed(
                    MalformedPayload(data: tape.value(at: d).jsonString, reason: problem))
                return DeskMessage(
                    messageType: messageType, messageID: messageID, text: text, customType: customType,
                    createdAt: createdAt, encoding: .none, content: content, problems: reader.problems,
                    sendbirdPreview: sendbirdPreview)
            }
            var string = tape.string(at: d)
            let original = string
            outcome = string.withUTF8 { buffer in
                DeskPayload.decode(
                    buffer, original: original, customType: customType, path: "$.data", options: options,
                    scratch: scratch, reader: &reader)
            }
            data = original
        } else {
            outcome = DeskPayload.decode(
                UnsafeBufferPointer(start: nil, count: 0), original: nil, customType: customType, path: "$.data",
                options: options, scratch: scratch, reader: &reader)
        }
        return DeskMessage(
            messageType: messageType, messageID: messageID, text: text, customType: customType, data: data,
            createdAt: createdAt, encoding: outcome.encoding, dataType: outcome.dataType,
            payloadText: outcome.payloadText, content: outcome.content, problems: reader.problems,
            sendbirdPreview: sendbirdPreview)
    }
}

/// How leniently to read.
public struct DecodingOptions: Sendable, Hashable {
    /// Parser bounds for the envelope and for `data`.
    public var limits: JSONLimits
    /// Report keys written twice in one object (costs a pass over every object).
    public var checksDuplicateKeys: Bool

    /// Options with the given JSON limits; `checksDuplicateKeys` reports repeated members as problems.
    public init(limits: JSONLimits = .default, checksDuplicateKeys: Bool = false) {
        self.limits = limits
        self.checksDuplicateKeys = checksDuplicateKeys
    }

    /// The default: fast, never throws, keeps what it cannot type.
    public static let lenient = DecodingOptions()
    /// Every check, for validation.
    public static let strict = DecodingOptions(checksDuplicateKeys: true)
}
