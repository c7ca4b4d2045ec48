// Reads one Sendbird message and decides what a chat client shows: the payload's type, and who may see it.
import DeskKitModel

// snippet.hide
let line =
    #"{"type":"MESG","message":"Closed?","custom_type":"SENDBIRD_DESK_RICH_MESSAGE","data":"{\"type\":"#
    + #"\"SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE\",\"body\":{\"state\":\"WAITING\",\"ticketId\":4021}}"}"#
func show(_ parts: Any?...) { print(parts.map { $0.map { "\($0)" } ?? "-" }.joined(separator: " ")) }
// snippet.show
let message = DeskMessage(json: line)  // lenient: never throws
switch message.content {
case .urlPreview(let preview): show("card", preview.safeURL, preview.title, preview.safeImageURL)
case .closureInquiry(let inquiry): show("close the ticket?", inquiry.ticketID, inquiry.awaitsAnswer)
case .customerSatisfaction(let csat): show("survey", csat.state, csat.score)
case .systemMessage(let system): show("agent timeline", system.kind, system.ticket?.id)
case .notification, .botAnswers, .plain: show(message.text)
case .unknown(let unknown): show(message.text, unknown.type)  // kept whole in unknown.json
case .malformed(let malformed): show(message.text, malformed.reason)  // data kept whole, with the reason
}
if !message.isVisible(to: .customer) { show("hidden from the customer") }  // system messages
if message.closesTicket { show("hide the reply bar") }
