import DeskKitURL

/// The checks ``URLSafety`` makes of an internationalized host — one with a non-ASCII character or an `xn--`
/// label — label by label, as IDNA (UTS #46, which browsers apply) reads them: a host a browser cannot parse is
/// a dead link on a card, and one it maps is another host than the one shown.
enum HostLabels {
    /// The longest `xn--` label decoded (punycode is quadratic in its length; DNS allows 63 bytes).
    static let maxACELabel = 255

    /// Why the host (bytes of an authority's host: letters, digits, `-`, `_`, `.` and UTF-8) is one a browser
    /// refuses or reads as another, or nil.
    static func problem(with host: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        var summaries: [LabelSummary] = []
        var scalars: [UInt32] = []
        for label in host.split(separator: 0x2E, omittingEmptySubsequences: false) where !label.isEmpty {
            // (An empty label is one final dot: one inside is refused before.)
            scalars.removeAll(keepingCapacity: true)
            let ace = isACE(label)
            if ace {
                guard label.count <= maxACELabel + 4, Punycode.decode(label.dropFirst(4), into: &scalars) else {
                    return "has an xn-- label in its host that is no punycode"
                }
                guard scalars.contains(where: { $0 >= 0x80 }) else {
                    return "has an xn-- label in its host that spells ASCII"
                }
                if scalars.contains(where: { $0 < 0x80 && !isLowercaseHostCharacter($0) }) || hasUppercase(scalars) {
                    return "has an xn-- label in its host with a character a browser maps"
                }
                if scalars.starts(with: [0x78, 0x6E, 0x2D, 0x2D]) {
                    return "has an xn-- label in its host that spells another xn-- label"
                }
            } else {
                for scalar in String(decoding: label, as: UTF8.self).unicodeScalars { scalars.append(scalar.value) }
            }
            var summary = LabelSummary()
            for (index, value) in scalars.enumerated() {
                guard let scalar = Unicode.Scalar(value) else {
                    return "has an xn-- label in its host that is no punycode"
                }
                let bidi = bidiClass(scalar)
                if index == 0, bidi == .mark || scalar.properties.generalCategory == .spacingMark {
                    return ace
                        ? "has an xn-- label in its host that begins with a combining mark"
                        : "has a label in its host that begins with a combining mark"
                }
                if value >= 0x80, let problem = CharacterProblem(scalar) {
                    // A decoded label's character is not in the URL as written: the message names the label.
                    return ace ? "has an xn-- label in its host that decodes to \(problem.what)" : problem.message
                }
                summary.add(
                    bidi, first: index == 0,
                    letter: bidi == .europeanNumber || bidi == .arabicNumber || isLetter(scalar))
            }
            summaries.append(summary)
        }
        return bidiProblem(summaries)
    }

    /// Why a non-ASCII character may not be in a host.
    private enum CharacterProblem {
        case invisible, mapped, refused

        init?(_ scalar: Unicode.Scalar) {
            if URLSafety.isInvisible(scalar) {
                self = .invisible
            } else if URLSafety.isMappedInHost(scalar) {
                self = .mapped
            } else if isRefused(scalar) {
                self = .refused
            } else {
                return nil
            }
        }

        /// The problem of a host that holds the character.
        var message: String {
            switch self {
            case .invisible: "contains an invisible or bidirectional character"
            case .mapped: "has a character in its host that a browser reads as another"
            case .refused: "has a character in its host that IDNA refuses"
            }
        }

        /// The character, after "decodes to" in the problem of an `xn--` label.
        var what: String {
            switch self {
            case .invisible: "an invisible or bidirectional character"
            case .mapped: "a character a browser reads as another"
            case .refused: "a character IDNA refuses"
            }
        }
    }

    /// Whether `label` begins with `xn--` (in any case): an internationalized label in its ASCII form (`xn--` alone
    /// too, which spells nothing).
    static func isACE(_ label: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let i = label.startIndex
        return label.count >= 4 && label[i] | 0x20 == 0x78 && label[i + 1] | 0x20 == 0x6E && label[i + 2] == 0x2D
            && label[i + 3] == 0x2D
    }

    /// Whether a non-ASCII scalar of `scalars` has a lowercase form of its own: a decoded `xn--` label holds
    /// none (IDNA maps it, and refuses a label that was not already mapped).
    private static func hasUppercase(_ scalars: [UInt32]) -> Bool {
        scalars.contains { value in
            guard value >= 0x80, let scalar = Unicode.Scalar(value) else { return false }
            let text = String(Character(scalar))
            return text.lowercased() != text
        }
    }

    /// A lowercase ASCII letter, a digit, `-` or `_`: the ASCII an `xn--` label may decode to.
    private static func isLowercaseHostCharacter(_ v: UInt32) -> Bool {
        (0x61...0x7A).contains(v) || (0x30...0x39).contains(v) || v == 0x2D || v == 0x5F
    }

    /// Characters IDNA refuses in a host: unassigned ones (noncharacters among them), private use, controls,
    /// format characters, separators and spacing accents (mapped to a space and a mark), the replacement and
    /// object-replacement characters, the Latin-1 signs (some mapped to letters or digits), the letters IDNA maps
    /// to a letter and a mark or a dot (`Ŀ`, Thai and Lao `am`, Greek numeral signs), the punctuation IDNA
    /// maps to `?`, `!` or `::=`, the ideographic description characters, the Hangul compatibility letters and
    /// kanbun, the compatibility ideographs and Arabic's presentation forms (mapped to others), and what lies past
    /// the ideographs of Unicode 16 (unassigned to a browser whose tables are older than this library's).
    fileprivate static func isRefused(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0xA1...0xBF, 0x13F...0x140, 0x374, 0x37A, 0xE33, 0xEB3, 0x2047...0x2049, 0x2A74, 0x2FF0...0x2FFF,
            0x3131...0x319F, 0x31EF, 0xF900...0xFAFF, 0xFB50...0xFDFF, 0xFE70...0xFEFF, 0xFFFC...0xFFFD,
            0x2F800...0x2FA1F, 0x323B0...0xDFFFF:
            return true
        default: break
        }
        switch s.properties.generalCategory {
        case .unassigned, .privateUse, .surrogate, .control, .format, .spaceSeparator, .lineSeparator,
            .paragraphSeparator, .modifierSymbol:
            return true
        default: return false
        }
    }

    // MARK: The bidi rule

    /// What the bidi rule tells apart (RFC 5893's classes, coarsely: a right-to-left script's letters, its
    /// marks, Arabic's digits, European digits, the rest).
    enum BidiClass: UInt8 { case leftToRight, rightToLeft, arabicNumber, europeanNumber, mark, other }

    /// The class of `s`: the blocks of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko,
    /// Samaritan, Mandaic, their presentation forms and the historic scripts of the supplementary planes) are
    /// right to left (their punctuation too) but for their marks and Arabic's digits; nonspacing and enclosing
    /// marks are marks; symbols
    /// and punctuation are neutral; the other letters and digits are left to right.
    static func bidiClass(_ s: Unicode.Scalar) -> BidiClass {
        let v = s.value
        switch v {
        case 0x30...0x39, 0x6F0...0x6F9: return .europeanNumber
        case 0x41...0x5A, 0x61...0x7A: return .leftToRight
        case 0...0x7F: return .other
        case 0x600...0x605, 0x660...0x669, 0x66B...0x66C, 0x6DD, 0x890...0x891, 0x8E2: return .arabicNumber
        default: break
        }
        let category = s.properties.generalCategory
        if category == .nonspacingMark || category == .enclosingMark { return .mark }
        switch v {
        case 0x590...0x8FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return .rightToLeft
        default: break
        }
        switch category {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .spacingMark,
            .decimalNumber, .letterNumber:
            return .leftToRight
        default: return .other  // symbols and punctuation: neutral
        }
    }

    /// A letter (but a modifier letter) or a spacing mark: with the digits whose class is known, what a label of a
    /// right-to-left domain may begin and end with here (the bidi classes of the rest vary, and the rule refuses
    /// the neutral ones there).
    private static func isLetter(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter, .spacingMark: return true
        default: return false
        }
    }

    /// What the bidi rule asks of a label: its first class, its last but marks, the classes it holds, and
    /// whether it begins and ends with a letter or digit.
    struct LabelSummary {
        var first = BidiClass.other
        var last = BidiClass.other
        var held: UInt8 = 0
        var startsWithLetter = true
        var endsWithLetter = true

        mutating func add(_ bidi: BidiClass, first isFirst: Bool, letter: Bool) {
            if isFirst {
                first = bidi
                startsWithLetter = letter
            }
            if bidi != .mark {
                last = bidi
                endsWithLetter = letter
            }
            held |= 1 << bidi.rawValue
        }

        func holds(_ bidi: BidiClass) -> Bool { held & 1 << bidi.rawValue != 0 }
    }

    /// Why the labels break the bidi rule (RFC 5893, as UTS #46 checks it in a host with a right-to-left label),
    /// or nil: in such a host each label begins with a letter; a right-to-left one holds no left-to-right
    /// letter, ends with a right-to-left letter or a digit, and does not mix Arabic and European digits; a
    /// left-to-right one holds no right-to-left character and ends with a letter or a digit.
    static func bidiProblem(_ labels: [LabelSummary]) -> String? {
        guard labels.contains(where: { $0.holds(.rightToLeft) || $0.holds(.arabicNumber) }) else { return nil }
        for label in labels {
            let fine: Bool
            switch label.first {
            case .rightToLeft:
                fine =
                    !label.holds(.leftToRight) && !(label.holds(.arabicNumber) && label.holds(.europeanNumber))
                    && (label.last == .rightToLeft || label.last == .europeanNumber || label.last == .arabicNumber)
            case .leftToRight:
                fine =
                    !label.holds(.rightToLeft) && !label.holds(.arabicNumber)
                    && (label.last == .leftToRight || label.last == .europeanNumber)
            default: fine = false
            }
            guard fine, label.startsWithLetter, label.endsWithLetter else {
                return "mixes right-to-left and left-to-right text in its host as a browser does not read it"
            }
        }
        return nil
    }
}
