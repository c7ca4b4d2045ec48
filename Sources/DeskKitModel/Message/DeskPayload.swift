/// Reading and writing the `data` of Desk messages on its own, without an envelope.
public enum DeskPayload {
    /// The `custom_type` of rich messages (URL previews, closure inquiries, CSAT).
    public static let richMessageCustomType = "SENDBIRD_DESK_RICH_MESSAGE"
    /// The `custom_type` of Desk system messages.
    public static let adminMessageCustomType = "SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE"
    /// The constant's *name*, which the iOS docs compare with by mistake; read as the same thing.
    public static let legacyAdminMessageCustomType = "ADMIN_MESSAGE_CUSTOM_TYPE"

    /// Whether a `custom_type` marks a Desk system message.
    public static func isSystemCustomType(_ customType: String?) -> Bool {
        customType == adminMessageCustomType || customType == legacyAdminMessageCustomType
    }

    /// The result of reading one `data` string.
    public struct Decoded: Sendable, Hashable {
        /// What the payload is, typed.
        public var content: DeskContent
        /// How the payload was written.
        public var encoding: DataEncoding
        /// `data.type`, when `data` is a JSON object with a string `type`.
        public var dataType: String?
        /// The JSON text inside `data` (decoded from base64 when it was base64).
        public var payloadText: String?
        /// Everything found wrong, with JSON paths from `$` (the decoded data).
        public var problems: [PayloadProblem]

        /// The decoded JSON, when `data` held JSON or base64 JSON (parsed on each access).
        public var payload: JSONValue? { payloadText.flatMap { try? JSONValue.parse($0) } }
    }

    /// Reads a `data` string (raw JSON or base64 JSON) the way it would be read inside a message with
    /// `customType`. Never throws: problems are listed, and a payload with a fatal problem is
    /// ``DeskContent/malformed(_:)``. With `expectsPayload`, text that is not (base64) JSON is a problem
    /// too, as it is in a rich or system message.
    public static func decode(
        _ data: String, customType: String? = nil, expectsPayload: Bool = false, options: DecodingOptions = .lenient
    ) -> Decoded {
        var copy = data
        return copy.withUTF8 {
            decoded($0, original: data, customType: customType, expectsPayload: expectsPayload, options: options)
        }
    }

    /// Reads `data` given as bytes, which may not be UTF-8: invalid UTF-8 inside JSON is reported
    /// (``PayloadProblem/Code/invalidJSON``) instead of being replaced.
    public static func decode(
        bytes: some Collection<UInt8>, customType: String? = nil, expectsPayload: Bool = false,
        options: DecodingOptions = .lenient
    ) -> Decoded {
        Array(bytes).withUnsafeBufferPointer {
            decoded($0, original: nil, customType: customType, expectsPayload: expectsPayload, options: options)
        }
    }

    /// `data` read on its own, with memory of its own, as the two public readers above give it.
    private static func decoded(
        _ buffer: UnsafeBufferPointer<UInt8>, original: String?, customType: String?, expectsPayload: Bool,
        options: DecodingOptions
    ) -> Decoded {
        var reader = FieldReader()
        let o = decode(
            buffer, original: original, customType: customType, expectsPayload: expectsPayload, path: "$",
            options: options, scratch: DecodingScratch(), reader: &reader)
        return Decoded(
            content: o.content, encoding: o.encoding, dataType: o.dataType, payloadText: o.payloadText,
            problems: reader.problems)
    }

    /// What reading `data` gives besides its problems. A tuple, so that its parts move into a message
    /// instead of being copied out of a struct.
    typealias Outcome = (content: DeskContent, encoding: DataEncoding, dataType: String?, payloadText: String?)

    /// The shared reader. `original` is `data` as a string when the caller has one (saves a copy). The data's
    /// tape is parsed into `scratch`, which the caller keeps alive.
    static func decode(
        _ buffer: UnsafeBufferPointer<UInt8>, original: String?, customType: String?, expectsPayload: Bool = false,
        path: StaticString, options: DecodingOptions, scratch: DecodingScratch, reader: inout FieldReader
    ) -> Outcome {
        let (found, encoding) = DataDecoder.locate(buffer, scratch: scratch)
        func malformed(_ p: PayloadProblem, dataType: String? = nil, payloadText: String? = nil) -> Outcome {
            let data = original ?? String(decoding: buffer, as: UTF8.self)
            return (.malformed(MalformedPayload(data: data, reason: p)), encoding, dataType, payloadText)
        }
        let needsJSON = expectsPayload || customType == richMessageCustomType || isSystemCustomType(customType)
        var expected: String { customType.map { "a \($0) message" } ?? "a Desk payload" }

        func classifyJSON(_ json: UnsafeBufferPointer<UInt8>, offsetBase: Int?, text: () -> String) -> Outcome {
            switch JSONTape.parse(json, limits: options.limits, into: scratch.payload) {
            case .failure(let error):
                let problem = DataDecoder.problem(error, path: path, offsetBase: offsetBase)
                reader.problems.append(problem)
                return malformed(problem)
            case .success(let tape):
                let payloadText = text()
                if options.checksDuplicateKeys { reader.checkDuplicateKeys(tape, 0, at: path.description) }
                let before = reader.problems.count
                var dataType: String?
                let content = classify(tape, customType: customType, path: path, dataType: &dataType, reader: &reader)
                if let fatal = reader.problems[before...].first(where: { $0.code.isFatal }) {
                    return malformed(fatal, dataType: dataType, payloadText: payloadText)
                }
                return (content, encoding, dataType, payloadText)
            }
        }

        switch found {
        case .json(let range):
            return classifyJSON(UnsafeBufferPointer(rebasing: buffer[range]), offsetBase: range.lowerBound) {
                if range.count == buffer.count, let original { return original }
                return String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
            }
        case .base64JSON(let decoded, let range):
            let json = UnsafeBufferPointer(rebasing: decoded[range])
            return classifyJSON(json, offsetBase: nil) { String(decoding: json, as: UTF8.self) }
        case .none, .text:
            guard needsJSON else {
                let autoEvent = customType == DeskNotification.autoEventCustomType
                return (autoEvent ? .notification(DeskNotification(kind: nil)) : .plain, encoding, nil, nil)
            }
            let problem: PayloadProblem
            if case .none = found {
                problem = PayloadProblem(.missingField, at: path.description, "\(expected) carries JSON data")
            } else {
                problem =
                    DataDecoder.base64Problem(buffer, path: path)
                    ?? PayloadProblem(.notJSON, at: path.description, "\(expected) carries JSON data, found text")
            }
            reader.problems.append(problem)
            return malformed(problem)
        }
    }

    /// The members of `data` that classification and the payloads read.
    enum DataKey: Int, JSONKeys {
        case type, body, ticket, transfer, faq_file_id, results
        static let table = StringTable(keys: Self.self, "type body ticket transfer faq_file_id results")
    }

    /// Custom types every message can share instead of allocating its own copy.
    static let knownCustomTypes = StringTable([
        richMessageCustomType, adminMessageCustomType, legacyAdminMessageCustomType,
        DeskNotification.autoEventCustomType,
        BotAnswers.customType,
    ])

    /// What a known `data.type` is.
    enum Family { case urlPreview, closureInquiry, customerSatisfaction, botAnswers, notification, systemMessage }

    /// The data types every message can share instead of allocating its own copy, with their families.
    static let knownDataTypeFamilies: [(type: String, family: Family)] =
        [
            (URLPreview.dataType, .urlPreview), (CustomerSatisfaction.dataType, .customerSatisfaction),
            (ClosureInquiry.dataType, .closureInquiry), (ClosureInquiry.legacyDataType, .closureInquiry),
            (BotAnswers.dataType, .botAnswers),
        ] + DeskNotification.knownKinds.map { ($0, .notification) }
        + SystemMessage.Kind.known.map { ($0, .systemMessage) }

    static let knownDataTypes = StringTable(knownDataTypeFamilies.map { $0.type })

    private static func classify(
        _ tape: JSONTape, customType: String?, path: StaticString, dataType: inout String?, reader: inout FieldReader
    ) -> DeskContent {
        let data = JSONFields(tape: tape, index: 0, root: path).fields(DataKey.self)
        var type: String?
        var family: Family?  // nil for a type not in the table
        if let t = data[.type] {
            switch tape.kind(t) {
            case .string:
                if let k = tape.match(t, in: knownDataTypes) {
                    type = knownDataTypes[k]
                    family = knownDataTypeFamilies[k].family
                } else {
                    type = tape.string(at: t)
                }
            case .null: break
            default:
                reader.report(.wrongType, "\(path).type", "expected a string, found \(tape.typeName(t))")
                return .unknown(UnknownPayload(type: nil, json: tape.value(at: 0)))
            }
        }
        dataType = type
        guard let type else {
            if isSystemCustomType(customType) || customType == richMessageCustomType {
                reader.report(.missingField, "\(path).type", "a \(customType!) payload names its type")
                return .unknown(UnknownPayload(type: nil, json: tape.value(at: 0)))
            }
            if customType == DeskNotification.autoEventCustomType { return .notification(DeskNotification(kind: nil)) }
            return .plain
        }
        func unknown() -> DeskContent { .unknown(UnknownPayload(type: type, json: tape.value(at: 0))) }
        switch family {
        case .urlPreview:
            guard let body = reader.object(data, .body, required: true),
                let preview = URLPreview(body: body, reader: &reader)
            else { return unknown() }
            return .urlPreview(preview)
        case .closureInquiry:
            guard let body = reader.object(data, .body, required: true),
                let inquiry = ClosureInquiry(body: body, reader: &reader)
            else { return unknown() }
            return .closureInquiry(inquiry)
        case .customerSatisfaction:
            guard let body = reader.object(data, .body, required: true),
                let csat = CustomerSatisfaction(body: body, reader: &reader)
            else { return unknown() }
            return .customerSatisfaction(csat)
        case .botAnswers:
            return .botAnswers(BotAnswers(data: data, reader: &reader))
        default:
            // Types outside the table are read by their prefix.
            if family == .systemMessage || (family == nil && SystemMessage.Kind.isSystemType(type))
                || isSystemCustomType(customType)
            {
                return .systemMessage(SystemMessage(kind: type, data: data, reader: &reader))
            }
            if family == .notification || (family == nil && type.hasUTF8Prefix(DeskNotification.prefix))
                || customType == DeskNotification.autoEventCustomType
            {
                return .notification(DeskNotification(kind: type))
            }
            return unknown()
        }
    }
}
