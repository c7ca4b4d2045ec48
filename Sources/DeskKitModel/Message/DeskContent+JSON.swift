/// JSON renderings of typed content, as `deskkit decode` and the server print them (snake_case keys,
/// `null` for absent fields; a URL preview's `image_width` and `image_height` only when known). Each is written straight to a ``JSONWriter`` — a stream of messages costs no
/// `JSONValue` tree per line — and the `JSONValue` forms are read back from those bytes, so the two can
/// never differ.
extension DeskContent {
    /// The typed value as JSON; `null` for plain messages.
    public var jsonValue: JSONValue { JSONWriter.value { write(to: &$0) } }

    /// Writes ``jsonValue``'s JSON text.
    public func write(to w: inout JSONWriter) {
        switch self {
        case .urlPreview(let p):
            w.member("url", p.url, first: true)
            w.member("site_name", p.siteName)
            w.member("title", p.title)
            w.member("description", p.description)
            w.member("image", p.image)
            if let (width, height) = p.imageSize {
                // Only when known: the value's five members are as they always were.
                w.member("image_width", Int64(width))
                w.member("image_height", Int64(height))
            }
            w.raw("}")
        case .closureInquiry(let c):
            w.member("state", c.state.rawValue, first: true)
            w.member("ticket_id", c.ticketID)
            w.raw("}")
        case .customerSatisfaction(let c):
            w.member("state", c.state.rawValue, first: true)
            w.member("score", c.score)
            w.member("comment", c.comment)
            w.member("ticket_id", c.ticketID)
            w.raw("}")
        case .systemMessage(let s):
            w.member("type", s.kind.rawValue, first: true)
            w.member("actor", s.kind.actor)
            w.member("ticket")
            if let ticket = s.ticket { ticket.write(to: &w) } else { w.raw("null") }
            w.member("transfer")
            if let transfer = s.transfer { transfer.write(to: &w) } else { w.raw("null") }
            w.raw("}")
        case .notification(let n):
            w.member("type", n.kind, first: true)
            w.raw("}")
        case .botAnswers(let b):
            w.member("faq_file_id", b.faqFileID, first: true)
            w.member("results")
            w.array(b.results) { w, r in
                w.member("category", r.category, first: true)
                w.member("question", r.question)
                w.member("answer", r.answer)
                w.member("keyword", r.keyword)
                w.member("url", r.url)
                w.member("image_url", r.imageURL)
                w.raw("}")
            }
            w.raw("}")
        case .plain:
            w.raw("null")
        case .unknown(let u):
            w.member("type", u.type, first: true)
            w.member("data", u.json)
            w.raw("}")
        case .malformed(let m):
            w.member("data", m.data, first: true)
            w.raw("}")
        }
    }
}

extension Ticket {
    func write(to w: inout JSONWriter) {
        w.member("id", id, first: true)
        w.member("channel_name", channelName)
        w.member("channel_url", channelURL)
        w.member("status", status)
        w.member("status2", status2)
        w.member("priority", priority)
        w.member("group", group)
        w.member("recent_assignment")
        if let recentAssignment { recentAssignment.write(to: &w) } else { w.raw("null") }
        w.member("custom_fields")
        w.array(customFields) { w, field in
            w.member("key", field.key, first: true)
            w.member("value", field.value)
            w.raw("}")
        }
        w.member("related_channels")
        w.array(relatedChannels) { w, channel in
            w.member("channel_url", channel.channelURL, first: true)
            w.member("name", channel.name)
            w.raw("}")
        }
        w.member("first_response_time", firstResponseTime)
        w.member("issued_at", issuedAt)
        w.raw("}")
    }
}

extension Assignment {
    func write(to w: inout JSONWriter) {
        w.member("agent", first: true)
        if let a = agent {
            w.member("id", a.id, first: true)
            w.member("display_name", a.displayName)
            w.member("photo_thumbnail_url", a.photoThumbnailURL)
            w.member("sendbird_id", a.sendbirdID)
            w.raw("}")
        } else {
            w.raw("null")
        }
        w.member("status", status)
        w.member("unread_count", unreadCount)
        w.raw("}")
    }
}

extension Transfer {
    func write(to w: inout JSONWriter) {
        w.member("from", first: true)
        if let fromAssignment { fromAssignment.write(to: &w) } else { w.raw("null") }
        w.member("to")
        if let toAssignment { toAssignment.write(to: &w) } else { w.raw("null") }
        w.raw("}")
    }
}

extension DeskMessage {
    /// One line of `deskkit decode --messages`: `{"message_id", "kind", "encoding", "visible_to_customer",
    /// "ticket_closed", "value", "error"}`; `error` is the first problem, or null.
    public var summaryJSON: JSONValue { JSONWriter.value { writeSummary(to: &$0) } }

    /// Writes ``summaryJSON``'s JSON text.
    public func writeSummary(to w: inout JSONWriter) {
        let error: PayloadProblem?
        if case .malformed(let m) = content { error = m.reason } else { error = problems.first }
        w.member("message_id", messageID, first: true)
        w.member("kind", content.kind.rawValue)
        w.member("encoding")
        encoding.write(to: &w)
        w.member("visible_to_customer")
        w.raw(isVisible(to: .customer) ? "true" : "false")
        w.member("ticket_closed")
        w.raw(closesTicket ? "true" : "false")
        w.member("value")
        content.write(to: &w)
        w.member("error")
        if let error { w.write(error.jsonValue) } else { w.raw("null") }
        w.raw("}")
    }
}

extension DeskPayload.Decoded {
    /// What `deskkit decode DATA` prints: `{"kind", "encoding", "value", "problems"}`.
    public var summaryJSON: JSONValue { JSONWriter.value { writeSummary(to: &$0) } }

    /// Writes ``summaryJSON``'s JSON text.
    public func writeSummary(to w: inout JSONWriter) {
        w.member("kind", content.kind.rawValue, first: true)
        w.member("encoding")
        encoding.write(to: &w)
        w.member("value")
        content.write(to: &w)
        w.member("problems")
        w.array(problems) { $0.write($1.jsonValue) }
        w.raw("}")
    }
}

extension JSONValue {
    /// `.string(s)` or `.null`.
    public static func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
    /// `.integer(i)` or `.null`.
    public static func optional(_ i: Int64?) -> JSONValue { i.map(JSONValue.integer) ?? .null }
}
