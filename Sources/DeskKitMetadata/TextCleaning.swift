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
