/// The body LiveTex posts to an integrator's push webhook for a new operator message.
public struct LiveTexPush: Sendable, Hashable {
    /// What the message carries.
    public enum Kind: String, Sendable, Hashable {
        /// Text only.
        case text
        /// A file only.
        case file
        /// A file and a text.
        case fileWithComment = "file_with_comment"
    }

    /// `"1"`, the only protocol version.
    public var version: String
    /// `ios` or `android`.
    public var platform: String
    /// The device token to push to.
    public var to: String
    /// The message's text, for text messages and files with a comment.
    public var text: String?
    /// The file's URL, for file messages.
    public var url: String?

    /// A text, a file, or a file with a comment: what `text` and `url` hold.
    public var kind: Kind {
        switch (text != nil, url != nil) {
        case (true, true): return .fileWithComment
        case (false, true): return .file
        default: return .text
        }
    }

    /// The text of the push notification: the message, or the file's name (📎), or both.
    public var notificationText: String {
        let file = url.map { u -> String in
            let name = u.split(separator: "?").first?.split(separator: "/").last.map(String.init) ?? u
            return "📎 " + name
        }
        switch kind {
        case .text: return text ?? ""
        case .file: return file ?? ""
        case .fileWithComment: return "\(text ?? "")\n\(file ?? "")"
        }
    }

    /// Reads a push body. Invalid (no value, with the reason) when neither text nor url is there, or the
    /// platform or version is unknown.
    public static func decode(_ json: some Collection<UInt8>, options: DecodingOptions = .lenient)
        -> (value: LiveTexPush?, problems: [PayloadProblem])
    {
        OtherSystemsDecoding.decode(json, options: options) { o, reader in
            // The version as text; a number is the version it equals (`1.0` is "1"), as JSON Schema compares them.
            var version = reader.identifier(o, "version", required: true)
            if let v = o["version"], o.tape.kind(v) == .number, Double(o.tape.numberText(at: v)) == 1 { version = "1" }
            let platform = reader.string(o, "platform", required: true)
            let to = reader.string(o, "to", required: true)
            var text = reader.string(o, "text")
            var url = reader.string(o, "url")
            if text?.isEmpty == true { text = nil }
            if url?.isEmpty == true { url = nil }
            if let version, version != "1" {
                reader.report(
                    .unsupportedValue, "$.version", "version \"\(version.prefix(20))\" is not supported (only \"1\")")
            }
            if let platform, platform != "ios" && platform != "android" {
                reader.report(.unsupportedValue, "$.platform", "\"\(platform.prefix(40))\" is not ios or android")
            }
            if text == nil && url == nil { reader.report(.missingField, "$", "a push carries text, url or both") }
            guard let version, let platform, let to else { return nil }
            return LiveTexPush(version: version, platform: platform, to: to, text: text, url: url)
        }
    }
}
