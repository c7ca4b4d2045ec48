import DeskKitModel

/// A message to enrich: the user message a webhook announced.
public struct EnrichmentJob: Sendable, Hashable {
    /// The group channel the message was sent in (`channel.channel_url`).
    public var channelURL: String
    /// The message to update; also the job's identity (one job a message).
    public var messageID: Int64
    /// The message text, where the links are.
    public var text: String

    /// The job of previewing the links of message `messageID`, whose text is `text`, in `channelURL`.
    public init(channelURL: String, messageID: Int64, text: String) {
        self.channelURL = channelURL
        self.messageID = messageID
        self.text = text
    }

    /// `{"channel_url", "message_id", "text"}`: one line of a hand-back file, enough to redo the work.
    public var json: JSONValue {
        ["channel_url": .string(channelURL), "message_id": .integer(messageID), "text": .string(text)]
    }
}
