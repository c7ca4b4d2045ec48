import DeskKitMetadata
import DeskKitModel

/// What a preview knows beyond the five fields of the `SENDBIRD_DESK_URL_PREVIEW` payload: the image's pixel
/// size and type (so a client lays the card out before the image arrives), what a linked file is, the
/// page's charset, and why an image was left out of the card.
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
    /// Why the page's image is not on the card (it is no image, a 1×1 pixel, or could not be fetched).
    public var imageDropped: String?

    /// No details.
    public init() {}

    /// `{"image_width", "image_height", "image_type", "media_type", "content_length", "file_name", "charset",
    /// "charset_source", "image_dropped"}`, each null when unknown.
    public var json: JSONValue {
        func int(_ v: Int?) -> JSONValue { v.map { .integer(Int64($0)) } ?? .null }
        func string(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
        return .object(
            JSONObject([
                .init(key: "image_width", value: int(imageWidth)),
                .init(key: "image_height", value: int(imageHeight)),
                .init(key: "image_type", value: string(imageType?.rawValue)),
                .init(key: "media_type", value: string(mediaType)),
                .init(key: "content_length", value: int(contentLength)),
                .init(key: "file_name", value: string(fileName)),
                .init(key: "charset", value: string(charset?.name)),
                .init(key: "charset_source", value: string(charset?.source.rawValue)),
                .init(key: "image_dropped", value: string(imageDropped)),
            ]))
    }
}

extension PreviewService {
    /// The card of a fetched page with its details; with `probeImage`, the page's image is fetched through
    /// `fetcher` (the same guard and limits as the page, its first bytes only) for its type and size, and
    /// left out of the card when it is no image or a 1×1 pixel, or cannot be fetched.
    public static func card(
        of page: FetchedPage, link: String, probingImageWith fetcher: PageFetcher?
    ) async -> (preview: URLPreview, details: PreviewDetails) {
        var preview = preview(of: page, link: link)
        var details = PreviewDetails()
        details.charset = page.metadata?.charset
        if let media = page.media {
            details.mediaType = media.mediaType
            details.contentLength = media.contentLength
            details.fileName = media.fileName
            details.imageWidth = media.image?.width
            details.imageHeight = media.image?.height
            details.imageType = media.image?.format
        } else if let fetcher {
            await probeImage(of: &preview, into: &details, with: fetcher)
        }
        return (preview, details)
    }

    /// Fetches the image of `preview` through `fetcher` (its first bytes only) and writes its type and size
    /// into `details`; an image that is none, a 1×1 pixel or cannot be fetched is taken off the card, and
    /// `details` says why.
    public static func probeImage(
        of preview: inout URLPreview, into details: inout PreviewDetails, with fetcher: PageFetcher
    )
        async
    {
        guard let image = preview.image, !image.isEmpty else { return }
        do {
            let probed = try await fetcher.fetch(image)
            if let info = probed.media?.image {
                details.imageWidth = info.width
                details.imageHeight = info.height
                details.imageType = info.format
            } else {
                preview.image = nil
                details.imageDropped = "not an image: \(probed.contentType ?? "no Content-Type")"
            }
        } catch {
            preview.image = nil
            details.imageDropped = error.description
        }
    }
}
