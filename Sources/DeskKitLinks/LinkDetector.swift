import DeskKitJSON

/// Finds links in chat text: URLs with a scheme, `www.` and bare domains with a real top-level domain,
/// protocol-relative `//host` links, and e-mail addresses.
///
/// ```swift
/// let links = LinkDetector().links(in: "Tracking: example.com/track/1138 — thanks!")
/// links[0].text   // "example.com/track/1138"
/// links[0].href   // "https://example.com/track/1138"
/// ```
///
/// The detector is pure Swift, works on UTF-8 bytes and runs in time linear in the text, whatever the
/// text. Its policies (which hosts count, where a link ends, what is not a link) are listed in the README.
public struct LinkDetector: Sendable {
    /// What to look for. The defaults suit chat previews.
    public struct Options: Sendable, Hashable {
        /// Link domains written without a scheme (`example.com`, `example.com/path`). `www.` hosts are
        /// linked even when this is off. Default on.
        public var bareDomains: Bool
        /// Link e-mail addresses. Default on.
        public var emails: Bool
        /// Link bare IPv4 addresses without a scheme (`192.168.1.1/abc`). Default off.
        public var ipHosts: Bool
        /// Accept any RFC 3986 scheme, not only http, https and ftp: before `://` and a host, or before `:` and
        /// a path or an address-like rest (`file:///x`, `git:host/path`, `facetime://+1…`). Default off.
        public var anyScheme: Bool
        /// Require a known top-level domain after a scheme too (`http://intranet` is then not a link).
        /// Default off: a scheme says the writer meant a link.
        public var strictHosts: Bool
        /// Link protocol-relative `//host/path` links. Default on.
        public var protocolRelative: Bool
        /// Keep `|` in paths, as Twitter does (`https://example.com/a|b`). Default off: Slack's `<url|label>`,
        /// Jira's `[label|url]` and Markdown tables use it as an end. In a query or fragment it is always kept.
        public var pipesInPaths: Bool
        /// Link `localhost:PORT` (with an optional path) written without a scheme. Default off.
        public var localhost: Bool
        /// Link e-mail addresses whose domain has no known top-level domain (`ann@build.internal`), as GFM's
        /// autolinks do; the domain still needs two well-formed labels. Default off: a typo such as
        /// `ann@example.con` or a handle such as `@user@host` is not an address.
        public var anyEmailDomain: Bool
        /// Link only what is written with a scheme — `http://`, `https://`, `ftp://`, `mailto:` (and, with
        /// ``anyScheme``, any scheme) — as twitter-text and the Rust `linkify` crate do by default: no `www.`
        /// or bare domains, no `//host` links, no `localhost:PORT`, no e-mail address without `mailto:`.
        /// Default off. It overrides ``bareDomains``, ``protocolRelative``, ``ipHosts`` and ``localhost``.
        public var requireScheme: Bool

        /// Options; each default is what chat text needs (see each property).
        public init(
            bareDomains: Bool = true, emails: Bool = true, ipHosts: Bool = false, anyScheme: Bool = false,
            strictHosts: Bool = false, protocolRelative: Bool = true, pipesInPaths: Bool = false,
            localhost: Bool = false, anyEmailDomain: Bool = false, requireScheme: Bool = false
        ) {
            self.bareDomains = bareDomains
            self.emails = emails
            self.ipHosts = ipHosts
            self.anyScheme = anyScheme
            self.strictHosts = strictHosts
            self.protocolRelative = protocolRelative
            self.pipesInPaths = pipesInPaths
            self.localhost = localhost
            self.anyEmailDomain = anyEmailDomain
            self.requireScheme = requireScheme
        }

        /// The defaults: bare domains, e-mail addresses and `//host` links found, the rest off.
        public static let `default` = Options()
    }

    /// What the detector looks for.
    public var options: Options

    /// A detector with `options`. Detectors are values and cheap to make; share or copy them freely.
    public init(options: Options = .default) { self.options = options }

    /// The links in `text`, in order. Each keeps `text` (shared, not copied) and makes its strings when they
    /// are read.
    public func links(in text: String) -> [Link] {
        func find(_ bytes: UnsafeBufferPointer<UInt8>) -> [Link] {
            var links: [Link] = []
            forEachLink(utf8: bytes, wellFormed: true) { raw, range, utf16Range in
                links.append(Link(found: raw, in: text, range: range, utf16Range: utf16Range))
            }
            return links
        }
        // A native string's bytes in place; another (bridged) made contiguous first.
        if let links = text.utf8.withContiguousStorageIfAvailable(find) { return links }
        var copy = text
        return copy.withUTF8(find)
    }

    /// The links in UTF-8 bytes, in order. Bytes that are not UTF-8 separate words like white space.
    public func links(utf8 bytes: Span<UInt8>) -> [Link] {
        bytes.withUnsafeBufferPointer { links(utf8: $0) }
    }

    /// `links(utf8:)` on a buffer (`deskkit detect`'s lines).
    package func links(utf8 bytes: UnsafeBufferPointer<UInt8>) -> [Link] {
        var links: [Link] = []
        forEachLink(utf8: bytes, wellFormed: false) { raw, range, utf16Range in
            let (href, asciiHref) = raw.hrefs(bytes)
            links.append(
                Link(
                    text: raw.text(bytes), href: href, asciiHref: asciiHref, kind: raw.kind, range: range,
                    utf16Range: utf16Range, utf8Range: raw.range))
        }
        return links
    }

    /// Calls `body` with each link of `bytes` in order, as parts, with its ranges in scalars and UTF-16 units: what
    /// the web module writes out without making a ``Link``. `wellFormed`: the bytes are known to be UTF-8 (they
    /// are then counted eight at a time; ill-formed ones give wrong offsets, never a trap).
    package func forEachLink(
        utf8 bytes: UnsafeBufferPointer<UInt8>, wellFormed: Bool,
        _ body: (RawLink, _ scalars: Range<Int>, _ utf16: Range<Int>) -> Void
    ) {
        guard bytes.count > 0 else { return }
        var scanner = LinkScanner(bytes: bytes, options: options)
        var offsets = OffsetCounter(bytes: bytes, wellFormed: wellFormed)
        scanner.scan { raw in
            let start = offsets.advance(to: raw.range.lowerBound)
            let end = offsets.advance(to: raw.range.upperBound)
            body(raw, start.scalars..<end.scalars, start.utf16..<end.utf16)
        }
    }
}

/// Turns byte offsets into scalar and UTF-16 offsets, walking forward only (so all links cost one pass).
struct OffsetCounter {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The bytes are well-formed UTF-8 (a `String`'s): they are counted eight at a time.
    let wellFormed: Bool
    var byte = 0
    var scalars = 0
    var utf16 = 0

    init(bytes: UnsafeBufferPointer<UInt8>, wellFormed: Bool) {
        self.bytes = bytes
        self.wellFormed = wellFormed
    }

    /// How many bytes of `x` have their high bit set, when no other bit is: one multiply sums the bytes'
    /// ones into the top byte (a population count without the POPCNT instruction of newer CPUs).
    @inline(__always) static func countHighBits(_ x: UInt64) -> Int {
        Int(((x >> 7) &* 0x0101_0101_0101_0101) >> 56)
    }

    /// Counts up to `target`, a scalar boundary. An ill-formed byte counts as one U+FFFD, as
    /// `String(decoding:as:)` reads it.
    mutating func advance(to target: Int) -> (scalars: Int, utf16: Int) {
        if wellFormed {
            // In well-formed UTF-8, every byte but a continuation byte (10xxxxxx) starts a scalar, and a
            // scalar of four bytes (11110xxx first) is two UTF-16 units.
            let base = UnsafeRawPointer(bytes.baseAddress!)
            let high: UInt64 = 0x8080_8080_8080_8080
            // The first `lanes` bytes of `w` (the rest are zero).
            @inline(__always) func count(_ w: UInt64, lanes: Int) {
                let continuation = Self.countHighBits(w & ~(w << 1) & high)
                let fourByte = Self.countHighBits(w & (w << 1) & (w << 2) & (w << 3) & high)
                scalars += lanes - continuation
                utf16 += lanes - continuation + fourByte
            }
            while byte + 16 <= target {
                let w0 = base.loadUnaligned(fromByteOffset: byte, as: UInt64.self)
                let w1 = base.loadUnaligned(fromByteOffset: byte + 8, as: UInt64.self)
                if (w0 | w1) & high == 0 {  // sixteen ASCII bytes are sixteen scalars and sixteen units
                    scalars += 16
                    utf16 += 16
                } else {
                    count(w0, lanes: 8)
                    count(w1, lanes: 8)
                }
                byte += 16
            }
            if byte + 8 <= target {
                count(base.loadUnaligned(fromByteOffset: byte, as: UInt64.self), lanes: 8)
                byte += 8
            }
            let rest = target - byte
            if rest > 0, target >= 8 {
                // The eight bytes that end at `target`, shifted so that only the last `rest` are left.
                count(base.loadUnaligned(fromByteOffset: target - 8, as: UInt64.self) >> (8 * (8 - rest)), lanes: rest)
                byte = target
            }
            while byte < target {  // a text shorter than eight bytes
                let c = bytes[byte]
                if c & 0xC0 != 0x80 {
                    scalars += 1
                    utf16 += c >= 0xF0 ? 2 : 1
                }
                byte += 1
            }
            return (scalars, utf16)
        }
        while byte < target {
            let length = max(1, UTF8Validation.sequenceLength(bytes, at: byte))
            scalars += 1
            utf16 += length == 4 ? 2 : 1
            byte += length
        }
        return (scalars, utf16)
    }
}
