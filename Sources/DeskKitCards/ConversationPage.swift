import DeskKitLinks
import DeskKitModel

/// A conversation as a chat client shows it, rendered as one self-contained HTML page (`deskkit demo --html`
/// and `deskkit preview --html` write it; a chat backend serves it, or its cards, to a web widget).
///
/// The page holds two views side by side — what the customer sees and what the agent sees — and shows one of
/// them alone when its address ends in `#customer` or `#agent` (CSS `:target`; the page has no script). Every
/// text is escaped, links and images are written only when `URLSafety` calls them safe, and a
/// Content-Security-Policy forbids scripts, so a payload cannot break out of the page. The page is also
/// well-formed XML, which is how the tests read it back.
public struct ConversationPage: Sendable {
    /// One message of the conversation.
    public struct Entry: Sendable {
        /// The message, decoded.
        public var message: DeskMessage
        /// The sender's `user_id`, from the envelope's `user` (admin messages have none).
        public var senderID: String?
        /// The sender's nickname.
        public var senderName: String?
        /// Previews found for the message's links, shown below it (the first one when the message is no URL
        /// preview itself, the others in any case).
        public var previews: [LinkPreview]

        /// `message`, sent by `senderID` (`senderName`), with the cards of its links.
        public init(message: DeskMessage, senderID: String?, senderName: String?, previews: [LinkPreview] = []) {
            self.message = message
            self.senderID = senderID
            self.senderName = senderName
            self.previews = previews
        }
    }

    /// A link of a message and its preview, or why it has none (said to the agent only): the page's
    /// form of `LinkPreview`.
    public struct LinkPreview: Sendable {
        /// The link as the message writes it.
        public var link: String
        /// Its preview.
        public var preview: URLPreview?
        /// Why there is no preview.
        public var failure: String?

        /// The preview of `link`, or `failure`.
        public init(link: String, preview: URLPreview?, failure: String? = nil) {
            self.link = link
            self.preview = preview
            self.failure = failure
        }
    }

    /// The page's title.
    public var title: String
    /// The conversation, in order.
    public var entries: [Entry]
    /// The language of the page's interface — headings, buttons, notes, times, the reply bar — and of its
    /// `<html lang dir>`. The messages and cards keep their own words and directions (`dir="auto"`, a card's the `LinkCard`'s).
    public var language: InterfaceLanguage
    /// What the page loads for the picture a card names (``CardHTML``'s rule, the web module's `renderPreview`'s):
    /// the URL itself by default, an image proxy's, or a `data:` URL that carries it in the page (the demo's
    /// pictures, whose server is gone when the page is read); nil shows no picture.
    public var imageURL: @Sendable (String) -> String?

    /// A page titled `title` showing `entries`, its interface in `language`.
    public init(
        title: String, entries: [Entry], language: InterfaceLanguage = .english,
        imageURL: @escaping @Sendable (String) -> String? = { $0 }
    ) {
        self.title = title
        self.entries = entries
        self.language = language
        self.imageURL = imageURL
    }

    /// The picture to carry in the page itself, as a `data:` URL; nil links to the URL.
    @available(*, deprecated, message: "use imageURL, whose nil shows no picture")
    public var inlineImage: @Sendable (String) -> String? {
        get { imageURL }
        set { imageURL = { url in newValue(url) ?? url } }
    }

    /// The Content-Security-Policy the page declares: no script, no frame, no request but its pictures
    /// (`data:`, `http:`, `https:`) and its own style.
    public static let contentSecurityPolicy =
        "default-src 'none'; img-src data: http: https:; style-src 'unsafe-inline'"

    /// The page: both views, every text escaped. Well-formed XML too.
    public func render() -> String {
        var html = HTMLText()
        html.raw(
            "<!DOCTYPE html>\n<html lang=\"\(language.tag)\" dir=\"\(language.direction)\"><head><meta charset=\"utf-8\"/>"
        )
        html.raw("<meta http-equiv=\"Content-Security-Policy\" content=\"\(Self.contentSecurityPolicy)\"/>")
        html.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/><title>")
        html.text(title)
        html.raw("</title><style>\(Self.styleSheet)</style></head>\n<body><h1 dir=\"auto\">")
        html.text(title)
        html.raw("</h1>\n<div class=\"views\">\n")
        // The customer is the sender of the first user message; the other senders are agents.
        let customerID = entries.first { $0.message.messageType == .user && $0.senderID != nil }?.senderID
        for audience in [Audience.customer, .agent] { view(for: audience, customerID: customerID, into: &html) }
        html.raw("</div>\n</body></html>\n")
        return html.output
    }

    private func view(for audience: Audience, customerID: String?, into html: inout HTMLText) {
        let name = audience == .customer ? "customer" : "agent"
        html.raw("<section class=\"view\" id=\"\(name)\"><h2>")
        html.text(language.text(audience == .customer ? .customerView : .agentView))
        html.raw("</h2>\n<ol class=\"chat\">\n")
        var closed = false
        for entry in entries {
            let message = entry.message
            if message.closesTicket { closed = true }
            // Unknown and malformed data is the agent's to see: a customer's widget shows nothing of it.
            let unread = message.content.kind == .unknown || message.content.kind == .malformed
            guard message.isVisible(to: audience), audience == .agent || !unread else {
                if message.closesTicket {
                    html.raw("<li class=\"notice closed\">")
                    html.text(language.text(.ticketClosed))
                    html.raw("</li>\n")
                }
                continue
            }
            item(entry, for: audience, customerID: customerID, into: &html)
        }
        html.raw("</ol>\n<footer class=\"reply\">")
        html.text(language.text(closed ? .replyClosed : .replyOpen))
        html.raw("</footer></section>\n")
    }

    private func item(_ entry: Entry, for audience: Audience, customerID: String?, into html: inout HTMLText) {
        let message = entry.message
        let kind = message.content.kind.rawValue
        switch message.content {
        case .systemMessage(let system):
            html.raw("<li class=\"system\" data-kind=\"\(kind)\">⚙ <span dir=\"auto\">")
            html.text(message.text ?? "")
            html.raw("</span> <span class=\"facts\">")
            html.text(Self.facts(of: system, language: language).joined(separator: " · "))
            html.raw("</span></li>\n")
            return
        case .notification:
            html.raw("<li class=\"notice\" data-kind=\"\(kind)\" dir=\"auto\">")
            html.text(message.text ?? "")
            html.raw("</li>\n")
            return
        default:
            break
        }
        let mine = (audience == .customer) == (entry.senderID != nil && entry.senderID == customerID)
        let side = message.messageType == .admin ? "admin" : mine ? "mine" : "theirs"
        html.raw(
            "<li class=\"message \(side)\" data-kind=\"\(kind)\"><div class=\"meta\"><span class=\"who\" dir=\"auto\">")
        html.text(
            message.messageType == .admin
                ? language.text(.support) : entry.senderName ?? entry.senderID ?? language.text(.someone))
        html.raw("</span>")
        if let created = message.createdAt {
            html.raw(" <span class=\"time\" title=\"")
            html.text(language.dateTime(created))
            html.raw("\">")
            html.text(language.time(created))
            html.raw("</span>")
        }
        html.raw("</div><div class=\"bubble\" dir=\"auto\">")
        linkedText(message.text ?? "", into: &html)
        html.raw("</div>")
        var previews = entry.previews[...]
        switch message.content {
        case .urlPreview(let preview):
            CardHTML.write(preview, language: language, imageURL: imageURL, into: &html)
            previews = previews.dropFirst()
        case .closureInquiry(let inquiry):
            closure(inquiry, for: audience, into: &html)
        case .customerSatisfaction(let csat):
            satisfaction(csat, for: audience, into: &html)
        case .botAnswers(let bot):
            answers(bot, into: &html)
        case .unknown(let unknown) where audience == .agent:
            html.raw("<div class=\"note\" dir=\"auto\">")
            html.text(language.text(.otherPayload, ["type": unknown.type ?? language.text(.noType)]))
            html.raw("</div>")
        case .malformed(let malformed) where audience == .agent:
            html.raw("<div class=\"note\" dir=\"auto\">")
            html.text(language.text(.malformed, ["reason": malformed.reason.message]))
            html.raw("</div>")
        default:
            break
        }
        // Sendbird's own preview of a message without a Desk one (the web module's renderMessage draws it too).
        if message.content.kind != .urlPreview, let card = LinkCard(message) {
            CardHTML.write(card, language: language, imageURL: imageURL, into: &html)
            previews = previews.dropFirst()
        }
        for linked in previews {
            if let found = linked.preview {
                CardHTML.write(found, language: language, imageURL: imageURL, into: &html)
            } else if audience == .agent {
                html.raw("<div class=\"note\" dir=\"auto\">")
                let reason = linked.failure ?? language.text(.noneFound)
                html.text(language.text(.noPreview, ["link": linked.link, "reason": reason]))
                html.raw("</div>")
            }
        }
        html.raw("</li>\n")
    }

    /// The text with its web links and e-mail addresses made links (only those a client may open: `URLSafety`'s
    /// rules, the web module's `renderText`'s).
    private func linkedText(_ text: String, into html: inout HTMLText) {
        let scalars = Array(text.unicodeScalars)
        var at = 0
        for link in LinkDetector().links(in: text)
        where link.kind == .url ? URLSafety.isSafe(link.asciiHref) : URLSafety.isSafeMailto(link.asciiHref) {
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

    /// A closure inquiry as the web module's `renderMessage` shows it: waiting, the customer's two answers (the
    /// page has no script: they do nothing here) and the agent's word that it waits; answered, what was answered.
    private func closure(_ inquiry: ClosureInquiry, for audience: Audience, into html: inout HTMLText) {
        html.raw("<div class=\"inquiry\">")
        if inquiry.awaitsAnswer, audience == .customer {
            for label in [InterfaceString.inquiryClose, .inquiryKeepOpen] {
                html.raw("<button type=\"button\" class=\"answer\">")
                html.text(language.text(label))
                html.raw("</button>")
            }
        } else {
            html.raw("<span class=\"state\">")
            switch inquiry.state {
            case .waiting: html.text(language.text(.inquiryWaiting))
            case .confirmed: html.text(language.text(.inquiryConfirmed))
            case .declined: html.text(language.text(.inquiryDeclined))
            default: html.text(inquiry.state.rawValue)
            }
            html.raw("</span>")
        }
        html.raw("</div>")
    }

    /// A satisfaction survey as `renderMessage` shows it: waiting, the customer's rating (five choices), comment
    /// and submit button (disabled: the page has no script) and the agent's word that it waits; answered, the
    /// stars and the comment.
    private func satisfaction(_ csat: CustomerSatisfaction, for audience: Audience, into html: inout HTMLText) {
        if csat.state == .waiting {
            guard audience == .customer else {
                html.raw("<span class=\"state\">")
                html.text(language.text(.satisfactionWaiting))
                html.raw("</span>")
                return
            }
            html.raw("<div class=\"survey\"><fieldset disabled=\"disabled\"><legend>")
            html.text(language.text(.satisfactionRating))
            html.raw("</legend>")
            for score in 1...5 {
                html.raw("<label><input type=\"radio\" name=\"rating\" value=\"\(score)\" aria-label=\"")
                html.text(language.text(.ratingStars, count: score))
                html.raw("\"/><span aria-hidden=\"true\">★</span></label>")
            }
            html.raw("<label class=\"comment\"><span>")
            html.text(language.text(.satisfactionComment))
            html.raw("</span><textarea rows=\"2\"></textarea></label><button type=\"button\">")
            html.text(language.text(.satisfactionSubmit))
            html.raw("</button></fieldset></div>")
            return
        }
        let score = Int(min(5, max(0, csat.score ?? 0)))
        html.raw("<div class=\"csat\"><span class=\"stars\" role=\"img\" aria-label=\"")
        html.text(language.text(.ratingStars, count: score))
        html.raw("\">")
        html.raw(String(repeating: "★", count: score) + String(repeating: "☆", count: 5 - score))
        html.raw("</span>")
        if let comment = csat.comment, !comment.isEmpty {
            html.raw("<q dir=\"auto\">")
            html.text(comment)
            html.raw("</q>")
        }
        html.raw("</div>")
    }

    private func answers(_ bot: BotAnswers, into html: inout HTMLText) {
        html.raw("<ul class=\"faq\">")
        for result in bot.results {
            html.raw("<li dir=\"auto\">")
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

    /// What a system message says about its ticket: the kind, the ticket's number, status and agent, the
    /// words around them in `language` (the kind and status as Desk names them).
    public static func facts(of system: SystemMessage, language: InterfaceLanguage = .english) -> [String] {
        var facts = [system.kind.rawValue]
        if let ticket = system.ticket {
            facts.append(language.text(.ticketNumber, ["id": ticket.id.map(String.init) ?? "?"]))
            if let status = ticket.status2 ?? ticket.status { facts.append(status) }
            if let agent = ticket.recentAssignment?.agent?.displayName {
                facts.append(language.text(.ticketAgent, ["name": agent]))
            }
        }
        return facts
    }

    /// `HH:MM` (UTC) of a time in milliseconds since 1970.
    package static func clockTime(_ milliseconds: Int64) -> String {
        let minutes = milliseconds / 60_000
        let hours = (minutes / 60) % 24
        return (hours < 10 ? "0" : "") + "\(hours):" + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)"
    }
}
