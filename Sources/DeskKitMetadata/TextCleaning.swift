import CLibXML2

/// Turns raw attribute values and text into preview text: entities decoded (a second time for
/// double-escaped `&amp;amp;`), white space collapsed, trimmed, length-capped.
enum TextCleaning {
    /// Whether `s` holds nothing but white space.
    static func isBlank(_ s: String) -> Bool {
        s.unicodeScalars.allSatisfy { $0.value < 0x80 ? ($0.value <= 0x20) : $0.properties.isWhitespace }
    }

    /// Collapses white space (including no-break spaces and line separators) to one space and trims.
    static func collapse(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        var pendingSpace = false
        for scalar in s.unicodeScalars {
            if scalar.value <= 0x20 || (scalar.value >= 0x80 && scalar.properties.isWhitespace) {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.unicodeScalars.append(" ") }
                pendingSpace = false
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Decodes the entities left in a value after the HTML parser decoded it once (`&amp;amp;` → `&`).
    static func decodeEntities(_ s: String) -> String {
        guard s.utf8.contains(UInt8(ascii: "&")) else { return s }
        // By code point: `;` followed by a combining mark is one `Character` with it.
        var out = String.UnicodeScalarView()
        var rest = s.unicodeScalars[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semi = after.prefix(32).firstIndex(of: ";"), let decoded = entity(Substring(after[..<semi])) else {
                out.append("&")
                rest = after
                continue
            }
            out += decoded.unicodeScalars
            rest = after[after.index(after: semi)...]
        }
        return String(out + rest)
    }

    /// One entity body (`amp`, `#39`, `#x27`), or nil.
    static func entity(_ name: Substring) -> String? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" { value = UInt32(digits.dropFirst(), radix: 16) } else { value = UInt32(digits) }
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

    /// Whether body text reads as prose rather than a label: at least four words (with a letter or a
    /// digit) and 30 characters, or, in scripts written without spaces (Chinese, Japanese, Thai), 15
    /// characters.
    static func isSentenceLike(_ text: String) -> Bool {
        let count = text.count
        if count >= 15, text.unicodeScalars.contains(where: { isUnspacedScript($0) }) { return true }
        guard count >= 30 else { return false }
        return text.split(separator: " ").lazy.filter { $0.contains { $0.isLetter || $0.isNumber } }.prefix(4).count == 4
    }

    /// Han, kana, Thai, Lao, Khmer, Myanmar: scripts whose words are not separated by spaces.
    static func isUnspacedScript(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xF900...0xFAFF, 0x20000...0x2FFFF:
            return true
        default: return false
        }
    }

    /// The text without `<![CDATA[ … ]]>` sections, which libxml2's HTML parser passes on as text and
    /// browsers do not show.
    static func removingCDATA(_ text: String) -> String {
        guard text.contains("<![CDATA[") else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "<![CDATA[") {
            out += rest[..<open.lowerBound]
            rest = rest[open.upperBound...]
            guard let close = rest.firstRange(of: "]]>") else { return out }
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// Like ``clean(_:limit:)``, but a cut text ends at a word boundary (when there is one in its last
    /// third) before the "…".
    static func cleanAtWord(_ raw: String?, limit: Int) -> String? {
        guard let text = clean(raw, limit: Int.max) else { return nil }
        guard text.count > limit else { return text }
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
        guard text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }
}
