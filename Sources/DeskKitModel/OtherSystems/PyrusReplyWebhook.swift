/// The body Pyrus posts to an integrator's webhook when support answers in the mobile chat.
public struct PyrusReplyWebhook: Sendable, Hashable {
    /// Whose device the reply goes to.
    public struct Token: Sendable, Hashable {
        /// `user_id`.
        public var userID: String?
        /// `app_id`.
        public var appID: String?
        /// `device_id`.
        public var deviceID: String?
        /// `ios` or `android` (the documentation writes "iOS"; read case-insensitively, kept as written).
        public var type: String?
    }

    /// The new comment.
    public struct Comment: Sendable, Hashable {
        /// `comment_id`.
        public var commentID: Int64?
        /// The comment's text.
        public var body: String?
        /// Always false: the comment comes from the support team.
        public var isInbound: Bool?
    }

    /// Who wrote it.
    public struct Author: Sendable, Hashable {
        /// The author's name.
        public var name: String?
        /// `avatar_id`: the author's picture.
        public var avatarID: String?
        /// Used when there is no avatar id.
        public var avatarColor: String?
    }

    /// An attached file.
    public struct Attachment: Sendable, Hashable {
        /// The file's id.
        public var id: String?
        /// The file's name.
        public var name: String?
        /// Bytes.
        public var size: Int64?
    }

    /// What the Pyrus SDK hands its `NewReplySubscriber`.
    public struct ReplySummary: Sendable, Hashable {
        /// Always true: a reply is a new comment.
        public var hasUnreadComments: Bool
        /// The comment's text.
        public var lastCommentText: String?
        /// How many files the comment has.
        public var lastCommentAttachmentsCount: Int
        /// The names of its files.
        public var lastCommentAttachments: [String]
        /// Seconds since 1970 (UTC), when `created_at` could be read.
        public var utcTime: Double?
    }

    /// `ticket_id`: the ticket answered.
    public var ticketID: Int64
    /// `token`: whose device the reply goes to.
    public var token: Token
    /// `comment`: the reply.
    public var comment: Comment
    /// `author`: who answered.
    public var author: Author?
    /// `created_at` as written.
    public var createdAt: String?
    /// `created_at` in seconds since 1970 (UTC): ISO 8601 text or epoch seconds/milliseconds.
    public var createdAtSeconds: Double?
    /// `attachments`: the reply's files.
    public var attachments: [Attachment]

    /// The summary a client shows for this reply.
    public var summary: ReplySummary {
        ReplySummary(
            hasUnreadComments: true, lastCommentText: comment.body, lastCommentAttachmentsCount: attachments.count,
            lastCommentAttachments: attachments.compactMap { $0.name }, utcTime: createdAtSeconds)
    }

    /// Reads a webhook body. Strict mode lists every problem; a body with a fatal one gives no value.
    public static func decode(_ json: some Collection<UInt8>, options: DecodingOptions = .lenient)
        -> (value: PyrusReplyWebhook?, problems: [PayloadProblem])
    {
        OtherSystemsDecoding.decode(json, options: options) { o, reader in
            let ticketID = reader.int64(o, "ticket_id", required: true)
            let token = reader.object(o, "token", required: true).map { t in
                Token(
                    userID: reader.identifier(t, "user_id"), appID: reader.identifier(t, "app_id"),
                    deviceID: reader.identifier(t, "device_id"), type: reader.string(t, "type"))
            }
            if let type = token?.type, !["ios", "android"].contains(type.lowercased()) {
                reader.report(.unknownValue, "$.token.type", "\"\(type.prefix(40))\" is not ios or android")
            }
            let comment = reader.object(o, "comment", required: true).map { c in
                Comment(
                    commentID: reader.int64(c, "comment_id", required: true), body: reader.string(c, "body"),
                    isInbound: reader.bool(c, "is_inbound"))
            }
            if comment?.isInbound == true {
                reader.report(.unknownValue, "$.comment.is_inbound", "a reply from support is never inbound")
            }
            let author = reader.object(o, "author").map { a in
                Author(
                    name: reader.string(a, "name"), avatarID: reader.identifier(a, "avatar_id"),
                    avatarColor: reader.string(a, "avatar_color"))
            }
            let (createdAt, seconds) = reader.timestamp(o, "created_at")
            let attachments = reader.objects(o, "attachments").map { a in
                let size = reader.int64(a, "size")
                if let size, size < 0 { reader.report(.outOfRange, a.path("size"), "a size is never negative") }
                return Attachment(id: reader.identifier(a, "id"), name: reader.string(a, "name"), size: size)
            }
            guard let ticketID, let token, let comment else { return nil }
            return PyrusReplyWebhook(
                ticketID: ticketID, token: token, comment: comment, author: author, createdAt: createdAt,
                createdAtSeconds: seconds, attachments: attachments)
        }
    }
}
