/// A payload DeskKit writes: the three rich messages a client or server sends.
public enum RichPayload: Sendable, Hashable {
    case urlPreview(URLPreview)
    /// The closure inquiry, typically with the customer's answer (`CONFIRMED`/`DECLINED`).
    case closureInquiry(ClosureInquiry)
    /// The CSAT survey, typically with the customer's answer.
    case customerSatisfaction(CustomerSatisfaction)

    /// The `data.type` written.
    public var dataType: String {
        switch self {
        case .urlPreview: return URLPreview.dataType
        case .closureInquiry: return ClosureInquiry.dataType
        case .customerSatisfaction: return CustomerSatisfaction.dataType
        }
    }

    /// The whole payload `{"type": …, "body": …}`.
    public var json: JSONValue {
        let body: JSONValue
        switch self {
        case .urlPreview(let p): body = p.bodyJSON
        case .closureInquiry(let c): body = c.bodyJSON
        case .customerSatisfaction(let c): body = c.bodyJSON
        }
        return ["type": .string(dataType), "body": body]
    }

    /// The same value as message content.
    public var content: DeskContent {
        switch self {
        case .urlPreview(let p): return .urlPreview(p)
        case .closureInquiry(let c): return .closureInquiry(c)
        case .customerSatisfaction(let c): return .customerSatisfaction(c)
        }
    }
}

/// How to write `data`.
public enum DataForm: String, Sendable, Hashable, CaseIterable {
    /// Raw JSON text: what Android, JS, the dashboard and the Platform API use. The default.
    case json
    /// Standard, padded base64 of the JSON text, as the iOS documentation writes.
    case base64
}

/// A message to send or to update through the Platform API: the body of
/// `PUT /v3/group_channels/{channel_url}/messages/{message_id}`.
public struct OutgoingMessage: Sendable, Hashable {
    public var messageType: String
    public var message: String
    public var customType: String
    public var data: String

    /// `{"message_type", "message", "custom_type", "data"}`.
    public var json: JSONValue {
        [
            "message_type": .string(messageType), "message": .string(message), "custom_type": .string(customType),
            "data": .string(data),
        ]
    }
}

extension DeskPayload {
    /// Writes `payload` as a `data` string: raw JSON by default, base64 on request.
    public static func encode(_ payload: RichPayload, as form: DataForm = .json) -> String {
        var w = JSONWriter()
        w.write(payload.json)
        switch form {
        case .json: return w.string
        case .base64: return Base64.encode(w.bytes)
        }
    }

    /// A user message carrying `payload`, with the custom type `SENDBIRD_DESK_RICH_MESSAGE` — also when
    /// it updates a message whose custom type was different (the JS sample's mistake).
    public static func message(_ payload: RichPayload, text: String, as form: DataForm = .json) -> OutgoingMessage {
        OutgoingMessage(
            messageType: DeskMessage.MessageType.user.rawValue, message: text, customType: richMessageCustomType,
            data: encode(payload, as: form))
    }
}
