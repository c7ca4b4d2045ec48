/// The one rule for the encoding a `<meta>` declares, read from its attributes however they were read (by
/// the prescan, ``PrescanAttributes``, or from libxml2's start tag, ``StartTagAttributes``): the HTML
/// standard's prescan rule for one `<meta>`.
///
/// `charset=` decides alone, when present (a label the standard does not know makes the element declare
/// nothing); else `http-equiv="Content-Type"` with a `content=` from which a charset can be extracted. A
/// UTF-16 label is UTF-8 there (a page whose markup could be read as ASCII is no UTF-16), and
/// `x-user-defined` is windows-1252.
enum MetaCharset {
    /// `content` is read only for an `http-equiv="Content-Type"`.
    static func declared(charset: String?, httpEquiv: String?, content: @autoclosure () -> String?) -> WebEncoding? {
        let label: Substring
        if let charset {
            label = Substring(charset)
        } else if let httpEquiv, httpEquiv.lowercased() == "content-type", let content = content(),
            let extracted = extract(from: content)
        {
            label = extracted
        } else {
            return nil
        }
        if label.lowercased() == "x-user-defined" { return WebEncoding.named("WINDOWS-1252") }
        return WebEncoding.labelled(label)?.withoutByteOrderMark
    }

    /// The HTML standard's "extract a character encoding from a meta element": the value after the first
    /// `charset` that an `=` follows (white space allowed around it), quoted or up to white space or `;`.
    /// `text/html; charset=koi8-r`, `text/html, charset="koi8-r"`, `charset = 'x'`; nothing for an
    /// unmatched quote.
    static func extract(from content: String) -> Substring? {
        let found: Range<Int>? = Array(content.utf8).withUnsafeBufferPointer { b in
            var i = 0
            // Loop: the next "charset", in any case.
            while i + 7 <= b.count {
                guard CharsetSniffer.startsWith(b, at: i, "charset") else {
                    i += 1
                    continue
                }
                var p = i + 7
                while p < b.count, CharsetSniffer.isSpace(b[p]) { p += 1 }
                guard p < b.count, b[p] == UInt8(ascii: "=") else {
                    i = p  // just before the character that was no `=`
                    continue
                }
                p += 1
                while p < b.count, CharsetSniffer.isSpace(b[p]) { p += 1 }
                guard p < b.count else { return nil }
                if b[p] == UInt8(ascii: "\"") || b[p] == UInt8(ascii: "'") {
                    return CharsetSniffer.find(b[p], in: b, from: p + 1).map { (p + 1)..<$0 }
                }
                var end = p
                while end < b.count, !CharsetSniffer.isSpace(b[end]), b[end] != UInt8(ascii: ";") { end += 1 }
                return p..<end
            }
            return nil
        }
        guard let found else { return nil }
        let start = content.utf8.index(content.startIndex, offsetBy: found.lowerBound)
        return content[start..<content.utf8.index(start, offsetBy: found.count)]
    }
}
