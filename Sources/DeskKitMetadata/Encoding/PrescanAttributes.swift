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
        let b = bytes
        var i = position
        defer { position = i }
        while i < b.count, CharsetSniffer.isSpace(b[i]) || b[i] == UInt8(ascii: "/") { i += 1 }
        guard i < b.count, b[i] != UInt8(ascii: ">") else {
            i = min(i + 1, b.count)
            return nil
        }
        var name: [UInt8] = []
        var value: [UInt8] = []
        func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
        func attribute() -> (String, String) {
            (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
        }
        // The name.
        while true {
            guard i < b.count else { return attribute() }
            let c = b[i]
            if c == UInt8(ascii: "="), !name.isEmpty { break }
            if CharsetSniffer.isSpace(c) {
                // Spaces, then `=` or the next attribute.
                while i < b.count, CharsetSniffer.isSpace(b[i]) { i += 1 }
                guard i < b.count, b[i] == UInt8(ascii: "=") else { return attribute() }
                break
            }
            if c == UInt8(ascii: "/") || c == UInt8(ascii: ">") { return attribute() }
            name.append(lower(c))
            i += 1
        }
        i += 1  // past `=`
        while i < b.count, CharsetSniffer.isSpace(b[i]) { i += 1 }
        guard i < b.count else { return attribute() }
        let first = b[i]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            i += 1
            while i < b.count, b[i] != first {
                value.append(lower(b[i]))
                i += 1
            }
            i = min(i + 1, b.count)
            return attribute()
        }
        if first == UInt8(ascii: ">") { return attribute() }
        while i < b.count, !CharsetSniffer.isSpace(b[i]), b[i] != UInt8(ascii: ">") {
            value.append(lower(b[i]))
            i += 1
        }
        return attribute()
    }
}
