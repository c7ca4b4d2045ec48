import DeskKitLinks

/// RFC 3986 reference resolution, and the checks a preview URL must pass.
package enum URLResolution {
    struct Parts {
        var scheme: Substring?
        var authority: Substring?
        var path: Substring
        var query: Substring?
        var fragment: Substring?
    }

    /// Splits on the UTF-8 bytes of the ASCII delimiters, never by `Character`: a delimiter followed by a
    /// combining mark (`#\u{64B}`, `/\u{301}`) is one `Character` with it, and a `Character` search would
    /// not see it.
    static func split(_ s: Substring) -> Parts {
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

    static func isLetter(_ c: UInt8) -> Bool { c | 0x20 >= 0x61 && c | 0x20 <= 0x7A }

    /// The host of an authority: after the last `@`, before the first `:` (by bytes, as ``split(_:)``).
    static func host(ofAuthority authority: Substring) -> Substring {
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
    static func isPlausibleHost(_ host: Substring) -> Bool {
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

    static func removeDotSegments(_ path: String) -> String {
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

    /// Values that templates write where they had no URL (`null`, `undefined`, `about:blank`…): skipped
    /// like a missing tag, never resolved into `https://example.com/null`.
    static func isPlaceholder(_ value: String) -> Bool {
        value.utf8.count <= 11 && placeholders.contains(value.lowercased())
    }

    private static let placeholders: Set<String> = ["null", "undefined", "about:blank", "none", "nil", "false", "nan"]

    /// The resolved URL when it is fit for a preview: http(s) with a host, or a relative reference when
    /// there is no base to resolve it against. `javascript:`, `data:`, `vbscript:` and other schemes are
    /// dropped, as are values with no letter or digit (`...`, `#`).
    static func previewURL(_ raw: String?, base: String?, maxLength: Int, requirePublicHost: Bool = false) -> String? {
        guard let raw else { return nil }
        // Values wrapped in stray quotes or backslashes (`content=\"https://…\"`) are common junk.
        let trimmed = TextCleaning.collapse(TextCleaning.decodeEntities(raw)).trimmingCharacters(in: "\"'\\ ")
        guard !trimmed.isEmpty, trimmed.contains(where: { $0.isLetter || $0.isNumber }),
            !trimmed.utf8.contains(0x20) || !trimmed.contains(" "), !isPlaceholder(trimmed)
        else { return nil }
        let resolved = resolve(trimmed, against: base)
        guard resolved.utf8.count <= maxLength else { return nil }
        let parts = split(Substring(resolved))
        guard let scheme = parts.scheme else { return base == nil ? resolved : nil }
        guard ["http", "https"].contains(scheme.lowercased()), let authority = parts.authority else { return nil }
        let host = URLResolution.host(ofAuthority: authority)
        guard isPlausibleHost(host) else { return nil }
        if requirePublicHost {
            let links = LinkDetector(options: .init(strictHosts: true)).links(in: "http://" + host)
            guard links.count == 1, links[0].text == "http://" + host, host.contains(".") else { return nil }
        }
        return resolved
    }
}
