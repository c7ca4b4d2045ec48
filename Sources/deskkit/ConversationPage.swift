import DeskKitLinks
import DeskKitModel
import DeskKitPreview
import Foundation

/// A conversation as a chat client shows it, written as one self-contained HTML page: `deskkit demo --html`
/// and `deskkit preview --html`.
///
/// The page holds two views side by side — what the customer sees and what the agent sees — and shows one of
/// them alone when its address ends in `#customer` or `#agent` (CSS `:target`; the page has no script). Every
/// text is escaped, links and images are written only when ``URLSafety`` calls them safe, and a
/// Content-Security-Policy forbids scripts, so a payload cannot break out of the page. The page is also
/// well-formed XML, which is how the tests read it back.
struct ConversationPage {
    /// One message of the conversation.
    struct Entry {
        var message: DeskMessage
        /// The sender's `user_id` and nickname, from the envelope's `user` (admin messages have none).
        var senderID: String?
        var senderName: String?
        /// Previews found for the message's links, shown below it (the first one when the message is no URL
        /// preview itself, the others in any case).
        var previews: [LinkPreview] = []
    }

    var title: String
    var entries: [Entry]
    /// The picture to carry in the page itself for the URL a preview names, as a `data:` URL (the demo's
    /// pictures, whose server is gone when the page is read); nil links to the URL.
    var inlineImage: (String) -> String? = { _ in nil }

    func render() -> String {
        var html = HTMLText()
        html.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>")
        html.raw(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data: http: https:; style-src 'unsafe-inline'\"/>"
        )
        html.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/><title>")
        html.text(title)
        html.raw("</title><style>\(Self.style)</style></head>\n<body><h1>")
        html.text(title)
        html.raw("</h1>\n<div class=\"views\">\n")
        // The customer is the sender of the first user message; the other senders are agents.
        let customerID = entries.first { $0.message.messageType == .user && $0.senderID != nil }?.senderID
        for audience in [Audience.customer, .agent] { view(for: audience, customerID: customerID, into: &html) }
        html.raw("</div>\n</body></html>\n")
        return html.output
    }

    /// Writes the page to `path`, or to standard output for `-`.
    func write(to path: String) throws {
        let html = render()
        if path == "-" {
            var out = Output.stdout()
            out.write(html.utf8)
            out.flush()
            return
        }
        do {
            try html.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw Failure(description: "cannot write \(path): \(error.localizedDescription)", exitStatus: 73)
        }
    }

    private func view(for audience: Audience, customerID: String?, into html: inout HTMLText) {
        let name = audience == .customer ? "customer" : "agent"
        html.raw("<section class=\"view\" id=\"\(name)\"><h2>What the \(name) sees</h2>\n<ol class=\"chat\">\n")
        var closed = false
        for entry in entries {
            let message = entry.message
            if message.closesTicket { closed = true }
            guard message.isVisible(to: audience) else {
                if message.closesTicket {
                    html.raw("<li class=\"notice closed\">The ticket is closed; the reply bar is hidden.</li>\n")
                }
                continue
            }
            item(entry, for: audience, customerID: customerID, into: &html)
        }
        html.raw("</ol>\n<footer class=\"reply\">")
        html.raw(closed ? "This ticket is closed." : "Write a message…")
        html.raw("</footer></section>\n")
    }

    private func item(_ entry: Entry, for audience: Audience, customerID: String?, into html: inout HTMLText) {
        let message = entry.message
        let kind = message.content.kind.rawValue
        switch message.content {
        case .systemMessage(let system):
            html.raw("<li class=\"system\" data-kind=\"\(kind)\">⚙ ")
            html.text(message.text ?? "")
            html.raw(" <span class=\"facts\">")
            html.text(Card.facts(of: system).joined(separator: " · "))
            html.raw("</span></li>\n")
            return
        case .notification:
            html.raw("<li class=\"notice\" data-kind=\"\(kind)\">")
            html.text(message.text ?? "")
            html.raw("</li>\n")
            return
        default:
            break
        }
        let mine = (audience == .customer) == (entry.senderID != nil && entry.senderID == customerID)
        let side = message.messageType == .admin ? "admin" : mine ? "mine" : "theirs"
        html.raw("<li class=\"message \(side)\" data-kind=\"\(kind)\"><div class=\"meta\"><span class=\"who\">")
        html.text(message.messageType == .admin ? "Support" : entry.senderName ?? entry.senderID ?? "someone")
        html.raw("</span>")
        if let created = message.createdAt {
            html.raw(" <span class=\"time\">\(Card.time(created))</span>")
        }
        html.raw("</div><div class=\"bubble\">")
        linkedText(message.text ?? "", into: &html)
        html.raw("</div>")
        var previews = entry.previews[...]
        switch message.content {
        case .urlPreview(let preview):
            card(preview, into: &html)
            previews = previews.dropFirst()
        case .closureInquiry(let inquiry):
            closure(inquiry, into: &html)
        case .customerSatisfaction(let csat):
            satisfaction(csat, into: &html)
        case .botAnswers(let bot):
            answers(bot, into: &html)
        case .unknown(let unknown) where audience == .agent:
            html.raw("<div class=\"note\">a payload of another type: ")
            html.text(unknown.type ?? "no type")
            html.raw("</div>")
        case .malformed(let malformed) where audience == .agent:
            html.raw("<div class=\"note\">malformed data: ")
            html.text(malformed.reason.message)
            html.raw("</div>")
        default:
            break
        }
        for preview in previews {
            switch preview.result {
            case .success(let found):
                card(found, into: &html)
            case .failure(let error) where audience == .agent:
                html.raw("<div class=\"note\">no preview for ")
                html.text(preview.link.text)
                html.raw(": ")
                html.text(error.detail)
                html.raw("</div>")
            case .failure:
                break
            }
        }
        html.raw("</li>\n")
    }

    /// The text with its web links made links (only those a client may open).
    private func linkedText(_ text: String, into html: inout HTMLText) {
        let scalars = Array(text.unicodeScalars)
        var at = 0
        for link in LinkDetector().links(in: text) where link.kind == .url && URLSafety.isSafe(link.asciiHref) {
            html.text(String(String.UnicodeScalarView(scalars[at..<link.range.lowerBound])))
            html.raw("<a href=\"")
            html.text(link.asciiHref)
            html.raw("\" rel=\"nofollow noopener noreferrer\">")
            html.text(link.text)
            html.raw("</a>")
            at = link.range.upperBound
        }
        html.text(String(String.UnicodeScalarView(scalars[at...])))
    }

    private func card(_ preview: URLPreview, into html: inout HTMLText) {
        if let url = preview.safeURL {
            html.raw("<a class=\"card\" href=\"")
            html.text(url)
            html.raw("\" rel=\"nofollow noopener noreferrer\">")
        } else {
            html.raw("<div class=\"card\">")
        }
        if let image = preview.safeImageURL {
            html.raw("<img src=\"")
            html.text(inlineImage(image) ?? image)
            html.raw("\" alt=\"\"/>")
        }
        html.raw("<span class=\"card-text\">")
        for (css, value) in [
            ("site", preview.siteName), ("title", preview.title), ("description", preview.description),
        ] {
            guard let value, !value.isEmpty else { continue }
            html.raw("<span class=\"\(css)\">")
            html.text(value)
            html.raw("</span>")
        }
        html.raw("</span>")
        html.raw(preview.safeURL == nil ? "</div>" : "</a>")
    }

    private func closure(_ inquiry: ClosureInquiry, into html: inout HTMLText) {
        html.raw("<div class=\"inquiry\">")
        for (label, state) in [("Yes, close it", ClosureInquiry.State.confirmed), ("No, keep it open", .declined)] {
            let chosen = inquiry.state == state ? " chosen" : ""
            let disabled = inquiry.awaitsAnswer ? "" : " disabled=\"disabled\""
            html.raw("<button type=\"button\" class=\"answer\(chosen)\"\(disabled)>\(label)</button>")
        }
        html.raw("<span class=\"state\">")
        switch inquiry.state {
        case .waiting: html.raw("Waiting for the customer's answer")
        case .confirmed: html.raw("✔ The customer agreed to close the ticket")
        case .declined: html.raw("The customer wants the ticket open")
        default: html.text(inquiry.state.rawValue)
        }
        html.raw("</span></div>")
    }

    private func satisfaction(_ csat: CustomerSatisfaction, into html: inout HTMLText) {
        let score = Int(min(5, max(0, csat.score ?? 0)))
        html.raw("<div class=\"csat\"><span class=\"stars\" aria-label=\"\(score) of 5\">")
        html.raw(String(repeating: "★", count: score) + String(repeating: "☆", count: 5 - score))
        html.raw("</span>")
        if let comment = csat.comment, !comment.isEmpty {
            html.raw("<q>")
            html.text(comment)
            html.raw("</q>")
        }
        html.raw("</div>")
    }

    private func answers(_ bot: BotAnswers, into html: inout HTMLText) {
        html.raw("<ul class=\"faq\">")
        for result in bot.results {
            html.raw("<li>")
            if let url = result.url, URLSafety.isSafe(url) {
                html.raw("<a href=\"")
                html.text(url)
                html.raw("\" rel=\"nofollow noopener noreferrer\">")
                html.text(result.question ?? url)
                html.raw("</a>")
            } else {
                html.text(result.question ?? "")
            }
            if let answer = result.answer {
                html.raw("<span class=\"description\">")
                html.text(answer)
                html.raw("</span>")
            }
            html.raw("</li>")
        }
        html.raw("</ul>")
    }

    private static let style = """
        body{margin:0;padding:16px;font:15px/1.4 system-ui,sans-serif;background:#f4f5f7;color:#1f2328}\
        h1{font-size:18px;margin:0 0 12px}h2{font-size:14px;text-transform:uppercase;letter-spacing:.05em;color:#57606a;margin:0 0 8px}\
        .views{display:flex;gap:16px;align-items:flex-start}\
        .view{flex:1;max-width:460px;background:#fff;border-radius:12px;padding:12px;box-shadow:0 1px 3px rgba(0,0,0,.12)}\
        .views:has(#customer:target) #agent,.views:has(#agent:target) #customer{display:none}\
        .chat{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:10px}\
        .message{display:flex;flex-direction:column;max-width:85%}.message.mine{align-self:flex-end;align-items:flex-end}\
        .meta{font-size:12px;color:#57606a;margin:0 4px 2px}.who{font-weight:600}\
        .bubble{background:#eef1f5;border-radius:14px;padding:8px 12px;overflow-wrap:anywhere}\
        .mine .bubble{background:#2563eb;color:#fff}.mine .bubble a{color:#fff}\
        .admin .bubble{background:#fff7e6}\
        .card{display:flex;flex-direction:column;margin-top:6px;width:300px;border:1px solid #d0d7de;border-radius:12px;overflow:hidden;color:inherit;text-decoration:none;background:#fff}\
        .card img{width:100%;aspect-ratio:1.91;object-fit:cover;background:#eef1f5}\
        .card-text{display:flex;flex-direction:column;padding:8px 10px;gap:2px}\
        .site{font-size:12px;color:#57606a;text-transform:uppercase}.title{font-weight:600}\
        .description{font-size:13px;color:#444c56;overflow-wrap:anywhere}\
        .inquiry,.csat,.faq{margin-top:6px;display:flex;flex-wrap:wrap;gap:6px;align-items:center}\
        .answer{border:1px solid #2563eb;background:#fff;color:#2563eb;border-radius:16px;padding:4px 12px;font:inherit}\
        .answer.chosen{background:#2563eb;color:#fff}.answer:disabled:not(.chosen){opacity:.45}\
        .state{font-size:13px;color:#57606a;width:100%}.stars{font-size:22px;color:#f59e0b}\
        .faq{flex-direction:column;align-items:flex-start;padding-left:18px}\
        .system,.notice{align-self:center;text-align:center;font-size:13px;color:#57606a;max-width:90%}\
        .system{background:#f6f8fa;border:1px dashed #d0d7de;border-radius:8px;padding:4px 8px}\
        .facts{display:block;font-size:11px}.closed{color:#1a7f37}\
        .note{font-size:12px;color:#9a6700;margin-top:4px}\
        .reply{margin-top:12px;border:1px solid #d0d7de;border-radius:18px;padding:8px 12px;color:#8c959f}
        """
}

/// HTML being written: ``text(_:)`` escapes, ``raw(_:)`` is for the page's own markup.
struct HTMLText {
    private(set) var output = ""

    mutating func raw(_ markup: String) { output += markup }

    /// Escapes `&`, `<`, `>`, `"` and `'`, so the text is safe between tags and inside a quoted attribute, and
    /// writes control characters (other than tab and line breaks), which HTML and XML do not allow, as U+FFFD.
    mutating func text(_ text: String) {
        var run = text.utf8.startIndex
        var at = run
        let utf8 = text.utf8
        while at != utf8.endIndex {
            let entity: String?
            switch utf8[at] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "'"): entity = "&#39;"
            case 0x00...0x08, 0x0B, 0x0C, 0x0E...0x1F, 0x7F: entity = "\u{FFFD}"
            default: entity = nil
            }
            if let entity {
                output += text[run..<at]
                output += entity
                run = utf8.index(after: at)
            }
            at = utf8.index(after: at)
        }
        output += text[run..<at]
    }
}
