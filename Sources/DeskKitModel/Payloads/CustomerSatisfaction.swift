/// The body of a `SENDBIRD_DESK_CUSTOMER_SATISFACTION` message: the CSAT survey and the customer's answer.
///
/// Reading accepts `state` or `status` (the dashboard and the JS sample write `status`) and the score as a
/// number or a numeric string. Writing uses `state` and a number.
public struct CustomerSatisfaction: Sendable, Hashable {
    /// Where the survey stands. Unknown values are kept as written.
    public struct State: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Sent; the customer has not answered.
        public static let waiting = State(rawValue: "WAITING")
        /// The customer answered.
        public static let confirmed = State(rawValue: "CONFIRMED")
        /// The states Desk writes.
        public static let known: [State] = [.waiting, .confirmed]
        /// Whether Desk writes this state.
        public var isKnown: Bool { Self.known.contains(self) }
        public var description: String { rawValue }
    }

    /// Scores run from 1 to 5.
    public static let scoreRange: ClosedRange<Int64> = 1...5

    /// Whether the customer has answered.
    public var state: State
    /// The customer's score, 1–5 once answered. A value out of range is kept as written (strict
    /// validation reports it).
    public var score: Int64?
    /// The customer's comment; nil when absent, null or empty.
    public var comment: String?
    /// The ticket the survey is about.
    public var ticketID: Int64?

    /// A survey in `state`, with the customer's answer when there is one.
    public init(state: State, score: Int64? = nil, comment: String? = nil, ticketID: Int64? = nil) {
        self.state = state
        self.score = score
        self.comment = comment
        self.ticketID = ticketID
    }

    /// The `data.type` of CSAT messages.
    public static let dataType = "SENDBIRD_DESK_CUSTOMER_SATISFACTION"

    /// `body` as written: `state`, and the score, comment and ticket id when present.
    public var bodyJSON: JSONValue {
        var o: JSONObject = ["state": .string(state.rawValue)]
        if let score { o["customerSatisfactionScore"] = .integer(score) }
        if let comment { o["customerSatisfactionComment"] = .string(comment) }
        if let ticketID { o["ticketId"] = .integer(ticketID) }
        return .object(o)
    }

    private enum Key: Int, JSONKeys {
        case state, status, customerSatisfactionScore, customerSatisfactionComment, ticketId
        static let table = StringTable(
            keys: Self.self, "state status customerSatisfactionScore customerSatisfactionComment ticketId")
    }

    init?(body: JSONFields, reader: inout FieldReader) {
        let body = body.fields(Key.self)
        let key: Key = body[.state] != nil || body[.status] == nil ? .state : .status
        let state = reader.string(body, key, required: true)
        score = reader.int64(body, .customerSatisfactionScore)
        let comment = reader.string(body, .customerSatisfactionComment)
        self.comment = comment?.isEmpty == true ? nil : comment
        ticketID = reader.int64(body, .ticketId)
        guard let state else { return nil }
        self.state = State(rawValue: state)
        if !self.state.isKnown {
            reader.report(.unknownValue, body.path(key), "\"\(state.prefix(40))\" is not one of WAITING, CONFIRMED")
        }
        if let score, !Self.scoreRange.contains(score) {
            reader.report(.outOfRange, body.path(.customerSatisfactionScore), "score \(score) is outside 1–5")
        }
    }
}
