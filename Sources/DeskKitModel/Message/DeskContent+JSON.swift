/// JSON renderings of typed content, as `deskkit decode` and the server print them (snake_case keys,
/// `null` for absent fields). Each is written straight to a ``JSONWriter`` — a stream of messages costs no
/// `JSONValue` tree per line — and the `JSONValue` forms are read back from those bytes, so the two can
/// never differ.
extension DeskContent {
    /// The typed value as JSON; `null` for plain messages.
    public var jsonValue: JSONValue { JSONWriter.value { write(to: &$0) } }

    /// Writes ``jsonValue``'s JSON text.
    public func write(to w: inout JSONWriter) {
        switch self {
        case .urlPreview(let p):
            w.member("url", first: true)
            w.write(p.url)
            w.member("site_name")
            w.write(p.siteName)
            w.member("title")
            w.write(p.title)
            w.member("description")
            w.write(p.description)
            w.member("image")
            w.write(p.image)
            w.raw("}")
        case .closureInquiry(let c):
            w.member("state", first: true)
            w.write(c.state.rawValue)
            w.member("ticket_id")
            w.write(c.ticketID)
            w.raw("}")
        case .customerSatisfaction(let c):
            w.member("state", first: true)
            w.write(c.state.rawValue)
            w.member("score")
            w.write(c.score)
            w.member("comment")
            w.write(c.comment)
            w.member("ticket_id")
            w.write(c.ticketID)
            w.raw("}")
        case .systemMessage(let s):
            w.member("type", first: true)
            w.write(s.kind.rawValue)
            w.member("actor")
            w.write(s.kind.actor)
            w.member("ticket")
            if let ticket = s.ticket { ticket.write(to: &w) } else { w.raw("null") }
            w.member("transfer")
            if let transfer = s.transfer { transfer.write(to: &w) } else { w.raw("null") }
            w.raw("}")
        case .notification(let n):
            w.member("type", first: true)
            w.write(n.kind)
            w.raw("}")
        case .botAnswers(let b):
            w.member("faq_file_id", first: true)
            w.write(b.faqFileID)
            w.member("results")
            w.raw("[")
            for (i, r) in b.results.enumerated() {
                if i > 0 { w.raw(",") }
                w.member("category", first: true)
                w.write(r.category)
                w.member("question")
                w.write(r.question)
                w.member("answer")
                w.write(r.answer)
                w.member("keyword")
                w.write(r.keyword)
                w.member("url")
                w.write(r.url)
                w.member("image_url")
                w.write(r.imageURL)
                w.raw("}")
            }
            w.raw("]}")
        case .plain:
            w.raw("null")
        case .unknown(let u):
            w.member("type", first: true)
            w.write(u.type)
            w.member("data")
            w.write(u.json)
            w.raw("}")
        case .malformed(let m):
            w.member("data", first: true)
            w.write(m.data)
            w.raw("}")
        }
    }
}

extension Ticket {
    func write(to w: inout JSONWriter) {
        w.member("id", first: true)
        w.write(id)
        w.member("channel_name")
        w.write(channelName)
        w.member("channel_url")
        w.write(channelURL)
        w.member("status")
        w.write(status)
        w.member("status2")
        w.write(status2)
        w.member("priority")
        w.write(priority)
        w.member("group")
        w.write(group)
        w.member("recent_assignment")
        if let recentAssignment { recentAssignment.write(to: &w) } else { w.raw("null") }
        w.member("custom_fields")
        w.raw("[")
        for (i, field) in customFields.enumerated() {
            if i > 0 { w.raw(",") }
            w.member("key", first: true)
            w.write(field.key)
            w.member("value")
            w.write(field.value)
            w.raw("}")
        }
        w.raw("]")
        w.member("related_channels")
        w.raw("[")
        for (i, channel) in relatedChannels.enumerated() {
            if i > 0 { w.raw(",") }
            w.member("channel_url", first: true)
            w.write(channel.channelURL)
            w.member("name")
            w.write(channel.name)
            w.raw("}")
        }
        w.raw("]")
        w.member("first_response_time")
        w.write(firstResponseTime)
        w.member("issued_at")
        w.write(issuedAt)
        w.raw("}")
    }
}

extension Assignment {
    func write(to w: inout JSONWriter) {
        w.member("agent", first: true)
        if let a = agent {
            w.member("id", first: true)
            w.write(a.id)
            w.member("display_name")
            w.write(a.displayName)
            w.member("photo_thumbnail_url")
            w.write(a.photoThumbnailURL)
            w.member("sendbird_id")
            w.write(a.sendbirdID)
            w.raw("}")
        } else {
            w.raw("null")
        }
        w.member("status")
        w.write(status)
        w.member("unread_count")
        w.write(unreadCount)
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
        w.member("message_id", first: true)
        w.write(messageID)
        w.member("kind")
        w.write(content.kind.rawValue)
        w.member("encoding")
        w.write(encoding.description)
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

extension JSONValue {
    /// `.string(s)` or `.null`.
    public static func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
    /// `.integer(i)` or `.null`.
    public static func optional(_ i: Int64?) -> JSONValue { i.map(JSONValue.integer) ?? .null }
}
