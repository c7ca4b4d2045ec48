/// A payload DeskKit writes: the three rich messages a client or server sends.
public enum RichPayload: Sendable, Hashable {
    /// A link card (`SENDBIRD_DESK_URL_PREVIEW`).
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
