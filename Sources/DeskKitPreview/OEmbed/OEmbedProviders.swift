import DeskKitJSON
import Foundation

/// oEmbed providers known without discovery: URL patterns and the endpoint that describes the pages they
/// match, in the format of oembed.com's `providers.json`. ``builtIn`` is the table kept in the repository
/// (`Scripts/refresh-oembed-providers.py` refreshes it from the official list).
public struct OEmbedProviders: Sendable {
    /// One endpoint of a provider, and the URLs it describes.
    public struct Endpoint: Sendable, Hashable {
        /// `provider_name`.
        public var providerName: String
        /// URL patterns, `*` standing for any run of characters (`https://*.youtube.com/watch*`).
        public var schemes: [String]
        /// The endpoint's URL; `{format}` in it stands for `json`.
        public var url: String

        /// An endpoint at `url` for the links that match `schemes`.
        public init(providerName: String, schemes: [String], url: String) {
            self.providerName = providerName
            self.schemes = schemes
            self.url = url
        }

        /// The URL that asks this endpoint for the JSON description of `link`.
        public func requestURL(for link: String) -> String {
            let base = url.replacingOccurrences(of: "{format}", with: "json")
            let escaped = PercentEncoding.encode(link) { byte in
                !(byte.isASCIILetterOrDigit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~"))
            }
            return base + (base.contains("?") ? "&" : "?") + "url=" + escaped + "&format=json"
        }
    }

    /// The endpoints, in the order they are tried.
    public var endpoints: [Endpoint]
    /// Links longer than this are not matched (the patterns are tried character by character). Default 2,048
    /// bytes.
    public var maxLinkBytes = 2_048

    /// A table of `endpoints`.
    public init(endpoints: [Endpoint]) { self.endpoints = endpoints }

    /// A table read from `providers.json`'s format: an array of `{"provider_name", "endpoints": [{"schemes",
    /// "url"}]}`; endpoints without schemes are skipped (they are found by discovery only).
    public init(json text: String) throws(JSONSyntaxError) {
        var endpoints: [Endpoint] = []
        for provider in try JSONValue.parse(text).arrayValue ?? [] {
            let name = provider["provider_name"]?.stringValue ?? ""
            for endpoint in provider["endpoints"]?.arrayValue ?? [] {
                let schemes = (endpoint["schemes"]?.arrayValue ?? []).compactMap(\.stringValue)
                guard let url = endpoint["url"]?.stringValue, !schemes.isEmpty else { continue }
                endpoints.append(Endpoint(providerName: name, schemes: schemes, url: url))
            }
        }
        self.init(endpoints: endpoints)
    }

    /// The table kept in the repository (`Sources/DeskKitPreview/OEmbed/OEmbedProviderList.swift`).
    public static let builtIn: OEmbedProviders = (try? OEmbedProviders(json: builtInJSON)) ?? .init(endpoints: [])

    /// The first endpoint with a pattern that `link` matches (ASCII letters compared without case); an
    /// `http:` link also matches the patterns of its `https:` form, as providers list most of theirs so.
    public func endpoint(for link: String) -> Endpoint? {
        guard link.utf8.count <= maxLinkBytes else { return nil }
        var subjects = [Array(link.utf8)]
        if link.utf8.count > 7, Self.matches(Array(link.utf8.prefix(7)), pattern: Array("http://".utf8)) {
            subjects.append(Array("https://".utf8) + link.utf8.dropFirst(7))
        }
        return endpoints.first { endpoint in
            endpoint.schemes.contains { scheme in
                let pattern = Array(scheme.utf8)
                return subjects.contains { Self.matches($0, pattern: pattern) }
            }
        }
    }

    /// Whether `subject` matches `pattern`, `*` matching any run of bytes (the last star backtracks: time
    /// at most the product of the two lengths, both bounded). ASCII letters match without case.
    static func matches(_ subject: [UInt8], pattern: [UInt8]) -> Bool {
        var s = 0
        var p = 0
        var star: Int?
        var resume = 0
        while s < subject.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = p
                resume = s
                p += 1
            } else if p < pattern.count, lower(pattern[p]) == lower(subject[s]) {
                s += 1
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                s = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}

extension UInt8 {
    fileprivate var isASCIILetterOrDigit: Bool {
        (self >= 0x30 && self <= 0x39) || (self | 0x20 >= 0x61 && self | 0x20 <= 0x7A)
    }
}
