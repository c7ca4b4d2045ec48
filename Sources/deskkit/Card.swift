import DeskKitCards
import DeskKitModel

/// Readable cards for `deskkit demo` in a terminal (``ConversationPage`` is the HTML form), their interface in
/// `language`.
struct Card {
    let language: InterfaceLanguage

    func render(_ m: DeskMessage, sender: String?, previews: [ConversationPage.LinkPreview]) -> [String] {
        let time = m.createdAt.map { language.time($0) } ?? ""
        let who = m.messageType == .admin ? language.text(.support) : (sender ?? language.text(.someone))
        var lines: [String] = []
        switch m.content {
        case .systemMessage(let s):
            let facts = ConversationPage.facts(of: s, language: language).joined(separator: ", ")
            lines.append(" \(time)  ⚙  \(m.text ?? "")  [\(facts)]")
        case .notification(let n):
            lines.append(" \(time)  ℹ  \(m.text ?? "") \(n.kind.map { "[\($0)]" } ?? "")")
        case .urlPreview(let p):
            lines.append(" \(time)  \(who): \(m.text ?? "")")
            lines += box(p)
            for extra in previews.dropFirst() { lines += previewLines(extra) }
        case .closureInquiry(let c):
            lines.append(" \(time)  \(who): \(m.text ?? "")")
            let answer =
                c.state == .confirmed
                ? language.text(.inquiryConfirmed)
                : c.state == .declined
                    ? "✘ " + language.text(.inquiryDeclined)
                    : "[ \(language.text(.inquiryClose)) ]  [ \(language.text(.inquiryKeepOpen)) ]"
            lines.append("           ┃ \(answer)")
        case .customerSatisfaction(let c):
            lines.append(" \(time)  \(who): \(m.text ?? "")")
            let score = Int(min(5, max(0, c.score ?? 0)))
            let stars = String(repeating: "★", count: score) + String(repeating: "☆", count: 5 - score)
            let rating = language.text(.ratingStars, count: score)
            lines.append("           ┃ \(stars) (\(rating))  \(c.comment.map { "“\($0)”" } ?? "")")
        default:
            lines.append(" \(time)  \(who): \(m.text ?? "")")
            for p in previews { lines += previewLines(p) }
        }
        if m.closesTicket { lines.append("           ✔ " + language.text(.ticketClosed)) }
        return lines
    }

    func previewLines(_ p: ConversationPage.LinkPreview) -> [String] {
        if let preview = p.preview { return box(preview) }
        let reason = p.failure ?? language.text(.noneFound)
        return ["           ┄ " + language.text(.noPreview, ["link": p.link, "reason": reason])]
    }

    func box(_ p: URLPreview) -> [String] {
        var out = ["           ┏━ \(p.siteName ?? language.text(p.title == nil ? .link : .image))"]
        if let t = p.title { out.append("           ┃ \(t)") }
        if let d = p.description { out.append("           ┃ \(d.count > 90 ? String(d.prefix(89)) + "…" : d)") }
        if let i = p.image { out.append("           ┃ 🖼 \(i)") }
        out.append("           ┗━ \(p.url)")
        return out
    }
}
