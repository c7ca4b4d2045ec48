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
        public var content: DeskContent
        public var encoding: DataEncoding
        /// The decoded JSON, when `data` held JSON or base64 JSON.
        public var payload: JSONValue?
        /// Everything found wrong, with JSON paths from `$` (the decoded data).
        public var problems: [PayloadProblem]
    }

    /// Reads a `data` string (raw JSON or base64 JSON) the way it would be read inside a message with
    /// `customType`. Never throws: problems are listed, and a payload with a fatal problem is
    /// ``DeskContent/malformed(_:)``. With `expectsPayload`, text that is not (base64) JSON is a problem
    /// too, as it is in a rich or system message.
    public static func decode(
        _ data: String, customType: String? = nil, expectsPayload: Bool = false, options: DecodingOptions = .lenient
    ) -> Decoded {
        var reader = FieldReader()
        var result = decode(
            data, customType: customType, expectsPayload: expectsPayload, path: "$", options: options, reader: &reader)
        result.problems = reader.problems
        return result
    }

    /// Reads `data` given as bytes, which may not be UTF-8: invalid UTF-8 inside JSON is reported
    /// (``PayloadProblem/Code/invalidJSON``) instead of being replaced.
    public static func decode(
        bytes: some Collection<UInt8>, customType: String? = nil, expectsPayload: Bool = false,
        options: DecodingOptions = .lenient
    ) -> Decoded {
        var reader = FieldReader()
        let array = Array(bytes)
        var result = array.withUnsafeBufferPointer { buffer in
            decode(
                buffer, original: String(decoding: buffer, as: UTF8.self), customType: customType,
                expectsPayload: expectsPayload, path: "$", options: options, reader: &reader)
        }
        result.problems = reader.problems
        return result
    }

    static func decode(
        _ data: String, customType: String?, expectsPayload: Bool = false, path: String, options: DecodingOptions,
        reader: inout FieldReader
    ) -> Decoded {
        var copy = data
        return copy.withUTF8 { buffer in
            decode(
                buffer, original: data, customType: customType, expectsPayload: expectsPayload, path: path,
                options: options, reader: &reader)
        }
    }

    private static func decode(
        _ buffer: UnsafeBufferPointer<UInt8>, original data: String, customType: String?, expectsPayload: Bool,
        path: String, options: DecodingOptions, reader: inout FieldReader
    ) -> Decoded {
        let (decoded, encoding) = DataDecoder.decode(bytes: buffer, path: path, limits: options.limits)
        func malformed(_ p: PayloadProblem) -> Decoded {
            Decoded(content: .malformed(MalformedPayload(data: data, reason: p)), encoding: encoding, payload: nil, problems: [])
        }
        let needsJSON = expectsPayload || customType == richMessageCustomType || isSystemCustomType(customType)
        let expected = customType.map { "a \($0) message" } ?? "a Desk payload"
        switch decoded {
        case .broken(let problem):
            reader.problems.append(problem)
            return malformed(problem)
        case .none, .text:
            guard needsJSON else {
                let isAutoEvent = customType == DeskNotification.autoEventCustomType
                return Decoded(
                    content: isAutoEvent ? .notification(DeskNotification(kind: nil)) : .plain, encoding: encoding,
                    payload: nil, problems: [])
            }
            let problem: PayloadProblem
            if decoded == .none {
                problem = PayloadProblem(.missingField, at: path, "\(expected) carries JSON data")
            } else {
                problem = DataDecoder.base64Problem(data, path: path)
                    ?? PayloadProblem(.notJSON, at: path, "\(expected) carries JSON data, found text")
            }
            reader.problems.append(problem)
            return malformed(problem)
        case .json(let json):
            if options.checksDuplicateKeys { reader.checkDuplicateKeys(json, at: path) }
            let before = reader.problems.count
            let content = classify(json, customType: customType, path: path, reader: &reader)
            if let fatal = reader.problems[before...].first(where: { $0.code.isFatal }) {
                return Decoded(
                    content: .malformed(MalformedPayload(data: data, reason: fatal)), encoding: encoding, payload: json,
                    problems: [])
            }
            return Decoded(content: content, encoding: encoding, payload: json, problems: [])
        }
    }

    private static func classify(_ json: JSONValue, customType: String?, path: String, reader: inout FieldReader)
        -> DeskContent
    {
        let object = json.objectValue
        var type: String?
        switch object?["type"] {
        case .string(let s)?: type = s
        case nil, .null?: type = nil
        case let other?:
            reader.report(.wrongType, path + ".type", "expected a string, found \(other.typeName)")
            return .unknown(UnknownPayload(type: nil, json: json))
        }
        guard let object, let type else {
            if isSystemCustomType(customType) || customType == richMessageCustomType {
                reader.report(.missingField, path + ".type", "a \(customType!) payload names its type")
                return .unknown(UnknownPayload(type: nil, json: json))
            }
            if customType == DeskNotification.autoEventCustomType { return .notification(DeskNotification(kind: nil)) }
            return .plain
        }
        let bodyPath = path + ".body"
        switch type {
        case URLPreview.dataType:
            guard let body = reader.object(object, "body", at: path, required: true),
                let preview = URLPreview(body: body, path: bodyPath, reader: &reader)
            else { return .unknown(UnknownPayload(type: type, json: json)) }
            return .urlPreview(preview)
        case ClosureInquiry.dataType, ClosureInquiry.legacyDataType:
            guard let body = reader.object(object, "body", at: path, required: true),
                let inquiry = ClosureInquiry(body: body, path: bodyPath, reader: &reader)
            else { return .unknown(UnknownPayload(type: type, json: json)) }
            return .closureInquiry(inquiry)
        case CustomerSatisfaction.dataType:
            guard let body = reader.object(object, "body", at: path, required: true),
                let csat = CustomerSatisfaction(body: body, path: bodyPath, reader: &reader)
            else { return .unknown(UnknownPayload(type: type, json: json)) }
            return .customerSatisfaction(csat)
        case BotAnswers.dataType:
            return .botAnswers(BotAnswers(data: object, path: path, reader: &reader))
        default:
            if SystemMessage.Kind.isSystemType(type) || isSystemCustomType(customType) {
                return .systemMessage(SystemMessage(kind: type, data: object, path: path, reader: &reader))
            }
            if type.utf8.starts(with: DeskNotification.prefix.utf8)
                || customType == DeskNotification.autoEventCustomType
            {
                return .notification(DeskNotification(kind: type))
            }
            return .unknown(UnknownPayload(type: type, json: json))
        }
    }
}

extension DecodedData: Equatable {
    static func == (a: DecodedData, b: DecodedData) -> Bool {
        switch (a, b) {
        case (.none, .none), (.text, .text): return true
        case (.json(let x), .json(let y)): return x == y
        case (.broken(let x), .broken(let y)): return x == y
        default: return false
        }
    }
}
