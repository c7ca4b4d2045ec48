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
