/// One link as byte ranges, before it becomes a ``Link`` (the web module reads it as it is).
package struct RawLink {
    /// What ``Link/href`` puts before the text. The raw values are the web module's (`Web/index.mjs`).
    package enum Prefix: Int32 {
        /// Nothing: a scheme is written.
        case none
        /// `http://`
        case http
        /// `https://`
        case https
        /// `https:` (before `//host`)
        case httpsColon
        /// `mailto:`
        case mailto
    }
    /// Where the link is, in bytes.
    package var range: Range<Int>
    /// A web URL or an e-mail address.
    package var kind: Link.Kind
    /// The host (or e-mail domain) inside `range`.
    var host: Range<Int>
    /// What ``Link/href`` puts before the text.
    package var prefix: Prefix
    /// The scheme (or `mailto`) as written, lowercased in the href.
    var scheme: Range<Int>?
}

// One file for the scanning loop and the four link shapes it tries at each candidate byte: they share its cursor
// and the rule that every byte is looked at a bounded number of times, which is read here as a whole; the host
// and path grammars are `LinkScanner+Host.swift` and `LinkScanner+Path.swift`.

/// The scanning loop: jumps from one candidate byte (`:` `.` `@` `/`; `Web/index.mjs` answers a text without
/// one without calling the module, so a new candidate byte goes there too) to the next and tries the link
/// shapes each can belong to. Every byte is looked at a bounded number of times, so the time is linear.
struct LinkScanner {
    let b: UnsafeBufferPointer<UInt8>
    let n: Int
    let options: LinkDetector.Options
    /// Links never overlap: nothing before this byte can start one.
    var lastEnd = 0
    /// Dots before this byte belong to a run of host characters already judged.
    var bareFloor = 0

    init(bytes: UnsafeBufferPointer<UInt8>, options: LinkDetector.Options) {
        b = bytes
        n = bytes.count
        self.options = options
    }

    /// Finds the links, in order, giving each to `found` as it is found.
    mutating func scan(_ found: (RawLink) -> Void) {
        var i = 0
        while let p = nextCandidate(from: i) {
            i = p + 1
            let link: RawLink?
            switch b[p] {
            case UInt8(ascii: ":"):
                link =
                    schemeLink(colon: p)
                    ?? (options.localhost && !options.requireScheme ? localhostLink(colon: p) : nil)
            case UInt8(ascii: "/"): link = options.requireScheme ? nil : slashLink(at: p)
            case UInt8(ascii: "."): link = options.requireScheme ? nil : bareLink(dot: p)
            default: link = options.emails ? emailLink(at: p) : nil
            }
            if let link {
                found(link)
                lastEnd = link.range.upperBound
                i = max(i, lastEnd)
            }
        }
    }

    /// The next `:`, `.`, `@` or `/` at or after `from`, thirty-two bytes at a time (vector compares and one
    /// test: text without a candidate costs under one instruction a byte). The last bytes are tested as the
    /// sixteen that end the text, so a text of sixteen bytes or more is never read byte by byte.
    @inline(__always) func nextCandidate(from: Int) -> Int? {
        var i = from
        guard n >= 16 else {
            while i < n {
                if Self.isCandidate(b[i]) { return i }
                i += 1
            }
            return nil
        }
        let base = UnsafeRawPointer(b.baseAddress!)
        while i + 32 <= n {
            let low = Self.candidates(base.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))
            let high = Self.candidates(base.loadUnaligned(fromByteOffset: i + 16, as: SIMD16<UInt8>.self))
            if low[0] | low[1] | high[0] | high[1] != 0 {
                return i + (Self.firstLane(low) ?? 16 + Self.firstLane(high)!)
            }
            i += 32
        }
        if i + 16 <= n {
            if let k = Self.firstLane(Self.candidates(base.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))) {
                return i + k
            }
            i += 16
        }
        guard i < n else { return nil }
        // The sixteen bytes that end the text, but those before `i`, looked at already.
        let last = n - 16
        let seen = i - last
        var lanes = Self.candidates(base.loadUnaligned(fromByteOffset: last, as: SIMD16<UInt8>.self))
        if seen >= 8 {
            lanes[0] = 0
            lanes[1] &= UInt64.max << (8 * (seen - 8))
        } else {
            lanes[0] &= UInt64.max << (8 * seen)
        }
        return Self.firstLane(lanes).map { last + $0 }
    }

    /// The lanes of `v` that hold a `:`, `.`, `@` or `/` (FF) and the others (00), as two words: lanes 0–7
    /// and 8–15. (Compared as vectors and read through the mask's storage, this compiles to a few vector
    /// instructions; the mask read as words itself, or given to `any`, may be compared lane by lane.)
    @inline(__always) static func candidates(_ v: SIMD16<UInt8>) -> SIMD2<UInt64> {
        let one = SIMD16<UInt8>(repeating: 1), slash = SIMD16<UInt8>(repeating: 0x2F)
        let colon = SIMD16<UInt8>(repeating: 0x3A), at = SIMD16<UInt8>(repeating: 0x40)
        // `.` (2E) and `/` (2F) differ in their last bit only.
        let mask = ((v | one) .== slash) .| (v .== colon) .| (v .== at)
        return unsafeBitCast(mask._storage, to: SIMD2<UInt64>.self)
    }

    /// The first lane set in `candidates`' words.
    @inline(__always) static func firstLane(_ lanes: SIMD2<UInt64>) -> Int? {
        if lanes[0] != 0 { return lanes[0].trailingZeroBitCount >> 3 }
        return lanes[1] != 0 ? 8 + lanes[1].trailingZeroBitCount >> 3 : nil
    }

    @inline(__always) static func isCandidate(_ c: UInt8) -> Bool {
        c == UInt8(ascii: ":") || c == UInt8(ascii: ".") || c == UInt8(ascii: "@") || c == UInt8(ascii: "/")
    }

    // MARK: The four shapes

    /// `scheme://authority/path` with the `:` at `colon`; with ``LinkDetector/Options/anyScheme``, also
    /// `scheme:` and an opaque or path rest (`file:///x`, `git:host/path`, `facetime://+1…`).
    ///
    /// A scheme starts with a letter at a word boundary (a leading digit, `-`, `+` or `.` is not part of it).
    /// A web scheme glued to the letters of a word (`xxxhttp://`) starts where the scheme a reader sees
    /// does.
    mutating func schemeLink(colon p: Int) -> RawLink? {
        // Most colons in chat are prose (`Note: …`, `10:30`): without `//` after them, only any-scheme looks on.
        let slashes = p + 2 < n && b[p + 1] == UInt8(ascii: "/") && b[p + 2] == UInt8(ascii: "/")
        guard slashes || options.anyScheme else { return nil }
        var s = p
        while s > lastEnd, p - s < 32, Self.isSchemeByte(b[s - 1]) { s -= 1 }
        while s < p, !CharClass.isASCIIAlnum(UInt32(b[s])) || CharClass.isASCIIDigit(UInt32(b[s])) { s += 1 }
        guard s < p else { return nil }
        let web = isWebScheme(s..<p)
        if !web, slashes, let length = [5, 4, 3].first(where: { p - $0 > s && isWebScheme(p - $0..<p) }) {
            // `xxxhttp://`: letters glued before a web scheme are the word's, not the scheme's; with any
            // scheme allowed, `git+https://` is one scheme.
            let at = p - length
            let glued = CharClass.isASCIIAlnum(UInt32(b[at - 1]))
            if glued || !options.anyScheme {
                return glued || precededByBoundary(at) ? webLink(scheme: at..<p) : nil
            }
        }
        guard precededByBoundary(s) else { return nil }
        if web || !options.anyScheme {
            return web && slashes ? webLink(scheme: s..<p) : nil
        }
        if slashes, let link = webLink(scheme: s..<p) { return link }
        // Addresses after `mailto:` and `xmpp:` are found at their `@`.
        return isLowercased(s..<p, "mailto") || isLowercased(s..<p, "xmpp") ? nil : opaqueLink(scheme: s..<p)
    }

    /// The authority and path of `scheme://…`, whose start the caller has judged (a word boundary, or letters
    /// of a word glued before a web scheme).
    mutating func webLink(scheme: Range<Int>) -> RawLink? {
        let p = scheme.upperBound
        guard p + 2 < n, b[p + 1] == UInt8(ascii: "/"), b[p + 2] == UInt8(ascii: "/") else { return nil }
        var h = p + 3
        // Userinfo: `user:pass@` before the host.
        var j = h
        while j < n, j - h < 256, Self.isUserinfoByte(b[j]) { j += 1 }
        if j < n, j > h, b[j] == UInt8(ascii: "@") {
            if userinfoLooksLikeAHost(h..<j) { return nil }
            h = j + 1
        }
        guard let host = parseHost(from: h, mode: options.strictHosts ? .strict : .scheme) else { return nil }
        guard var end = portAndPath(after: host, linkStart: scheme.lowerBound) else { return nil }
        if isTCo(host.range) {
            guard let tco = tcoEnd(host: host.range, end: end) else { return nil }
            end = tco
        }
        return RawLink(range: scheme.lowerBound..<end, kind: .url, host: host.range, prefix: .none, scheme: scheme)
    }

    /// `scheme:` and a rest that is no `//host` (``LinkDetector/Options/anyScheme``): a path (`file:/x`,
    /// `file:///x`) or an opaque part that looks like an address rather than prose — it holds a `/`, `.`,
    /// `@`, `?` or `=`, or is a `+` and digits (`git:host/path`, `magnet:?xt=…`, `facetime://+1555…`).
    /// Schemes of two letters or more (`c:/` is a drive).
    mutating func opaqueLink(scheme: Range<Int>) -> RawLink? {
        let p = scheme.upperBound
        guard scheme.count >= 2, p + 1 < n else { return nil }
        var rest = p + 1
        while rest < n, rest - p <= 3, b[rest] == UInt8(ascii: "/") { rest += 1 }
        guard rest < n, b[rest] > 0x20, b[rest] != UInt8(ascii: "/") else { return nil }
        // A combining mark first would fuse with the `:` into one character.
        if b[rest] >= 0x80, CharClass.extendsGrapheme(b.scalar(at: rest).0) { return nil }
        let angled = scheme.lowerBound > 0 && b[scheme.lowerBound - 1] == UInt8(ascii: "<")
        let end = trimmed(start: scheme.lowerBound, end: pathEnd(from: rest, angled: angled), floor: rest)
        guard end > rest else { return nil }
        let body = b[rest..<end]
        let phone = body.first == UInt8(ascii: "+") && body.dropFirst().contains { CharClass.isASCIIDigit(UInt32($0)) }
        guard
            rest > p + 1 || phone
                || body.contains(where: {
                    $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "@")
                        || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "=")
                })
        else { return nil }
        return RawLink(range: scheme.lowerBound..<end, kind: .url, host: p + 1..<p + 1, prefix: .none, scheme: scheme)
    }

    /// `//host/path`, a protocol-relative link, with the first `/` at `p`.
    mutating func slashLink(at p: Int) -> RawLink? {
        guard options.bareDomains, options.protocolRelative, p + 1 < n, b[p + 1] == UInt8(ascii: "/"), p >= lastEnd
        else { return nil }
        if p > 0 {
            let (c, _) = b.scalar(before: p)
            if c == 0x3A || c == 0x2F || c == 0x2E || c == 0x2D || CharClass.isSigil(c) || CharClass.isWordScalar(c) {
                return nil
            }
        }
        guard let host = parseHost(from: p + 2, mode: .protocolRelative),
            let end = portAndPath(after: host, linkStart: p)
        else { return nil }
        return RawLink(range: p..<end, kind: .url, host: host.range, prefix: .httpsColon, scheme: nil)
    }

    /// A domain without a scheme (`example.com/path`, `www.example.com`), found at its first dot.
    mutating func bareLink(dot p: Int) -> RawLink? {
        guard p >= bareFloor, p > lastEnd, p + 1 < n, Self.isHostScalar(b.scalar(at: p + 1).0) else { return nil }
        // The first label, backwards from the dot, stopping where CJK and other scripts meet.
        var s = p
        var cjk: Bool?
        while s > lastEnd, p - s < 256 {
            if b[s - 1] < 0x80 {  // ASCII, byte by byte: letters and digits are of no CJK script
                let c = UInt32(b[s - 1])
                guard Self.isHostScalar(c) else { break }
                if CharClass.isASCIIAlnum(c) {
                    if cjk == true { break }
                    cjk = false
                }
                s -= 1
                continue
            }
            let (c, cs) = b.scalar(before: s)
            guard Self.isHostScalar(c) else { break }
            if Self.isLetterOrDigit(c) {
                let isCJK = CharClass.isCJK(c)
                if let cjk, cjk != isCJK { break }
                cjk = isCJK
            }
            s = cs
        }
        guard s < p else { return nil }
        if s > 0 {
            let (c, _) = b.scalar(before: s)
            if c == 0x2E || c == 0x3A || c == 0x2F || c == 0x2D || c == 0x5F || CharClass.isSigil(c) {
                bareFloor = hostRunEnd(from: p)
                return nil
            }
        }
        let www = p - s == 3 && (b[s] | 0x20) == 0x77 && (b[s + 1] | 0x20) == 0x77 && (b[s + 2] | 0x20) == 0x77
        guard options.bareDomains || www || options.ipHosts else { return nil }
        guard let host = parseHost(from: s, mode: .bare),
            host.knownTLD ? (options.bareDomains || www) : (options.ipHosts && host.isIPv4)
        else {
            bareFloor = hostRunEnd(from: p)
            return nil
        }
        guard let end = portAndPath(after: host, linkStart: s) else {
            bareFloor = hostRunEnd(from: p)
            return nil
        }
        if end == host.range.upperBound, !www, host.labelCount == 2, let tld = host.tld,
            isFileExtension(tld)
        {
            return nil  // `README.md`, `setup.py`: a file name, not a site
        }
        return RawLink(range: s..<end, kind: .url, host: host.range, prefix: .https, scheme: nil)
    }

    /// An e-mail address around the `@` at `p`, with or without `mailto:` before it. The local part is
    /// read as RFC 5321 writes it: no leading, trailing or doubled dots (`a..b@example.com` links
    /// `b@example.com`); letters of any script are allowed (RFC 6531). A `mailto:` link keeps its query.
    mutating func emailLink(at p: Int) -> RawLink? {
        guard p > lastEnd, p > 0, b[p - 1] != UInt8(ascii: ".") else { return nil }
        var s = p
        var cjk: Bool?
        while s > lastEnd, p - s < 64 {
            let (c, cs) = b.scalar(before: s)
            if c >= 0x80 {  // letters of other scripts, not where CJK text runs into the address
                guard CharClass.isWordScalar(c) else { break }
                let isCJK = CharClass.isCJK(c)
                if let cjk, cjk != isCJK { break }
                cjk = isCJK
            } else {
                guard Self.isLocalByte(UInt8(c)) else { break }
                if CharClass.isASCIIAlnum(c) {
                    guard cjk != true else { break }
                    cjk = false
                }
                if c == 0x2E, cs > lastEnd, b[cs - 1] == UInt8(ascii: ".") { break }  // `..`: the part after it
            }
            s = cs
        }
        // Nor a quote, a dot, or the `,` and `;` that separate addresses (`a@x.org,b@y.org`, `cc: ;b@y.org`)
        // first — but at the very start of the text, where nothing is separated, as linkify-it reads it.
        let separated = s > 0
        while s < p,
            b[s] == UInt8(ascii: "\"") || b[s] == UInt8(ascii: "'") || b[s] == UInt8(ascii: ".")
                || (separated && (b[s] == UInt8(ascii: ",") || b[s] == UInt8(ascii: ";")))
        {
            s += 1
        }
        // Nor a combining mark first: it would fuse with the `:` of `mailto:` into one character.
        while s < p, b[s] >= 0x80 {
            let (c, length) = b.scalar(at: s)
            guard let scalar = Unicode.Scalar(c), scalar.properties.generalCategory.isMark else { break }
            s += length
        }
        guard s < p else { return nil }
        var start = s
        var scheme = 0  // the length of `mailto` or `xmpp` written before the address
        if s >= 7, s - 7 >= lastEnd, isLowercased(s - 7..<s, "mailto:") {
            scheme = 6
        } else if s >= 5, s - 5 >= lastEnd, isLowercased(s - 5..<s, "xmpp:") {
            scheme = 4
        }
        guard scheme > 0 || !options.requireScheme else { return nil }
        start -= scheme > 0 ? scheme + 1 : 0
        if start > 0 {
            let (c, _) = b.scalar(before: start)
            if c == 0x40 || c == 0x2F || c == 0x3A || CharClass.isASCIIAlnum(c) { return nil }
        }
        guard let host = parseHost(from: p + 1, mode: scheme > 0 ? .scheme : .emailDomain) else { return nil }
        var end = host.range.upperBound
        // `a@example..org`, `a@example.com..org`: no domain has an empty label (an ellipsis after one ends it).
        if end + 1 < n, b[end] == UInt8(ascii: "."), b[end + 1] == UInt8(ascii: ".") {
            var j = end
            while j < n, b[j] == UInt8(ascii: ".") { j += 1 }
            if j < n, Self.isHostScalar(b.scalar(at: j).0) { return nil }
        }
        // A `mailto:` link keeps its query; an `xmpp:` one its resource too (`xmpp:ann@example.com/phone`).
        if scheme > 0, end < n, b[end] == UInt8(ascii: "?") || (scheme == 4 && b[end] == UInt8(ascii: "/")) {
            end = trimmed(start: start, end: pathEnd(from: end, angled: start > 0 && b[start - 1] == 0x3C), floor: end)
        }
        return RawLink(
            range: start..<end, kind: scheme == 4 ? .url : .email, host: host.range,
            prefix: scheme > 0 ? .none : .mailto, scheme: scheme > 0 ? start..<start + scheme : nil)
    }

    /// `localhost:PORT`, with an optional path, found at its colon (``LinkDetector/Options/localhost``).
    mutating func localhostLink(colon p: Int) -> RawLink? {
        let s = p - 9
        guard s >= lastEnd, p + 1 < n, CharClass.isASCIIDigit(UInt32(b[p + 1])), isLowercased(s..<p, "localhost")
        else { return nil }
        if s > 0 {
            let (c, _) = b.scalar(before: s)
            if c == 0x2E || c == 0x2F || c == 0x2D || c == 0x40 || CharClass.isWordScalar(c) { return nil }
        }
        let host = HostMatch(range: s..<p, labelCount: 1, knownTLD: false, tld: nil, isIPv4: false)
        guard let end = portAndPath(after: host, linkStart: s) else { return nil }
        return RawLink(range: s..<end, kind: .url, host: host.range, prefix: .http, scheme: nil)
    }

    // MARK: Byte classes

    /// Whether `b[r]` is a code or document extension that is also a country TLD (`md`, `py`, `sh`, `rs`,
    /// `pl`, `pm`, `mk`, `zip`, `mov`): `name.ext` alone is a file name.
    func isFileExtension(_ r: Range<Int>) -> Bool {
        switch r.count {
        case 2:
            let pair = UInt16(b[r.lowerBound] | 0x20) << 8 | UInt16(b[r.lowerBound + 1] | 0x20)
            switch pair {
            case 0x6D64, 0x7079, 0x7368, 0x7273, 0x706C, 0x706D, 0x6D6B: return true  // md py sh rs pl pm mk
            default: return false
            }
        case 3: return isLowercased(r, "zip") || isLowercased(r, "mov")
        default: return false
        }
    }

    @inline(__always) static func isSchemeByte(_ c: UInt8) -> Bool {
        CharClass.isASCIIAlnum(UInt32(c)) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
    }

    /// RFC 3986 userinfo: unreserved characters, sub-delims, `:` and `%` (taken as userinfo only when an
    /// `@` ends the run).
    @inline(__always) static func isUserinfoByte(_ c: UInt8) -> Bool {
        if CharClass.isASCIIAlnum(UInt32(c)) { return true }
        switch c {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
            UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "%"):
            return true
        default: return false
        }
    }

    /// The ASCII characters of a local part, as linkify-it reads it, and `'` and `%` (`o'brien@…`); a `"`
    /// or `'` only after the first character.
    @inline(__always) static func isLocalByte(_ c: UInt8) -> Bool {
        if CharClass.isASCIIAlnum(UInt32(c)) { return true }
        switch c {
        case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: ";"),
            UInt8(ascii: "&"), UInt8(ascii: "="), UInt8(ascii: "$"), UInt8(ascii: ","), UInt8(ascii: "\""),
            UInt8(ascii: "'"), UInt8(ascii: "%"):
            return true
        default: return false
        }
    }

    @inline(__always) static func isHostScalar(_ c: UInt32) -> Bool {
        c < 0x80 ? CharClass.isASCIIHostByte(UInt8(c)) : CharClass.isHostScalar(c)
    }

    @inline(__always) static func isLetterOrDigit(_ c: UInt32) -> Bool {
        c < 0x80 ? CharClass.isASCIIAlnum(c) : !CharClass.isJoiner(c)
    }

    // MARK: Helpers

    /// Whether the bytes `b[r]`, ASCII letters lowercased, are `word` (lowercase ASCII): a comparison in
    /// place, without a string.
    @inline(__always) func isLowercased(_ r: Range<Int>, _ word: StaticString) -> Bool {
        guard r.count == word.utf8CodeUnitCount else { return false }
        let w = word.utf8Start
        for k in 0..<r.count {
            let c = b[r.lowerBound + k]
            if (c >= 0x41 && c <= 0x5A ? c | 0x20 : c) != w[k] { return false }
        }
        return true
    }

    /// Whether `b[r]` is `http`, `https` or `ftp`, in any case.
    @inline(__always) func isWebScheme(_ r: Range<Int>) -> Bool {
        isLowercased(r, "http") || isLowercased(r, "https") || isLowercased(r, "ftp")
    }

    /// Before a scheme: not a word character, and not a mention, hashtag or cashtag sigil that starts a word
    /// (`@http://…` is a mention; `name@http://…` is not).
    func precededByBoundary(_ s: Int) -> Bool {
        guard s > 0 else { return true }
        let (c, cs) = b.scalar(before: s)
        if c < 0x80 && (CharClass.isASCIIAlnum(c) || c == 0x5F) { return false }
        if CharClass.isSigil(c) {
            guard cs > 0 else { return false }
            return CharClass.isWordScalar(b.scalar(before: cs).0)
        }
        return true
    }

    /// `http://google.com@evil.example/`: userinfo dressed as a host name misleads readers.
    func userinfoLooksLikeAHost(_ r: Range<Int>) -> Bool {
        var user = r
        if let colon = b[r].firstIndex(of: UInt8(ascii: ":")) { user = r.lowerBound..<colon }
        guard let dot = b[user].lastIndex(of: UInt8(ascii: ".")), dot + 1 < user.upperBound else { return false }
        return TLDTable.shared.contains(b, dot + 1..<user.upperBound)  // userinfo bytes are ASCII
    }

    func isTCo(_ host: Range<Int>) -> Bool { isLowercased(host, "t.co") }

    /// t.co short links are `https://t.co/` and an alphanumeric slug of at most 40 characters.
    func tcoEnd(host: Range<Int>, end: Int) -> Int? {
        var e = host.upperBound
        guard e < end, b[e] == UInt8(ascii: "/") else { return e }
        e += 1
        while e < end, CharClass.isASCIIAlnum(UInt32(b[e])) { e += 1 }
        return e - host.upperBound - 1 > 40 ? nil : e
    }
}
