import DeskKitCards
import DeskKitModel
import Foundation

/// Readable cards for `deskkit demo` in a terminal (``ConversationPage`` is the HTML form).
enum Card {
    static func render(_ m: DeskMessage, sender: String?, previews: [ConversationPage.LinkCard]) -> [String] {
        let time = m.createdAt.map { ConversationPage.clockTime($0) } ?? "     "
        let who = m.messageType == .admin ? "Acme Support" : (sender ?? "someone")
        var lines: [String] = []
        switch m.content {
        case .systemMessage(let s):
            lines.append(" \(time)  ⚙  \(m.text ?? "")  [\(ConversationPage.facts(of: s).joined(separator: ", "))]")
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
                ? "✔ the customer agreed to close the ticket"
                : c.state == .declined ? "✘ the customer wants it open" : "[ Yes ]  [ No ]"
            lines.append("           ┃ \(answer)")
        case .customerSatisfaction(let c):
            lines.append(" \(time)  \(who): \(m.text ?? "")")
            let stars =
                String(repeating: "★", count: Int(c.score ?? 0))
                + String(repeating: "☆", count: 5 - Int(min(5, max(0, c.score ?? 0))))
            lines.append("           ┃ \(stars)  \(c.comment.map { "“\($0)”" } ?? "")")
        default:
            lines.append(" \(time)  \(who): \(m.text ?? "")")
            for p in previews { lines += previewLines(p) }
        }
        if m.closesTicket { lines.append("           ✔ ticket closed — the reply bar is hidden") }
        return lines
    }

    static func previewLines(_ p: ConversationPage.LinkCard) -> [String] {
        if let preview = p.preview { return box(preview) }
        return ["           ┄ no preview for \(p.link): \(p.failure ?? "none found")"]
    }

    static func box(_ p: URLPreview) -> [String] {
        var out = ["           ┏━ \(p.siteName ?? (p.title == nil ? "link" : "image"))"]
        if let t = p.title { out.append("           ┃ \(t)") }
        if let d = p.description { out.append("           ┃ \(d.count > 90 ? String(d.prefix(89)) + "…" : d)") }
        if let i = p.image { out.append("           ┃ 🖼 \(i)") }
        out.append("           ┗━ \(p.url)")
        return out
    }
}
