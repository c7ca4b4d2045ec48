/// A Desk system message: an admin message for agents about a change to the ticket (status, assignment,
/// priority). Customers never see these (see ``DeskMessage/visibility(for:)``).
///
/// The ticket and the transfer are typed where the format is known; the whole `data` object stays in
/// ``DeskMessage/payload`` for anything not modelled.
public struct SystemMessage: Sendable, Hashable {
    /// The system message's `data.type`, such as `SYSTEM_MESSAGE_TICKET_ASSIGNED_BY_SYSTEM`.
    /// The list is open: unknown `SYSTEM_MESSAGE_…` types are kept as written.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The legacy types that SDKs and samples still name.
        public static let ticketAssign = Kind(rawValue: "TICKET_ASSIGN")
        /// The legacy `TICKET_TRANSFER`.
        public static let ticketTransfer = Kind(rawValue: "TICKET_TRANSFER")
        /// The legacy `TICKET_CLOSE`, which closes the ticket.
        public static let ticketClose = Kind(rawValue: "TICKET_CLOSE")
        static let legacy = ["TICKET_ASSIGN", "TICKET_TRANSFER", "TICKET_CLOSE"]
        static let prefix: StaticString = "SYSTEM_MESSAGE_"
        /// Every system message type Desk is known to send: the legacy ones and `SYSTEM_MESSAGE_TICKET_…`.
        /// A new type is added here (messages of it share one `String` of the type, and it is classified
        /// as a system message without the prefix rule).
        static let known: [String] =
            legacy
            + [
                "ACTIVE_TO_IDLE_BY_SYSTEM", "ACTIVE_TO_IDLE_BY_AGENT", "WIP_BY_AGENT", "WIP_TO_UNASSIGNED_BY_SYSTEM",
                "IDLE_TO_ACTIVE_BY_AGENT", "IDLE_TO_ACTIVE_BY_CUSTOMER", "IDLE_TO_ACTIVE_BY_SYSTEM", "CLOSED_BY_AGENT",
                "CLOSED_BY_CUSTOMER", "CLOSED_BY_PLATFORM_API", "CLOSED_BY_SYSTEM", "REOPENED_BY_AGENT",
                "REOPENED_BY_CUSTOMER", "ASSIGNED_BY_SYSTEM", "ASSIGNED_BY_AGENT", "GROUP_ASSIGNED_BY_AGENT",
                "GROUP_UNASSIGNED_BY_AGENT", "TRANSFERRED_BY_AGENT", "GROUP_TRANSFERRED_BY_AGENT",
                "GROUP_TRANSFERRED_BY_PLATFORM_API", "PRIORITY_VALUE_UPDATED_BY_AGENT",
                "PRIORITY_VALUE_UPDATED_BY_CUSTOMER", "PRIORITY_VALUE_UPDATED_BY_PLATFORM_API",
            ].map { "\(prefix)TICKET_" + $0 }

        /// Whether a `data.type` names a system message (`SYSTEM_MESSAGE_…` or a legacy type).
        public static func isSystemType(_ type: String) -> Bool {
            type.hasUTF8Prefix(prefix) || legacy.contains(type)
        }

        /// Whether the message says the ticket was closed (`TICKET_CLOSE`, `…_CLOSED_BY_…`): clients hide
        /// their reply bar.
        public var closesTicket: Bool {
            self == .ticketClose || rawValue.hasUTF8Prefix("SYSTEM_MESSAGE_TICKET_CLOSED_BY_")
        }

        /// Who made the change, from the `_BY_…` suffix: `AGENT`, `CUSTOMER`, `SYSTEM`, `PLATFORM_API`.
        public var actor: String? {
            let u = Array(rawValue.utf8)
            let marker = Array("_BY_".utf8)
            guard u.count > marker.count else { return nil }
            for start in stride(from: u.count - marker.count, through: 0, by: -1)
            where u[start..<start + marker.count].elementsEqual(marker) {
                return String(decoding: u[(start + marker.count)...], as: UTF8.self)
            }
            return nil
        }
    }

    // Declared in this order so that the memberwise initializer Swift synthesizes, `init(ticket:transfer:kind:)`,
    // differs from the public `init(kind:ticket:transfer:)`: both build the value through it, in place (an
    // initializer that assigns the fields itself copies the whole value at its end; see `DeskMessage.decode`).
    /// The ticket the event is about (`data.ticket`), when the message carries it.
    public var ticket: Ticket?
    /// Present with `…TRANSFERRED_BY_AGENT`.
    public var transfer: Transfer?
    /// The event: the message's `data.type`.
    public var kind: Kind
}

extension SystemMessage {
    /// A system message of `kind` about `ticket`.
    public init(kind: Kind, ticket: Ticket? = nil, transfer: Transfer? = nil) {
        self.init(ticket: ticket, transfer: transfer, kind: kind)
    }

    init(kind: String, data: Fields<DeskPayload.DataKey>, reader: inout FieldReader) {
        var ticket: Ticket?
        if let t = reader.object(data, .ticket) { ticket = Ticket(t, reader: &reader) }
        var transfer: Transfer?
        if let t = reader.object(data, .transfer) { transfer = Transfer(t, reader: &reader) }
        self.init(ticket: ticket, transfer: transfer, kind: Kind(rawValue: kind))
    }
}

/// A Desk ticket as system messages carry it (`data.ticket`, camelCase keys). Members not modelled here
/// are in ``DeskMessage/payload``.
public struct Ticket: Sendable, Hashable {
    /// The ticket's id.
    public var id: Int64?
    /// The ticket's channel's name (usually the ticket's title).
    public var channelName: String?
    /// The ticket's group channel.
    public var channelURL: String?
    /// `INITIALIZED`, `PROACTIVE`, `UNASSIGNED`, `ASSIGNED`, `OPEN`, `CLOSED`.
    public var status: String?
    /// `PENDING`, `ACTIVE`, `WORK_IN_PROGRESS`, `IDLE`, `CLOSED`, …
    public var status2: String?
    /// `URGENT`, `HIGH`, `MEDIUM`, `LOW`.
    public var priority: String?
    /// `info` is itself a JSON string; kept as written.
    public var info: String?
    /// The ticket's latest assignment.
    public var recentAssignment: Assignment?
    /// The customer, as Desk writes it.
    public var customer: JSONObject?
    /// The ticket's custom fields, in order.
    public var customFields: [CustomField]
    /// The team the ticket belongs to.
    public var group: Int64?
    /// `firstResponseTime`: seconds until an agent first answered.
    public var firstResponseTime: Int64?
    /// `issuedAt`, as written (ISO 8601).
    public var issuedAt: String?
    /// `updatedAt`: seconds since 1970, with fractions.
    public var updatedAt: Double?
    /// Decoded from the JSON string `relatedChannels`.
    public var relatedChannels: [RelatedChannel]

    /// One `{key, value}` of `customFields`; the value is kept as any JSON.
    public struct CustomField: Sendable, Hashable {
        /// The field's key.
        public var key: String
        /// Its value, as any JSON.
        public var value: JSONValue
    }

    /// One `{channel_url, name}` of `relatedChannels`.
    public struct RelatedChannel: Sendable, Hashable {
        /// The channel's URL.
        public var channelURL: String
        /// The channel's name.
        public var name: String?
    }

    private enum Key: Int, JSONKeys {
        case id, channelName, channelUrl, status, status2, priority, info, recentAssignment, customer, customFields,
            group, firstResponseTime, issuedAt, updatedAt, relatedChannels
        static let table = StringTable(
            keys: Self.self,
            "id channelName channelUrl status status2 priority info recentAssignment customer customFields group firstResponseTime issuedAt updatedAt relatedChannels"
        )
    }

    private enum CustomFieldKey: Int, JSONKeys {
        case key, value
        static let table = StringTable(keys: Self.self, "key value")
    }
}

// The decoding initializers are in extensions and end in the memberwise initializer Swift synthesizes, which
// builds the value in place (see DeskMessage.decode).
extension Ticket {
    init(_ o: JSONFields, reader: inout FieldReader) {
        let o = o.fields(Key.self)
        let id = reader.int64(o, .id)
        let channelName = reader.string(o, .channelName)
        let channelURL = reader.string(o, .channelUrl)
        let status = reader.string(o, .status)
        let status2 = reader.string(o, .status2)
        let priority = reader.string(o, .priority)
        let info = reader.string(o, .info)
        let recentAssignment = reader.object(o, .recentAssignment).map { Assignment($0, reader: &reader) }
        let customer = reader.object(o, .customer).flatMap { $0.tape.value(at: $0.index).objectValue }
        let group = reader.int64(o, .group)
        let firstResponseTime = reader.int64(o, .firstResponseTime)
        let issuedAt = reader.string(o, .issuedAt)
        let updatedAt = reader.double(o, .updatedAt)
        var customFields: [CustomField] = []
        reader.forEachObject(o, .customFields) { f, reader in
            let f = f.fields(CustomFieldKey.self)
            guard let key = reader.string(f, .key, required: true) else { return }
            customFields.append(CustomField(key: key, value: f[.value].map { f.object.tape.value(at: $0) } ?? .null))
        }
        var relatedChannels: [RelatedChannel] = []
        if var related = reader.string(o, .relatedChannels), !related.isEmpty {
            let parsed: [RelatedChannel]? = related.withUTF8 { bytes in
                JSONTape.withParsed(bytes, limits: .default) { parsed in
                    guard case .success(let tape) = parsed, tape.kind(0) == .array else { return nil }
                    return tape.elements(0).compactMap { e in
                        guard let url = tape.member(e, "channel_url"), tape.kind(url) == .string else { return nil }
                        let name = tape.member(e, "name").flatMap {
                            tape.kind($0) == .string ? tape.string(at: $0) : nil
                        }
                        return RelatedChannel(channelURL: tape.string(at: url), name: name)
                    }
                }
            }
            if let parsed {
                relatedChannels = parsed
            } else {
                reader.report(
                    .invalidJSON, o.path(.relatedChannels),
                    "expected a JSON string holding an array of {channel_url, name}")
            }
        }
        self.init(
            id: id, channelName: channelName, channelURL: channelURL, status: status, status2: status2,
            priority: priority, info: info, recentAssignment: recentAssignment, customer: customer,
            customFields: customFields, group: group, firstResponseTime: firstResponseTime, issuedAt: issuedAt,
            updatedAt: updatedAt, relatedChannels: relatedChannels)
    }
}

/// A ticket's assignment to an agent.
public struct Assignment: Sendable, Hashable {
    /// The agent the ticket is assigned to.
    public var agent: Agent?
    /// The assignment's status, as written.
    public var status: String?
    /// Messages the agent has not read.
    public var unreadCount: Int64?

    /// The agent of an assignment.
    public struct Agent: Sendable, Hashable {
        /// The agent's Desk id.
        public var id: Int64?
        /// The name customers see.
        public var displayName: String?
        /// The agent's picture.
        public var photoThumbnailURL: String?
        /// The agent's Sendbird user id.
        public var sendbirdID: String?
    }

    private enum Key: Int, JSONKeys {
        case agent, status, unreadCount
        static let table = StringTable(keys: Self.self, "agent status unreadCount")
    }

    private enum AgentKey: Int, JSONKeys {
        case id, displayName, photoThumbnailUrl, sendbirdId
        static let table = StringTable(keys: Self.self, "id displayName photoThumbnailUrl sendbirdId")
    }
}

extension Assignment {
    init(_ o: JSONFields, reader: inout FieldReader) {
        let o = o.fields(Key.self)
        let status = reader.string(o, .status)
        let unreadCount = reader.int64(o, .unreadCount)
        let agent = reader.object(o, .agent).map { a in
            let a = a.fields(AgentKey.self)
            return Agent(
                id: reader.int64(a, .id), displayName: reader.string(a, .displayName),
                photoThumbnailURL: reader.string(a, .photoThumbnailUrl), sendbirdID: reader.string(a, .sendbirdId))
        }
        self.init(agent: agent, status: status, unreadCount: unreadCount)
    }
}

/// `data.transfer` of `…TRANSFERRED_BY_AGENT`: who had the ticket and who has it now. Other members are
/// in ``DeskMessage/payload``.
public struct Transfer: Sendable, Hashable {
    /// Who had the ticket.
    public var fromAssignment: Assignment?
    /// Who has it now.
    public var toAssignment: Assignment?

    private enum Key: Int, JSONKeys {
        case fromAssignment, toAssignment
        static let table = StringTable(keys: Self.self, "fromAssignment toAssignment")
    }
}

extension Transfer {
    init(_ o: JSONFields, reader: inout FieldReader) {
        let o = o.fields(Key.self)
        let from = reader.object(o, .fromAssignment).map { Assignment($0, reader: &reader) }
        let to = reader.object(o, .toAssignment).map { Assignment($0, reader: &reader) }
        self.init(fromAssignment: from, toAssignment: to)
    }
}
