/// Text as the refusal phrases are written: lowercase, one space between words, straight quotes, no
/// trailing dots, ellipses, exclamation or question marks; titles cut into their parts, status codes taken
/// off.
enum RefusalText {
    /// `text` lowercase, white space collapsed and trimmed, curly quotes straight, trailing `.…!?` (and
    /// their full-width forms) taken off.
    static func normalize(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var space = true
        for scalar in text.lowercased().unicodeScalars {
            switch scalar {
            case " ", "\t", "\n", "\r", "\u{A0}", "\u{3000}", "\u{200B}":
                if !space { out.append(" ") }
                space = true
                continue
            case "\u{2019}", "\u{2018}", "\u{02BC}": out.append("'")
            case "\u{201C}", "\u{201D}": out.append("\"")
            default: out.append(scalar)
            }
            space = false
        }
        while let last = out.last, " .…!?！？。".unicodeScalars.contains(last) { out.removeLast() }
        return String(out)
    }

    /// Separators between a title's parts, as sites write them.
    static let separators = [
        " | ", " - ", " – ", " — ", " · ", " • ", " :: ", " » ", " « ", " : ", " / ", "｜", " ~ ", "：",
    ]

    /// The title whole and each of its parts, normalized, with whether a status code (400–599) stood in it
    /// and was taken off ("404 Not Found" → "not found", code).
    static func parts(of title: String?) -> [(text: String, code: Bool)] {
        guard let title else { return [] }
        let whole = normalize(title)
        guard !whole.isEmpty else { return [] }
        var pieces = [whole]
        for separator in separators {
            pieces = pieces.flatMap { TitleSegments.split($0, separator).map(String.init) }
        }
        var out = [withoutCode(whole)]
        if pieces.count > 1 { out += pieces.map(normalize).filter { !$0.isEmpty }.map(withoutCode) }
        return out
    }

    /// `text` without a status code at its start or end ("404 页面不存在", "Error 404", "404错误").
    static func withoutCode(_ text: String) -> (text: String, code: Bool) {
        let isDigit: (Character) -> Bool = { $0.isASCII && $0.isNumber }
        func isCode(_ digits: some StringProtocol) -> Bool {
            digits.count == 3 && Int(digits).map { (400...599).contains($0) } == true
        }
        var rest = Substring(text)
        var code = false
        if isCode(rest.prefix(while: isDigit)) {
            rest = rest.dropFirst(3)
            code = true
        }
        if isCode(String(rest.reversed().prefix(while: isDigit))) {
            rest = rest.dropLast(3)
            code = true
        }
        guard code else { return (text, false) }
        let edge: Set<Character> = [" ", "(", ")", "[", "]", "-", "–", "—", ":", "|", "#"]
        while let first = rest.first, edge.contains(first) { rest = rest.dropFirst() }
        while let last = rest.last, edge.contains(last) { rest = rest.dropLast() }
        return (normalize(String(rest)), true)
    }

    /// Whether one of `parts` is one of `titles`, or starts with one of `prefixes`.
    static func matches(_ parts: [(text: String, code: Bool)], _ titles: Set<String>, prefixes: [String] = []) -> Bool {
        parts.contains { part in titles.contains(part.text) || prefixes.contains { part.text.hasPrefix($0) } }
    }

    /// The first of `sentences` that one of `texts` (normalized) holds.
    static func mention(in texts: [String], of sentences: [String]) -> String? {
        for text in texts { if let sentence = sentences.first(where: { text.contains($0) }) { return sentence } }
        return nil
    }
}
