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
        let s = content.utf8
        var i = s.startIndex
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D }
        while true {
            // Loop: the next "charset", in any case.
            var found: String.Index?
            var j = i
            while s.distance(from: j, to: s.endIndex) >= 7 {
                let end = s.index(j, offsetBy: 7)
                if s[j..<end].elementsEqual("charset".utf8, by: { $0 | 0x20 == $1 }) {
                    found = end
                    break
                }
                j = s.index(after: j)
            }
            guard var p = found else { return nil }
            while p < s.endIndex, isSpace(s[p]) { p = s.index(after: p) }
            guard p < s.endIndex, s[p] == UInt8(ascii: "=") else {
                i = p  // just before the character that was no `=`
                continue
            }
            p = s.index(after: p)
            while p < s.endIndex, isSpace(s[p]) { p = s.index(after: p) }
            guard p < s.endIndex else { return nil }
            let c = s[p]
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                let start = s.index(after: p)
                guard let close = s[start...].firstIndex(of: c) else { return nil }
                return Substring(content[start..<close])
            }
            let end = s[p...].firstIndex { isSpace($0) || $0 == UInt8(ascii: ";") } ?? s.endIndex
            return Substring(content[p..<end])
        }
    }
}
