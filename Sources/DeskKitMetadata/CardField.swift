/// A field of a card and the `<meta>` tags that fill it: the one table the collector (has the head filled
/// it?), the resolution (which value wins) and the card builder (was it the page's own tag, or a fallback?
/// is there a field an oEmbed answer should fill?) read.
package enum CardField: CaseIterable, Sendable {
    case title, description, image, siteName

    /// The preview tags (OpenGraph, then Twitter; by `property=` or `name=`) that fill the field, strongest
    /// first. A value from one of these is the page's word for its card.
    package var previewTags: [String] {
        switch self {
        case .title: ["og:title", "twitter:title"]
        case .description: ["og:description", "twitter:description"]
        case .image: ["og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"]
        case .siteName: ["og:site_name"]
        }
    }

    /// The plain `<meta name=…>` that fills the field after the preview tags (and, for the title, after
    /// `<title>`).
    package var metaName: String? {
        switch self {
        case .title: "title"
        case .description: "description"
        case .image, .siteName: nil
        }
    }

    /// The microdata `itemprop`s that fill the field, strongest first.
    package var itemprops: [String] {
        switch self {
        case .title: ["name", "headline"]
        case .description: ["description"]
        case .image: ["image"]
        case .siteName: []
        }
    }
}

extension PageMetadata {
    /// The value of the field's strongest preview tag the page has (OpenGraph before Twitter).
    package func taggedValue(_ field: CardField) -> String? {
        for key in field.previewTags {
            let list = key.hasPrefix("og:") ? openGraph : twitter
            if let property = list.first(where: { $0.key == key && !$0.value.isEmpty }) { return property.value }
        }
        return nil
    }

    /// Whether one of the page's preview tags gives the field.
    package func isTagged(_ field: CardField) -> Bool { taggedValue(field) != nil }
}
