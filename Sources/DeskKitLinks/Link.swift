/// A link found in message text.
public struct Link: Sendable, Hashable {
    /// What the link points at.
    public enum Kind: String, Sendable, Hashable {
        /// A web (or other scheme) address.
        case url
        /// An e-mail address, with or without `mailto:`.
        case email
    }

    /// The link exactly as written in the text.
    public var text: String
    /// The normalised address: `https://` added to bare domains and `//` links, `mailto:` to e-mail
    /// addresses, scheme and ASCII host letters lowercased; IDN hosts stay readable.
    public var href: String
    /// ``href`` in ASCII, for clients and servers that need it: IDN host labels in punycode (`xn--…`), every
    /// other non-ASCII character percent-encoded as UTF-8 (`/caf%C3%A9`), as a browser sends it.
    public var asciiHref: String
    /// A web URL or an e-mail address.
    public var kind: Kind
    /// Half-open range in Unicode scalars (code points) of the text.
    public var range: Range<Int>
    /// Half-open range in UTF-16 code units (for Apple platforms and JavaScript).
    public var utf16Range: Range<Int>
    /// Half-open range in UTF-8 bytes.
    public var utf8Range: Range<Int>

    /// A link found in a text, with its ranges in each unit.
    public init(
        text: String, href: String, asciiHref: String, kind: Kind, range: Range<Int>, utf16Range: Range<Int>,
        utf8Range: Range<Int>
    ) {
        self.text = text
        self.href = href
        self.asciiHref = asciiHref
        self.kind = kind
        self.range = range
        self.utf16Range = utf16Range
        self.utf8Range = utf8Range
    }
}
