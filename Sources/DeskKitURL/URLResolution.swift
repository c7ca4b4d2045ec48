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
    /// not see it.
    package static func split(_ s: Substring) -> Parts {
        var rest = s.utf8[...]
        var fragment: Substring?
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            fragment = Substring(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        var query: Substring?
        if let q = rest.firstIndex(of: UInt8(ascii: "?")) {
            query = Substring(rest[rest.index(after: q)...])
            rest = rest[..<q]
        }
        var scheme: Substring?
        if let colon = rest.firstIndex(of: UInt8(ascii: ":")), let first = rest.first, isLetter(first),
            rest[..<colon].allSatisfy({
                isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E
            })
        {
            scheme = Substring(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        var authority: Substring?
        if rest.starts(with: "//".utf8) {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(of: UInt8(ascii: "/")) ?? afterSlashes.endIndex
            authority = Substring(afterSlashes[..<end])
            rest = afterSlashes[end...]
        }
        return Parts(scheme: scheme, authority: authority, path: Substring(rest), query: query, fragment: fragment)
    }

    package static func isLetter(_ c: UInt8) -> Bool { c | 0x20 >= 0x61 && c | 0x20 <= 0x7A }

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
        byte <= 0x20 || byte == 0x7F || forbiddenPunctuation.contains(byte)
    }

    private static let forbiddenPunctuation = Set("#%/:<>?@[\\]^|".utf8)

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
