import Crypto

/// The keys that open the server's APIs (`POST /v1/preview`, `POST /v1/decode`, `GET /metrics`), sent as
/// `Authorization: Bearer KEY`.
///
/// Several keys may be valid at once, so a key is rotated without downtime: add the new one, move the
/// callers, remove the old one. Only SHA-256 digests of the keys are kept; a presented key is hashed and
/// compared with every digest in constant time (swift-crypto's digest comparison), so neither its length
/// nor how much of it matches shows in the time of the answer. Keys never appear in logs, descriptions or
/// errors — a problem names a key by its position.
public struct APIKeys: Sendable, Hashable, CustomStringConvertible {
    /// The fewest characters a key may have: 16 (about 95 bits from a random base64 string).
    public static let minimumLength = 16
    /// The most characters a key may have: 512.
    public static let maximumLength = 512

    private let digests: [SHA256Digest]

    /// No key: every API route answers 401.
    public static let none = APIKeys(digests: [])

    private init(digests: [SHA256Digest]) { self.digests = digests }

    /// How many keys are valid.
    public var count: Int { digests.count }

    /// Reads a comma-separated list (`DESKKIT_API_KEYS`, `--api-keys`); white space around a key is
    /// trimmed. Each key is 16 to 512 characters of RFC 6750's token alphabet (letters, digits and
    /// `-._~+/`, then `=` padding).
    /// - Throws: a sentence naming the key at fault by its position, never its text: an empty list, a
    ///   blank entry (`a,,b`, a trailing comma), a key too short or too long, a character outside the
    ///   alphabet.
    public init(parsing list: String) throws(APIKeysError) {
        var digests: [SHA256Digest] = []
        for (position, key) in KeyList.entries(list) {
            if key.isEmpty { throw APIKeysError("\(position) is empty (keys are separated by commas, none blank)") }
            guard key.utf8.count >= Self.minimumLength else {
                throw APIKeysError("\(position) has \(key.utf8.count) characters; at least \(Self.minimumLength)")
            }
            guard key.utf8.count <= Self.maximumLength else {
                throw APIKeysError("\(position) has over \(Self.maximumLength) characters")
            }
            guard Self.isToken(key.utf8) else {
                throw APIKeysError(
                    "\(position) has a character other than letters, digits and -._~+/ (then = padding)")
            }
            digests.append(SHA256.hash(data: Array(key.utf8)))
        }
        self.init(digests: digests)
    }

    /// One of the keys, as a request presented it: what rate limits are kept by. It holds the key's digest,
    /// never its text; it prints as its position (`key 2`).
    public struct Key: Sendable, Hashable, CustomStringConvertible {
        fileprivate let digest: SHA256Digest
        /// The key's place in the list, from 1 (how problems and logs name it).
        public let position: Int

        public static func == (a: Key, b: Key) -> Bool { a.digest == b.digest }
        public func hash(into hasher: inout Hasher) { hasher.combine(digest) }
        public var description: String { "key \(position)" }
    }

    /// The key `presented` is, or nil. Every configured key is compared, each in constant time.
    public func match(_ presented: some Collection<UInt8>) -> Key? {
        let digest = SHA256.hash(data: Array(presented))
        var found: Key?
        for (i, key) in digests.enumerated() where key == digest { found = Key(digest: key, position: i + 1) }
        return found
    }

    /// RFC 6750's `b64token`: `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
    static func isToken(_ bytes: some Collection<UInt8>) -> Bool {
        var padding = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "="): padding = true
            case _ where padding: return false
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                continue
            default: return false
            }
        }
        return !bytes.isEmpty && bytes.first != UInt8(ascii: "=")
    }

    /// How many keys, never what they are.
    public var description: String { "\(count) API key\(count == 1 ? "" : "s")" }
}

/// A key list that cannot be used, and why (naming the key by its position, never by its text).
public struct APIKeysError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, as a sentence.
    public var description: String

    init(_ description: String) { self.description = description }
}

extension Substring {
    /// Without the spaces and tabs around it.
    var trimmingWhiteSpace: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
