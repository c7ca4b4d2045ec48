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

    /// The card of the URL preview a decoded message carries; nil for other messages and for a preview with
    /// nothing to show.
    public init?(_ message: DeskMessage, limits: Limits = Limits()) {
        guard case .urlPreview(let preview) = message.content else { return nil }
        self.init(preview, limits: limits)
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
        guard let text else { return nil }
        // One pass over the scalars: where the text starts and ends untrimmed, where grapheme number `limit`
        // begins (the ellipsis takes its place), and whether a grapheme after it is more than white space.
        let scalars = text.unicodeScalars
        var start: String.Index?
        var end = scalars.startIndex
        var graphemes = 0
        var cut: String.Index?
        var over = false
        var previous: Unicode.Scalar?
        var regionalRun = 0
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let s = scalars[index]
            let next = scalars.index(after: index)
            if start == nil {
                if isTrimmed(s) {
                    index = next
                    continue
                }
                start = index
            }
            if previous == nil || startsGrapheme(s, after: previous!, regionalRun: regionalRun) {
                graphemes += 1
                if graphemes == limit { cut = index }
            }
            regionalRun = (0x1F1E6...0x1F1FF).contains(s.value) ? regionalRun + 1 : 0
            previous = s
            if !isTrimmed(s) {
                end = next
                // Past the limit only with more than white space after it.
                if graphemes > limit {
                    over = true
                    break
                }
            }
            index = next
        }
        guard let start else { return nil }
        guard over, let cut else {
            let shown = String(scalars[start..<end])
            return Text(text: shown, direction: direction(of: shown), isClipped: false)
        }
        var kept = scalars[start..<cut]
        while let l = kept.last, isTrimmed(l) { kept.removeLast() }
        let shown = String(kept) + "…"
        return Text(text: shown, direction: direction(of: shown), isClipped: true)
    }

    /// Whether `s` begins a new grapheme after `previous`: UAX #29's extended grapheme clusters — CR LF, Hangul
    /// syllables, extending and spacing marks, joiners and variation selectors, emoji modifiers and tags, a
    /// character after a zero-width joiner (emoji sequences), regional-indicator pairs (flags) — without the rules
    /// for prepended characters and Indic conjuncts. The same count in every renderer, since all of them take
    /// their texts from the card.
    private static func startsGrapheme(_ s: Unicode.Scalar, after previous: Unicode.Scalar, regionalRun: Int) -> Bool {
        let v = s.value
        let p = previous.value
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
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: return false
        default: return true
        }
    }

    /// White space and the invisible characters a title is padded with.
    private static func isTrimmed(_ s: Unicode.Scalar) -> Bool {
        s.properties.isWhitespace || s == "\u{FEFF}" || s == "\u{200B}"
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
