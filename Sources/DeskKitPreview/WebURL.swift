import DeskKitLinks
import DeskKitModel

/// An http(s) URL taken apart far enough to check and fetch it.
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

    /// WHATWG's forbidden host code points (besides controls and space), and `%`.
    static let forbiddenInHost = Set("#%/:<>?@[\\]^|".utf8)

    /// A path and query as sent: controls, space, `"<>` and non-ASCII bytes percent-encoded (UTF-8), as
    /// browsers do; what is already encoded stays.
    static func percentEncoded(_ s: String) -> String {
        PercentEncoding.encode(s) { $0 <= 0x20 || $0 >= 0x7F || $0 == 0x22 || $0 == 0x3C || $0 == 0x3E }
    }

    package init(_ text: String) throws(FetchError) {
        let trimmed = text.trimmingWhitespace
        guard let colon = trimmed.firstIndex(of: ":") else { throw .invalidURL("no scheme in \(trimmed.prefix(80))") }
        scheme = trimmed[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw .invalidURL("only http and https are fetched, not \(scheme.prefix(20))")
        }
        var rest = trimmed[trimmed.index(after: colon)...]
        guard rest.hasPrefix("//") else { throw .invalidURL("no host in \(trimmed.prefix(80))") }
        rest = rest.dropFirst(2)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        let tail = rest[authorityEnd...]
        pathAndQuery = Self.percentEncoded(tail.isEmpty ? "/" : (tail.hasPrefix("?") ? "/" + tail : String(tail)))
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }  // credentials are never sent
        var hostPart = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL("unclosed [ in the host") }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { throw .invalidURL("junk after ]") }
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
            guard let p = Int(portText), (1...65535).contains(p) else { throw .invalidURL("bad port \(portText.prefix(10))") }
            port = p
        } else {
            port = scheme == "https" ? 443 : 80
        }
        host = hostPart.lowercased()
        while host.hasSuffix(".") { host.removeLast() }
        guard !host.isEmpty else { throw .invalidURL("empty host") }
        asciiHost = isIPv6Literal ? host : Punycode.asciiHost(host)
        guard isIPv6Literal || asciiHost.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !Self.forbiddenInHost.contains($0) })
        else {
            throw .invalidURL("bad characters in the host")
        }
    }
}

extension String {
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
