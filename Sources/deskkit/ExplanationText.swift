import DeskKitModel

/// `deskkit preview --explain`'s text: the inspection's JSON (`PreviewExplanation.json`, as `GET /v1/inspect`
/// answers it) read for a terminal, so that the two always say the same thing. Every string a page controls is
/// printed with its control characters escaped: a title cannot move the cursor or clear the screen.
struct ExplanationText {
    let answer: JSONValue

    init(_ answer: JSONValue) { self.answer = answer }

    var text: String {
        var lines: [String] = []
        let url = Self.shown(answer["url"]?.stringValue)
        lines.append("\(url) — fetched again in \(Self.number(answer["milliseconds"])) ms")
        if answer["cache"]?["held"]?.boolValue == true, let cached = answer["cache"]?["answer"] {
            if let error = cached["error"], error != .null {
                lines.append("  the cache holds a failure: \(Self.error(error))")
            } else {
                lines.append("  the cache holds a card: messages get it until it expires or is forgotten")
            }
        } else {
            lines.append("  the cache holds nothing for it")
        }
        lines.append("")
        lines.append("requests")
        for (n, hop) in (answer["hops"]?.arrayValue ?? []).enumerated() {
            var line = "  \(n + 1). \(hop["purpose"]?.stringValue ?? "")  \(Self.shown(hop["url"]?.stringValue))"
            if let status = hop["status"]?.int64Value { line += "  → \(status)" }
            if let to = hop["redirect_to"]?.stringValue { line += " to \(Self.shown(to))" }
            lines.append(line)
            var facts: [String] = []
            if hop["site_policy"]?["verdict"]?.stringValue == "refused" {
                facts.append("site policy: refused (\(Self.shown(hop["site_policy"]?["detail"]?.stringValue)))")
            } else {
                facts.append("site policy: allowed")
            }
            switch hop["address"]?["verdict"]?.stringValue {
            case "allowed": facts.append("address \(Self.shown(hop["address"]?["ip"]?.stringValue)): allowed")
            case "refused": facts.append("address: refused (\(Self.shown(hop["address"]?["detail"]?.stringValue)))")
            default: facts.append("address: not reached")
            }
            if let type = hop["content_type"]?.stringValue { facts.append(Self.shown(type)) }
            if let decided = hop["charset"]?["decided"]?.stringValue {
                let declared = hop["charset"]?["declared"]?.stringValue.map { ", declared \(Self.shown($0))" } ?? ""
                facts.append(
                    "read as \(decided) (by \(hop["charset"]?["source"]?.stringValue ?? "?")\(declared))")
            }
            if let bytes = hop["bytes"]?.int64Value { facts.append("\(bytes) bytes read") }
            if let ms = hop["milliseconds"], ms != .null { facts.append("\(Self.number(ms)) ms") }
            lines.append("     " + facts.joined(separator: " · "))
            if let error = hop["error"]?.stringValue { lines.append("     failed: \(Self.shown(error))") }
        }
        if let tags = answer["tags"]?.objectValue {
            lines.append("")
            lines.append("tags found")
            for member in tags where member.key != "oembed_link" {
                for property in member.value.arrayValue ?? [] {
                    lines.append(
                        "  \(member.key.padding(10)) \(Self.shown(property["key"]?.stringValue)) = "
                            + Self.quoted(property["value"]?.stringValue))
                }
            }
            if let link = tags["oembed_link"]?.stringValue { lines.append("  oembed     link = \(Self.shown(link))") }
        }
        if let probe = answer["site_probe"], probe != .null {
            lines.append("")
            lines.append("the site's answer to an address that cannot exist")
            var line = "  \(Self.shown(probe["url"]?.stringValue))  → \(probe["status"]?.int64Value ?? 0)"
            if let title = probe["title"]?.stringValue { line += "  \(Self.quoted(title))" }
            lines.append(line)
            let shared = (probe["shared"]?.arrayValue ?? []).compactMap(\.stringValue)
            lines.append(
                probe["same"]?.boolValue == true
                    ? "  the same page as the link's (\(shared.joined(separator: ", "))): it says nothing about the link"
                    : "  another page than the link's"
                        + (shared.isEmpty ? "" : " (the same \(shared.joined(separator: ", ")))"))
        }
        lines.append("")
        if let refusal = answer["refusal"], refusal != .null {
            lines.append("no card: \(Self.error(refusal))")
            if let signals = answer["signals"]?.objectValue {
                let read = signals.compactMap { member -> String? in
                    switch member.value {
                    case .integer(let n): "\(member.key) \(n)"
                    case .bool(let b): "\(member.key) \(b)"
                    case .array(let a) where !a.isEmpty:
                        "\(member.key) " + a.compactMap { $0.stringValue.map(Self.shown) }.joined(separator: ", ")
                    default: nil
                    }
                }
                lines.append("  signals read: " + read.joined(separator: " · "))
            }
        } else if let card = answer["card"], card != .null {
            lines.append("the card")
            let origins = answer["origins"]
            for (key, name) in [
                ("title", "title"), ("description", "description"), ("image", "image"), ("site_name", "site_name"),
            ] {
                guard let value = card["body"]?[key]?.stringValue, !value.isEmpty else { continue }
                let origin = origins?[key]?.stringValue.map { "  ← \($0)" } ?? ""
                lines.append("  \(name.padding(12)) \(Self.quoted(value))\(origin)")
            }
            if let image = answer["image"], image != .null {
                if let type = image["type"]?.stringValue, let w = image["width"]?.int64Value,
                    let h = image["height"]?.int64Value
                {
                    lines.append("  image probe  \(type) \(w)×\(h)")
                } else if let error = image["probe_error"]?.stringValue {
                    lines.append("  image probe  failed, image kept: \(Self.shown(error))")
                }
                if let dropped = image["dropped"]?.stringValue {
                    lines.append("  image        left off: \(Self.shown(dropped))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func error(_ error: JSONValue) -> String {
        let provider = error["provider"]?.stringValue.map { " (\(shown($0)))" } ?? ""
        return "\(error["kind"]?.stringValue ?? "?")\(provider): \(shown(error["detail"]?.stringValue))"
    }

    private static func number(_ value: JSONValue?) -> String {
        if case .number(let text)? = value { return text }
        return value?.int64Value.map(String.init) ?? "?"
    }

    private static func quoted(_ text: String?) -> String { "\"\(shown(text))\"" }

    /// `text` with its control and bidi-formatting characters written as `\u{…}`.
    static func shown(_ text: String?) -> String {
        guard let text else { return "-" }
        var out = ""
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || (0x202A...0x202E).contains(v)
                || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F
            {
                out += "\\u{\(String(v, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
