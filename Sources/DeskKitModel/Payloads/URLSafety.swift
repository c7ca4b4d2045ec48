/// Whether a URL in a payload is one a client may open or load: what renderers get through
/// ``URLPreview/safeURL`` and ``URLPreview/safeImageURL``, and what strict validation reports as
/// ``PayloadProblem/Code/unsafeURL`` otherwise.
public enum URLSafety {
    /// Why a URL is not safe to open, or nil when it is: an absolute `http://` or `https://` URL (the
    /// scheme in any case) with a host, no credentials, and no white space or control characters
    /// anywhere. Everything else — `javascript:`, `data:`, `vbscript:`, `file:`, relative or
    /// scheme-relative references, `https:\\host`, a leading space that a browser would strip — is refused.
    public static func problem(with url: String) -> String? {
        // The bytes in place (a native String's UTF-8): walking `url.utf8` is slower, in WebAssembly by far.
        var url = url
        return url.withUTF8 { bytes in
            if let bad = bytes.first(where: { $0 <= 0x20 || $0 == 0x7F }) {
                return bad == 0x20 ? "contains a space" : "contains a control character"
            }
            if bytes.contains(where: { $0 >= 0x80 }),
                String(decoding: bytes, as: UTF8.self).unicodeScalars.contains(where: {
                    $0.properties.generalCategory == .control || $0.properties.isWhitespace
                })
            {
                return "contains a control or white-space character"
            }
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return "is not an absolute URL" }
            let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
            guard scheme == "http" || scheme == "https" else {
                return scheme.isEmpty
                    || !scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
                    ? "is not an absolute URL" : "has the scheme \"\(scheme):\", not http or https"
            }
            let rest = bytes[bytes.index(after: colon)...]
            guard rest.starts(with: "//".utf8) else { return "has no \"//\" and host after \"\(scheme):\"" }
            let authority = rest.dropFirst(2).prefix {
                $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#")
            }
            if authority.contains(UInt8(ascii: "@")) { return "carries credentials (user@host)" }
            if authority.contains(UInt8(ascii: "\\")) { return "has a backslash in its host" }
            let host =
                authority.first == UInt8(ascii: "[")
                ? authority.prefix { $0 != UInt8(ascii: "]") } : authority.prefix { $0 != UInt8(ascii: ":") }
            if host.isEmpty { return "has no host" }
            return nil
        }
    }

    /// Whether ``problem(with:)`` finds nothing wrong.
    public static func isSafe(_ url: String) -> Bool { problem(with: url) == nil }
}
