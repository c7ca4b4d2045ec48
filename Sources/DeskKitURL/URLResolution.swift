/// RFC 3986 references: split into their parts, resolved against a base, and the hosts a URL may have.
package enum URLResolution {
    package struct Parts {
        package var scheme: Substring?
        package var authority: Substring?
        package var path: Substring
        package var query: Substring?
        package var fragment: Substring?

        package init(
            scheme: Substring? = nil, authority: Substring? = nil, path: Substring, query: Substring? = nil,
            fragment: Substring? = nil
        ) {
            self.scheme = scheme
            self.authority = authority
            self.path = path
            self.query = query
            self.fragment = fragment
        }
    }

    /// Splits on the UTF-8 bytes of the ASCII delimiters, never by `Character`: a delimiter followed by a
    /// combining mark (`#\u{64B}`, `/\u{301}`) is one `Character` with it, and a `Character` search would
    /// not see it. The bytes are looked at in place (loops over the contiguous UTF-8, no index checks); the
    /// parts are slices of `s`.
    package static func split(_ s: Substring) -> Parts {
        let u = s.utf8
        let o = u.withContiguousStorageIfAvailable(offsets) ?? Array(u).withUnsafeBufferPointer(offsets)
        func part(_ r: Range<Int>) -> Substring {
            Substring(u[u.index(u.startIndex, offsetBy: r.lowerBound)..<u.index(u.startIndex, offsetBy: r.upperBound)])
        }
        return Parts(
            scheme: o.scheme.map(part), authority: o.authority.map(part), path: part(o.path), query: o.query.map(part),
            fragment: o.fragment.map(part))
    }

    /// The parts of a reference as byte ranges of `b`.
    private struct Offsets {
        var scheme, authority, query, fragment: Range<Int>?
        var path: Range<Int>
    }

    private static func offsets(_ b: UnsafeBufferPointer<UInt8>) -> Offsets {
        func first(_ byte: UInt8, in range: Range<Int>) -> Int? { range.first { b[$0] == byte } }
        var end = b.count
        var o = Offsets(path: 0..<0)
        if let hash = first(UInt8(ascii: "#"), in: 0..<end) {
            o.fragment = hash + 1..<end
            end = hash
        }
        if let q = first(UInt8(ascii: "?"), in: 0..<end) {
            o.query = q + 1..<end
            end = q
        }
        var start = 0
        if end > 0, isLetter(b[0]), let colon = first(UInt8(ascii: ":"), in: 0..<end),
            (0..<colon).allSatisfy({ isSchemeByte(b[$0]) })
        {
            o.scheme = 0..<colon
            start = colon + 1
        }
        if end - start >= 2, b[start] == UInt8(ascii: "/"), b[start + 1] == UInt8(ascii: "/") {
            let slash = first(UInt8(ascii: "/"), in: start + 2..<end) ?? end
            o.authority = start + 2..<slash
            start = slash
        }
        o.path = start..<end
        return o
    }

    package static func isLetter(_ c: UInt8) -> Bool { c | 0x20 >= 0x61 && c | 0x20 <= 0x7A }

    /// A letter, a digit, `+`, `-` or `.`: what a scheme is made of.
    private static func isSchemeByte(_ c: UInt8) -> Bool {
        isLetter(c) || (c >= 0x30 && c <= 0x39) || c == 0x2B || c == 0x2D || c == 0x2E
    }

    /// The host of an authority: after the last `@`, before the first `:` (by bytes, as ``split(_:)``).
    package static func host(ofAuthority authority: Substring) -> Substring {
        var host = authority.utf8[...]
        if let at = host.lastIndex(of: UInt8(ascii: "@")) { host = host[host.index(after: at)...] }
        if host.first == UInt8(ascii: "["), let close = host.firstIndex(of: UInt8(ascii: "]")) {
            return Substring(host[...close])
        }
        if let colon = host.firstIndex(of: UInt8(ascii: ":")) { host = host[..<colon] }
        return Substring(host)
    }

    /// WHATWG's forbidden host code points, and `%`: controls, space, DEL and `#%/:<>?@[\]^|`.
    package static func isForbiddenInHost(_ byte: UInt8) -> Bool {
        switch byte {
        case 0...0x20, 0x7F, UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "/"), UInt8(ascii: ":"),
            UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "@"), UInt8(ascii: "["),
            UInt8(ascii: "\\"), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "|"):
            true
        default: false
        }
    }

    /// Whether `host` (an IPv6 literal in brackets, or a name that may be an IDN) can be a URL's host.
    package static func isPlausibleHost(_ host: Substring) -> Bool {
        guard !host.isEmpty else { return false }
        if host.first == "[" { return host.last == "]" }
        return !host.utf8.contains(where: isForbiddenInHost)
    }

    /// Resolves `reference` against `base` (an absolute URL). Returns the reference unchanged when there
    /// is no base.
    package static func resolve(_ reference: String, against base: String?) -> String {
        let ref = split(Substring(reference))
        guard let base, ref.scheme == nil else { return reference }
        let b = split(Substring(base))
        guard let scheme = b.scheme else { return reference }
        var out = Parts(scheme: scheme, authority: nil, path: "", query: nil, fragment: ref.fragment)
        if let authority = ref.authority {
            out.authority = authority
            out.path = Substring(removeDotSegments(String(ref.path)))
            out.query = ref.query
        } else {
            out.authority = b.authority
            if ref.path.isEmpty {
                out.path = b.path
                out.query = ref.query ?? b.query
            } else {
                if ref.path.unicodeScalars.first == "/" {
                    out.path = Substring(removeDotSegments(String(ref.path)))
                } else {
                    let merged: String
                    if b.authority != nil && b.path.isEmpty {
                        merged = "/" + ref.path
                    } else {
                        let dir =
                            b.path.unicodeScalars.lastIndex(of: "/").map { String(b.path.unicodeScalars[...$0]) } ?? ""
                        merged = dir + ref.path
                    }
                    out.path = Substring(removeDotSegments(merged))
                }
                out.query = ref.query
            }
        }
        var s = String(scheme) + ":"
        if let authority = out.authority { s += "//" + authority }
        s += out.path
        if let q = out.query { s += "?" + q }
        if let f = out.fragment { s += "#" + f }
        return s
    }

    package static func removeDotSegments(_ path: String) -> String {
        var output: [String] = []
        let segments = path.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for (i, segment) in segments.enumerated() {
            let last = i == segments.count - 1
            switch segment {
            case ".":
                if last { output.append("") }
            case "..":
                if output.count > 1 { output.removeLast() }
                if last { output.append("") }
            default:
                output.append(segment)
            }
        }
        var result = output.joined(separator: "/")
        if path.utf8.first == UInt8(ascii: "/") && result.utf8.first != UInt8(ascii: "/") { result = "/" + result }
        return result
    }
}
