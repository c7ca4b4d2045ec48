import DeskKitMetadata
import DeskKitModel

/// A preview card: the fields of the `SENDBIRD_DESK_URL_PREVIEW` payload, and what is known beyond them.
public struct PreviewCard: Sendable, Hashable {
    /// The payload's fields, exactly as Desk reads them.
    public var preview: URLPreview
    /// Everything else: the image's size and type, the oEmbed answer's kind and provider, the file's type and
    /// size, where each field came from.
    public var details: PreviewDetails

    /// A card of `preview` with `details`; the payload carries the image size the details hold.
    public init(preview: URLPreview, details: PreviewDetails = PreviewDetails()) {
        self.preview = preview
        self.details = details
        carryImageSize()
    }

    /// Writes the probed image's size into the payload (`image_width`, `image_height`), so a client reserves the
    /// image's space before it arrives; a card without an image or a size has none.
    mutating func carryImageSize() {
        let sized = preview.image != nil && details.imageWidth != nil && details.imageHeight != nil
        preview.imageWidth = sized ? details.imageWidth : nil
        preview.imageHeight = sized ? details.imageHeight : nil
    }

    /// Takes the image off the card (and its size off the payload), saying why in ``PreviewDetails/imageDropped``.
    package mutating func dropImage(because reason: String) {
        preview.image = nil
        details.sources.image = nil
        details.imageDropped = reason
        carryImageSize()
    }
}

/// What a preview knows beyond the fields of the `SENDBIRD_DESK_URL_PREVIEW` payload: the image's pixel
/// size and type (so a client lays the card out before the image arrives), the oEmbed answer merged into the
/// card, what a linked file is, the page's charset, and where each field came from.
public struct PreviewDetails: Sendable, Hashable {
    /// The card image's pixel width and height and its type, when it was probed.
    public var imageWidth: Int?
    /// See ``imageWidth``.
    public var imageHeight: Int?
    /// See ``imageWidth``.
    public var imageType: ImageInfo.Format?
    /// For a direct link to a file: its media type, size and name.
    public var mediaType: String?
    /// See ``mediaType``.
    public var contentLength: Int?
    /// See ``mediaType``.
    public var fileName: String?
    /// The page's charset and how it was decided.
    public var charset: CharsetDecision?
    /// The oEmbed answer's `type`, when one was merged into the card.
    public var oEmbedType: OEmbedDocument.Kind?
    /// Its `provider_name`.
    public var providerName: String?
    /// Its `author_name`.
    public var authorName: String?
    /// Why an oEmbed answer the page or the provider table pointed to was not used (the card is the page's
    /// own): not JSON, a field of the wrong type, too large, a redirect loop, a refused address…
    public var oEmbedError: String?
    /// Why the page's image is not on the card: it is no image or a 1×1 pixel, it is gone (404, 410), its
    /// address is refused, or it is an icon from the page's body (under 48 pixels on its longer side).
    public var imageDropped: String?
    /// Why the card's image could not be probed, when it was kept unprobed (a time-out, a refused request:
    /// the reader's browser may still load it).
    public var imageProbeError: String?
    /// Where each of the card's fields came from.
    public var sources = Sources()

    /// Where a card field came from.
    public struct Source: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String, CaseIterable { case page, pageFallback = "page_fallback", oEmbed = "oembed", file }
        private let code: Code
        private init(_ code: Code) { self.code = code }

        /// The member named `rawValue`, or nil for a name this version does not know.
        public init?(rawValue: String) {
            guard let code = Code(rawValue: rawValue) else { return nil }
            self.code = code
        }

        /// Its name, short and fixed: what the JSON and the metrics print.
        public var rawValue: String { code.rawValue }
        public var description: String { code.rawValue }

        /// The page's own preview tags (OpenGraph, Twitter cards).
        public static let page = Source(.page)

        /// The page's fallbacks (`<title>`, its text, its first picture, its host name…).
        public static let pageFallback = Source(.pageFallback)

        /// The oEmbed answer.
        public static let oEmbed = Source(.oEmbed)

        /// A linked file's headers (and an image's first bytes).
        public static let file = Source(.file)
    }

    /// The source of each card field that has a value.
    public struct Sources: Sendable, Hashable {
        /// Of `title`.
        public var title: Source?
        /// Of `description`.
        public var description: Source?
        /// Of `image`.
        public var image: Source?
        /// Of `site_name`.
        public var siteName: Source?
        /// None known.
        public init() {}
    }

    /// No details.
    public init() {}

    /// The details that ``json`` wrote (keys it does not know, and values of the wrong type, are passed by).
    public init(json: JSONValue) {
        func int(_ key: String) -> Int? { json[key]?.int64Value.map { Int($0) } }
        func string(_ key: String) -> String? { json[key]?.stringValue }
        func source(_ key: String) -> Source? { json["sources"]?[key]?.stringValue.flatMap(Source.init(rawValue:)) }
        imageWidth = int("image_width")
        imageHeight = int("image_height")
        imageType = string("image_type").flatMap(ImageInfo.Format.init(rawValue:))
        oEmbedType = string("oembed_type").flatMap(OEmbedDocument.Kind.init(rawValue:))
        providerName = string("provider_name")
        authorName = string("author_name")
        mediaType = string("media_type")
        contentLength = int("content_length")
        fileName = string("file_name")
        if let name = string("charset"), let how = string("charset_source").flatMap(CharsetDecision.Source.init) {
            charset = CharsetDecision(name: name, source: how)
        }
        oEmbedError = string("oembed_error")
        imageDropped = string("image_dropped")
        imageProbeError = string("image_probe_error")
        sources.title = source("title")
        sources.description = source("description")
        sources.image = source("image")
        sources.siteName = source("site_name")
    }

    /// `{"image_width", "image_height", "image_type", "oembed_type", "provider_name", "author_name",
    /// "media_type", "content_length", "file_name", "charset", "charset_source", "oembed_error",
    /// "image_dropped", "image_probe_error", "sources": {"title", "description", "image", "site_name"}}`,
    /// each null when unknown.
    public var json: JSONValue {
        func int(_ v: Int?) -> JSONValue { v.map { .integer(Int64($0)) } ?? .null }
        func string(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
        return .object(
            JSONObject([
                .init(key: "image_width", value: int(imageWidth)),
                .init(key: "image_height", value: int(imageHeight)),
                .init(key: "image_type", value: string(imageType?.rawValue)),
                .init(key: "oembed_type", value: string(oEmbedType?.rawValue)),
                .init(key: "provider_name", value: string(providerName)),
                .init(key: "author_name", value: string(authorName)),
                .init(key: "media_type", value: string(mediaType)),
                .init(key: "content_length", value: int(contentLength)),
                .init(key: "file_name", value: string(fileName)),
                .init(key: "charset", value: string(charset?.name)),
                .init(key: "charset_source", value: string(charset?.source.rawValue)),
                .init(key: "oembed_error", value: string(oEmbedError)),
                .init(key: "image_dropped", value: string(imageDropped)),
                .init(key: "image_probe_error", value: string(imageProbeError)),
                .init(
                    key: "sources",
                    value: .object(
                        JSONObject([
                            .init(key: "title", value: string(sources.title?.rawValue)),
                            .init(key: "description", value: string(sources.description?.rawValue)),
                            .init(key: "image", value: string(sources.image?.rawValue)),
                            .init(key: "site_name", value: string(sources.siteName?.rawValue)),
                        ]))),
            ]))
    }
}
