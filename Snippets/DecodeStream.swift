// Decodes a stream of messages with one decoder, which keeps its working memory from one message to the next.
import DeskKitModel

// snippet.hide
let lines = [
    Array(#"{"type":"MESG","message":"Hi!"}"#.utf8),
    Array(#"{"type":"ADMM","data":"{\"type\":\"TICKET_CLOSE\"}"}"#.utf8),
]
func show(_ message: DeskMessage) { print(message.text ?? "", message.content.kind) }
// snippet.show
var decoder = DeskMessageDecoder()  // or DeskMessageDecoder(options: .strict)
for line in lines {  // each line a [UInt8]
    let message = decoder.decode(line.span)
    if message.isVisible(to: .customer) { show(message) }
}
