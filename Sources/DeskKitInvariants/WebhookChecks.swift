import DeskKitModel

enum WebhookChecks {
    /// Every webhook and push decoder (Sendbird, Pyrus, LiveTex) reads the body leniently and strictly
    /// without crashing; a body that decodes strictly with no problems decodes leniently to the same value;
    /// every problem has a path; message events carry their message; the summary and notification text
    /// derive without crashing.
    static func webhooks(_ bytes: UnsafeBufferPointer<UInt8>) throws(InvariantViolation) {
        // The message inside a Sendbird webhook is read with the same options, so compare the envelope.
        if let sendbird = try agree(
            "a Sendbird webhook", { SendbirdWebhook.decode(bytes, options: $0) },
            by: { ($0.category, $0.channelURL) == ($1.category, $1.channelURL) })
        {
            if sendbird.isMessageEvent {
                try require(
                    sendbird.message?.messageID != nil && sendbird.channelURL != nil,
                    "a message event without its message id or channel")
            } else {
                try require(sendbird.message == nil, "a message on a \(sendbird.category) event")
            }
        }
        _ = try agree("a Pyrus reply", { PyrusReplyWebhook.decode(bytes, options: $0) }, by: ==)?.summary
        _ = try agree("a LiveTex push", { LiveTexPush.decode(bytes, options: $0) }, by: ==)?.notificationText

        for contentType in [nil, "application/json", "application/x-www-form-urlencoded"] {
            let auth = PyrusAuthRequest.decode(bytes, contentType: contentType)
            try MessageChecks.paths(auth.problems)
            if let value = auth.value {
                try require(
                    value.userID.count <= PyrusAuthRequest.maxFieldLength
                        && value.securityKey.count <= PyrusAuthRequest.maxFieldLength,
                    "an authorization request with a field over \(PyrusAuthRequest.maxFieldLength) characters")
            }
        }
    }

    /// Decodes leniently and strictly; every problem has a path, and a strictly clean value is also the
    /// lenient one. Returns the lenient value.
    static func agree<T>(
        _ what: String, _ decode: (DecodingOptions) -> (value: T?, problems: [PayloadProblem]), by same: (T, T) -> Bool
    ) throws(InvariantViolation) -> T? {
        let lenient = decode(.lenient)
        let strict = decode(.strict)
        try MessageChecks.paths(lenient.problems + strict.problems)
        if let strictValue = strict.value, strict.problems.isEmpty {
            try require(
                lenient.value.map { same($0, strictValue) } == true, "\(what) reads differently leniently and strictly")
        }
        return lenient.value
    }
}
