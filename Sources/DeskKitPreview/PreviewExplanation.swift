import DeskKitFetchPolicy
import DeskKitMetadata
import DeskKitModel

/// The whole story of one link's card, as `PreviewService.explain(_:language:publicAddressesOnly:)` found it by fetching the
/// link again: each request and the guards' verdicts on it, the page's tags by source and which one each card
/// field came from, the image probe, and the card or the refusal — beside what the cache holds for the link now.
/// `GET /v1/inspect` answers it as JSON (``json(written:)``); `deskkit preview --explain` prints it.
package struct PreviewExplanation: Sendable {
    /// The link asked about.
    package var url: String
    /// What this service's cache holds for the link now: what a message gets until it expires or is forgotten;
    /// nil when it holds nothing.
    package var cached: Result<PreviewCard, FetchError>?
    /// The requests of the fetch, in the order they began: the page's redirects, an oEmbed answer, the image.
    package var hops: [FetchHop]
    /// The page as the parser read it: its tags and the signals the refusal rules read (nil for a file, or when
    /// no page was read).
    package var page: PageMetadata?
    /// The oEmbed answer read, when one was (a provider's description of the link, merged into the card).
    package var oEmbed: OEmbedDocument?
    /// The site's answer to the made-up address asked beside a deep link's page, when one came
    /// (`SiteProbeAnswer`); the request itself is among ``hops``.
    package var siteProbe: SiteProbeAnswer?
    /// The fetch's card, or what stood in the way.
    package var result: Result<PreviewCard, FetchError>
    /// How long the fetch took, whole.
    package var duration: Duration

    /// An explanation of the parts given.
    package init(
        url: String, cached: Result<PreviewCard, FetchError>?, hops: [FetchHop], page: PageMetadata?,
        oEmbed: OEmbedDocument? = nil, siteProbe: SiteProbeAnswer? = nil, result: Result<PreviewCard, FetchError>,
        duration: Duration
    ) {
        self.url = url
        self.cached = cached
        self.hops = hops
        self.page = page
        self.oEmbed = oEmbed
        self.siteProbe = siteProbe
        self.result = result
        self.duration = duration
    }

    /// Where the card's field came from, by name: `og:title`, `twitter:description`, `<title>`,
    /// `meta description`, `json-ld headline`, `itemprop name`, `oembed title` (an oEmbed answer's field),
    /// `file`, `page body` (the body's fallbacks), `host`; nil when the card has no such field.
    package func origin(of field: CardField) -> String? {
        guard case .success(let card) = result else { return nil }
        let value: String?
        let source: PreviewDetails.Source?
        switch field {
        case .title: (value, source) = (card.preview.title, card.details.sources.title)
        case .description: (value, source) = (card.preview.description, card.details.sources.description)
        case .image: (value, source) = (card.preview.image, card.details.sources.image)
        default: (value, source) = (card.preview.siteName, card.details.sources.siteName)
        }
        guard let value, let source else { return nil }
        if source == .oEmbed {
            return oEmbedFields.first { $0.value == value }.map { "oembed \($0.key)" } ?? source.rawValue
        }
        if source == .file { return source.rawValue }
        guard let page else { return source.rawValue }
        let candidates = Self.candidates(of: field, in: page)
        if let tag = candidates.first(where: { $0.value == value }) { return tag.key }
        if field == .siteName, let host = try? WebURL(url).host, value == Self.withoutWWW(host) { return "host" }
        return "page body"
    }

    /// The oEmbed answer's fields a card can take, by their names in the answer.
    var oEmbedFields: [PageMetadata.Property] {
        guard let oEmbed else { return [] }
        let fields: [(String, String?)] = [
            ("type", oEmbed.type.rawValue), ("title", oEmbed.title), ("author_name", oEmbed.authorName),
            ("provider_name", oEmbed.providerName), ("thumbnail_url", oEmbed.thumbnailURL),
        ]
        return fields.compactMap { key, value in value.map { .init(key: key, value: $0) } }
    }

    /// The tags that could give `field`, in the order the precedence reads them.
    static func candidates(of field: CardField, in page: PageMetadata) -> [PageMetadata.Property] {
        func tags(_ keys: [String]) -> [PageMetadata.Property] {
            keys.flatMap { key in (key.hasPrefix("og:") ? page.openGraph : page.twitter).filter { $0.key == key } }
        }
        /// `value` under `name`, when there is one.
        func one(_ name: String, _ value: String?) -> [PageMetadata.Property] {
            value.map { [.init(key: name, value: $0)] } ?? []
        }
        /// The properties of `list` named by one of `keys`, each under `label` and its name.
        func from(_ list: [PageMetadata.Property], _ label: String, _ keys: [String]) -> [PageMetadata.Property] {
            list.filter { keys.contains($0.key) }.map { .init(key: "\(label) \($0.key)", value: $0.value) }
        }
        let itemprops = from(page.itemprops, "itemprop", field.itemprops)
        switch field {
        case .title:
            return tags(field.previewTags) + one("<title>", page.signals.documentTitle) + itemprops
                + from(page.jsonLD, "json-ld", ["headline", "name"]) + one("<h1>", page.signals.heading)
        case .description:
            return tags(field.previewTags) + one("meta description", page.signals.headDescription) + itemprops
                + from(page.jsonLD, "json-ld", ["description"])
        case .image:
            let images = page.images.flatMap {
                one("og:image:secure_url", $0.secureURL) + one("og:image", $0.url)
            }
            return tags(field.previewTags) + images + itemprops + from(page.jsonLD, "json-ld", ["image"])
        default:
            return tags(field.previewTags) + one("application-name", page.applicationName)
                + from(page.jsonLD, "json-ld", ["publisher", "website"])
                + page.twitter.filter { $0.key.hasPrefix("twitter:app:name") || $0.key == "twitter:site" }
                + one("<title>", page.signals.documentTitle)
        }
    }

    private static func withoutWWW(_ host: String) -> String {
        host.lowercased().hasPrefix("www.") ? String(host.dropFirst(4)) : host
    }

    /// What the site's answer to its made-up address shares with the link's page — `title`, `description`,
    /// `image`, `text` — and whether that is all of it (the same page); nil without an answer of 2xx HTML or a page.
    package var siteProbeShared: (parts: [String], same: Bool)? {
        guard let answer = siteProbe?.page, let page else { return nil }
        let parts = PagePrint(page).shared(with: answer)
        return (parts, parts.count == 4)
    }

    /// The explanation as JSON: `{"url", "milliseconds", "cache", "hops", "tags", "origins", "signals",
    /// "site_probe", "image", "refusal", "card", "details"}` (the keys are described in the server's OpenAPI document under
    /// `Inspection`). `card` is the `SENDBIRD_DESK_URL_PREVIEW` payload as written — pass the server's own
    /// (with its image proxy) as `written`.
    package func json(written: PreviewCard? = nil) -> JSONValue {
        func string(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
        func int(_ v: Int?) -> JSONValue { v.map { .integer(Int64($0)) } ?? .null }
        func properties(_ list: [PageMetadata.Property]) -> JSONValue {
            .array(list.map { ["key": .string($0.key), "value": .string($0.value)] })
        }
        func answer(_ result: Result<PreviewCard, FetchError>) -> JSONValue {
            switch result {
            case .success(let card): ["card": RichPayload.urlPreview(card.preview).json, "error": .null]
            case .failure(let error): ["card": .null, "error": error.json]
            }
        }
        let hops: [JSONValue] = hops.map { hop in
            [
                "purpose": .string(hop.purpose.rawValue), "url": .string(hop.url),
                "site_policy": [
                    "verdict": .string(hop.sitePolicyRefusal == nil ? "allowed" : "refused"),
                    "detail": string(hop.sitePolicyRefusal),
                ],
                "address": [
                    "verdict": .string(
                        hop.addressRefusal != nil ? "refused" : hop.address != nil ? "allowed" : "not_reached"),
                    "ip": string(hop.address), "detail": string(hop.addressRefusal),
                ],
                "status": int(hop.status), "content_type": string(hop.contentType),
                "redirect_to": string(hop.redirect),
                "charset": [
                    "declared": string(hop.declaredCharset), "decided": string(hop.charset?.name),
                    "source": string(hop.charset?.source.rawValue),
                ],
                "bytes": int(hop.bytesRead),
                "milliseconds": hop.duration.map { Self.milliseconds($0) } ?? .null,
                "error": string(hop.error),
            ]
        }
        var tags: JSONValue = .null
        var signals: JSONValue = .null
        if page == nil, oEmbed != nil {
            tags = [
                "opengraph": [], "twitter": [], "json_ld": [], "itemprop": [], "document": [],
                "oembed": properties(oEmbedFields), "oembed_link": .null,
            ]
        }
        if let page {
            let s = page.signals
            var document: [PageMetadata.Property] = []
            if let title = s.documentTitle { document.append(.init(key: "title", value: title)) }
            if let description = s.headDescription { document.append(.init(key: "description", value: description)) }
            if let heading = s.heading { document.append(.init(key: "h1", value: heading)) }
            if let canonical = page.canonicalURL { document.append(.init(key: "canonical", value: canonical)) }
            if let name = page.applicationName { document.append(.init(key: "application-name", value: name)) }
            tags = [
                "opengraph": properties(page.openGraph), "twitter": properties(page.twitter),
                "json_ld": properties(page.jsonLD), "itemprop": properties(page.itemprops),
                "document": properties(document), "oembed": properties(oEmbedFields),
                "oembed_link": string(page.oEmbed?.url),
            ]
            signals = [
                "charset": string(page.charset.name), "charset_source": string(page.charset.source.rawValue),
                "bytes_parsed": int(page.bytesParsed), "stopped_at_head": .bool(page.stoppedEarly),
                "visible_text_bytes": int(s.visibleTextBytes), "password_fields": int(s.passwordFields),
                "fields_to_fill": int(s.fieldsToFill), "consent_text_bytes": int(s.consentTextBytes),
                "article_paragraphs": int(s.articleParagraphs),
                "json_ld_types": .array(s.jsonLDTypes.map(JSONValue.string)),
                "markers": .array(s.markers.prefix(16).map(JSONValue.string)),
                "form_actions": .array(s.formActions.prefix(8).map(JSONValue.string)),
                "script_sources": .array(s.scriptSources.prefix(16).map(JSONValue.string)),
                "text_start": .string(String(s.textStart.prefix(200))),
            ]
        }
        let card = written ?? (try? result.get())
        var image: JSONValue = .null
        if let card {
            let d = card.details
            image = [
                "url": string(card.preview.image), "type": string(d.imageType?.rawValue), "width": int(d.imageWidth),
                "height": int(d.imageHeight), "dropped": string(d.imageDropped),
                "probe_error": string(d.imageProbeError),
            ]
        }
        var refusal: JSONValue = .null
        if case .failure(let error) = result { refusal = error.json }
        var probe: JSONValue = .null
        if let siteProbe {
            let shared = siteProbeShared
            probe = [
                "url": .string(siteProbe.url), "status": .integer(Int64(siteProbe.status)),
                "final_url": .string(siteProbe.finalURL), "title": string(siteProbe.page?.title),
                "shared": .array((shared?.parts ?? []).map(JSONValue.string)), "same": .bool(shared?.same ?? false),
            ]
        }
        let origins: JSONValue = [
            "title": string(origin(of: .title)), "description": string(origin(of: .description)),
            "image": string(origin(of: .image)), "site_name": string(origin(of: .siteName)),
        ]
        var linkCard: JSONValue = .null
        if let preview = card?.preview, let drawn = LinkCard(preview) {
            var writer = JSONWriter()
            drawn.write(to: &writer)
            linkCard = (try? JSONValue.parse(writer.bytes)) ?? .null
        }
        return [
            "url": .string(url), "milliseconds": Self.milliseconds(duration),
            "cache": cached.map { ["held": true, "answer": answer($0)] } ?? ["held": false, "answer": .null],
            "hops": .array(hops), "tags": tags, "origins": origins, "signals": signals, "site_probe": probe,
            "image": image,
            "refusal": refusal, "card": card.map { RichPayload.urlPreview($0.preview).json } ?? .null,
            "details": card?.details.json ?? .null, "link_card": linkCard,
        ]
    }

    /// `d` in milliseconds, to a tenth, as a JSON number.
    static func milliseconds(_ d: Duration) -> JSONValue {
        let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        return .number("\((ms * 10).rounded() / 10)")
    }
}
