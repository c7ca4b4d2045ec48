/// JSON renderings of typed content, as `deskkit decode` and the server print them (snake_case keys,
/// `null` for absent fields).
extension DeskContent {
    /// The typed value as JSON; `null` for plain messages.
    public var jsonValue: JSONValue {
        switch self {
        case .urlPreview(let p):
            return [
                "url": .string(p.url), "site_name": .optional(p.siteName), "title": .optional(p.title),
                "description": .optional(p.description), "image": .optional(p.image),
            ]
        case .closureInquiry(let c):
            return ["state": .string(c.state.rawValue), "ticket_id": .optional(c.ticketID)]
        case .customerSatisfaction(let c):
            return [
                "state": .string(c.state.rawValue), "score": .optional(c.score), "comment": .optional(c.comment),
                "ticket_id": .optional(c.ticketID),
            ]
        case .systemMessage(let s):
            return [
                "type": .string(s.kind.rawValue), "actor": .optional(s.kind.actor),
                "ticket": s.ticket.map(\.jsonValue) ?? .null, "transfer": s.transfer.map(\.jsonValue) ?? .null,
            ]
        case .notification(let n):
            return ["type": .optional(n.kind)]
        case .botAnswers(let b):
            return [
                "faq_file_id": .optional(b.faqFileID),
                "results": .array(
                    b.results.map { r in
                        [
                            "category": .optional(r.category), "question": .optional(r.question),
                            "answer": .optional(r.answer), "keyword": .optional(r.keyword), "url": .optional(r.url),
                            "image_url": .optional(r.imageURL),
                        ]
                    }),
            ]
        case .plain:
            return .null
        case .unknown(let u):
            return ["type": .optional(u.type), "data": u.json]
        case .malformed(let m):
            return ["data": .string(m.data)]
        }
    }
}

extension Ticket {
    var jsonValue: JSONValue {
        [
            "id": .optional(id), "channel_name": .optional(channelName), "channel_url": .optional(channelURL),
            "status": .optional(status), "status2": .optional(status2), "priority": .optional(priority),
            "group": .optional(group), "recent_assignment": recentAssignment.map(\.jsonValue) ?? .null,
            "custom_fields": .array(customFields.map { ["key": .string($0.key), "value": $0.value] }),
            "related_channels": .array(
                relatedChannels.map { ["channel_url": .string($0.channelURL), "name": .optional($0.name)] }),
            "first_response_time": .optional(firstResponseTime), "issued_at": .optional(issuedAt),
        ]
    }
}

extension Assignment {
    var jsonValue: JSONValue {
        [
            "agent": agent.map { a in
                [
                    "id": .optional(a.id), "display_name": .optional(a.displayName),
                    "photo_thumbnail_url": .optional(a.photoThumbnailURL), "sendbird_id": .optional(a.sendbirdID),
                ]
            } ?? .null,
            "status": .optional(status), "unread_count": .optional(unreadCount),
        ]
    }
}

extension Transfer {
    var jsonValue: JSONValue {
        ["from": fromAssignment.map(\.jsonValue) ?? .null, "to": toAssignment.map(\.jsonValue) ?? .null]
    }
}

extension DeskMessage {
    /// One line of `deskkit decode --messages`: `{"message_id", "kind", "encoding", "visible_to_customer",
    /// "ticket_closed", "value", "error"}`; `error` is the first problem, or null.
    public var summaryJSON: JSONValue {
        let error: PayloadProblem?
        if case .malformed(let m) = content { error = m.reason } else { error = problems.first }
        return [
            "message_id": .optional(messageID), "kind": .string(content.kind.rawValue),
            "encoding": .string(encoding.description), "visible_to_customer": .bool(isVisible(to: .customer)),
            "ticket_closed": .bool(closesTicket), "value": content.jsonValue, "error": error?.jsonValue ?? .null,
        ]
    }
}

extension JSONValue {
    /// `.string(s)` or `.null`.
    public static func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
    /// `.integer(i)` or `.null`.
    public static func optional(_ i: Int64?) -> JSONValue { i.map(JSONValue.integer) ?? .null }
}
