import DeskKitLinks
import DeskKitURL

/// The URLs a preview keeps: resolved against the page, http(s) with a plausible host, never a template's
/// placeholder.
extension URLResolution {
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
        let trimmed: String
        if isClean(raw) {
            trimmed = raw
        } else {
            // Values wrapped in stray quotes or backslashes (`content=\"https://…\"`) are common junk.
            trimmed = TextCleaning.collapse(TextCleaning.decodeEntities(raw)).trimmingCharacters(in: "\"'\\ ")
            guard !trimmed.isEmpty, trimmed.contains(where: { $0.isLetter || $0.isNumber }),
                !trimmed.utf8.contains(0x20) || !trimmed.contains(" ")
            else { return nil }
        }
        guard !isPlaceholder(trimmed) else { return nil }
        // An absolute reference is its own resolution: split once.
        let reference = split(Substring(trimmed))
        let resolved = reference.scheme == nil ? resolve(trimmed, against: base) : trimmed
        guard resolved.utf8.count <= maxLength else { return nil }
        let parts = reference.scheme == nil ? split(Substring(resolved)) : reference
        guard let scheme = parts.scheme else { return base == nil ? resolved : nil }
        guard isHTTP(scheme), let authority = parts.authority else { return nil }
        let host = URLResolution.host(ofAuthority: authority)
        guard isPlausibleHost(host) else { return nil }
        if requirePublicHost {
            let links = publicHostDetector.links(in: "http://" + host)
            guard links.count == 1, links[0].text == "http://" + host, host.contains(".") else { return nil }
        }
        return resolved
    }

    /// Finds a host that is a public name: a link detector that knows the top-level domains.
    private static let publicHostDetector = LinkDetector(options: .init(strictHosts: true))

    /// Whether `raw` is already what cleaning would make of it, as most URLs in a page are: printable
    /// ASCII without `&` (so no entity, no white space), neither starting nor ending with a quote or a
    /// backslash, with a letter or a digit. One pass over the bytes.
    static func isClean(_ raw: String) -> Bool {
        raw.utf8.withContiguousStorageIfAvailable { b in
            guard let first = b.first, let last = b.last, !isWrapping(first), !isWrapping(last) else { return false }
            var alphanumeric = false
            for c in b {
                guard c > 0x20, c < 0x7F, c != UInt8(ascii: "&") else { return false }
                if !alphanumeric { alphanumeric = isLetter(c) || (c >= 0x30 && c <= 0x39) }
            }
            return alphanumeric
        } ?? false
    }

    private static func isWrapping(_ c: UInt8) -> Bool {
        c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") || c == UInt8(ascii: "\\")
    }

    /// Whether `scheme` is `http` or `https`, in any case.
    static func isHTTP(_ scheme: Substring) -> Bool {
        let u = scheme.utf8
        guard u.count == 4 || u.count == 5 else { return false }
        var i = u.startIndex
        for expected in "https".utf8.prefix(u.count) {
            guard u[i] | 0x20 == expected else { return false }
            i = u.index(after: i)
        }
        return true
    }
}
