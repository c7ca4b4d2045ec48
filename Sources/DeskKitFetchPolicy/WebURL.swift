import DeskKitJSON
import DeskKitURL

/// An http(s) URL taken apart far enough to check and fetch it: the fetcher's question (which request to make of a
/// URL a page or a person gave — white space trimmed, credentials dropped — before `AddressPolicy` says whether its
/// addresses may be reached). Whether a client may open or load a URL is another question, with one answer:
/// `URLSafety` in DeskKitModel.
package struct WebURL: Sendable, Hashable {
    package var scheme: String
    /// The host as written (lowercased), IDN in Unicode; IPv6 without brackets.
    package var host: String
    /// The host in ASCII (punycode), as sent.
    package var asciiHost: String
    package var port: Int
    /// Path and query, at least "/".
    package var pathAndQuery: String
    package var isIPv6Literal: Bool

    /// The URL as requested (ASCII host, no userinfo, no fragment).
    package var requestString: String {
        let h = isIPv6Literal ? "[\(asciiHost)]" : asciiHost
        let defaultPort = scheme == "https" ? 443 : 80
        return "\(scheme)://\(h)\(port == defaultPort ? "" : ":\(port)")\(pathAndQuery)"
    }

    /// A path and query as sent: controls, space, `"<>` and non-ASCII bytes percent-encoded (UTF-8), as
    /// browsers do; what is already encoded stays.
    static func percentEncoded(_ s: String) -> String {
        PercentEncoding.encode(s) { $0 <= 0x20 || $0 >= 0x7F || $0 == 0x22 || $0 == 0x3C || $0 == 0x3E }
    }

    /// Takes the URL apart by code points, not `Character`s: a delimiter followed by a combining mark
    /// (`#\u{64B}`, `/\u{301}`) is one `Character` with it, and a `Character` search would not see it.
    package init(_ text: String) throws(FetchError) {
        var s = text.unicodeScalars[...]
        while let f = s.first, f.properties.isWhitespace { s.removeFirst() }
        while let l = s.last, l.properties.isWhitespace { s.removeLast() }
        guard let colon = s.firstIndex(of: ":") else { throw .invalidURL("no scheme in \(String(s).prefix(80))") }
        scheme = String(s[..<colon]).lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw .invalidURL("only http and https are fetched, not \(scheme.prefix(20))")
        }
        var rest = s[s.index(after: colon)...]
        guard rest.starts(with: "//".unicodeScalars) else { throw .invalidURL("no host in \(String(s).prefix(80))") }
        rest = rest.dropFirst(2)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        let tail = String(rest[authorityEnd...])
        pathAndQuery = Self.percentEncoded(
            tail.isEmpty ? "/" : (tail.utf8.first == UInt8(ascii: "?") ? "/" + tail : tail))
        // Credentials are never sent.
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var hostPart = authority
        var portText: Substring.UnicodeScalarView?
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL("unclosed [ in the host") }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.first == ":" {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw .invalidURL("junk after ]")
            }
            isIPv6Literal = true
        } else {
            if let c = authority.lastIndex(of: ":") {
                hostPart = authority[..<c]
                portText = authority[authority.index(after: c)...]
            }
            isIPv6Literal = false
        }
        guard !hostPart.isEmpty else { throw .invalidURL("empty host") }
        if let portText, !portText.isEmpty {
            // ASCII digits only (WHATWG): Int(_:) would also take a sign.
            guard portText.allSatisfy({ ("0"..."9").contains($0) }), let p = Int(String(portText)),
                (1...65535).contains(p)
            else {
                throw .invalidURL("bad port \(String(portText).prefix(10))")
            }
            port = p
        } else {
            port = scheme == "https" ? 443 : 80
        }
        host = String(hostPart).lowercased()
        while host.utf8.last == UInt8(ascii: ".") { host.unicodeScalars.removeLast() }
        guard !host.isEmpty else { throw .invalidURL("empty host") }
        asciiHost = isIPv6Literal ? host : Punycode.asciiHost(host)
        guard isIPv6Literal || !asciiHost.utf8.contains(where: { $0 >= 0x80 || URLResolution.isForbiddenInHost($0) })
        else {
            throw .invalidURL("bad characters in the host")
        }
        // A host whose last label is a number is an IPv4 address or nothing (WHATWG): `256.1.1.1` is not a
        // name to look up.
        if !isIPv6Literal, let last = asciiHost.split(separator: ".").last, Self.isNumber(last),
            IPAddress(host: asciiHost) == nil
        {
            throw .invalidURL("\(asciiHost.prefix(80)) is not a valid IPv4 address")
        }
    }

    /// Decimal digits, or `0x` and hexadecimal ones: an IPv4 part as WHATWG reads it.
    private static func isNumber(_ label: Substring) -> Bool {
        let lower = label.lowercased()
        if lower.hasPrefix("0x") { return lower.dropFirst(2).allSatisfy(\.isHexDigit) }
        return !lower.isEmpty && lower.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
