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
