import DeskKitModel

/// A message to enrich: the user message a webhook announced.
public struct EnrichmentJob: Sendable, Hashable {
    /// The group channel the message was sent in (`channel.channel_url`).
    public var channelURL: String
    /// The message to update; also the job's identity (one job a message).
    public var messageID: Int64
    /// The message text, where the links are.
    public var text: String
    /// The links to preview, in order, as the server found them in `text` when it admitted the job: the
    /// worker previews these and does not look for them again. Nil when the job was made without them (a
    /// job stored by an older deskkit, a hand-back line): then the worker finds them in `text`.
    public var links: [String]?
    /// The language the pages are asked for (an `Accept-Language` value), the sender's as the webhook told it;
    /// nil: the server's `--accept-language`.
    public var language: String?
    /// The trace the job belongs to, as the propagation fields of the tracer that was running when it was
    /// submitted (W3C `traceparent` and `tracestate`): the job's runs continue the webhook's trace, whichever
    /// process claims it. Empty when tracing is off.
    public var traceContext: [String: String]

    /// The job of previewing `links` (or, nil, the links found in `text`) of message `messageID`, whose
    /// text is `text`, in `channelURL`, asking the pages for `language` when one is given; its runs continue
    /// the trace of `traceContext`.
    public init(
        channelURL: String, messageID: Int64, text: String, links: [String]? = nil, language: String? = nil,
        traceContext: [String: String] = [:]
    ) {
        self.channelURL = channelURL
        self.messageID = messageID
        self.text = text
        self.links = links
        self.language = language
        self.traceContext = traceContext
    }

    /// The links as a store keeps them: one a line (a link never holds white space), nil without them.
    package var storedLinks: String? { links?.joined(separator: "\n") }

    /// The links from their stored form (``storedLinks``).
    package static func links(stored: String?) -> [String]? {
        stored.map { $0.split(separator: "\n").map(String.init) }
    }

    /// The trace context as a store keeps it: a `name: value` line a field, in name order (neither holds a line
    /// break, and a name no colon); nil without one.
    package var storedTraceContext: String? {
        traceContext.isEmpty
            ? nil : traceContext.sorted { $0.key < $1.key }.map { "\($0): \($1)" }.joined(separator: "\n")
    }

    /// The trace context from its stored form (``storedTraceContext``); a line without a colon is skipped.
    package static func traceContext(stored: String?) -> [String: String] {
        var fields: [String: String] = [:]
        for line in stored?.split(separator: "\n") ?? [] {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = String(line[line.index(after: colon)...].drop { $0 == " " })
        }
        return fields
    }

    /// `{"channel_url", "message_id", "text"}` (and `"language"` when there is one): one line of a hand-back
    /// file, enough to redo the work.
    public var json: JSONValue {
        var object: JSONObject = [
            "channel_url": .string(channelURL), "message_id": .integer(messageID), "text": .string(text),
        ]
        if let language { object["language"] = .string(language) }
        return .object(object)
    }
}
