/// Text as the refusal phrases are written: lowercase, one space between words, straight quotes, no
/// trailing dots, ellipses, exclamation or question marks; titles cut into their parts, status codes taken
/// off.
enum RefusalText {
    /// Whether `text` is a notice about the reader's browser (JavaScript off, an old browser, cookies, an ad
    /// blocker) rather than a page's own words: under 512 bytes, holding one of ``RefusalPhrases/browserNotices``.
    static func isBrowserNotice(_ text: String?) -> Bool {
        guard let text, text.utf8.count < 512 else { return false }
        let t = normalize(text)
        return !t.isEmpty && RefusalPhrases.browserNotices.contains { t.holds($0) }
    }

    /// Whether a description invites signing in (``RefusalPhrases/loginSentences``): an invitation opens it ("Log
    /// into Facebook to…", "Welcome back to Instagram. Sign in to…"), so its first 160 bytes are read — the same
    /// bytes whether the parser stopped at the head or not, so every rule that reads invitations agrees.
    static func invitesSigningIn(_ description: String) -> Bool {
        let start = normalize(String(decoding: description.utf8.prefix(160), as: UTF8.self))
        return mention(in: [start], of: RefusalPhrases.loginSentences) != nil
    }

    /// `text` lowercase, white space collapsed and trimmed, curly quotes straight, trailing `.…!?` (and
    /// their full-width forms) taken off. On the UTF-8 bytes after Unicode lowercasing (none for ASCII).
    static func normalize(_ text: String) -> String {
        let lower = text.utf8.allSatisfy { $0 < 0x80 } ? text : text.lowercased()
        let b = Array(lower.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var space = true
        var i = 0
        func at(_ k: Int) -> UInt8 { i + k < b.count ? b[i + k] : 0 }
        while i < b.count {
            let byte = b[i]
            // White space: ASCII, no-break (C2 A0), ideographic (E3 80 80), zero width (E2 80 8B).
            let spaceLength =
                switch (byte, at(1), at(2)) {
                case (0x20, _, _), (0x09, _, _), (0x0A, _, _), (0x0D, _, _): 1
                case (0xC2, 0xA0, _): 2
                case (0xE3, 0x80, 0x80), (0xE2, 0x80, 0x8B): 3
                default: 0
                }
            if spaceLength > 0 {
                if !space { out.append(0x20) }
                space = true
                i += spaceLength
                continue
            }
            space = false
            switch (byte, at(1), at(2)) {
            case (0x41...0x5A, _, _):
                out.append(byte | 0x20)
                i += 1
            case (0xE2, 0x80, 0x98), (0xE2, 0x80, 0x99):  // ‘ ’
                out.append(0x27)
                i += 3
            case (0xCA, 0xBC, _):  // ʼ
                out.append(0x27)
                i += 2
            case (0xE2, 0x80, 0x9C), (0xE2, 0x80, 0x9D):  // “ ”
                out.append(0x22)
                i += 3
            default:
                out.append(byte)
                i += 1
            }
        }
        // Trailing spaces and . ! ? … ！ ？ 。
        while let last = out.last {
            if [0x20, 0x2E, 0x21, 0x3F].contains(last) {
                out.removeLast()
            } else if out.count >= 3, trailingMarks.contains(where: { out.suffix(3).elementsEqual($0) }) {
                out.removeLast(3)
            } else {
                break
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `…`, `！`, `？`, `。` in UTF-8.
    private static let trailingMarks: [[UInt8]] = ["…", "！", "？", "。"].map { Array($0.utf8) }

    /// Separators between a title's parts: the site-name splitter's (`TitleSegments.separators`), and the ones
    /// walls' titles use too ("Login • Instagram", full-width bars and colons).
    static let separators = TitleSegments.separators + [" • ", " « ", "｜", " ~ ", "："]

    /// The title whole and each of its parts, normalized, with whether a status code (400–599) stood in it
    /// and was taken off ("404 Not Found" → "not found", code).
    static func parts(of title: String?) -> [(text: String, code: Bool)] {
        guard let title else { return [] }
        let whole = normalize(title)
        guard !whole.isEmpty else { return [] }
        var out = [withoutCode(whole)]
        let pieces = split(whole)
        if pieces.count > 1 { out += pieces.map(normalize).filter { !$0.isEmpty }.map(withoutCode) }
        return out
    }

    private static let separatorBytes = separators.map { Array($0.utf8) }

    /// `text` cut at every separator, in one pass over its bytes (each separator starts with a space or a
    /// full-width character: a cut is always between scalars).
    static func split(_ text: String) -> [String] {
        Array(text.utf8).withUnsafeBufferPointer { b in
            var pieces: [String] = []
            var start = 0
            var i = 0
            while i < b.count {
                if b[i] == 0x20 || b[i] == 0xEF,
                    let separator = separatorBytes.first(where: { sep in
                        i + sep.count <= b.count && sep.indices.allSatisfy { b[i + $0] == sep[$0] }
                    })
                {
                    pieces.append(String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self))
                    i += separator.count
                    start = i
                } else {
                    i += 1
                }
            }
            pieces.append(String(decoding: UnsafeBufferPointer(rebasing: b[start..<b.count]), as: UTF8.self))
            return pieces
        }
    }

    /// `text` without a status code at its start or end ("404 页面不存在", "Error 404", "404错误").
    static func withoutCode(_ text: String) -> (text: String, code: Bool) {
        let isDigit: (Character) -> Bool = { $0.isASCII && $0.isNumber }
        func isCode(_ digits: some StringProtocol) -> Bool {
            digits.count == 3 && Int(digits).map { (400...599).contains($0) } == true
        }
        var rest = Substring(text)
        var code = false
        if isCode(rest.prefix(while: isDigit)) {
            rest = rest.dropFirst(3)
            code = true
        }
        if isCode(String(rest.reversed().prefix(while: isDigit))) {
            rest = rest.dropLast(3)
            code = true
        }
        guard code else { return (text, false) }
        let edge: Set<Character> = [" ", "(", ")", "[", "]", "-", "–", "—", ":", "|", "#"]
        while let first = rest.first, edge.contains(first) { rest = rest.dropFirst() }
        while let last = rest.last, edge.contains(last) { rest = rest.dropLast() }
        return (normalize(String(rest)), true)
    }

    /// Whether one of `parts` is one of `titles`, or starts with one of `prefixes`.
    static func matches(_ parts: [(text: String, code: Bool)], _ titles: Set<String>, prefixes: [String] = []) -> Bool {
        parts.contains { part in titles.contains(part.text) || prefixes.contains { part.text.startsWith($0) } }
    }

    /// The first of `sentences` that one of `texts` (normalized) holds.
    static func mention(in texts: [String], of sentences: [String]) -> String? {
        for text in texts { if let sentence = sentences.first(where: { text.holds($0) }) { return sentence } }
        return nil
    }
}

extension String {
    // The phrase tables are matched on UTF-8 bytes, text and phrase both normalized: `String.contains` and
    // `hasPrefix` compare `Character`s, a hundred times slower, and a page's first text is matched against
    // every phrase.

    /// Whether `other` occurs in this string, byte for byte.
    func holds(_ other: String) -> Bool { byteOffset(of: other) != nil }

    /// Where `other` first occurs in this string at or after byte `start`, byte for byte.
    func byteOffset(of other: String, from start: Int = 0) -> Int? {
        var text = self
        var other = other
        return text.withUTF8 { hay in
            other.withUTF8 { needle -> Int? in
                guard let first = needle.first else { return start }
                guard hay.count >= needle.count else { return nil }
                var i = start
                while i <= hay.count - needle.count {
                    if hay[i] == first {
                        var j = 1
                        while j < needle.count, hay[i + j] == needle[j] { j += 1 }
                        if j == needle.count { return i }
                    }
                    i += 1
                }
                return nil
            }
        }
    }

    /// Whether this string starts with `other`, byte for byte.
    func startsWith(_ other: String) -> Bool { utf8.starts(with: other.utf8) }

    /// Whether this string ends with `other`, byte for byte.
    func endsWith(_ other: String) -> Bool {
        utf8.count >= other.utf8.count && utf8.suffix(other.utf8.count).elementsEqual(other.utf8)
    }
}
