import DeskKitURL

/// The sites the operator lets DeskKit fetch from (`preview_hosts_deny`, `preview_hosts_allow`): a host that is
/// denied — or, when an allow list is given, not allowed — gets no fetch and no card. The fetcher checks it on
/// every request it makes: the link's, every redirect's, an oEmbed endpoint's and an image's, proxied or not.
///
/// A pattern is a host name: `example.com` covers it and its subdomains, `*.example.com` only its subdomains.
/// Names are compared in lower case, as ASCII (an IDN pattern as its Punycode), without a trailing dot. An IPv4
/// address as a pattern covers that address written as the host.
///
/// ```swift
/// let policy = try SitePolicy(deny: "tracker.example, *.ads.example", allow: nil)
/// policy.refusal(host: "cdn.tracker.example")  // FetchError of kind .policy
/// ```
public struct SitePolicy: Sendable, Hashable, CustomStringConvertible {
    /// One host pattern.
    public struct Pattern: Sendable, Hashable, CustomStringConvertible {
        /// The host, in lower-case ASCII without a trailing dot.
        public let host: String
        /// `*.example.com`: its subdomains only; `example.com`: it and its subdomains.
        public let subdomainsOnly: Bool

        /// The pattern written as `text` (`example.com`, `*.example.com`, `bücher.example`).
        public init(_ text: some StringProtocol) throws(SitePolicy.Problem) {
            var text = String(Substring(text).drop { $0 == " " || $0 == "\t" })
            while text.last == " " || text.last == "\t" { text.removeLast() }
            subdomainsOnly = text.hasPrefix("*.")
            if subdomainsOnly { text = String(text.dropFirst(2)) }
            if text.hasSuffix(".") { text.removeLast() }
            let host = Punycode.asciiHost(text.lowercased())
            let labels = host.split(separator: ".", omittingEmptySubsequences: false)
            guard !host.isEmpty, host.utf8.count <= 253,
                labels.allSatisfy({ label in
                    (1...63).contains(label.utf8.count)
                        && label.utf8.allSatisfy {
                            $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || Self.isAlphanumeric($0)
                        }
                })
            else {
                throw Problem(
                    pattern: String(text.prefix(80)), reason: "is not a host name (example.com or *.example.com)")
            }
            self.host = host
        }

        private static func isAlphanumeric(_ b: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b)
        }

        /// Whether `host` (lower-case ASCII, no trailing dot) is one this pattern covers.
        func covers(_ host: String) -> Bool {
            if host == self.host { return !subdomainsOnly }
            return host.utf8.count > self.host.utf8.count + 1 && host.hasSuffix(self.host)
                && host.utf8.dropLast(self.host.utf8.count).last == UInt8(ascii: ".")
        }

        public var description: String { (subdomainsOnly ? "*." : "") + host }
    }

    /// A pattern that cannot be read, and why.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The pattern as written (at most 80 characters of it).
        public var pattern: String
        /// Why it is not one.
        public var reason: String
        public var description: String { "\"\(pattern)\" \(reason)" }
    }

    /// Hosts that get no fetch. Default none.
    public var deny: [Pattern]
    /// When given, the only hosts that get a fetch (less those denied). Default nil: every host not denied.
    public var allow: [Pattern]?

    /// A policy of these patterns; by default every host may be fetched.
    public init(deny: [Pattern] = [], allow: [Pattern]? = nil) {
        self.deny = deny
        self.allow = allow
    }

    /// A policy read from comma-separated lists of patterns, as the settings give them; an empty or absent
    /// allow list allows every host.
    public init(deny: String?, allow: String?) throws(Problem) {
        let allowed = try Self.patterns(allow ?? "")
        self.init(deny: try Self.patterns(deny ?? ""), allow: allowed.isEmpty ? nil : allowed)
    }

    /// The patterns of a comma-separated list (empty items are passed by).
    public static func patterns(_ list: String) throws(Problem) -> [Pattern] {
        var out: [Pattern] = []
        for item in list.split(separator: ",") where !item.allSatisfy({ $0 == " " || $0 == "\t" }) {
            out.append(try Pattern(item))
        }
        return out
    }

    /// Whether every host may be fetched.
    public var isOpen: Bool { deny.isEmpty && allow == nil }

    /// Why `host` may not be fetched — a ``FetchError/Kind/policy`` error naming the rule — or nil when it may.
    public func refusal(host: String) -> FetchError? {
        guard !isOpen else { return nil }
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        name = Punycode.asciiHost(name)
        if let rule = deny.first(where: { $0.covers(name) }) {
            return FetchError(.policy, "\(name) is denied by the site policy (\(rule))")
        }
        if let allow, !allow.contains(where: { $0.covers(name) }) {
            return FetchError(.policy, "\(name) is not on the site policy's allow list")
        }
        return nil
    }

    /// Why the host of `url` may not be fetched, or nil when it may (or when `url` names no host: the fetch
    /// itself says what is wrong with it).
    public func refusal(url: String) -> FetchError? {
        guard !isOpen, let parsed = try? WebURL(url) else { return nil }
        return refusal(host: parsed.host)
    }

    public var description: String {
        "deny \(deny.isEmpty ? "none" : deny.map(\.description).joined(separator: ","))"
            + (allow.map { ", allow only \($0.map(\.description).joined(separator: ","))" } ?? "")
    }
}
