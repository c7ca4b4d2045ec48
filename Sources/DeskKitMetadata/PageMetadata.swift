/// What a page says about itself, and the five preview fields decided from it.
public struct PageMetadata: Sendable, Hashable {
    /// og:title > twitter:title > `<title>` > meta title > itemprop name > JSON-LD headline/name >
    /// `.post-title`/`.entry-title` > first `<h1>`.
    public var title: String?
    /// og:description > twitter:description > meta description > itemprop description > JSON-LD description >
    /// `#description` > first `<p>` after the first `<h1>` > first `<p>` > the first block of visible body
    /// text (outside scripts, navigation, headers, footers, asides, forms, headings and hidden elements; a
    /// few words, not mostly links; cut at a word boundary).
    public var description: String?
    /// The first og:image's secure_url > its url > the og:image > twitter:image > itemprop image > JSON-LD
    /// image > the first body `<img>` (after the first `<h1>` when there is one) whose file is an image.
    public var image: String?
    /// og:url > canonical link > `hreflang="x-default"` alternate > the page URL. Candidates that are not
    /// http(s) URLs with a public host are skipped.
    public var url: String?
    /// og:site_name > application-name > apple-mobile-web-app-title > app-link and app-card names
    /// (`al:ios:app_name`, `al:android:app_name`, `twitter:app:name:iphone`, `:googleplay`, `:ipad`) >
    /// `<meta name="publisher">` > JSON-LD publisher name > JSON-LD WebSite name > the site part of
    /// `<title>` (after its last separator, when short and not the headline) > the `twitter:site` handle >
    /// the page's host without `www.`.
    public var siteName: String?

    /// One og:image with its structured properties.
    public struct Image: Sendable, Hashable {
        /// `og:image:url` or the `og:image` itself.
        public var url: String?
        /// `og:image:secure_url`.
        public var secureURL: String?
        /// `og:image:width`, in pixels.
        public var width: Int?
        /// `og:image:height`, in pixels.
        public var height: Int?
        /// `og:image:alt`.
        public var alt: String?
        /// `og:image:type`, a media type.
        public var type: String?
    }

    /// Where a page says its oEmbed document is.
    public struct OEmbedLink: Sendable, Hashable {
        /// The document's URL, resolved against the page.
        public var url: String
        /// Whether the link names the JSON or the XML form.
        public var format: OEmbedDocument.Format

        /// The oEmbed document at `url`, in `format`.
        public init(url: String, format: OEmbedDocument.Format) {
            self.url = url
            self.format = format
        }
    }

    /// An icon link (`icon`, `shortcut icon`, `apple-touch-icon`, `mask-icon`).
    public struct Icon: Sendable, Hashable {
        /// The link's `rel`, as written.
        public var rel: String
        /// The icon's URL, resolved.
        public var href: String
        /// `sizes`, as written (`32x32`, `any`).
        public var sizes: String?
        /// `type`, a media type.
        public var type: String?
    }

    /// The og:images in document order (at most ``ExtractionLimits/maxImages``).
    public var images: [Image] = []
    /// The `og:video` URLs in document order.
    public var videos: [String] = []
    /// `og:type` (`article`, `website`, …).
    public var type: String?
    /// `og:locale`.
    public var locale: String?
    /// Every `og:*` property in document order (at most ``ExtractionLimits/maxMetaTags``), values cleaned.
    public var openGraph: [Property] = []
    /// Every `twitter:*` property, by `name=` or `property=`.
    public var twitter: [Property] = []
    /// Every `itemprop` meta value.
    public var itemprops: [Property] = []
    /// `<link rel="canonical">`, resolved.
    public var canonicalURL: String?
    /// The page's oEmbed discovery link (`<link rel="alternate" type="application/json+oembed">`, else the
    /// `text/xml+oembed` one), resolved.
    public var oEmbed: OEmbedLink?
    /// `<base href>`, resolved against the page URL: what the page's relative URLs are resolved against.
    public var baseURL: String?
    /// `<meta name="application-name">`.
    public var applicationName: String?
    /// `<meta name="theme-color">`.
    public var themeColor: String?
    /// The icon links in document order.
    public var icons: [Icon] = []
    /// Headline, name, description and image of the page's own JSON-LD object, the publisher's name and
    /// the WebSite's name (`website`), when present.
    public var jsonLD: [Property] = []
    /// What the page shows of its nature: the words and parts that tell a bot check, a login, consent or
    /// error page, a parked domain or an empty app shell (``RefusalCheck`` reads them).
    package var signals = PageSignals()
    /// The encoding the page was read with.
    public var charset: CharsetDecision
    /// How many bytes the parser read before it had what it needed.
    public var bytesParsed: Int
    /// Whether parsing stopped before the end of the page (it had what it needed, or read as far into the
    /// body as the limits allow).
    public var stoppedEarly: Bool

    /// A `key` = `value` pair.
    public struct Property: Sendable, Hashable {
        /// The property's name (`og:title`, `twitter:card`, `name`…).
        public var key: String
        /// Its value, cleaned: entities decoded, white space collapsed, capped.
        public var value: String

        /// `key` = `value`.
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }
}

/// Bounds that keep memory and time bounded by these numbers, not by the page.
public struct ExtractionLimits: Sendable, Hashable {
    /// `<meta>` tags kept (a page may have 100,000). Default 1,000.
    public var maxMetaTags: Int = 1_000
    /// og:images kept. Default 10.
    public var maxImages: Int = 10
    /// Longest attribute value or text kept while parsing, in bytes; longer ones are cut. Default 16 KiB.
    public var maxValueBytes: Int = 16 * 1024
    /// Longest JSON-LD block read, in bytes. Default 256 KiB.
    public var maxJSONLDBytes: Int = 256 * 1024
    /// How far past the head the parser reads for body fallbacks. Default 512 KiB.
    public var maxBodyBytes: Int = 512 * 1024
    /// How much more of the body (text bytes, plus 16 per tag) the parser reads for an image and for better
    /// fallbacks once it has a title and a description, the first paragraph counting as one: the picture
    /// and the lead of an article sit near its heading. Default 16 KiB.
    public var fallbackSearchBytes: Int = 16 * 1024
    /// Title length in characters (longer ones end with "…"). Default 300.
    public var maxTitleLength: Int = 300
    /// Description length in characters. Default 1,000.
    public var maxDescriptionLength: Int = 1_000
    /// Site name length in characters. Default 200.
    public var maxSiteNameLength: Int = 200
    /// Longest URL kept, in bytes; longer ones are dropped. Default 2,048.
    public var maxURLLength: Int = 2_048

    /// The default limits (see each property).
    public init() {}
    /// The default limits.
    public static let `default` = ExtractionLimits()
}
