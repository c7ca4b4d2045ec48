/// What a message carries, decided from its `data.type` (and its `custom_type` where the format says so).
///
/// The big payloads are boxed (`indirect`) so that a message stays small to move; the small ones (a closure
/// inquiry, a notification, bot answers: each under 32 bytes) are kept inline, which spares a message an
/// allocation.
public enum DeskContent: Sendable, Hashable {
    /// A link card (`SENDBIRD_DESK_URL_PREVIEW`).
    indirect case urlPreview(URLPreview)
    /// An agent asks whether the ticket may be closed (`SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE`).
    case closureInquiry(ClosureInquiry)
    /// The CSAT survey and its answer (`SENDBIRD_DESK_CUSTOMER_SATISFACTION`).
    indirect case customerSatisfaction(CustomerSatisfaction)
    /// A ticket event for agents (`SYSTEM_MESSAGE_…`, `TICKET_…`), hidden from customers.
    indirect case systemMessage(SystemMessage)
    /// A Desk notification (`NOTIFICATION_…`) or an automatic event message.
    case notification(DeskNotification)
    /// The FAQ bot's answers (`SENDBIRD_DESK_BOT_MESSAGE_FAQ_ANSWERS`).
    case botAnswers(BotAnswers)
    /// An ordinary message: no `data`, free text in `data`, or JSON of the app's own without a `type`.
    case plain
    /// A rich or admin payload of a type DeskKit does not model, kept whole.
    indirect case unknown(UnknownPayload)
    /// `data` that should have held a Desk payload and does not, kept whole with the reason.
    indirect case malformed(MalformedPayload)

    /// The content's kind, as printed by `deskkit decode --messages`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String, CaseIterable {
            case urlPreview = "url_preview", closureInquiry = "closure_inquiry", customerSatisfaction =
                "customer_satisfaction", systemMessage = "system_message", notification, botAnswers = "bot_answers",
                plain, unknown, malformed
        }
        private let code: Code
        private init(_ code: Code) { self.code = code }

        /// The member named `rawValue`, or nil for a name this version does not know.
        public init?(rawValue: String) {
            guard let code = Code(rawValue: rawValue) else { return nil }
            self.code = code
        }

        /// Its name, short and fixed: what the JSON and the metrics print.
        public var rawValue: String { code.rawValue }
        public var description: String { code.rawValue }
        /// Every member this version knows.
        public static var allCases: [Kind] { Code.allCases.map(Kind.init) }

        /// ``DeskContent/urlPreview(_:)``.
        public static let urlPreview = Kind(.urlPreview)

        /// ``DeskContent/closureInquiry(_:)``.
        public static let closureInquiry = Kind(.closureInquiry)

        /// ``DeskContent/customerSatisfaction(_:)``.
        public static let customerSatisfaction = Kind(.customerSatisfaction)

        /// ``DeskContent/systemMessage(_:)``.
        public static let systemMessage = Kind(.systemMessage)

        /// ``DeskContent/notification(_:)``.
        public static let notification = Kind(.notification)

        /// ``DeskContent/botAnswers(_:)``.
        public static let botAnswers = Kind(.botAnswers)

        /// ``DeskContent/plain``.
        public static let plain = Kind(.plain)

        /// ``DeskContent/unknown(_:)``.
        public static let unknown = Kind(.unknown)

        /// ``DeskContent/malformed(_:)``.
        public static let malformed = Kind(.malformed)
    }

    /// Which case this is, without its value.
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
    /// A payload of `type` (nil when it has none) kept whole as `json`.
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
    /// `data` as received, with the problem that made it unreadable.
    public init(data: String, reason: PayloadProblem) {
        self.data = data
        self.reason = reason
    }
}
