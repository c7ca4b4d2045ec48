/// A Sendbird webhook: what the enrichment server receives (`POST` with `x-sendbird-signature`).
///
/// Message events (`group_channel:message_send`, `…:message_update`, `…:message_delete`) carry the
/// message in `payload` and the message type (`MESG`, `ADMM`, `FILE`) at the top level; the two are
/// read together as a ``DeskMessage``. Other categories keep their category only.
public struct SendbirdWebhook: Sendable, Hashable {
    /// `group_channel:message_send` and the like.
    public var category: String
    /// `app_id`: the Sendbird application.
    public var appID: String?
    /// The sender's `user_id`, when there is a sender.
    public var senderID: String?
    /// `channel.channel_url`, required for message events.
    public var channelURL: String?
    /// The message of a message event: `payload` with the top-level `type`.
    public var message: DeskMessage?
    /// The language the sender reads, as the client app keeps it in the user's metadata:
    /// `sender.metadata.language` (a tag such as `ru`, or an `Accept-Language` list). The enrichment server
    /// asks the message's pages for it. Metadata that holds no such string (none, or a number) is no language,
    /// and no problem of the webhook's.
    public var senderLanguage: String?

    /// The category of a new message.
    public static let messageSend = "group_channel:message_send"
    /// The category of an updated message (also fired by DeskKit's own updates).
    public static let messageUpdate = "group_channel:message_update"

    /// Whether the category is a message event, which carries `payload` and `channel`.
    public var isMessageEvent: Bool {
        category.hasPrefix("group_channel:message_") || category.hasPrefix("open_channel:message_")
    }

    /// A webhook from its parts.
    public init(
        category: String, appID: String? = nil, senderID: String? = nil, channelURL: String? = nil,
        message: DeskMessage? = nil, senderLanguage: String? = nil
    ) {
        self.category = category
        self.appID = appID
        self.senderID = senderID
        self.channelURL = channelURL
        self.message = message
        self.senderLanguage = senderLanguage
    }

    /// Reads a webhook body. Nil, with the problems, when it is not a webhook: not a JSON object, no
    /// `category`, or a message event without `payload`, `payload.message_id` or `channel.channel_url`.
    public static func decode(_ json: some Collection<UInt8>, options: DecodingOptions = .lenient)
        -> (value: SendbirdWebhook?, problems: [PayloadProblem])
    {
        OtherSystemsDecoding.decode(json, options: options) { o, reader in
            guard let category = reader.string(o, "category", required: true) else { return nil }
            let sender = reader.object(o, "sender")
            var webhook = SendbirdWebhook(
                category: category, appID: reader.identifier(o, "app_id"),
                senderID: sender.flatMap { reader.identifier($0, "user_id") },
                senderLanguage: sender.flatMap { reader.hint($0, "metadata", "language") })
            guard webhook.isMessageEvent else { return webhook }
            let type = reader.string(o, "type")
            let channel = reader.object(o, "channel", required: true)
            webhook.channelURL = channel.flatMap { reader.string($0, "channel_url", required: true) }
            guard let payload = reader.object(o, "payload", required: true) else { return nil }
            guard reader.int64(payload, "message_id", required: true) != nil, webhook.channelURL != nil else {
                return nil
            }
            // The message is read where it is on the body's tape: the body is parsed once.
            webhook.message = DeskMessage.decode(
                o.tape, at: payload.index, typeIfAbsent: type, options: options, scratch: DecodingScratch())
            return webhook
        }
    }
}
