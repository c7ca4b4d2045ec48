/// A message to send or to update through the Platform API: the body of
/// `PUT /v3/group_channels/{channel_url}/messages/{message_id}`.
public struct OutgoingMessage: Sendable, Hashable {
    public var messageType: String
    public var message: String
    public var customType: String
    public var data: String

    /// `{"message_type", "message", "custom_type", "data"}`.
    public var json: JSONValue {
        [
            "message_type": .string(messageType), "message": .string(message), "custom_type": .string(customType),
            "data": .string(data),
        ]
    }
}
