/// Who is looking at a conversation.
public enum Audience: String, Sendable, Hashable, CaseIterable {
    /// The customer's chat client: system messages are hidden.
    case customer
    /// The agent's desk: everything is shown.
    case agent
}

/// Whether a message is shown to an audience, and if not, why.
public enum Visibility: Sendable, Hashable {
    /// The audience sees the message.
    case visible
    /// The audience does not see it, for this reason.
    case hidden(HiddenReason)

    /// Why a message is hidden from customers.
    public enum HiddenReason: String, Sendable, Hashable {
        /// Its `custom_type` is the Desk system message type (or the legacy constant name).
        case systemCustomType = "system_custom_type"
        /// Its `data.type` is a system type (`SYSTEM_MESSAGE_…`, `TICKET_ASSIGN`, `TICKET_TRANSFER`, `TICKET_CLOSE`).
        case systemDataType = "system_data_type"
    }

    /// Whether the audience sees the message.
    public var isVisible: Bool { self == .visible }
}

extension DeskMessage {
    /// Whether `audience` sees this message. Customers do not see Desk system messages: neither a message
    /// whose `custom_type` is the Desk system type (whatever its `data`), nor one whose `data.type` is a
    /// system type. Notifications, bot, rich and plain messages — and messages whose `data` is not JSON —
    /// are shown. Agents see everything.
    public func visibility(for audience: Audience) -> Visibility {
        guard audience == .customer else { return .visible }
        if DeskPayload.isSystemCustomType(customType) { return .hidden(.systemCustomType) }
        if let type = dataType, SystemMessage.Kind.isSystemType(type) { return .hidden(.systemDataType) }
        return .visible
    }

    /// Shorthand for `visibility(for: audience).isVisible`.
    public func isVisible(to audience: Audience) -> Bool { visibility(for: audience).isVisible }

    /// Whether the message tells that the ticket is closed (`TICKET_CLOSE`, `SYSTEM_MESSAGE_TICKET_CLOSED_BY_…`,
    /// or a manual/automatic closing notification), so a client hides its reply bar — even though
    /// the customer does not see the system message itself.
    public var closesTicket: Bool {
        guard let type = dataType else { return false }
        return SystemMessage.Kind(rawValue: type).closesTicket || DeskNotification(kind: type).closesTicket
    }
}
