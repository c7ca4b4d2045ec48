/// What a message carries, decided from its `data.type` (and its `custom_type` where the format says so).
///
/// The big payloads are boxed (`indirect`) so that a message stays small to move; the small ones (a closure
/// inquiry, a notification, bot answers: each under 32 bytes) are kept inline, which spares a message an
/// allocation.
public enum DeskContent: Sendable, Hashable {
    indirect case urlPreview(URLPreview)
    case closureInquiry(ClosureInquiry)
    indirect case customerSatisfaction(CustomerSatisfaction)
    indirect case systemMessage(SystemMessage)
    case notification(DeskNotification)
    case botAnswers(BotAnswers)
    /// An ordinary message: no `data`, free text in `data`, or JSON of the app's own without a `type`.
    case plain
    /// A rich or admin payload of a type DeskKit does not model, kept whole.
    indirect case unknown(UnknownPayload)
    /// `data` that should have held a Desk payload and does not, kept whole with the reason.
    indirect case malformed(MalformedPayload)

    /// The content's kind, as printed by `deskkit decode --messages`.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case urlPreview = "url_preview"
        case closureInquiry = "closure_inquiry"
        case customerSatisfaction = "customer_satisfaction"
        case systemMessage = "system_message"
        case notification
        case botAnswers = "bot_answers"
        case plain
        case unknown
        case malformed
    }

    public var kind: Kind {
        switch self {
        case .urlPreview: return .urlPreview
        case .closureInquiry: return .closureInquiry
        case .customerSatisfaction: return .customerSatisfaction
        case .systemMessage: return .systemMessage
        case .notification: return .notification
        case .botAnswers: return .botAnswers
        case .plain: return .plain
        case .unknown: return .unknown
        case .malformed: return .malformed
        }
    }
}

/// A payload whose `type` DeskKit does not know.
public struct UnknownPayload: Sendable, Hashable {
    /// `data.type` as written, when it is a string.
    public var type: String?
    /// The whole decoded `data`.
    public var json: JSONValue
    public init(type: String?, json: JSONValue) {
        self.type = type
        self.json = json
    }
}

/// `data` that could not be read as what it claims to be.
public struct MalformedPayload: Sendable, Hashable {
    /// The `data` string exactly as received.
    public var data: String
    /// The first problem that left no typed value.
    public var reason: PayloadProblem
    public init(data: String, reason: PayloadProblem) {
        self.data = data
        self.reason = reason
    }
}
