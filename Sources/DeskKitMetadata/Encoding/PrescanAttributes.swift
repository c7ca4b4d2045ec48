/// The attributes of one tag in the page's bytes, read as the HTML standard's encoding prescan reads them
/// ("get an attribute"): the prescan runs before any parser, so it reads the bytes itself.
///
/// Names and unquoted values are ASCII-lowercased; `/` and white space separate attributes; a quoted value
/// runs to its closing quote, whatever it holds; the tag ends at a `>` outside quotes. Only the first of
/// attributes with the same name counts.
struct PrescanAttributes {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Where the next attribute is looked for; after the last one, just past the tag's `>`.
    private(set) var position: Int

    /// A reader of the attributes from `position` (just after the tag's name) on.
    init(_ bytes: UnsafeBufferPointer<UInt8>, from position: Int) {
        self.bytes = bytes
        self.position = position
    }

    /// The next attribute, or nil at the end of the tag (or of the bytes).
    mutating func next() -> (name: String, value: String)? {
        var name: [UInt8] = []
        var value: [UInt8] = []
        guard step(name: &name, value: &value, keep: true) else { return nil }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// Steps over the rest of the tag, to just past its `>`, reading its attributes as ``next()`` does
    /// without keeping them (the prescan steps over every tag of the head but `<meta>`).
    mutating func skipToEnd() {
        var none: [UInt8] = []
        var alsoNone: [UInt8] = []
        while step(name: &none, value: &alsoNone, keep: false) {}
    }

    /// Reads one attribute into `name` and `value` (only with `keep`); false at the end of the tag.
    private mutating func step(name: inout [UInt8], value: inout [UInt8], keep: Bool) -> Bool {
        let b = bytes
        var i = position
        defer { position = i }
        while i < b.count, CharsetSniffer.isSpace(b[i]) || b[i] == UInt8(ascii: "/") { i += 1 }
        guard i < b.count, b[i] != UInt8(ascii: ">") else {
            i = min(i + 1, b.count)
            return false
        }
        var named = false  // whether the name has a byte yet (an `=` first is part of the name)
        func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
        // The name.
        while true {
            guard i < b.count else { return true }
            let c = b[i]
            if c == UInt8(ascii: "="), named { break }
            if CharsetSniffer.isSpace(c) {
                // Spaces, then `=` or the next attribute.
                while i < b.count, CharsetSniffer.isSpace(b[i]) { i += 1 }
                guard i < b.count, b[i] == UInt8(ascii: "=") else { return true }
                break
            }
            if c == UInt8(ascii: "/") || c == UInt8(ascii: ">") { return true }
            if keep { name.append(lower(c)) }
            named = true
            i += 1
        }
        i += 1  // past `=`
        while i < b.count, CharsetSniffer.isSpace(b[i]) { i += 1 }
        guard i < b.count else { return true }
        let first = b[i]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            i += 1
            if keep {
                while i < b.count, b[i] != first {
                    value.append(lower(b[i]))
                    i += 1
                }
            } else {
                i = CharsetSniffer.find(first, in: b, from: i) ?? b.count
            }
            i = min(i + 1, b.count)
            return true
        }
        if first == UInt8(ascii: ">") { return true }
        while i < b.count, !CharsetSniffer.isSpace(b[i]), b[i] != UInt8(ascii: ">") {
            if keep { value.append(lower(b[i])) }
            i += 1
        }
        return true
    }
}
