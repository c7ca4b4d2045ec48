/// A Desk notification: an admin message shown to customers and agents alike (welcome, away, delay,
/// outside operating hours, closed, proactive chat), or a `SENDBIRD:AUTO_EVENT_MESSAGE`.
public struct DeskNotification: Sendable, Hashable {
    /// The notification's `data.type` (`NOTIFICATION_WELCOME`, …); nil for an auto-event message without one.
    public var kind: String?

    /// A notification of `kind` (its `data.type`).
    public init(kind: String?) { self.kind = kind }

    static let prefix: StaticString = "NOTIFICATION_"
    /// The `custom_type` of Sendbird's automatic event messages.
    public static let autoEventCustomType = "SENDBIRD:AUTO_EVENT_MESSAGE"

    /// The notification types the Desk dashboard sends.
    public static let knownKinds: [String] = [
        "NOTIFICATION_WELCOME", "NOTIFICATION_AWAY_AGENT", "NOTIFICATION_ASSIGNMENT_DELAY",
        "NOTIFICATION_NOT_OPERATING_HOUR", "NOTIFICATION_MANUAL_CLOSED", "NOTIFICATION_AUTO_CLOSED",
        "NOTIFICATION_PROACTIVE_CHAT",
    ]

    /// The manual and automatic closing notifications also tell the client that the ticket is closed.
    public var closesTicket: Bool { kind == "NOTIFICATION_MANUAL_CLOSED" || kind == "NOTIFICATION_AUTO_CLOSED" }
}

/// The answers of the Desk FAQ bot (`SENDBIRD_DESK_BOT_MESSAGE_FAQ_ANSWERS`).
public struct BotAnswers: Sendable, Hashable {
    /// One FAQ entry the bot offers.
    public struct Result: Sendable, Hashable {
        /// The FAQ entry's category.
        public var category: String?
        /// The question it answers.
        public var question: String?
        /// The answer.
        public var answer: String?
        /// The keyword that matched.
        public var keyword: String?
        /// A link to more.
        public var url: String?
        /// A picture for the entry.
        public var imageURL: String?

        /// An FAQ entry from its parts.
        public init(
            category: String? = nil, question: String? = nil, answer: String? = nil, keyword: String? = nil,
            url: String? = nil, imageURL: String? = nil
        ) {
            self.category = category
            self.question = question
            self.answer = answer
            self.keyword = keyword
            self.url = url
            self.imageURL = imageURL
        }
    }

    /// The FAQ file the answers come from.
    public var faqFileID: Int64?
    /// The entries offered, in order.
    public var results: [Result]

    /// Answers from `results` of FAQ file `faqFileID`.
    public init(faqFileID: Int64? = nil, results: [Result]) {
        self.faqFileID = faqFileID
        self.results = results
    }

    /// The `data.type` of bot answers and the `custom_type` of bot messages.
    public static let dataType = "SENDBIRD_DESK_BOT_MESSAGE_FAQ_ANSWERS"
    /// The `custom_type` of bot messages.
    public static let customType = "SENDBIRD_DESK_BOT_MESSAGE"

    private enum ResultKey: Int, JSONKeys {
        case category, question, answer, keyword, url, image_url
        static let table = StringTable(keys: Self.self, "category question answer keyword url image_url")
    }

    init(data: Fields<DeskPayload.DataKey>, reader: inout FieldReader) {
        faqFileID = reader.int64(data, .faq_file_id)
        var results: [Result] = []
        reader.forEachObject(data, .results) { o, reader in
            let o = o.fields(ResultKey.self)
            results.append(
                Result(
                    category: reader.string(o, .category), question: reader.string(o, .question),
                    answer: reader.string(o, .answer), keyword: reader.string(o, .keyword), url: reader.string(o, .url),
                    imageURL: reader.string(o, .image_url)))
        }
        self.results = results
    }
}
