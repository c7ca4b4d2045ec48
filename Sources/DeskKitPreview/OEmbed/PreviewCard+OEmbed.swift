import DeskKitMetadata

extension PreviewCard {
    /// Merges an oEmbed answer into the card. The page's own preview tags stay (they are the site's word for
    /// its card); the answer is better than the page's fallbacks: `title` (else `author_name`),
    /// `provider_name` as the site name, a photo's `url` or the `thumbnail_url` as the image, and the text of
    /// a rich or video answer's `html` as the description (else `author_name`). The `html` itself is never
    /// passed on.
    mutating func merge(_ answer: OEmbedDocument) {
        var sources = details.sources
        if sources.title != .page, let title = answer.title ?? (preview.title == nil ? answer.authorName : nil) {
            preview.title = title
            sources.title = .oEmbed
        }
        if sources.siteName != .page, let provider = answer.providerName {
            preview.siteName = provider
            sources.siteName = .oEmbed
        }
        if sources.image != .page, sources.image != .file,
            let image = answer.type == .photo ? answer.url ?? answer.thumbnailURL : answer.thumbnailURL
        {
            preview.image = image
            sources.image = .oEmbed
            let photo = answer.type == .photo && image == answer.url
            details.imageWidth = photo ? answer.width : answer.thumbnailWidth
            details.imageHeight = photo ? answer.height : answer.thumbnailHeight
        }
        if sources.description != .page, sources.description != .file {
            let text = answer.type == .rich || answer.type == .video ? answer.htmlText() : nil
            if let text {
                preview.description = text
                sources.description = .oEmbed
            } else if preview.description == nil, let author = answer.authorName, author != preview.title {
                preview.description = author
                sources.description = .oEmbed
            }
        }
        details.sources = sources
        details.oEmbedType = answer.type
        details.providerName = answer.providerName
        details.authorName = answer.authorName
    }
}
