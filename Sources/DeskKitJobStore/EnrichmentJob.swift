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

    /// The job of previewing `links` (or, nil, the links found in `text`) of message `messageID`, whose
    /// text is `text`, in `channelURL`, asking the pages for `language` when one is given.
    public init(channelURL: String, messageID: Int64, text: String, links: [String]? = nil, language: String? = nil) {
        self.channelURL = channelURL
        self.messageID = messageID
        self.text = text
        self.links = links
        self.language = language
    }

    /// The links as a store keeps them: one a line (a link never holds white space), nil without them.
    package var storedLinks: String? { links?.joined(separator: "\n") }

    /// The links from their stored form (``storedLinks``).
    package static func links(stored: String?) -> [String]? {
        stored.map { $0.split(separator: "\n").map(String.init) }
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
