import DeskKitModel
import DeskKitPreview
import Foundation

/// Readable cards for `deskkit demo` in a terminal (``ConversationPage`` is the HTML form).
enum Card {
    static func render(_ m: DeskMessage, sender: String?, previews: [LinkPreview]) -> [String] {
        let time = m.createdAt.map { Self.time($0) } ?? "     "
        let who = m.messageType == .admin ? "Acme Support" : (sender ?? "someone")
        var lines: [String] = []
        switch m.content {
        case .systemMessage(let s):
            lines.append(" \(time)  ⚙  \(m.text ?? "")  [\(facts(of: s).joined(separator: ", "))]")
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

    /// What a system message says about its ticket: the kind, the ticket's number, status and agent.
    static func facts(of system: SystemMessage) -> [String] {
        var facts = [system.kind.rawValue]
        if let ticket = system.ticket {
            facts.append("ticket #\(ticket.id.map(String.init) ?? "?")")
            if let status = ticket.status2 ?? ticket.status { facts.append(status) }
            if let agent = ticket.recentAssignment?.agent?.displayName { facts.append("agent \(agent)") }
        }
        return facts
    }

    static func previewLines(_ p: LinkPreview) -> [String] {
        switch p.result {
        case .success(let preview): return box(preview)
        case .failure(let e): return ["           ┄ no preview for \(p.link.text): \(e)"]
        }
    }

    static func box(_ p: URLPreview) -> [String] {
        var out = ["           ┏━ \(p.siteName ?? (p.title == nil ? "link" : "image"))"]
        if let t = p.title { out.append("           ┃ \(t)") }
        if let d = p.description { out.append("           ┃ \(d.count > 90 ? String(d.prefix(89)) + "…" : d)") }
        if let i = p.image { out.append("           ┃ 🖼 \(i)") }
        out.append("           ┗━ \(p.url)")
        return out
    }

    static func time(_ ms: Int64) -> String {
        let seconds = ms / 1000
        return String(format: "%02d:%02d", (seconds / 3600) % 24, (seconds / 60) % 60)
    }
}
