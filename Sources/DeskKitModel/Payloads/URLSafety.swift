/// The one rule for whether a URL in a payload is one a client may open or load: what renderers get through
/// ``URLPreview/safeURL``, ``URLPreview/safeImageURL`` and ``LinkCard``, what strict validation reports as
/// ``PayloadProblem/Code/unsafeURL``, what the server's image proxy signs, and — compiled into the web module —
/// what `safeURL` answers in JavaScript (the schemas' `web-url` states the same rule as a pattern).
///
/// A safe URL is an absolute `http://` or `https://` URL (the scheme in any case, written as it is: a
/// percent-encoded scheme is a relative path to a browser) of at most ``maxLength`` characters whose every
/// reader — a browser's URL parser, an address bar, a person — sees the same host:
/// - no control, white-space, zero-width, bidirectional-formatting or other invisible character anywhere
///   (``isInvisible(_:)``), where a browser would drop it or a reader not see it;
/// - `//` and a host right after the scheme: relative (`/account`), scheme-relative (`//host`) and backslash
///   (`https:\\host`, `https://host\@other`) forms are refused, since a browser reads them against the page's own
///   address or as another host;
/// - no credentials (`user@`), no `%` in the host (a browser decodes it: `%65xample.com` is `example.com`);
/// - a host of letters, digits, `-` and `_` in labels separated by `.` (one `.` may end it), where a non-ASCII
///   letter is any character but those IDNA maps to another (full-width forms, the ideographic full stop,
///   enclosed, mathematical and letter-like forms: ``isMappedInHost(_:)``), no character IDNA refuses (a
///   noncharacter, U+FFFD, a private-use or unassigned plane's), no label begins with a combining mark
///   (``isCombining(_:)``), an `xn--` label is punycode of such a label, and a host with a right-to-left label
///   keeps IDNA's bidi rule (RFC 5893) — a host a browser cannot parse is a dead link; an IPv4 address only as four decimal
///   numbers of 0–255 without leading zeros (`http://0x7f.1`, `http://2130706433` and `http://127.1` are read as
///   `127.0.0.1`); an IPv6 address in brackets;
/// - a port of digits only, at most 65535.
///
/// The path, query and fragment may hold anything else, percent-encodings included (`%20` stays `%20` for every
/// reader). This is the question a client asks; the fetcher asks its own (`WebURL` in DeskKitFetchPolicy: which
/// request to make of a URL a page or a user gave, white space trimmed, credentials dropped, then whether its
/// addresses may be reached).
public enum URLSafety {
    /// The longest safe URL, in Unicode scalars.
    public static let maxLength = 8192

    /// `url` when a client may open or load it, else nil.
    public static func safeURL(_ url: String) -> String? { problem(with: url) == nil ? url : nil }

    /// Whether ``problem(with:)`` finds nothing wrong.
    public static func isSafe(_ url: String) -> Bool { problem(with: url) == nil }

    /// Whether `href` is a `mailto:` link a client may open for an e-mail address found in text (the
    /// detector's `mailto:` href): `mailto:` in any case, then an address of one `@` — a local part without white
    /// space or `:/?#`, a host the rule would call safe in a URL — and nothing else: no port, path or query
    /// (`?cc=`, `?body=`) and no second recipient. ConversationPage and the web module's `renderText` link e-mail
    /// addresses by it.
    public static func isSafeMailto(_ href: String) -> Bool {
        let utf8 = Array(href.utf8)
        guard utf8.count > 7, utf8.count <= maxLength, utf8[..<7].map({ $0 | 0x20 }) == Array("mailto:".utf8),
            let at = utf8.firstIndex(of: 0x40), at > 7, at == utf8.lastIndex(of: 0x40)
        else { return false }
        // No white space, control, port, path, query or fragment sign, second recipient (`,`), percent-encoding
        // or IPv6 bracket on either side of the `@`.
        let refused = Array(":/?#\\,%[]".utf8)
        guard !utf8[7...].contains(where: { $0 <= 0x20 || $0 == 0x7F || refused.contains($0) }) else { return false }
        if String(decoding: utf8[7..<at], as: UTF8.self).unicodeScalars.contains(where: isInvisible) { return false }
        return isSafe("https://" + String(decoding: utf8[(at + 1)...], as: UTF8.self) + "/")
    }

    /// Why a URL is not safe to open (a phrase that follows "the URL"), or nil when it is.
    public static func problem(with url: String) -> String? {
        // The bytes in place (a native String's UTF-8): walking `url.utf8` is slower, in WebAssembly by far.
        var url = url
        return url.withUTF8 { problem(with: $0) }
    }

    private static func problem(with bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if bytes.isEmpty { return "is empty" }
        // A scalar count at most the byte count: only a long one is counted (scalars are the bytes that do not
        // continue one).
        if bytes.count > maxLength, bytes.lazy.filter({ $0 & 0xC0 != 0x80 }).count > maxLength {
            return "is longer than 8192 characters"
        }
        if let bad = bytes.first(where: { $0 <= 0x20 || $0 == 0x7F }) {
            return bad == 0x20 ? "contains a space" : "contains a control character"
        }
        if bytes.contains(where: { $0 >= 0x80 }),
            String(decoding: bytes, as: UTF8.self).unicodeScalars.contains(where: isInvisible)
        {
            return "contains an invisible or bidirectional character"
        }
        // The scheme: letters, digits, `+`, `-`, `.` before a `:`, starting with a letter.
        var colon = 0
        while colon < bytes.count, isSchemeByte(bytes[colon], first: colon == 0) { colon += 1 }
        guard colon > 0, colon < bytes.count, bytes[colon] == 0x3A else {
            let slash = { (b: UInt8) in b == 0x2F || b == 0x5C }
            if bytes.count >= 2, slash(bytes[0]), slash(bytes[1]) {
                return "is scheme-relative (read against the page's own scheme)"
            }
            return "is not an absolute URL (read against the page's own address)"
        }
        guard isHTTP(bytes[..<colon]) else {
            return "has the scheme \"" + String(decoding: bytes[..<colon], as: UTF8.self) + ":\", not http or https"
        }
        let rest = bytes[(colon + 1)...]
        guard rest.starts(with: "//".utf8) else {
            return rest.first == 0x5C || rest.dropFirst().first == 0x5C
                ? "has a backslash where a browser reads a slash"
                : "has no \"//\" and host after its scheme (read against the page's own address)"
        }
        let authorityStart = colon + 3
        let authorityEnd =
            bytes[authorityStart...].firstIndex(where: { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 }) ?? bytes.endIndex
        let authority = bytes[authorityStart..<authorityEnd]
        if authority.contains(0x40) { return "carries credentials (user@host)" }
        if authority.contains(0x5C) { return "has a backslash in its host" }
        if authority.contains(0x25) { return "has a percent-encoded host (a browser decodes it)" }
        var host = authority
        var port: Slice<UnsafeBufferPointer<UInt8>>?
        if authority.first == 0x5B {
            guard let close = authority.firstIndex(of: 0x5D) else { return "has an unclosed \"[\" in its host" }
            host = authority[authority.startIndex...close]
            let after = authority[(close + 1)...]
            if let first = after.first {
                guard first == 0x3A else { return "has characters after its IPv6 address" }
                port = after.dropFirst()
            }
        } else if let c = authority.firstIndex(of: 0x3A) {
            host = authority[..<c]
            port = authority[(c + 1)...]
        }
        if let port, !isPort(port) { return "has a port that is not a number from 0 to 65535" }
        if host.isEmpty { return "has no host" }
        if host.first == 0x5B {
            return isIPv6(host.dropFirst().dropLast()) ? nil : "has a host in brackets that is no IPv6 address"
        }
        return hostProblem(host)
    }

    /// A byte of a scheme (RFC 3986: a letter first, then letters, digits, `+`, `-` and `.`).
    private static func isSchemeByte(_ b: UInt8, first: Bool) -> Bool {
        let letter = (0x61...0x7A).contains(b | 0x20)
        return letter || (!first && ((0x30...0x39).contains(b) || b == 0x2B || b == 0x2D || b == 0x2E))
    }

    /// `http` or `https`, in any case.
    private static func isHTTP(_ scheme: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard scheme.count == 4 || scheme.count == 5 else { return false }
        for (b, expected) in zip(scheme, "https".utf8) where b | 0x20 != expected { return false }
        return true
    }

    /// Digits only (none is the scheme's default port), at most 65535.
    private static func isPort(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var value = 0
        for d in digits {
            guard (0x30...0x39).contains(d) else { return false }
            value = value * 10 + Int(d - 0x30)
            if value > 65535 { return false }
        }
        return true
    }

    /// Why a host name or IPv4 address is one a browser reads differently or refuses, or nil.
    private static func hostProblem(_ host: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        var labelStart = host.startIndex
        var lastLabel = labelStart..<labelStart
        // Non-ASCII, or an `xn--` label: IDNA's host (HostLabels).
        var international = false
        for i in host.indices {
            let b = host[i]
            if b == 0x2E {
                if i == labelStart { return "has an empty label in its host" }
                lastLabel = labelStart..<i
                international = international || HostLabels.isACE(host[lastLabel])
                labelStart = i + 1
            } else if b >= 0x80 {
                international = true
            } else if !isHostByte(b) {
                return "has a character no host name has"
            }
        }
        if labelStart < host.endIndex {  // else one final dot
            lastLabel = labelStart..<host.endIndex
            international = international || HostLabels.isACE(host[lastLabel])
        }
        if international, let problem = HostLabels.problem(with: host) { return problem }
        guard isNumeric(host[lastLabel]) else { return nil }
        // A host ending in a number is an IPv4 address to a browser, which reads every spelling of one.
        return isIPv4(host) ? nil : "has an IPv4 address spelt as a browser reads another"
    }

    /// An ASCII letter or digit, `-` or `_`.
    private static func isHostByte(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x61...0x7A).contains(b | 0x20) || b == 0x2D || b == 0x5F
    }

    /// Decimal digits, or `0x` and hexadecimal ones: the last label that makes a host an IPv4 address (WHATWG).
    private static func isNumeric(_ label: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        if label.count >= 2, label.first == 0x30, label[label.startIndex + 1] | 0x20 == 0x78 {
            return label.dropFirst(2).allSatisfy(isHex)
        }
        return label.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// An IPv6 address as RFC 4291 writes it: eight groups of one to four hexadecimal digits, one run of them
    /// shortened to `::`, the last two groups possibly an IPv4 address. No zone.
    private static func isIPv6(_ b: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let colon = UInt8(ascii: ":")
        var groups = 0
        var gap = false
        var i = b.startIndex
        if b.count >= 2, b[i] == colon, b[i + 1] == colon {
            gap = true
            i += 2
        }
        while i < b.endIndex {
            let start = i
            while i < b.endIndex, b[i] != colon { i += 1 }
            let part = b[start..<i]
            if part.contains(UInt8(ascii: ".")) {
                guard i == b.endIndex, isIPv4(part) else { return false }
                groups += 2
                break
            }
            guard (1...4).contains(part.count), part.allSatisfy(isHex) else { return false }
            groups += 1
            if i == b.endIndex { break }
            i += 1
            if i < b.endIndex, b[i] == colon {
                if gap { return false }
                gap = true
                i += 1
            } else if i == b.endIndex {
                return false
            }
        }
        return gap ? groups <= 7 : groups == 8
    }

    /// Four decimal numbers of 0-255 without leading zeros, separated by dots.
    private static func isIPv4(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var parts = 0
        var value = 0
        var digits = 0
        for b in text {
            if b == 0x2E {
                guard digits > 0 else { return false }
                parts += 1
                value = 0
                digits = 0
                continue
            }
            guard (0x30...0x39).contains(b), digits == 0 || value > 0 else { return false }  // no leading zero
            value = value * 10 + Int(b - 0x30)
            digits += 1
            guard value <= 255 else { return false }
        }
        return digits > 0 && parts == 3
    }

    private static func isHex(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b)
    }

    /// Characters refused anywhere in a URL: controls (C0, C1, DEL), every white space, the soft hyphen, the
    /// zero-width characters and joiners, the bidirectional marks, embeddings, overrides and isolates, the Hangul
    /// fillers, the invisible operators and the byte-order mark — what a browser strips or a reader cannot see.
    public static func isInvisible(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0...0x20, 0x7F...0xA0, 0xAD, 0x34F, 0x61C, 0x115F...0x1160, 0x1680, 0x17B4...0x17B5, 0x180B...0x180F,
            0x2000...0x200F, 0x2028...0x202F, 0x205F...0x206F, 0x3000, 0x3164, 0xFE00...0xFE0F, 0xFEFF, 0xFFA0,
            0xFFF0...0xFFFB, 0xE0000...0xE0FFF:
            return true
        default: return false
        }
    }

    /// The combining marks of the blocks that hold nothing else (Combining Diacritical Marks, their Extended and
    /// Supplement blocks, those for symbols, and the half marks): a host label that begins with one is no host to a
    /// browser (IDNA).
    public static func isCombining(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x300...0x36F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: return true
        default: return false
        }
    }

    /// Non-ASCII characters refused in a host because IDNA maps them to others (a browser requests a host other
    /// than the one shown): the ideographic full stop, letter-like symbols, number forms, enclosed alphanumerics,
    /// superscripts and subscripts, spacing modifier letters, CJK compatibility forms, ligatures, full- and
    /// half-width forms, mathematical alphanumerics, and the fraction slash and other characters IDNA reads as
    /// `.`, `/` or `:` (U+2024, U+2044, U+2215, U+2236, U+FE52 and the like).
    public static func isMappedInHost(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x2B0...0x2FF, 0x2024...0x2026, 0x2044, 0x2070...0x209F, 0x2100...0x218F, 0x2215, 0x2236,
            0x2460...0x24FF, 0x2E2E, 0x3002, 0x3200...0x33FF, 0xFB00...0xFB4F, 0xFE10...0xFE19, 0xFE30...0xFE6F,
            0xFF00...0xFFEF, 0x1D400...0x1D7FF, 0x1F100...0x1F1FF:
            return true
        default: return false
        }
    }
}
