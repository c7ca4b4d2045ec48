import Crypto

/// One list of keys that open the server's APIs, sent as `Authorization: Bearer KEY`: the client keys a chat
/// backend holds (`DESKKIT_API_KEYS`), the operator's keys (`DESKKIT_OPERATOR_KEYS`) or a metrics scraper's
/// (`DESKKIT_METRICS_KEYS`) — `AccessKeys` holds the three and says which routes each kind opens.
///
/// Several keys may be valid at once, so a key is rotated without downtime: add the new one, move the
/// callers, remove the old one. Each may have a name, written before it with a colon (`alice:KEY`): the name, not
/// the key, is who a request is in the logs (``Key/name``). Only SHA-256 digests of the keys are kept; a presented
/// key is hashed and compared with every digest in constant time (swift-crypto's digest comparison), so neither its
/// length nor how much of it matches shows in the time of the answer. Keys never appear in logs, descriptions or
/// errors — a problem names a key by its position.
public struct APIKeys: Sendable, Hashable, CustomStringConvertible {
    /// The fewest characters a key may have: 16 (about 95 bits from a random base64 string).
    public static let minimumLength = 16
    /// The most characters a key may have: 512.
    public static let maximumLength = 512

    /// The fewest and most characters of a key's name: 1 to 64 letters, digits and `-._@`.
    public static let maximumNameLength = 64

    private let digests: [SHA256Digest]
    private let names: [String]

    /// No key: the routes these keys would open answer 401 (or 403 to another kind of key).
    public static let none = APIKeys(digests: [], names: [])

    private init(digests: [SHA256Digest], names: [String]) {
        self.digests = digests
        self.names = names
    }

    /// How many keys are valid.
    public var count: Int { digests.count }

    /// Reads a comma-separated list (`DESKKIT_API_KEYS`, `--api-keys`); white space around a key is
    /// trimmed. Each key is 16 to 512 characters of RFC 6750's token alphabet (letters, digits and
    /// `-._~+/`, then `=` padding), with its name before it and a colon when it has one (`chat-backend:KEY`: 1 to 64
    /// letters, digits and `-._@`); a key without a name is called `kind` and its position (`client key 2`).
    /// - Throws: a sentence naming the key at fault by its position, never its text: an empty list, a
    ///   blank entry (`a,,b`, a trailing comma), a key too short or too long, a character outside the
    ///   alphabet, a name empty, too long or of other characters, a name or a key twice.
    public init(parsing list: String, kind: String = "key") throws(APIKeysError) {
        var digests: [SHA256Digest] = []
        var names: [String] = []
        for (i, (position, entry)) in KeyList.entries(list).enumerated() {
            var key = entry
            var name = kind == "key" ? "key \(i + 1)" : "\(kind) key \(i + 1)"
            if let colon = entry.firstIndex(of: ":") {
                let given = entry[..<colon]
                guard !given.isEmpty, given.count <= Self.maximumNameLength, given.allSatisfy(Self.isNameCharacter)
                else {
                    throw APIKeysError(
                        "\(position)'s name (before its colon) is not 1 to \(Self.maximumNameLength) letters, digits and -._@"
                    )
                }
                guard !names.contains(String(given)) else { throw APIKeysError("\(position)'s name is another key's") }
                name = String(given)
                key = entry[entry.index(after: colon)...]
            }
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
            let digest = SHA256.hash(data: Array(key.utf8))
            guard !digests.contains(digest) else { throw APIKeysError("\(position) is another key of the list again") }
            digests.append(digest)
            names.append(name)
        }
        self.init(digests: digests, names: names)
    }

    /// One of the keys, as a request presented it: what rate limits are kept by. It holds the key's digest,
    /// never its text; it prints as its name (`alice`, `client key 2`).
    public struct Key: Sendable, Hashable, CustomStringConvertible {
        fileprivate let digest: SHA256Digest
        /// The key's place in the list, from 1.
        public let position: Int
        /// The key's name — the name written before it, or its kind and position (`operator key 2`): who a request
        /// is in logs and the audit trail, never the key itself.
        public let name: String

        public static func == (a: Key, b: Key) -> Bool { a.digest == b.digest }
        public func hash(into hasher: inout Hasher) { hasher.combine(digest) }
        public var description: String { name }
    }

    /// The key `presented` is, or nil. Every configured key is compared, each in constant time.
    package func match(_ presented: some Collection<UInt8>) -> Key? {
        match(SHA256.hash(data: Array(presented)))
    }

    /// The key whose digest is `digest`, comparing every one.
    func match(_ digest: SHA256Digest) -> Key? {
        var found: Key?
        for (i, key) in digests.enumerated() where key == digest {
            found = Key(digest: key, position: i + 1, name: names[i])
        }
        return found
    }

    /// Whether a key of this list is one of `other`'s too.
    func sharesAKey(with other: APIKeys) -> Bool { digests.contains(where: other.digests.contains) }

    /// A name's characters: ASCII letters, digits and `-._@`.
    static func isNameCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || "-._@".contains(c))
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
