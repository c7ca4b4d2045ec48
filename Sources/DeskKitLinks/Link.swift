/// A link found in message text.
///
/// A link that ``LinkDetector/links(in:)`` found keeps the text it searched (shared, not copied) and makes
/// its ``text``, ``href`` and ``asciiHref`` when they are read: finding links allocates nothing per link
/// but the array, and a caller that reads only the ranges pays for no string.
public struct Link: Sendable, Hashable {
    /// What the link points at.
    public enum Kind: String, Sendable, Hashable {
        /// A web (or other scheme) address.
        case url
        /// An e-mail address, with or without `mailto:`.
        case email
    }

    /// The link exactly as written in the text.
    public var text: String {
        get {
            switch storage {
            case .given(let strings): strings.text
            case .found(let f): f.withBytes { f.raw.text($0) }
            }
        }
        set { give { $0.text = newValue } }
    }
    /// The normalised address: `https://` added to bare domains and `//` links, `mailto:` to e-mail
    /// addresses, scheme and ASCII host letters lowercased; IDN hosts stay readable.
    public var href: String {
        get { hrefs.href }
        set { give { $0.href = newValue } }
    }
    /// ``href`` in ASCII, for clients and servers that need it: IDN host labels in punycode (`xn--…`), every
    /// other non-ASCII character percent-encoded as UTF-8 (`/caf%C3%A9`), as a browser sends it.
    public var asciiHref: String {
        get { hrefs.asciiHref }
        set { give { $0.asciiHref = newValue } }
    }
    /// A web URL or an e-mail address.
    public var kind: Kind
    /// Half-open range in Unicode scalars (code points) of the text.
    public var range: Range<Int>
    /// Half-open range in UTF-16 code units (for Apple platforms and JavaScript).
    public var utf16Range: Range<Int>
    /// Half-open range in UTF-8 bytes.
    public var utf8Range: Range<Int>

    /// The three strings, once made (given to the initialiser, or set).
    private struct Strings: Sendable {
        var text: String
        var href: String
        var asciiHref: String
    }

    /// Where a found link's strings come from: the text searched and the link's parts in its bytes.
    private struct Found: Sendable {
        let source: String
        let raw: RawLink

        func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            if let r = source.utf8.withContiguousStorageIfAvailable(body) { return r }
            var copy = source
            copy.makeContiguousUTF8()
            return copy.utf8.withContiguousStorageIfAvailable(body)!
        }
    }

    /// The strings, or where to make them from.
    private enum Storage: Sendable {
        case given(Strings)
        case found(Found)
    }

    private var storage: Storage

    /// A link found in a text, with its ranges in each unit.
    public init(
        text: String, href: String, asciiHref: String, kind: Kind, range: Range<Int>, utf16Range: Range<Int>,
        utf8Range: Range<Int>
    ) {
        self.storage = .given(Strings(text: text, href: href, asciiHref: asciiHref))
        self.kind = kind
        self.range = range
        self.utf16Range = utf16Range
        self.utf8Range = utf8Range
    }

    /// A link `raw` of `source`, whose strings are made when read.
    init(found raw: RawLink, in source: String, range: Range<Int>, utf16Range: Range<Int>) {
        self.storage = .found(Found(source: source, raw: raw))
        self.kind = raw.kind
        self.range = range
        self.utf16Range = utf16Range
        self.utf8Range = raw.range
    }

    /// ``href`` and ``asciiHref`` made together (reading each alone makes both).
    private var hrefs: (href: String, asciiHref: String) {
        switch storage {
        case .given(let strings): (strings.href, strings.asciiHref)
        case .found(let f): f.withBytes { f.raw.hrefs($0) }
        }
    }

    /// Makes the strings (keeping the ones not changed) and changes one.
    private mutating func give(_ change: (inout Strings) -> Void) {
        var strings: Strings
        switch storage {
        case .given(let given): strings = given
        case .found: strings = Strings(text: text, href: href, asciiHref: asciiHref)
        }
        change(&strings)
        storage = .given(strings)
    }

    public static func == (a: Link, b: Link) -> Bool {
        a.kind == b.kind && a.range == b.range && a.utf16Range == b.utf16Range && a.utf8Range == b.utf8Range
            && a.text == b.text && a.href == b.href && a.asciiHref == b.asciiHref
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(kind)
        hasher.combine(utf8Range)
    }
}
