// Renders a conversation as one self-contained HTML page, and one preview card as an HTML fragment.
import DeskKitCards
import DeskKitModel

// snippet.hide
let lines = [
    #"{"type":"MESG","message":"Where is my parcel?","user":{"user_id":"c1","nickname":"Ana"}}"#,
    #"{"type":"ADMM","message":"Ticket closed","data":"{\"type\":\"SYSTEM_MESSAGE_TICKET_CLOSED\"}"}"#,
]
// snippet.show
let entries = lines.map { line in
    ConversationPage.Entry(message: DeskMessage(json: line), senderID: nil, senderName: nil)
}
let page = ConversationPage(title: "Order #1138", entries: entries, language: InterfaceLanguage("ru-RU"))
let html = page.render()  // both views: #customer and #agent; no script, every text escaped; in Russian
print(html.count, ConversationPage.contentSecurityPolicy)
print(InterfaceLanguage("ru").text(.ratingStars, count: 3))  // 3 звезды из 5

let card = URLPreview(url: "https://example.com/", title: "<b>not bold</b>", image: "javascript:alert(1)")
print(CardHTML.render(card))  // <a class="deskkit-card" href="https://example.com/" …>, no <img> for an unsafe image
