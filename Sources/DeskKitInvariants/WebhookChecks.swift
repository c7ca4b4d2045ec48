import DeskKitModel

enum WebhookChecks {
    /// Every webhook and push decoder (Sendbird, Pyrus, LiveTex) reads the body leniently and strictly without crashing; a body
    /// that decodes strictly with no problems decodes leniently to the same value; every problem has a
    /// path; the summary and notification text derive without crashing.
    static func webhooks(_ bytes: UnsafeBufferPointer<UInt8>) throws(InvariantViolation) {
        let sendbird = SendbirdWebhook.decode(bytes)
        let sendbirdStrict = SendbirdWebhook.decode(bytes, options: .strict)
        try MessageChecks.paths(sendbird.problems + sendbirdStrict.problems)
        if let value = sendbird.value {
            if value.isMessageEvent {
                try require(value.message?.messageID != nil && value.channelURL != nil, "a message event without its message id or channel")
            } else {
                try require(value.message == nil, "a message on a \(value.category) event")
            }
        }
        if let strictValue = sendbirdStrict.value, sendbirdStrict.problems.isEmpty {
            try require(sendbird.value?.category == strictValue.category && sendbird.value?.channelURL == strictValue.channelURL,
                        "a Sendbird webhook reads differently leniently and strictly")
        }

        let pyrus = PyrusReplyWebhook.decode(bytes)
        let pyrusStrict = PyrusReplyWebhook.decode(bytes, options: .strict)
        try MessageChecks.paths(pyrus.problems + pyrusStrict.problems)
        if let strictValue = pyrusStrict.value, pyrusStrict.problems.isEmpty {
            try require(pyrus.value == strictValue, "a Pyrus reply reads differently leniently and strictly")
        }
        _ = pyrus.value?.summary

        let livetex = LiveTexPush.decode(bytes)
        let livetexStrict = LiveTexPush.decode(bytes, options: .strict)
        try MessageChecks.paths(livetex.problems + livetexStrict.problems)
        if let strictValue = livetexStrict.value, livetexStrict.problems.isEmpty {
            try require(livetex.value == strictValue, "a LiveTex push reads differently leniently and strictly")
        }
        _ = livetex.value?.notificationText

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
}
