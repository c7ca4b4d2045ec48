/// A message to send or to update through the Platform API: the body of
/// `PUT /v3/group_channels/{channel_url}/messages/{message_id}`.
public struct OutgoingMessage: Sendable, Hashable {
    /// `message_type`: `MESG` or `ADMM`.
    public var messageType: String
    /// `message`: the text people read.
    public var message: String
    /// `custom_type`: `SENDBIRD_DESK_RICH_MESSAGE` for rich messages.
    public var customType: String
    /// `data`: the payload's JSON text, or its base64.
    public var data: String

    /// `{"message_type", "message", "custom_type", "data"}`.
    public var json: JSONValue {
        [
            "message_type": .string(messageType), "message": .string(message), "custom_type": .string(customType),
            "data": .string(data),
        ]
    }
}
