import DeskKitJSON

/// Reading scalars out of UTF-8 bytes, and the character classes the detector's rules use.
extension UnsafeBufferPointer<UInt8> {
    /// The scalar starting at byte `i` and its length; ``invalidScalar`` (length 1) for ill-formed bytes.
    @inline(__always) func scalar(at i: Int) -> (UInt32, Int) {
        let b0 = self[i]
        if b0 < 0x80 { return (UInt32(b0), 1) }
        let n = UTF8Validation.sequenceLength(self, at: i)
        switch n {
        case 2: return (UInt32(b0 & 0x1F) << 6 | UInt32(self[i + 1] & 0x3F), 2)
        case 3: return (UInt32(b0 & 0x0F) << 12 | UInt32(self[i + 1] & 0x3F) << 6 | UInt32(self[i + 2] & 0x3F), 3)
        case 4:
            return (
                UInt32(b0 & 0x07) << 18 | UInt32(self[i + 1] & 0x3F) << 12 | UInt32(self[i + 2] & 0x3F) << 6
                    | UInt32(self[i + 3] & 0x3F), 4
            )
        default: return (invalidScalar, 1)
        }
    }

    /// The scalar that ends just before byte `i`, and where it starts.
    @inline(__always) func scalar(before i: Int) -> (UInt32, Int) {
        if self[i - 1] < 0x80 { return (UInt32(self[i - 1]), i - 1) }
        var j = i - 1
        while j > 0, j > i - 4, self[j] & 0xC0 == 0x80 { j -= 1 }
        let (c, n) = scalar(at: j)
        return j + n == i ? (c, j) : (invalidScalar, i - 1)
    }
}

/// Stands for an ill-formed byte: a separator like white space.
let invalidScalar: UInt32 = 0xFFFF_FFFF

enum CharClass {
    /// An ASCII letter or digit. Like the other byte classes, one test of a bit in a word: the class's
    /// characters below 64 in the first, the others in the second.
    @inline(__always) static func isASCIIAlnum(_ c: UInt32) -> Bool {
        inClass(c, 0x03FF_0000_0000_0000, 0x07FF_FFFE_07FF_FFFE)
    }

    /// An ASCII letter, digit, `-` or `_`: a byte of a host label.
    @inline(__always) static func isASCIIHostByte(_ c: UInt8) -> Bool {
        inClass(UInt32(c), 0x03FF_2000_0000_0000, 0x07FF_FFFE_87FF_FFFE)
    }

    /// Whether the ASCII character `c` has its bit set in `low` (characters 0–63) or `high` (64–127).
    @inline(__always) static func inClass(_ c: UInt32, _ low: UInt64, _ high: UInt64) -> Bool {
        c < 128 && ((c < 64 ? low : high) >> UInt64(c & 63)) & 1 != 0
    }

    @inline(__always) static func isASCIIDigit(_ c: UInt32) -> Bool { (c &- 0x30) < 10 }

    /// Han ideographs, kana and Hangul: scripts written without spaces between words, where text runs
    /// straight on from a link.
    static func isCJK(_ c: UInt32) -> Bool {
        switch c {
        case 0x1100...0x11FF, 0x2E80...0x2FDF, 0x3040...0x30FF, 0x3130...0x318F, 0x31F0...0x31FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA960...0xA97F, 0xAC00...0xD7AF, 0xD7B0...0xD7FF, 0xF900...0xFAFF, 0xFF66...0xFF9F,
            0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }

    /// Han ideographs only (not kana or Hangul).
    static func isHan(_ c: UInt32) -> Bool {
        switch c {
        case 0x2E80...0x2FDF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF: return true
        default: return false
        }
    }

    /// Skin-tone modifiers (`Emoji_Modifier`) and tag characters (subdivision flags): grapheme extenders that
    /// are neither marks nor joiners.
    @inline(__always) static func isEmojiExtender(_ c: UInt32) -> Bool {
        (0x1F3FB...0x1F3FF).contains(c) || (0xE0020...0xE007F).contains(c)
    }

    /// Letters of the scripts chat text is most often in, whose Unicode properties need no look-up (a
    /// look-up in the standard library's tables costs more than the rest of a scalar's handling): Latin
    /// letters with diacritics, Cyrillic letters, kana, CJK ideographs and Hangul syllables — letters, no
    /// mark among them.
    @inline(__always) static func isCommonLetter(_ c: UInt32) -> Bool {
        switch c {
        case 0xD7, 0xF7: return false
        case 0xC0...0x24F, 0x400...0x481, 0x48A...0x52F, 0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FFF,
            0xAC00...0xD7A3:
            return true
        default: return false
        }
    }

    /// A scalar that extends the grapheme cluster before it: a combining mark (the kana voicing marks
    /// U+3099 and U+309A among them), a joiner, a variation selector, an emoji modifier or tag.
    static func extendsGrapheme(_ c: UInt32) -> Bool {
        if isCommonLetter(c) { return false }
        if isJoiner(c) || isEmojiExtender(c) { return true }
        guard c != invalidScalar, let s = Unicode.Scalar(c) else { return false }
        return s.properties.generalCategory.isMark
    }

    /// Hiragana (Japanese particles and inflections: the prose around a link).
    @inline(__always) static func isHiragana(_ c: UInt32) -> Bool { (0x3041...0x309F).contains(c) }

    /// Zero-width joiner and non-joiner: part of words in Indic scripts and emoji.
    @inline(__always) static func isJoiner(_ c: UInt32) -> Bool { c == 0x200C || c == 0x200D }

    /// A non-ASCII scalar that can be part of a host name: letters, marks, digits, other symbols
    /// (`✪`, `➡`), joiners, and what extends an emoji (skin-tone modifiers, tag characters), so that a
    /// link never ends inside a grapheme cluster (`🧑🏽‍💻`, `🏴󠁧󠁢󠁳󠁣󠁴󠁿`). Not white space, punctuation, math
    /// symbols, controls or other format characters.
    static func isHostScalar(_ c: UInt32) -> Bool {
        if isCommonLetter(c) { return true }
        if c == invalidScalar { return false }
        if isJoiner(c) || isEmojiExtender(c) { return true }
        // CJK and full-width punctuation.
        if (0x3000...0x303F).contains(c) || (0xFF00...0xFF65).contains(c) { return false }
        guard let s = Unicode.Scalar(c) else { return false }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark,
            .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber, .otherSymbol:
            return true
        default:
            return false
        }
    }

    /// A non-ASCII scalar that can be part of a path: what a host may hold, plus dashes and connectors
    /// (`Hatfield–McCoy`). The CJK rule is applied by the path scanner.
    static func isPathScalar(_ c: UInt32) -> Bool {
        if isHostScalar(c) { return true }
        guard c != invalidScalar, let s = Unicode.Scalar(c) else { return false }
        if (0x3000...0x303F).contains(c) || (0xFF00...0xFF65).contains(c) { return false }
        switch s.properties.generalCategory {
        case .dashPunctuation, .connectorPunctuation: return true
        default: return false
        }
    }

    /// `@`, `#`, `$` and their full-width forms: mention, hashtag and cashtag sigils.
    @inline(__always) static func isSigil(_ c: UInt32) -> Bool {
        c == 0x40 || c == 0x23 || c == 0x24 || c == 0xFF20 || c == 0xFF03 || c == 0xFF04
    }

    /// A letter, number or mark of any script (by general category: the table the detector reads anyway, where
    /// the alphabetic and numeric properties would bring two more into the web module).
    static func isWordScalar(_ c: UInt32) -> Bool {
        if c < 0x80 { return isASCIIAlnum(c) || c == 0x5F }
        if isCommonLetter(c) { return true }
        guard c != invalidScalar, let s = Unicode.Scalar(c) else { return false }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark,
            .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }
}

extension Unicode.GeneralCategory {
    /// Nonspacing, spacing and enclosing marks: they combine with the character before them.
    var isMark: Bool { self == .nonspacingMark || self == .spacingMark || self == .enclosingMark }
}
