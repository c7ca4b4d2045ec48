extension DeskPayload {
    /// Writes `payload` as a `data` string: raw JSON by default, base64 on request.
    public static func encode(_ payload: RichPayload, as form: DataForm = .json) -> String {
        var w = JSONWriter()
        w.write(payload.json)
        switch form {
        case .json: return w.string
        case .base64: return w.withUnsafeBufferPointer { Base64.encode(buffer: $0) }
        }
    }

    /// A user message carrying `payload`, with the custom type `SENDBIRD_DESK_RICH_MESSAGE` — also when
    /// it updates a message whose custom type was different (the JS sample's mistake).
    public static func message(_ payload: RichPayload, text: String, as form: DataForm = .json) -> OutgoingMessage {
        OutgoingMessage(
            messageType: DeskMessage.MessageType.user.rawValue, message: text, customType: richMessageCustomType,
            data: encode(payload, as: form))
    }
}
