/// The body of a `SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE` message: an agent asks the customer whether the
/// ticket may be closed, and the state records the answer.
public struct ClosureInquiry: Sendable, Hashable {
    /// Where the inquiry stands. Unknown values are kept as written.
    public struct State: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Sent; the customer has not answered.
        public static let waiting = State(rawValue: "WAITING")
        /// The customer agreed to close the ticket.
        public static let confirmed = State(rawValue: "CONFIRMED")
        /// The customer wants to keep the ticket open.
        public static let declined = State(rawValue: "DECLINED")
        /// The states Desk writes.
        public static let known: [State] = [.waiting, .confirmed, .declined]
        /// Whether Desk writes this state.
        public var isKnown: Bool { Self.known.contains(self) }
        public var description: String { rawValue }
    }

    /// Whether the customer has answered, and how.
    public var state: State
    /// The ticket the inquiry is about.
    public var ticketID: Int64?

    /// An inquiry in `state` about ticket `ticketID`.
    public init(state: State, ticketID: Int64? = nil) {
        self.state = state
        self.ticketID = ticketID
    }

    /// The `data.type` written for closure inquiries.
    public static let dataType = "SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE"
    /// The older type name still found in stored payloads; read as the same thing.
    public static let legacyDataType = "SENDBIRD_DESK_INQUIRE_CLOSE_TICKET"

    /// Whether the customer still has to answer (the client shows Yes/No buttons).
    public var awaitsAnswer: Bool { state == .waiting }

    /// `body` as Desk writes it: `{"state", "ticketId"}`.
    public var bodyJSON: JSONValue {
        var o: JSONObject = ["state": .string(state.rawValue)]
        if let ticketID { o["ticketId"] = .integer(ticketID) }
        return .object(o)
    }

    private enum Key: Int, JSONKeys {
        case state, ticketId
        static let table = StringTable(keys: Self.self, "state ticketId")
    }

    init?(body: JSONFields, reader: inout FieldReader) {
        let body = body.fields(Key.self)
        let state = reader.string(body, .state, required: true)
        ticketID = reader.int64(body, .ticketId)
        guard let state else { return nil }
        self.state = State(rawValue: state)
        if !self.state.isKnown {
            reader.report(
                .unknownValue, body.path(.state), "\"\(state.prefix(40))\" is not one of WAITING, CONFIRMED, DECLINED")
        }
    }
}
