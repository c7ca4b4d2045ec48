import Crypto
import DeskKitPreview
import DeskKitModel

/// Signs and checks the image proxy's URLs: `{public_url}/images/{signature}/{url}`, where `signature` is the
/// unpadded base64url HMAC-SHA256 of the image's URL and `url` the unpadded base64url of the URL itself.
///
/// Several keys may be valid at once (`DESKKIT_IMAGE_PROXY_KEYS`): the first signs, every one verifies, so a key
/// is rotated without breaking the cards already written — add the new key first in the list, and drop the old
/// one once the cards it signed no longer matter. Keys never appear in logs, descriptions or errors.
///
/// ```swift
/// let signer = try ImageURLSigner(keys: "k1-0123456789abcdef", publicURL: "https://chat-media.example.com")
/// signer.proxiedURL(for: "https://cdn.example.org/a.png")
/// // https://chat-media.example.com/images/Hx…/aHR0cHM6Ly9jZG4uZXhhbXBsZS5vcmcvYS5wbmc
/// ```
public struct ImageURLSigner: Sendable, CustomStringConvertible {
    /// The fewest characters a key may have: 16.
    public static let minimumKeyLength = 16
    /// The longest image URL signed or accepted: 8 KiB.
    public static let maxURLBytes = 8 * 1024

    private let keys: [SymmetricKey]
    /// Where clients reach this server (`DESKKIT_PUBLIC_URL`), without a trailing `/`.
    public let publicURL: String

    /// A signer with the comma-separated `keys` (16 characters or more each; white space around one is
    /// trimmed) for the server at `publicURL` (an http(s) URL; a trailing `/` is dropped).
    /// - Throws: ``ImageProxyError`` naming a key by its position (never its text), or the URL.
    public init(keys list: String, publicURL: String) throws(ImageProxyError) {
        self.keys = try Self.keys(list)
        self.publicURL = try Self.publicURL(publicURL)
    }

    /// The keys of a comma-separated list, each 16 characters or more.
    static func keys(_ list: String) throws(ImageProxyError) -> [SymmetricKey] {
        var keys: [SymmetricKey] = []
        for (position, key) in KeyList.entries(list) {
            guard key.utf8.count >= Self.minimumKeyLength else {
                throw ImageProxyError(
                    "\(position) has \(key.utf8.count) characters; at least \(Self.minimumKeyLength)")
            }
            keys.append(SymmetricKey(data: Array(key.utf8)))
        }
        return keys
    }

    /// `publicURL` without its trailing `/`, when it is an http(s) URL without a query.
    static func publicURL(_ publicURL: String) throws(ImageProxyError) -> String {
        var base = String(Substring(publicURL).trimmingWhiteSpace)
        while base.hasSuffix("/") { base.removeLast() }
        guard base.hasPrefix("http://") || base.hasPrefix("https://"), base.utf8.count > 8,
            !base.contains(where: { $0 == " " || $0 == "?" || $0 == "#" })
        else {
            throw ImageProxyError("\"\(publicURL.prefix(80))\" is not an http(s) URL without a query")
        }
        return base
    }

    /// The proxied URL of `url`; `url` itself when it is not one a client may load (`URLSafety`: a `data:`
    /// image stays as it is) or is longer than ``maxURLBytes``.
    public func proxiedURL(for url: String) -> String {
        guard Self.isWebURL(url), url.utf8.count <= Self.maxURLBytes else { return url }
        return "\(publicURL)/images/\(signature(of: url))/\(Self.encode(Array(url.utf8)))"
    }

    /// The signature of `url`, by the first key.
    package func signature(of url: String) -> String {
        Self.encode(Array(HMAC<SHA256>.authenticationCode(for: Array(url.utf8), using: keys[0])))
    }

    /// The image URL a proxied path names, when `signature` is one of the keys' for it and it is an http(s)
    /// URL a request can be made of; nil otherwise (a bad or unknown signature, an encoding that is not unpadded base64url, another
    /// scheme). The signature is compared in constant time.
    package func verifiedURL(signature: Substring, url encoded: Substring) -> String? {
        guard encoded.utf8.count <= (Self.maxURLBytes + 2) / 3 * 4,
            let bytes = Self.decode(encoded), let mac = Self.decode(signature), mac.count == SHA256.byteCount,
            let url = String(validating: bytes, as: UTF8.self), Self.isWebURL(url)
        else { return nil }
        // Every key is tried, whichever matches: the time does not tell which one did.
        var valid = false
        for key in keys where HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: bytes, using: key) {
            valid = true
        }
        return valid ? url : nil
    }

    public var description: String { "image proxy at \(publicURL), \(keys.count) key(s)" }

    /// Whether `url` is one a client may load: the one rule of `URLSafety` (what a card shows is what is signed).
    private static func isWebURL(_ url: String) -> Bool { URLSafety.isSafe(url) }

    /// Unpadded base64url.
    package static func encode(_ bytes: [UInt8]) -> String {
        var text = Base64.encode(bytes, urlSafe: true)
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// Unpadded base64url, in its one canonical spelling only (so one URL has one proxied path).
    static func decode(_ text: Substring) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.allSatisfy(isBase64URL),
            let bytes = try? Array(text.utf8).withUnsafeBufferPointer({ try Base64.decode($0).bytes }),
            encode(bytes) == text
        else { return nil }
        return bytes
    }

    private static func isBase64URL(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}

/// A setting of the image proxy that cannot be used, and why.
public struct ImageProxyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, as a sentence.
    public var description: String
    init(_ description: String) { self.description = description }
}
