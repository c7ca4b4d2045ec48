extension LinkScanner {
    /// The end of a link after its host: an optional port, then a path, query and fragment.
    /// Nil when the port is not one (`:500000`): then there is no link at all.
    func portAndPath(after host: HostMatch, linkStart: Int) -> Int? {
        var e = host.range.upperBound
        // The root's dot of a fully qualified name (`https://example.com./x`, `example.com.:8080`).
        if e + 2 < n, b[e] == UInt8(ascii: "."),
            b[e + 1] == UInt8(ascii: "/") || (b[e + 1] == UInt8(ascii: ":") && CharClass.isASCIIDigit(UInt32(b[e + 2])))
        {
            e += 1
        }
        if e < n, b[e] == UInt8(ascii: ":") {
            var j = e + 1
            var port = 0
            while j < n, CharClass.isASCIIDigit(UInt32(b[j])), j - e <= 6 {
                port = port * 10 + Int(b[j] - 0x30)
                j += 1
            }
            if j > e + 1 {
                if j - e - 1 > 5 || port > 65535 || port == 0 { return nil }
                e = j
            }
        }
        guard e < n, b[e] == UInt8(ascii: "/") || b[e] == UInt8(ascii: "?") || b[e] == UInt8(ascii: "#") else {
            return e
        }
        let angled = linkStart > 0 && b[linkStart - 1] == UInt8(ascii: "<")
        return trimmed(start: linkStart, end: pathEnd(from: e, angled: angled), floor: e)
    }

    /// Scans a path, query and fragment. White space, `` ` ``, `\`, a `>` not closing a `<` of the path,
    /// a `<` left open, CJK and full-width punctuation end it; so does `|` outside a query or fragment (unless ``LinkDetector/Options/pipesInPaths``),
    /// and always inside `<…>` (Slack's `<url|label>`). A closing bracket the link did not open ends it, even
    /// when letters follow. A `"` ends it unless it follows a letter, digit, `_` or `-` or closes such a
    /// quote (`blah_"quoted"`, not `/("onclick="…")`). Han, katakana and Hangul are kept in a segment they
    /// begin (after `/`, `=`, `#`, `&`: `/wiki/トヨタ自動車`, `/wiki/서울`) or a part of one they begin (after
    /// `-`, `_`, `.`: `/manual-マニュアル.pdf`); elsewhere they end the link, and
    /// hiragana always does, since text in those scripts runs on from a link without a space
    /// (`/aをご覧ください`, `/これは…`, `/wiki/東京です`).
    func pathEnd(from start: Int, angled: Bool) -> Int {
        var i = start
        var inQuery = false
        var paren = 0, bracket = 0, brace = 0
        var quoted = false
        // `<…>` opened inside the path (`/a<b>c`): kept when closed; the link ends at the first `<` left open.
        var angle = 0, openAngle = 0
        var previous: UInt32 = 0
        var segment = Segment.start
        scan: while i < n {
            if CharClass.isASCIIAlnum(UInt32(b[i])) {
                // A run of letters and digits, the most of a path: nothing in it ends the link or opens a pair.
                var j = i + 1
                while j < n, CharClass.isASCIIAlnum(UInt32(b[j])) { j += 1 }
                if segment == .start { segment = .other }
                previous = UInt32(b[j - 1])
                i = j
                continue
            }
            let (c, len) = b.scalar(at: i)
            if c < 0x80 {
                if c <= 0x20 || c == 0x7F { break }
                switch c {
                case 0x60, 0x5C: break scan  // ` \
                case 0x3C:  // <
                    if angled { break scan }
                    if angle == 0 { openAngle = i }
                    angle += 1
                case 0x3E:  // >
                    if angle == 0 { break scan }
                    angle -= 1
                case 0x7C: if angled || !(inQuery || options.pipesInPaths) { break scan }  // |
                case 0x3F, 0x23: inQuery = true  // ? #
                case 0x28: paren += 1
                case 0x5B: bracket += 1
                case 0x7B: brace += 1
                case 0x29:
                    if paren == 0 { break scan }
                    paren -= 1
                case 0x5D:
                    if bracket == 0 { break scan }
                    bracket -= 1
                case 0x7D:
                    if brace == 0 { break scan }
                    brace -= 1
                case 0x22:
                    if !quoted && !(CharClass.isASCIIAlnum(previous) || previous == 0x5F || previous == 0x2D) {
                        break scan
                    }
                    quoted.toggle()
                default: break
                }
                switch c {
                // / = # & start a segment; - _ . start a part of one (`manual-マニュアル.pdf`).
                case 0x2F, 0x3D, 0x23, 0x26, 0x2D, 0x5F, 0x2E: segment = .start
                default: if segment == .start { segment = .other }
                }
            } else if i > start && CharClass.extendsGrapheme(c) {
                // A mark, joiner or emoji modifier stays with the character before it: a link never ends
                // inside a grapheme cluster.
            } else if CharClass.isCJK(c) {
                // Hiragana is the prose around a link (`/をご覧ください`, `/wiki/東京です`), not a name.
                if CharClass.isHiragana(c) { break }
                if segment == .start {
                    segment = .cjk
                } else if segment != .cjk {
                    break
                }
            } else {
                guard CharClass.isPathScalar(c) else { break }
                if segment == .start { segment = .other }
            }
            previous = c
            i += len
        }
        return angle > 0 ? openAngle : i
    }

    /// What the current path segment began with (for the CJK rule).
    enum Segment { case start, cjk, other }

    /// Drops what ends a sentence or markup rather than the link: trailing punctuation (`.,;:!?|`), `*`
    /// (Markdown emphasis), runs of `_` or `~` that close the same run written just before the link,
    /// an HTML entity reference (`&amp;`), brackets opened and not closed, the quote that opened before the
    /// link, and quotes without their pair.
    /// Never below `floor`.
    func trimmed(start: Int, end: Int, floor: Int) -> Int {
        // Most links end with a letter, a digit or `/`, which nothing below trims: no count is needed.
        guard end > floor else { return end }
        let last = b[end - 1]
        if last >= 0x80 || CharClass.isASCIIAlnum(UInt32(last)) || last == UInt8(ascii: "/") { return end }
        // The scan ended at any closer without its opener, so these counts are never negative.
        var paren = 0, bracket = 0, brace = 0, single = 0, double = 0
        for c in b[start..<end] {
            switch c {
            case 0x28: paren += 1
            case 0x29: paren -= 1
            case 0x5B: bracket += 1
            case 0x5D: bracket -= 1
            case 0x7B: brace += 1
            case 0x7D: brace -= 1
            case 0x27: single += 1
            case 0x22: double += 1
            default: break
            }
        }
        let emphasis = closedEmphasis(start: start, end: end)
        var quotedBy = start > 0 && (b[start - 1] == 0x27 || b[start - 1] == 0x22) ? b[start - 1] : 0
        var e = end
        loop: while e > floor {
            let c = b[e - 1]
            switch c {
            case 0x2E, 0x2C, 0x3A, 0x21, 0x3F, 0x2A, 0x7C: break
            case 0x3B:
                if let amp = entityStart(endingAt: e, floor: floor) { e = amp + 1 }
            case emphasis where emphasis != 0: break
            case 0x28 where paren > 0: paren -= 1
            case 0x5B where bracket > 0: bracket -= 1
            case 0x7B where brace > 0: brace -= 1
            case quotedBy where quotedBy != 0: quotedBy = 0  // `'…/Bob's'`: the quote opened before the link
            case 0x27 where single % 2 == 1: single -= 1
            case 0x22 where double % 2 == 1: double -= 1
            default: break loop
            }
            e -= 1
        }
        return e
    }

    /// `_` or `~` when the link ends with a run of it that closes emphasis opened earlier on its line
    /// (`_see https://example.org/x_`); 0 otherwise. Looks back at most 256 bytes.
    func closedEmphasis(start: Int, end: Int) -> UInt8 {
        let mark = b[end - 1]
        guard mark == UInt8(ascii: "_") || mark == UInt8(ascii: "~") else { return 0 }
        var j = start
        while j > 0, start - j < 256, b[j - 1] != 0x0A {
            j -= 1
            // An opening run: marks after the line start or a non-alphanumeric, before a non-space.
            guard b[j] == mark, b[j + 1] != mark, b[j + 1] > 0x20 else { continue }
            while j > 0, b[j - 1] == mark { j -= 1 }
            if j == 0 || !CharClass.isASCIIAlnum(UInt32(b[j - 1])) { return mark }
        }
        return 0
    }

    /// Where `&name;` starts when the bytes before `end` are one (letters and digits between `&` and `;`).
    func entityStart(endingAt end: Int, floor: Int) -> Int? {
        var j = end - 1
        while j > floor, end - j < 34, CharClass.isASCIIAlnum(UInt32(b[j - 1])) { j -= 1 }
        guard j > floor, j < end - 1, b[j - 1] == UInt8(ascii: "&") else { return nil }
        return j - 1
    }
}
