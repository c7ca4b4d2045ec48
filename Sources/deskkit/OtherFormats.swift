import ArgumentParser
import DeskKitModel

/// The payload formats `deskkit decode` and `deskkit validate` read. Every one but `desk` (which tells an envelope
/// from a payload by its members) is also the name of its JSON Schema (`deskkit schema NAME`), and
/// `deskkit validate --format NAME` is the strict validation that schema equals.
enum PayloadFormat: String, ExpressibleByArgument, CaseIterable {
    case desk
    case deskMessage = "desk-message"
    case deskData = "desk-data"
    case sendbirdWebhook = "sendbird-webhook"
    case pyrusWebhook = "pyrus-webhook"
    case pyrusAuth = "pyrus-auth"
    case livetexWebhook = "livetex-webhook"

    /// A line read as a message's `data` once decoded: a JSON object (anything else is the problem at `$`).
    private static func deskData(_ line: UnsafeBufferPointer<UInt8>, options: DecodingOptions) -> DeskPayload.Decoded {
        var decoded = DeskPayload.decode(bytes: line, expectsPayload: true, options: options)
        // The JSON found starts with `{`, `[` or `"`: only what is no object is parsed again, for its type's name.
        if decoded.payloadText?.utf8.first != UInt8(ascii: "{"), let payload = decoded.payload,
            payload.objectValue == nil
        {
            decoded.problems.insert(
                PayloadProblem(.wrongType, at: "$", "a payload is a JSON object, found \(payload.typeName)"), at: 0)
        }
        return decoded
    }

    /// Decodes one body: a Desk message's summary (`desk`, `desk-message`), a payload's (`desk-data`), or
    /// `{"format", "valid", "value", "problems"}`; and its problems (every one, with `strict`: what
    /// `deskkit validate --format` prints).
    func decode(_ body: UnsafeBufferPointer<UInt8>, strict: Bool) -> (JSONValue, [PayloadProblem]) {
        let options: DecodingOptions = strict ? .strict : .lenient
        let value: JSONValue?
        let problems: [PayloadProblem]
        switch self {
        case .desk, .deskMessage:
            let m = DeskMessage(jsonBytes: body, options: options)
            return (m.summaryJSON, m.problems)
        case .deskData:
            let d = Self.deskData(body, options: options)
            return (d.summaryJSON, d.problems)
        case .sendbirdWebhook:
            let r = SendbirdWebhook.decode(body, options: options)
            value = r.value.map { w in
                [
                    "category": .string(w.category), "app_id": .optional(w.appID), "sender_id": .optional(w.senderID),
                    "channel_url": .optional(w.channelURL), "message": w.message?.summaryJSON ?? .null,
                ]
            }
            problems = r.problems + (r.value?.message?.problems ?? [])
        case .pyrusWebhook:
            let r = PyrusReplyWebhook.decode(body, options: options)
            (value, problems) = (r.value?.jsonValue, r.problems)
        case .pyrusAuth:
            let r = PyrusAuthRequest.decode(body)
            (value, problems) = (r.value?.jsonValue, r.problems)
        case .livetexWebhook:
            let r = LiveTexPush.decode(body, options: options)
            (value, problems) = (r.value?.jsonValue, r.problems)
        }
        let json: JSONValue = [
            "format": .string(rawValue), "valid": .bool(value != nil), "value": value ?? .null,
            "problems": .array(problems.map(\.jsonValue)),
        ]
        return (json, problems)
    }
}
