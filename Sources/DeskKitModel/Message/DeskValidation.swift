/// Strict validation of one line of input, whatever it holds: what `deskkit validate` prints.
public enum DeskValidation {
    /// The keys that make a JSON object an envelope rather than a payload.
    static let envelopeKeys = ["type", "message_id", "message", "custom_type", "data", "created_at"]

    /// Every problem of `line`, read as a message envelope (a JSON object with any of `type`, `message_id`,
    /// `message`, `custom_type`, `data`, `created_at` and no `body`), a payload (a JSON object, or a JSON
    /// string holding one), or a bare `data` string (raw or base64 JSON). Paths below `$.data` are inside
    /// the decoded data.
    public static func problems(inLine line: Span<UInt8>) -> [PayloadProblem] {
        line.withUnsafeBufferPointer { problems(inLine: $0) }
    }

    /// `problems(inLine:)` on a buffer (`deskkit validate`'s lines).
    package static func problems(inLine line: UnsafeBufferPointer<UInt8>) -> [PayloadProblem] {
        switch JSONValue.parseResult(line) {
        case .success(.object(let o)) where isEnvelope(o):
            return DeskMessage(json: .object(o), options: .strict).problems
        case .success(.string(let data)):
            return DeskPayload.decode(data, expectsPayload: true, options: .strict).problems
        case .success(let value) where value.objectValue == nil:
            // An array, null, a number or a boolean: judged as `decode --messages` and `filter` judge it.
            return [
                PayloadProblem(.wrongType, at: "$", "a message or payload is a JSON object, found \(value.typeName)")
            ]
        default:
            return DeskPayload.decode(bytes: line, expectsPayload: true, options: .strict).problems
        }
    }

    private static func isEnvelope(_ o: JSONObject) -> Bool {
        if o["body"] != nil { return false }
        if case .string(let t)? = o["type"], !DeskMessage.MessageType(rawValue: t).isKnown, o["data"] == nil {
            return false
        }
        return o.contains { envelopeKeys.contains($0.key) }
    }
}
