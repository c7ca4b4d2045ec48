import DeskKitModel

/// What a web widget hands in that is a JSON object but no message: none of `type`, `custom_type`, `data`,
/// `message_id` (each absent or null). The `deskkit` command decodes such an object as a plain message, as it
/// always has; JavaScript answers it with a `DeskKitError`, never "visible" — an object of the wrong shape (the
/// SDK's members misspelt, a user object) must not pass as a message anyone may see.
enum NoMessage {
    /// The problem JavaScript throws.
    static let problem = PayloadProblem(
        .missingField, at: "$",
        "no message: none of type, custom_type, data, message_id (messageType, customType, data, messageId in an "
            + "SDK object)")

    /// The members a decoded envelope was read from, by their paths when they were there but unreadable.
    private static let paths = ["$.type", "$.custom_type", "$.data", "$.message_id"]

    /// ``problem`` when `message`, decoded from a JSON object, had none of the members that make a message.
    static func problem(of message: DeskMessage) -> PayloadProblem? {
        if message.messageType != nil || message.customType != nil || message.data != nil || message.messageID != nil {
            return nil
        }
        if case .malformed(let m) = message.content, m.reason.path == "$" { return nil }  // no JSON object: its own
        return message.problems.contains { paths.contains($0.path) } ? nil : problem
    }
}
