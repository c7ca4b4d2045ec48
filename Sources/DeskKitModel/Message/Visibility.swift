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

    /// Why a message is hidden from customers: a set that grows (CONTRIBUTING's rule), so compare with `==`
    /// and `switch` with a `default`.
    public struct HiddenReason: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String, CaseIterable {
            case systemCustomType = "system_custom_type", systemDataType = "system_data_type"
        }
        private let code: Code
        private init(_ code: Code) { self.code = code }

        /// The reason named `rawValue` (`system_custom_type`, …), or nil for a name DeskKit does not know.
        public init?(rawValue: String) {
            guard let code = Code(rawValue: rawValue) else { return nil }
            self.code = code
        }

        /// The reason's name: short and fixed, fit for output and for programs.
        public var rawValue: String { code.rawValue }
        public var description: String { code.rawValue }
        /// Every reason this version knows.
        public static var allCases: [HiddenReason] { Code.allCases.map(HiddenReason.init) }

        /// Its `custom_type` is the Desk system message type (or the legacy constant name).
        public static let systemCustomType = HiddenReason(.systemCustomType)
        /// Its `data.type` is a system type (`SYSTEM_MESSAGE_…`, `TICKET_ASSIGN`, `TICKET_TRANSFER`, `TICKET_CLOSE`).
        public static let systemDataType = HiddenReason(.systemDataType)
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
