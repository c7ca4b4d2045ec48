// Decides what the customer sees of a message as an iOS app holds it: a Sendbird SDK `BaseMessage`'s fields.
import DeskKitModel

// snippet.hide
/// Stands in for the Sendbird Chat SDK's message classes.
class BaseMessage {
    let customType: String?, data: String, message: String, messageId: Int64, createdAt: Int64
    init(customType: String?, data: String, message: String, messageId: Int64, createdAt: Int64) {
        (self.customType, self.data, self.message) = (customType, data, message)
        (self.messageId, self.createdAt) = (messageId, createdAt)
    }
}
final class AdminMessage: BaseMessage {}
let sdkMessage: BaseMessage = AdminMessage(
    customType: "SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE", data: "", message: "Internal note", messageId: 9,
    createdAt: 1_764_000_000_000)
// snippet.show
let message = DeskMessage(
    customType: sdkMessage.customType, data: sdkMessage.data, text: sdkMessage.message,
    messageID: sdkMessage.messageId, messageType: sdkMessage is AdminMessage ? .admin : .user,
    createdAt: sdkMessage.createdAt)
if message.isVisible(to: .customer) {
    print("show", message.content.kind)
} else {
    print("hidden from the customer:", message.visibility(for: .customer))
}
