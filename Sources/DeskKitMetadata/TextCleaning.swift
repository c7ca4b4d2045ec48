import CLibXML2

/// Turns raw attribute values and text into preview text: entities decoded (a second time for
/// double-escaped `&amp;amp;`), white space collapsed, trimmed, length-capped.
enum TextCleaning {
    /// Whether `s` holds nothing but white space.
    static func isBlank(_ s: String) -> Bool {
        s.unicodeScalars.allSatisfy { $0.value < 0x80 ? ($0.value <= 0x20) : $0.properties.isWhitespace }
    }

    /// Collapses white space (including no-break spaces and line separators) to one space and trims. On
    /// the UTF-8 bytes; a string that needs no change is returned as it is, without a copy.
    static func collapse(_ s: String) -> String {
        var s = s
        let collapsed: [UInt8]? = s.withUTF8 { b in
            // Already collapsed: no white space but single spaces between words.
            var i = 0
            var clean = true
            while i < b.count {
                let n = whitespaceLength(b, at: i)
                if n > 0,
                    b[i] != 0x20 || i == 0 || i + 1 == b.count || b[i + 1] == 0x20 || whitespaceLength(b, at: i + 1) > 0
                {
                    clean = false
                    break
                }
                i += max(n, 1)
            }
            if clean { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(b.count)
            var pendingSpace = false
            i = 0
            while i < b.count {
                let n = whitespaceLength(b, at: i)
                if n > 0 {
                    pendingSpace = !out.isEmpty
                    i += n
                } else {
                    if pendingSpace { out.append(0x20) }
                    pendingSpace = false
                    out.append(b[i])
                    i += 1
                }
            }
            return out
        }
        return collapsed.map { String(decoding: $0, as: UTF8.self) } ?? s
    }

    /// The length of the white-space character (Unicode's White_Space) at `i`, or 0: ASCII controls and
    /// space, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
    @inline(__always)
    static func whitespaceLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let c = b[i]
        if c <= 0x20 { return 1 }
        guard c >= 0xC2, c <= 0xE3 else { return 0 }
        let rest = b.count - i
        switch c {
        case 0xC2: return rest >= 2 && (b[i + 1] == 0x85 || b[i + 1] == 0xA0) ? 2 : 0
        case 0xE1: return rest >= 3 && b[i + 1] == 0x9A && b[i + 2] == 0x80 ? 3 : 0
        case 0xE2:
            guard rest >= 3 else { return 0 }
            let (x, y) = (b[i + 1], b[i + 2])
            if x == 0x80, y <= 0x8A || y == 0xA8 || y == 0xA9 || y == 0xAF { return 3 }
            return x == 0x81 && y == 0x9F ? 3 : 0
        case 0xE3: return rest >= 3 && b[i + 1] == 0x80 && b[i + 2] == 0x80 ? 3 : 0
        default: return 0
        }
    }

    /// Decodes the entities left in a value after the HTML parser decoded it once (`&amp;amp;` → `&`). On
    /// the UTF-8 bytes: an entity is ASCII, so a `;` more than 32 bytes on never ends one.
    static func decodeEntities(_ s: String) -> String {
        guard contains(s, UInt8(ascii: "&")) else { return s }
        var s = s
        let decoded: [UInt8]? = s.withUTF8 { b in
            var out: [UInt8] = []
            var changed = false
            var i = 0
            while i < b.count {
                guard b[i] == UInt8(ascii: "&") else {
                    out.append(b[i])
                    i += 1
                    continue
                }
                let name = i + 1
                var semi = name
                while semi < b.count, semi - name < 32, b[semi] != UInt8(ascii: ";") { semi += 1 }
                guard semi < b.count, b[semi] == UInt8(ascii: ";"),
                    let value = entity(
                        Substring(decoding: UnsafeBufferPointer(rebasing: b[name..<semi]), as: UTF8.self))
                else {
                    out.append(b[i])
                    i += 1
                    continue
                }
                out.append(contentsOf: value.utf8)
                changed = true
                i = semi + 1
            }
            return changed ? out : nil
        }
        return decoded.map { String(decoding: $0, as: UTF8.self) } ?? s
    }

    /// One entity body (`amp`, `#39`, `#x27`), or nil.
    static func entity(_ name: Substring) -> String? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits)
            }
            guard let value, let scalar = Unicode.Scalar(value), value != 0 else { return nil }
            return String(Character(scalar))
        }
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        var key = Array(name.utf8) + [0]
        guard let entity = key.withUnsafeMutableBufferPointer({ htmlEntityLookup($0.baseAddress) }),
            let scalar = Unicode.Scalar(entity.pointee.value)
        else { return nil }
        return String(Character(scalar))
    }

    /// Whether text (UTF-8) reads as prose rather than a label: at least four words (with a letter or a
    /// digit) and 30 characters, white space runs (no-break spaces too: `&nbsp;en&nbsp;` is one short word)
    /// counting as one, or, in Chinese and Japanese (written without spaces), 15 characters. One pass over the
    /// bytes, before any string is built.
    static func isSentenceLike(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var characters = 0
        var words = 0
        var inWord = false
        var wordCounted = false
        var unspaced = false
        for (i, byte) in utf8.enumerated() {
            // U+00A0 is C2 A0: its lead byte is skipped here, its second byte below.
            let noBreakSpace = byte == 0xA0 && i > 0 && utf8[i - 1] == 0xC2
            if byte <= 0x20 || noBreakSpace || (byte == 0xC2 && i + 1 < utf8.count && utf8[i + 1] == 0xA0) {
                inWord = false
                continue
            }
            guard byte & 0xC0 != 0x80 else { continue }  // a continuation byte
            characters += 1
            if !inWord {
                if characters > 1 { characters += 1 }  // the space before the word
                inWord = true
                wordCounted = false
            }
            // Letters and digits: ASCII alphanumerics, or any character beyond ASCII.
            let alphanumeric =
                byte >= 0x80 || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            if alphanumeric, !wordCounted {
                wordCounted = true
                words += 1
            }
            // Lead bytes of U+3040–U+9FFF: kana and the common Han ideographs.
            if byte >= 0xE3 && byte <= 0xE9 { unspaced = true }
        }
        return unspaced ? characters >= 15 : characters >= 30 && words >= 4
    }

    /// The text without `<![CDATA[ … ]]>` sections, which libxml2's HTML parser passes on as text and
    /// browsers do not show. On the UTF-8 bytes; text without a section is returned as it is.
    static func removingCDATA(_ text: String) -> String {
        guard contains(text, UInt8(ascii: "<")) else { return text }
        var text = text
        let kept: [UInt8]? = text.withUTF8 { b in
            let open = Array("<![CDATA[".utf8)
            let close = Array("]]>".utf8)
            guard var at = find(open, in: b, from: 0) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(b.count)
            var from = 0
            while true {
                out.append(contentsOf: b[from..<at])
                guard let end = find(close, in: b, from: at + open.count) else { return out }
                from = end + close.count
                guard let next = find(open, in: b, from: from) else { break }
                at = next
            }
            out.append(contentsOf: b[from...])
            return out
        }
        return kept.map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    /// Where `needle` (not empty) first occurs in `bytes` at `from` or after, case and all: `memchr` to its
    /// first byte (``CharsetSniffer/find(_:in:from:)``), then a compare.
    static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var at = from
        while let hit = CharsetSniffer.find(needle[0], in: bytes, from: at), bytes.count - hit >= needle.count {
            if bytes[hit..<hit + needle.count].elementsEqual(needle) { return hit }
            at = hit + 1
        }
        return nil
    }

    /// Whether the UTF-8 of `s` holds `byte` (`memchr` on the bytes in place).
    static func contains(_ s: String, _ byte: UInt8) -> Bool {
        s.utf8.withContiguousStorageIfAvailable { CharsetSniffer.find(byte, in: $0, from: 0) != nil }
            ?? s.utf8.contains(byte)
    }

    /// Like ``clean(_:limit:)``, but a cut text ends at a word boundary (when there is one in its last
    /// third) before the "…".
    static func cleanAtWord(_ raw: String?, limit: Int) -> String? {
        guard let text = clean(raw, limit: Int.max) else { return nil }
        guard exceeds(text, limit) else { return text }
        let cut = text.prefix(limit - 1)
        if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) >= limit * 2 / 3 {
            return String(cut[..<space]).trimmingCharacters(in: " ,;:-–—") + "…"
        }
        return String(cut) + "…"
    }

    /// Decoded, collapsed and capped at `limit` characters (cut at a character, an ellipsis added).
    /// Nil when nothing is left.
    static func clean(_ raw: String?, limit: Int) -> String? {
        guard let raw else { return nil }
        let text = collapse(decodeEntities(raw))
        guard !text.isEmpty else { return nil }
        guard exceeds(text, limit) else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    /// Whether `text` has more than `limit` characters; counted only when it has more bytes than that.
    static func exceeds(_ text: String, _ limit: Int) -> Bool { text.utf8.count > limit && text.count > limit }
}
