extension LinkScanner {
    /// The end of a link after its host: an optional port, then a path, query and fragment.
    /// Nil when the port is not one (`:500000`): then there is no link at all.
    func portAndPath(after host: HostMatch, linkStart: Int) -> Int? {
        var e = host.range.upperBound
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

    /// Scans a path, query and fragment. White space, `<`, `>`, `` ` ``, `\`, CJK and full-width
    /// punctuation end it; so does `|` outside a query or fragment, and always inside `<…>` (Slack's
    /// `<url|label>`). Kana and Hangul end it; Han ideographs only when they open a path segment.
    func pathEnd(from start: Int, angled: Bool) -> Int {
        var i = start
        var inQuery = false
        var previous: UInt32 = 0
        var hanRun = false
        while i < n {
            let (c, len) = b.scalar(at: i)
            if c < 0x80 {
                if c <= 0x20 || c == 0x7F { break }
                switch c {
                case 0x3C, 0x3E, 0x60, 0x5C: return i  // < > ` \
                case 0x7C: if !inQuery || angled { return i }  // |
                case 0x3F, 0x23: inQuery = true  // ? #
                default: break
                }
                hanRun = false
            } else if CharClass.isCJK(c) {
                guard CharClass.isHan(c), previous == 0x2F || hanRun else { break }
                hanRun = true
            } else {
                guard CharClass.isPathScalar(c) else { break }
                hanRun = false
            }
            previous = c
            i += len
        }
        return i
    }

    /// Drops trailing punctuation (`.,;:!?`), closing brackets without their opener in the link, and
    /// quotes without their pair in the link. Never below `floor`.
    func trimmed(start: Int, end: Int, floor: Int) -> Int {
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
        var e = end
        loop: while e > floor {
            switch b[e - 1] {
            case 0x2E, 0x2C, 0x3B, 0x3A, 0x21, 0x3F: break
            case 0x29 where paren < 0: paren += 1
            case 0x5D where bracket < 0: bracket += 1
            case 0x7D where brace < 0: brace += 1
            case 0x27 where single % 2 == 1: single -= 1
            case 0x22 where double % 2 == 1: double -= 1
            default: break loop
            }
            e -= 1
        }
        return e
    }
}
