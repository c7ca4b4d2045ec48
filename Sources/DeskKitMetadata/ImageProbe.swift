/// An image's type and pixel size, read from its first bytes (a card is laid out before its image arrives).
public struct ImageInfo: Sendable, Hashable {
    /// The longer side, in pixels, below which a picture from a page's body is an icon (an arrow, a social
    /// button) rather than the page's image: the card builder drops one probed smaller. Images a page's preview
    /// tags name are kept whatever their size, and the metadata reader keeps them all (as open-graph-scraper's
    /// fallbacks do: a 2×4 `<img>` is its case's image).
    package static let iconSize = 48

    /// The formats the probe reads: a set that grows (CONTRIBUTING's rule), so compare with `==` and
    /// `switch` with a `default`.
    public struct Format: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String, CaseIterable {
            case png, jpeg, gif, webp, avif, svg
        }
        private let code: Code
        private init(_ code: Code) { self.code = code }

        /// The format named `rawValue` (`png`, `jpeg`, …), or nil for a name DeskKit does not know.
        public init?(rawValue: String) {
            guard let code = Code(rawValue: rawValue) else { return nil }
            self.code = code
        }

        /// The format's short name, as a card's `image_type` holds it.
        public var rawValue: String { code.rawValue }
        public var description: String { code.rawValue }
        /// Every format this version reads.
        public static var allCases: [Format] { Code.allCases.map(Format.init) }

        /// PNG: the size from `IHDR`.
        public static let png = Format(.png)
        /// JPEG: the size from the first frame header.
        public static let jpeg = Format(.jpeg)
        /// GIF: the size of the logical screen.
        public static let gif = Format(.gif)
        /// WebP, lossy, lossless or extended.
        public static let webp = Format(.webp)
        /// AVIF: the size from the `ispe` property.
        public static let avif = Format(.avif)
        /// SVG: `width` and `height`, else the `viewBox`.
        public static let svg = Format(.svg)
    }

    /// What the bytes are.
    public var format: Format
    /// Pixel width and height, when the bytes read say (an SVG may give only a `viewBox`; a JPEG may put
    /// its size past the bytes read).
    public var width: Int?
    /// See ``width``.
    public var height: Int?

    /// An image of `format`, `width` × `height`.
    public init(format: Format, width: Int?, height: Int?) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// A tracking pixel or a spacer: 1×1 (or less). Such an image is dropped from a card.
    public var isPixel: Bool {
        guard let width, let height else { return false }
        return width <= 1 && height <= 1
    }
}

/// Reads an image's type and pixel size from its first bytes: PNG's `IHDR`, GIF's screen descriptor, JPEG's
/// first frame header (its segments walked by their lengths), WebP's `VP8 `/`VP8L`/`VP8X` chunk, AVIF's
/// `ispe` property, SVG's `width`/`height` or `viewBox`. Bounded work, no allocation but for an SVG's
/// attributes; never reads past the bytes given.
public enum ImageProbe {
    /// What the first bytes of a body say.
    public enum Result: Sendable, Hashable {
        /// An image; its size may be unknown (``ImageInfo/width`` nil).
        case image(ImageInfo)
        /// More bytes could tell (a header cut short, a JPEG whose frame header comes later).
        case needMore
        /// Not an image of a format the probe reads (HTML served as `image/png`, a truncated header…).
        case notAnImage
    }

    /// How many bytes of a body are enough for every format but a JPEG with large metadata segments before
    /// its frame header: 64 KiB.
    package static let typicalPrefix = 64 * 1024

    /// Probes `bytes`, the start of a body; `complete`: they are the whole body (a header cut short is then no
    /// image rather than a reason to read more).
    public static func probe(_ bytes: Span<UInt8>, complete: Bool = false) -> Result {
        bytes.withUnsafeBufferPointer { probe($0, complete: complete) }
    }

    /// `probe(_:complete:)` on a buffer (the fetcher's body).
    package static func probe(_ bytes: UnsafeBufferPointer<UInt8>, complete: Bool = false) -> Result {
        let result = probeFormats(bytes)
        if case .needMore = result, complete {
            if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
                return .image(ImageInfo(format: .jpeg, width: nil, height: nil))
            }
            return .notAnImage
        }
        return result
    }

    /// ``probe(_:complete:)`` on any bytes.
    public static func probe(_ bytes: [UInt8], complete: Bool = false) -> Result {
        bytes.withUnsafeBufferPointer { probe($0, complete: complete) }
    }

    private static func probeFormats(_ b: UnsafeBufferPointer<UInt8>) -> Result {
        if b.count < 12 { return couldStart(b) ? .needMore : .notAnImage }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png(b) }
        if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) {
            return .image(ImageInfo(format: .gif, width: le16(b, 6), height: le16(b, 8)))
        }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return jpeg(b) }
        if b.starts(with: Array("RIFF".utf8)), matches(b, at: 8, "WEBP") { return webp(b) }
        if matches(b, at: 4, "ftyp") { return avif(b) }
        return svg(b)
    }

    /// Whether fewer than 12 bytes could be the start of a format read here.
    private static func couldStart(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let signatures: [[UInt8]] = [
            [0x89, 0x50, 0x4E, 0x47], Array("GIF8".utf8), [0xFF, 0xD8], Array("RIFF".utf8), Array("<".utf8),
        ]
        return b.isEmpty || signatures.contains { sig in zip(b, sig).allSatisfy { $0 == $1 } }
            || (b.count > 4 && matches(b, at: 4, "ftyp"))
    }

    private static func png(_ b: UnsafeBufferPointer<UInt8>) -> Result {
        guard b.count >= 24 else { return .needMore }
        guard matches(b, at: 12, "IHDR") else { return .notAnImage }
        return .image(ImageInfo(format: .png, width: be32(b, 16), height: be32(b, 20)))
    }

    /// Walks the segments by their lengths to the first start-of-frame marker.
    private static func jpeg(_ b: UnsafeBufferPointer<UInt8>) -> Result {
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return .notAnImage }
            let marker = b[i + 1]
            if marker == 0xFF {  // fill bytes
                i += 1
                continue
            }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {  // no length
                i += 2
                continue
            }
            let length = be16(b, i + 2)
            guard length >= 2 else { return .notAnImage }
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard i + 9 <= b.count else { return .needMore }
                return .image(ImageInfo(format: .jpeg, width: be16(b, i + 7), height: be16(b, i + 5)))
            }
            if marker == 0xDA || marker == 0xD9 { break }  // scan data or the end, with no frame header
            i += 2 + length
        }
        return i + 4 > b.count ? .needMore : .image(ImageInfo(format: .jpeg, width: nil, height: nil))
    }

    private static func webp(_ b: UnsafeBufferPointer<UInt8>) -> Result {
        guard b.count >= 30 else { return .needMore }
        if matches(b, at: 12, "VP8 ") {
            return .image(ImageInfo(format: .webp, width: le16(b, 26) & 0x3FFF, height: le16(b, 28) & 0x3FFF))
        }
        if matches(b, at: 12, "VP8L") {
            guard b[20] == 0x2F else { return .notAnImage }
            let bits = UInt32(b[21]) | UInt32(b[22]) << 8 | UInt32(b[23]) << 16 | UInt32(b[24]) << 24
            return .image(ImageInfo(format: .webp, width: Int(bits & 0x3FFF) + 1, height: Int(bits >> 14 & 0x3FFF) + 1))
        }
        if matches(b, at: 12, "VP8X") {
            let width = Int(b[24]) | Int(b[25]) << 8 | Int(b[26]) << 16
            let height = Int(b[27]) | Int(b[28]) << 8 | Int(b[29]) << 16
            return .image(ImageInfo(format: .webp, width: width + 1, height: height + 1))
        }
        return .notAnImage
    }

    /// An ISO-BMFF file whose brand is AVIF: the size is the first `ispe` property.
    private static func avif(_ b: UnsafeBufferPointer<UInt8>) -> Result {
        let brands = b[8..<min(b.count, 8 + max(4, be32(b, 0) - 8))]
        let isAVIF = stride(from: brands.startIndex, to: brands.endIndex - 3, by: 4).contains {
            matches(b, at: $0, "avif") || matches(b, at: $0, "avis")
        }
        guard isAVIF else { return .notAnImage }
        var i = 8
        while i + 16 <= b.count {
            if matches(b, at: i, "ispe") {
                return .image(ImageInfo(format: .avif, width: be32(b, i + 8), height: be32(b, i + 12)))
            }
            i += 1
        }
        return .needMore
    }

    /// `<svg …>` after an optional BOM, white space, XML declaration, comments and doctype, within the
    /// first 4 KiB: its `width` and `height` when they are numbers (or pixels), else its `viewBox`.
    private static func svg(_ b: UnsafeBufferPointer<UInt8>) -> Result {
        let window = b.prefix(4096)
        guard
            let text = String(validating: window, as: UTF8.self)
                ?? String(validating: window.dropLast(3), as: UTF8.self)
        else { return .notAnImage }
        var rest = Substring(text)
        if rest.hasPrefix("\u{FEFF}") { rest = rest.dropFirst() }
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("<?") || rest.hasPrefix("<!") {
                let close = rest.hasPrefix("<!--") ? "-->" : ">"
                guard let end = rest.firstRange(of: close) else { return b.count < 4096 ? .needMore : .notAnImage }
                rest = rest[end.upperBound...]
                continue
            }
            break
        }
        guard rest.hasPrefix("<svg"), rest.dropFirst(4).first.map({ $0.isWhitespace || $0 == ">" }) ?? false else {
            return rest.count < 5 && b.count < 4096 ? .needMore : .notAnImage
        }
        guard let close = rest.firstIndex(of: ">") else { return b.count < 4096 ? .needMore : .notAnImage }
        let tag = rest[..<close]
        var width = attribute("width", in: tag).flatMap(pixels)
        var height = attribute("height", in: tag).flatMap(pixels)
        if width == nil || height == nil, let box = attribute("viewBox", in: tag) {
            let parts = box.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
            if parts.count == 4, parts[2] > 0, parts[3] > 0, parts[2] < 1e6, parts[3] < 1e6 {
                width = width ?? Int(parts[2].rounded())
                height = height ?? Int(parts[3].rounded())
            }
        }
        return .image(ImageInfo(format: .svg, width: width, height: height))
    }

    /// The value of `name="…"` (or `'…'`) in a start tag.
    private static func attribute(_ name: String, in tag: Substring) -> Substring? {
        var search = tag[...]
        while let found = search.firstRange(of: name) {
            let before = tag[..<found.lowerBound].last
            var after = tag[found.upperBound...].drop { $0 == " " }
            search = tag[found.upperBound...]
            guard before.map({ $0.isWhitespace }) ?? false, after.first == "=" else { continue }
            after = after.dropFirst().drop { $0 == " " }
            guard let quote = after.first, quote == "\"" || quote == "'" else { continue }
            let value = after.dropFirst()
            guard let end = value.firstIndex(of: quote) else { return nil }
            return value[..<end]
        }
        return nil
    }

    /// `120`, `120px`, `120.5` as whole pixels; nil for percentages and other units.
    private static func pixels(_ value: Substring) -> Int? {
        let number = value.hasSuffix("px") ? value.dropLast(2) : value
        guard let v = Double(number.drop(while: { $0 == " " })), v > 0, v < 1e6 else { return nil }
        return Int(v.rounded())
    }

    // MARK: Bytes

    private static func matches(_ b: UnsafeBufferPointer<UInt8>, at i: Int, _ tag: StaticString) -> Bool {
        guard i >= 0, i + tag.utf8CodeUnitCount <= b.count else { return false }
        return tag.withUTF8Buffer { t in (0..<t.count).allSatisfy { b[i + $0] == t[$0] } }
    }

    private static func le16(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func be16(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    private static func be32(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }
}
