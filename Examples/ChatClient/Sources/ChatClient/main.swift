// What a chat client does with a conversation's messages: decode each one, keep what the customer may see,
// and find the links in the text it shows.
import DeskKitLinks
import DeskKitModel

/// Four messages of a Desk conversation as Sendbird delivers them: a customer's text, a ticket's system
/// message (agents only), a closure inquiry and a link preview.
let conversation = [
    #"{"type":"MESG","message":"Where is parcel 1138? Tracking says example.com/track/1138","user":{"user_id":"c1"}}"#,
    #"{"type":"ADMM","custom_type":"SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE","message":"Ticket assigned","data":"{\"type\":\"SYSTEM_MESSAGE_TICKET_ASSIGNED_BY_SYSTEM\",\"ticket\":{\"id\":4021}}"}"#,
    #"{"type":"MESG","message":"Can we close this?","custom_type":"SENDBIRD_DESK_RICH_MESSAGE","data":"{\"type\":\"SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE\",\"body\":{\"state\":\"WAITING\",\"ticketId\":4021}}"}"#,
    #"{"type":"MESG","message":"See https://help.example/lost or mail help@example.com","custom_type":"SENDBIRD_DESK_RICH_MESSAGE","data":"{\"type\":\"SENDBIRD_DESK_URL_PREVIEW\",\"body\":{\"url\":\"https://help.example/lost\",\"title\":\"Lost parcels\"}}"}"#,
]

let detector = LinkDetector()
var decoder = DeskMessageDecoder()
for line in conversation {
    let message = decoder.decode(line)
    let visibility = message.visibility(for: .customer)
    guard visibility.isVisible else {
        print("hidden from the customer:", message.content.kind)
        continue
    }
    let text = message.text ?? ""
    let links = detector.links(in: text).map(\.href)
    print("\(message.content.kind): \(text)" + (links.isEmpty ? "" : " → " + links.joined(separator: " ")))
}
