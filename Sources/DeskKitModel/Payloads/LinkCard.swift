import DeskKitJSON

/// What a client shows of a URL preview: every decision a renderer needs — the link, the image and its `alt`, the
/// site label, the texts clipped and their direction — and nothing to render. `CardHTML` (DeskKitCards), the web
/// module's `renderPreview` and an iOS app's own views all draw from it, so they show the same card.
///
/// ```swift
/// if let card = LinkCard(preview) {
///     titleLabel.text = card.title?.text
///     titleLabel.textAlignment = card.title?.direction == .rightToLeft ? .right : .natural
/// }
/// ```
public struct LinkCard: Sendable, Hashable {
    /// How long the card's texts may be, in graphemes (what a reader counts as characters).
    public struct Limits: Sendable, Hashable {
        /// The longest title, and site label; a longer one ends in `…`. Default 150.
        public var title: Int
        /// The longest description. Default 300.
        public var description: Int

        /// Limits of at least one grapheme each.
        public init(title: Int = 150, description: Int = 300) {
            self.title = max(1, title)
            self.description = max(1, description)
        }
    }

    /// The direction of a text by its first strong character (the Unicode bidirectional algorithm's rule P2),
    /// so that an Arabic title reads right to left in an English interface.
    public enum Direction: String, Sendable, Hashable {
        /// Its first strong character is left to right (Latin, Cyrillic, CJK…): HTML `dir="ltr"`.
        case leftToRight = "ltr"
        /// Its first strong character is right to left (Hebrew, Arabic…): HTML `dir="rtl"`.
        case rightToLeft = "rtl"
        /// No strong character (digits, punctuation, emoji): it takes the direction around it, HTML `dir="auto"`.
        case neutral = "auto"
    }

    /// A text of the card: trimmed, clipped, with its own direction.
    public struct Text: Sendable, Hashable {
        /// The text to show, ending in `…` when it was clipped.
        public var text: String
        /// The direction to lay it out in, whatever the interface's.
        public var direction: Direction
        /// Whether it was clipped.
        public var isClipped: Bool
    }

    /// What an image's `alt` (its accessibility label) says.
    public enum ImageAlt: Sendable, Hashable {
        /// Beside a title or a description, the image is decoration: `alt=""`, hidden from screen readers.
        case decorative
        /// Alone, the image names the link: the site label.
        case text(String)
        /// Alone without a site label: the interface's own word for an image ("Image", in its language).
        case interfaceImageWord
    }

    /// The card's image.
    public struct Image: Sendable, Hashable {
        /// Its URL, safe to load (``URLSafety``).
        public var url: String
        /// Its size in pixels when the preview carries both sides (1 to ``URLPreview/maxImageSide``): a renderer
        /// sizes the image's box to it before it arrives, so the card does not move. Nil: no size known.
        public var size: (width: Int, height: Int)? {
            guard let width, let height else { return nil }
            return (width, height)
        }
        /// The probed width, with ``height``, or nil.
        public var width: Int?
        /// The probed height, with ``width``, or nil.
        public var height: Int?
        /// What its `alt` says.
        public var alt: ImageAlt
    }

    /// The URL the card opens, safe to open (``URLSafety``); nil: the card is no link.
    public var link: String?
    /// The link's host as a footer shows it (ASCII letters lowercased, no port) under a site label that is the
    /// site's name — a page cannot pass for another by naming itself; nil without a link, or when the site label
    /// is the host already.
    public var host: String?
    /// The image, or nil when the preview has none that is safe to load.
    public var image: Image?
    /// The site label: the site's name, or the link's host when the preview names no site; nil when neither.
    public var site: Text?
    /// The page's title.
    public var title: Text?
    /// The page's description.
    public var description: Text?

    /// The card of `preview`; nil when it has nothing to show (no title, no description and no image safe to
    /// load), as renderers show no card then.
    public init?(_ preview: URLPreview, limits: Limits = Limits()) {
        self.init(
            url: preview.url, siteName: preview.siteName, title: preview.title, description: preview.description,
            image: preview.image, imageWidth: preview.imageWidth, imageHeight: preview.imageHeight, limits: limits)
    }

    /// The card of the URL preview a decoded message carries — Desk's, else Sendbird's own
    /// (``DeskMessage/sendbirdPreview``); nil for other messages and for a preview with nothing to show.
    public init?(_ message: DeskMessage, limits: Limits = Limits()) {
        if case .urlPreview(let preview) = message.content {
            self.init(preview, limits: limits)
        } else if let own = message.sendbirdPreview {
            self.init(own, limits: limits)
        } else {
            return nil
        }
    }

    /// The card of a preview's fields as a client holds them (Sendbird's own `og_tag` and `ogMetaData` among
    /// them): each text trimmed of white space, an empty one absent; the size only with both sides in range.
    public init?(
        url: String?, siteName: String?, title: String?, description: String?, image: String?, imageWidth: Int?,
        imageHeight: Int?, limits: Limits = Limits()
    ) {
        let link = url.flatMap(URLSafety.safeURL)
        self.link = link
        let host = link.map(Self.host(of:))
        self.title = Self.text(title, limit: limits.title)
        self.description = Self.text(description, limit: limits.description)
        if let named = Self.text(siteName, limit: limits.title) {
            site = named
            self.host = host
        } else {
            site = host.flatMap { Self.text($0, limit: limits.title) }
            self.host = nil
        }
        let range = 1...URLPreview.maxImageSide
        if let url = image.flatMap(URLSafety.safeURL) {
            let sized = imageWidth.map(range.contains) == true && imageHeight.map(range.contains) == true
            let alt: ImageAlt =
                self.title != nil || self.description != nil
                ? .decorative : site.map { .text($0.text) } ?? .interfaceImageWord
            self.image = Image(
                url: url, width: sized ? imageWidth : nil, height: sized ? imageHeight : nil, alt: alt)
        } else {
            self.image = nil
        }
        if self.title == nil, self.description == nil, self.image == nil { return nil }
    }

    /// The host of a safe URL: between `//` and the port, path, query or fragment; ASCII letters lowercased.
    private static func host(of url: String) -> String {
        var url = url
        return url.withUTF8 { b in
            var start = 0
            while b[start] != 0x3A { start += 1 }
            start += 3  // "://"
            var end = start
            if b[start] == 0x5B {
                while b[end] != 0x5D { end += 1 }
                end += 1
            } else {
                while end < b.count, b[end] != 0x3A, b[end] != 0x2F, b[end] != 0x3F, b[end] != 0x23 { end += 1 }
            }
            var host = Array(b[start..<end])
            for i in host.indices where (0x41...0x5A).contains(host[i]) { host[i] |= 0x20 }
            return String(decoding: host, as: UTF8.self)
        }
    }

    /// `text` trimmed and clipped to `limit` graphemes (the last an ellipsis when clipped), with its direction;
    /// nil when nothing is left.
    static func text(_ text: String?, limit: Int) -> Text? {
        guard var text else { return nil }
        return text.withUTF8 { clipped($0, limit: limit) }
    }

    /// ``text(_:limit:)`` on the UTF-8 bytes of a string, in one pass: where the text starts and ends untrimmed,
    /// where the untrimmed text before grapheme number `limit` ends (the ellipsis follows it), and whether a
    /// grapheme past the limit is more than white space.
    private static func clipped(_ b: UnsafeBufferPointer<UInt8>, limit: Int) -> Text? {
        var start = -1
        var end = 0
        var kept = 0
        var graphemes = 0
        var previous: UInt32?
        var regionalRun = 0
        var i = 0
        while i < b.count {
            let (v, n) = scalar(b, at: i)
            let trimmed = isTrimmed(v)
            if start < 0 {
                if trimmed {
                    i += n
                    continue
                }
                start = i
            }
            if previous.map({ startsGrapheme(v, after: $0, regionalRun: regionalRun) }) ?? true { graphemes += 1 }
            regionalRun = (0x1F1E6...0x1F1FF).contains(v) ? regionalRun + 1 : 0
            previous = v
            if !trimmed {
                end = i + n
                if graphemes < limit { kept = end }
                // Past the limit only with more than white space after it.
                if graphemes > limit {
                    let shown = String(decoding: b[start..<kept], as: UTF8.self) + "…"
                    return Text(text: shown, direction: direction(of: shown), isClipped: true)
                }
            }
            i += n
        }
        guard start >= 0 else { return nil }
        let shown = String(decoding: b[start..<end], as: UTF8.self)
        return Text(text: shown, direction: direction(of: shown), isClipped: false)
    }

    /// The scalar that starts at `i` in well-formed UTF-8, and its length in bytes.
    @inline(__always)
    private static func scalar(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let lead = UInt32(b[i])
        if lead < 0x80 { return (lead, 1) }
        if lead < 0xE0 { return ((lead & 0x1F) << 6 | UInt32(b[i + 1] & 0x3F), 2) }
        if lead < 0xF0 { return ((lead & 0x0F) << 12 | UInt32(b[i + 1] & 0x3F) << 6 | UInt32(b[i + 2] & 0x3F), 3) }
        return (
            (lead & 0x07) << 18 | UInt32(b[i + 1] & 0x3F) << 12 | UInt32(b[i + 2] & 0x3F) << 6
                | UInt32(b[i + 3] & 0x3F), 4
        )
    }

    /// Whether `s` begins a new grapheme after `previous`: UAX #29's extended grapheme clusters — CR LF, Hangul
    /// syllables, extending and spacing marks, joiners and variation selectors, emoji modifiers and tags, a
    /// character after a zero-width joiner (emoji sequences), regional-indicator pairs (flags) — without the rules
    /// for prepended characters and Indic conjuncts. The same count in every renderer, since all of them take
    /// their texts from the card.
    private static func startsGrapheme(_ v: UInt32, after p: UInt32, regionalRun: Int) -> Bool {
        if p == 0x0D { return v != 0x0A }
        if p == 0x0A || v == 0x0D || v == 0x0A || v < 0x300 { return true }
        if p == 0x200D { return false }
        switch v {
        case 0x200C, 0x200D, 0xFE00...0xFE0F, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F, 0xE0100...0xE01EF: return false
        case 0x1F1E6...0x1F1FF: return regionalRun % 2 == 0
        case 0x1160...0x11FF, 0xD7B0...0xD7FB:  // Hangul vowels and final consonants join a syllable
            return !((0x1100...0x11FF).contains(p) || (0xAC00...0xD7A3).contains(p) || (0xA960...0xA97C).contains(p))
        case 0x1100...0x115F, 0xA960...0xA97C:  // leading consonants after leading consonants
            return !((0x1100...0x115F).contains(p) || (0xA960...0xA97C).contains(p))
        case 0xAC00...0xD7A3:  // a syllable after leading consonants
            return !((0x1100...0x115F).contains(p) || (0xA960...0xA97C).contains(p))
        default: break
        }
        switch v {
        // Blocks without marks, the most written: no table look-up.
        case 0x370...0x482, 0x48A...0x58F, 0x5D0...0x5EA, 0x621...0x64A, 0x671...0x6D3, 0x3041...0x3096,
            0x30A1...0x30FA, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0x1F300...0x1F3FA, 0x1F400...0x1FAFF:
            return true
        default: break
        }
        switch Unicode.Scalar(v)?.properties.generalCategory {
        case .nonspacingMark?, .enclosingMark?, .spacingMark?: return false
        default: return true
        }
    }

    /// White space and the invisible characters a title is padded with.
    private static func isTrimmed(_ v: UInt32) -> Bool {
        // Unicode's White_Space, the byte-order mark and the zero-width space: no table look-up.
        switch v {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
            return true
        default: return false
        }
    }

    /// The direction of the first strong character, skipping what isolates hold (rule P2).
    static func direction(of text: String) -> Direction {
        var isolates = 0
        for s in text.unicodeScalars {
            switch s.value {
            case 0x2066...0x2068:
                isolates += 1
                continue
            case 0x2069:
                isolates = max(0, isolates - 1)
                continue
            default: break
            }
            guard isolates == 0 else { continue }
            if s.value == 0x200F || s.value == 0x61C { return .rightToLeft }
            if s.value == 0x200E { return .leftToRight }
            guard s.value >= 0x41 else { continue }
            if s.isASCII {
                if ("A"..."Z").contains(s) || ("a"..."z").contains(s) { return .leftToRight }
                continue
            }
            switch s.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .spacingMark:
                return isRightToLeftBlock(s.value) ? .rightToLeft : .leftToRight
            default: continue
            }
        }
        return .neutral
    }

    /// The blocks of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic and
    /// their supplements and presentation forms, and the historic ones of the SMP), whose letters are strong
    /// right to left.
    private static func isRightToLeftBlock(_ v: UInt32) -> Bool {
        (0x0590...0x08FF).contains(v) || (0xFB1D...0xFDFF).contains(v) || (0xFE70...0xFEFF).contains(v)
            || (0x10800...0x10FFF).contains(v) || (0x1E800...0x1EFFF).contains(v)
    }
}

extension LinkCard {
    /// Writes the card as JSON — what `deskkit card` prints and the web module's `linkCard` answers:
    /// `{"link", "host", "image": {"url", "width", "height", "alt"}, "site", "title", "description"}`, each text
    /// `{"text", "dir", "clipped"}` or null; `alt` is `""` (decorative), the text, or null (the interface's word).
    public func write(to w: inout JSONWriter) {
        w.member("link", link, first: true)
        w.member("host", host)
        w.member("image")
        if let image {
            w.member("url", image.url, first: true)
            w.member("width", image.width.map { Int64($0) })
            w.member("height", image.height.map { Int64($0) })
            w.member("alt")
            switch image.alt {
            case .decorative: w.write("")
            case .text(let text): w.write(text)
            case .interfaceImageWord: w.raw("null")
            }
            w.raw("}")
        } else {
            w.raw("null")
        }
        Self.write(site, "site", to: &w)
        Self.write(title, "title", to: &w)
        Self.write(description, "description", to: &w)
        w.raw("}")
    }

    private static func write(_ text: Text?, _ key: StaticString, to w: inout JSONWriter) {
        w.member(key)
        guard let text else { return w.raw("null") }
        w.member("text", text.text, first: true)
        w.member("dir", text.direction.rawValue)
        w.member("clipped")
        w.raw(text.isClipped ? "true}" : "false}")
    }
}
