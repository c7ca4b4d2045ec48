import DeskKitCards
import DeskKitInvariants
import DeskKitModel
import DeskKitTestSupport
import Foundation
import FoundationXML
import Testing

/// Conversation pages and cards read back with an XML parser: the page is well-formed XML, so a payload that
/// broke out of its text would break the parse or show up as markup.
@Suite("Conversation pages")
struct ConversationPageTests {
    /// The demo's conversation, as `deskkit demo` ships it.
    let demoConversation: [String] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/deskkit/Demo/order-late.jsonl")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }()

    @Test func aCardIsOneLinkWithItsTextEscaped() throws {
        for text in HostileText.all {
            let preview = URLPreview(
                url: "https://example.com/a?b=1", siteName: text, title: text, description: text,
                image: "https://example.com/p.png")
            let html = CardHTML.render(preview)
            #expect(!html.contains(text))
            let card = try Page("<div>\(html)</div>")
            #expect(try card.document.rootElement()?.all("a[@class='deskkit-card']").count == 1)
            let shown = try #require(LinkCard(preview)?.title?.text)
            #expect(try card.document.rootElement()?.text(".//div[@class='deskkit-card-title']") == shown)
            try card.expectNothingActive(styleSheets: 0)
        }
        let unsafe = CardHTML.render(URLPreview(url: "javascript:alert(1)", title: "t", image: "data:x"))
        #expect(unsafe.hasPrefix("<div class=\"deskkit-card\""), "an unsafe URL is no link: \(unsafe)")
        #expect(!unsafe.contains("javascript:") && !unsafe.contains("data:x"))
        let pictured = URLPreview(url: "https://e.com/", title: "t", image: "https://e.com/i.png")
        #expect(
            CardHTML.render(pictured, imageURL: { $0 == "https://e.com/i.png" ? "data:image/png;base64,AA==" : nil })
                .contains("src=\"data:image/png;base64,AA==\""))
        // An image mapper that refuses (nil), or answers what is no safe URL or inline picture: no picture, as the
        // web module's renderPreview decides; a card that was only its picture is then no card.
        for refusal in [nil, "javascript:alert(1)", "/proxy/i.png", "data:text/html;base64,AA=="] as [String?] {
            let html = CardHTML.render(pictured, imageURL: { _ in refusal })
            #expect(html.contains("deskkit-card-title") && !html.contains("<img"), "\(String(describing: refusal))")
            #expect(
                CardHTML.render(
                    URLPreview(url: "https://e.com/", image: "https://e.com/i.png"), imageURL: { _ in refusal }
                ).isEmpty)
        }
        #expect(CardHTML.render(pictured).contains("src=\"https://e.com/i.png\""), "by default the picture's own URL")
        #expect(
            !CardHTML.isInlineImage("data:image/svg+xml;base64,AA==")
                && !CardHTML.isInlineImage("data:image/png;base64,A=A"))
    }

    /// Every mutated form of the demo conversation, and messages whose every field is hostile text, rendered
    /// together: the page still parses, holds one item per visible message, and every string is text.
    @Test func payloadsNeverBreakOutOfThePage() async throws {
        try await onThreadOfItsOwn {
            try #require(demoConversation.count >= 8, "the demo conversation is read, so the mutations start from it")
            var sources = Mutator(seed: 11).stream(
                of: demoConversation,
                count: 600
            ).map { String(decoding: $0.bytes, as: UTF8.self) }
            for text in HostileText.all {
                let quoted = JSONValue.string(text).jsonString
                let preview = URLPreview(
                    url: "https://example.com/\(text)", siteName: text, title: text, description: text, image: text)
                let csat = DeskPayload.encode(
                    .customerSatisfaction(CustomerSatisfaction(state: .confirmed, score: 9, comment: text)))
                sources += [
                    #"{"type":"MESG","message":\#(quoted),"user":{"user_id":\#(quoted),"nickname":\#(quoted)}}"#,
                    #"{"type":"MESG","message":\#(quoted),"custom_type":"SENDBIRD_DESK_RICH_MESSAGE","data":"#
                        + JSONValue.string(DeskPayload.encode(.urlPreview(preview))).jsonString + "}",
                    #"{"type":"MESG","message":"rate","data":"# + JSONValue.string(csat).jsonString + "}",
                    #"{"type":"ADMM","message":\#(quoted),"data":"{\"type\":\"SYSTEM_MESSAGE_\#(text.filter(\.isLetter))\"}"}"#,
                    #"{"type":"ADMM","message":\#(quoted),"data":"{\"type\":\"X\",\"body\":\#(quoted.dropFirst().dropLast())}"}"#,
                ]
            }
            let entries = sources.map {
                ConversationPage.Entry(message: DeskMessage(json: $0), senderID: nil, senderName: nil)
            }
            let html = ConversationPage(title: HostileText.all[0], entries: entries).render()
            let page = try Page(html)
            for (audience, name) in [(Audience.customer, "customer"), (.agent, "agent")] {
                // A customer sees no system message, and nothing of unknown or malformed data.
                let shown = { (entry: ConversationPage.Entry) in
                    entry.message.isVisible(to: audience)
                        && (audience == .agent || ![.unknown, .malformed].contains(entry.message.content.kind))
                }
                let visible = entries.filter(shown).count
                let hiddenClosers = entries.filter { !shown($0) && $0.message.closesTicket }.count
                #expect(try page.view(name).all("ol/li").count == visible + hiddenClosers)
            }
            for text in HostileText.all {
                #expect(!html.contains(text), "never written as markup: \(text)")
                #expect(
                    try page.document.nodes(forXPath: "//text()").contains { $0.stringValue?.contains(text) == true })
            }
            try page.expectNothingActive()
        }
    }

    /// The demo conversation and hostile messages in every language with a table: the interface speaks it
    /// (`<html lang dir>`, headings, reply bar, buttons, rating), every text of a message or a page keeps its own
    /// direction, and the page stays well-formed and inert.
    @Test(arguments: InterfaceLanguage.available)
    func everyLanguageGivesTheSameInertPageInItsOwnWords(language: InterfaceLanguage) throws {
        var sources = demoConversation
        for text in HostileText.all {
            let quoted = JSONValue.string(text).jsonString
            sources.append(#"{"type":"MESG","message":\#(quoted),"user":{"user_id":"u","nickname":\#(quoted)}}"#)
        }
        let entries = sources.map {
            let user = (try? JSONValue.parse($0))?["user"]
            return ConversationPage.Entry(
                message: DeskMessage(json: $0), senderID: user?["user_id"]?.stringValue,
                senderName: user?["nickname"]?.stringValue)
        }
        let html = ConversationPage(title: HostileText.all[0], entries: entries, language: language).render()
        let page = try Page(html)
        let root = try #require(page.document.rootElement())
        #expect(root.attribute(forName: "lang")?.stringValue == language.tag)
        #expect(root.attribute(forName: "dir")?.stringValue == (language.isRightToLeft ? "rtl" : "ltr"))
        #expect(try page.view("customer").text("h2") == language.text(.customerView))
        #expect(try page.view("agent").text("h2") == language.text(.agentView))
        #expect(try page.view("customer").text("footer") == language.text(.replyClosed))
        #expect(try page.view("customer").text(".//li[@class='notice closed']") == language.text(.ticketClosed))
        let inquiry = try root.all("//div[@class='inquiry']/*").compactMap(\.stringValue)
        let answers = [InterfaceString.inquiryClose, .inquiryWaiting, .inquiryConfirmed, .inquiryDeclined]
        #expect(inquiry.contains { text in answers.contains { language.text($0) == text } }, "\(inquiry)")
        #expect(try root.text("//span[@class='stars']/@aria-label") == language.text(.ratingStars, count: 5))
        #expect(try root.text("//span[@class='time']") == language.time(1_700_000_005_000))
        // What a message or a page says keeps its own direction.
        let texts = try root.all("//div[@class='bubble'] | //span[@class='who'] | //span[@class='title'] | //q")
        #expect(texts.count > 10)
        for node in texts {
            #expect((node as? XMLElement)?.attribute(forName: "dir")?.stringValue == "auto", "\(node)")
        }
        for text in HostileText.all { #expect(!html.contains(text), "never written as markup: \(text)") }
        try page.expectNothingActive()
    }
}

@Suite("One style for server-rendered and web cards")
struct CardStyleSheetTests {
    /// `CardHTML.styleSheet` is `Web/card.css` without its comments and white space: the demo's cards and those
    /// `renderPreview` builds look the same.
    @Test func theCardsStyleSheetIsTheWebPackagesCardCSS() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Web/card.css")
        var css = try String(contentsOf: file, encoding: .utf8)
        while let open = css.range(of: "/*"), let close = css.range(of: "*/", range: open.upperBound..<css.endIndex) {
            css.removeSubrange(open.lowerBound..<close.upperBound)
        }
        let words = css.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        var minified = ""
        let a = Array(words)
        for (i, c) in a.enumerated() {
            if c == " ", i > 0, i + 1 < a.count, "{};".contains(a[i - 1]) || "{};".contains(a[i + 1]) { continue }
            minified.append(c)
        }
        #expect(CardHTML.styleSheet.replacingOccurrences(of: "\n", with: "") == minified)
        #expect(ConversationPage.styleSheet.hasPrefix(CardHTML.styleSheet))
    }
}
