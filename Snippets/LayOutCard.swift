// Lays out a link card as an iOS app does with its own views: every decision comes from the card, none is made again.
import DeskKitModel

// snippet.hide
let data =
    #"{"type":"SENDBIRD_DESK_URL_PREVIEW","body":{"url":"https://help.example.com/lost","site_name":"Example Help","#
    + #""title":"الطرود المفقودة","description":"What to do when a parcel is late or lost.","#
    + #""image":"https://help.example.com/lost.png","image_width":1200,"image_height":630}}"#
let message = DeskMessage(customType: "SENDBIRD_DESK_RICH_MESSAGE", data: data, text: "See this", messageType: .user)
func show(_ parts: Any?...) { print(parts.map { $0.map { "\($0)" } ?? "-" }.joined(separator: " ")) }
// snippet.show
if let card = LinkCard(message, limits: .init(title: 80, description: 200)) {
    show("tap opens", card.link)  // nil: the card is not a button
    if let image = card.image {  // its box 1.91:1 when no size is known; alt .decorative, .text or the app's word
        show("image", image.url, image.size.map { Double($0.height) / Double($0.width) } ?? 1 / 1.91, image.alt)
    }
    for (role, text) in [("site", card.site), ("title", card.title), ("description", card.description)] {
        if let text { show(role, text.text, text.direction) }  // .rightToLeft: semanticContentAttribute
    }
    if let host = card.host { show("footer", host) }  // the real host under a site's own name
}
