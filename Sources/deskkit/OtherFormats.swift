import ArgumentParser
import DeskKitModel

/// The payload formats `deskkit decode` and `deskkit validate` read.
enum PayloadFormat: String, ExpressibleByArgument, CaseIterable {
    case desk
    case pyrusWebhook = "pyrus-webhook"
    case pyrusAuth = "pyrus-auth"
    case livetexWebhook = "livetex-webhook"

    /// Decodes one body of a non-Desk format: `{"format", "valid", "value", "problems"}`.
    func decode(_ body: UnsafeBufferPointer<UInt8>, strict: Bool) -> (JSONValue, [PayloadProblem]) {
        let options: DecodingOptions = strict ? .strict : .lenient
        let value: JSONValue?
        let problems: [PayloadProblem]
        switch self {
        case .desk:
            let m = DeskMessage(jsonBytes: body, options: options)
            return (m.summaryJSON, m.problems)
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
