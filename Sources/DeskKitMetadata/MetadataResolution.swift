import DeskKitJSON
import DeskKitURL

/// Decides the preview fields from what the collector gathered, by the precedence documented on
/// ``PageMetadata``.
enum MetadataResolution {
    static func resolve(
        _ c: Collector, pageURL: String?, charset: CharsetDecision, bytesParsed: Int, stoppedEarly: Bool
    ) -> PageMetadata {
        let limits = c.limits
        var m = PageMetadata(charset: charset, bytesParsed: bytesParsed, stoppedEarly: stoppedEarly)
        let base =
            c.baseHref.flatMap { URLResolution.previewURL($0, base: pageURL, maxLength: limits.maxURLLength) }
            .flatMap { URLResolution.split(Substring($0)).scheme == nil ? nil : $0 } ?? pageURL
        m.baseURL = c.baseHref.flatMap { URLResolution.previewURL($0, base: pageURL, maxLength: limits.maxURLLength) }
        func url(_ raw: String?, publicHost: Bool = false) -> String? {
            URLResolution.previewURL(raw, base: base, maxLength: limits.maxURLLength, requirePublicHost: publicHost)
        }
        func text(_ raw: String?, _ limit: Int) -> String? { TextCleaning.clean(raw, limit: limit) }

        // Properties by kind, in document order. OpenGraph by `property=` (RDFa: several names separated by
        // spaces) first, then by `name=`, as the protocol writes it. `named`: the first value of each
        // `name=` (or, without one, `property=`).
        var named: [String: String] = [:]
        var openGraphByName: [(String, String)] = []
        for meta in c.metas {
            guard let content = meta.content else { continue }
            let properties = meta.properties
            let name = meta.name
            for key in properties where key.hasPrefix("og:") {
                appendOpenGraph(key, content, into: &m, limits: limits, url: url)
            }
            if let name, name.hasPrefix("og:") { openGraphByName.append((name, content)) }
            let twitterKey =
                name.flatMap { $0.hasPrefix("twitter:") ? $0 : nil } ?? properties.first { $0.hasPrefix("twitter:") }
            if let key = twitterKey, let v = text(content, limits.maxDescriptionLength) {
                m.twitter.append(.init(key: key, value: v))
            }
            if let itemprop = meta.itemprop, let v = text(content, limits.maxDescriptionLength) {
                m.itemprops.append(.init(key: itemprop, value: v))
            }
            // Only the names read below are kept (their values cleaned); the others cost nothing.
            if let key = name ?? properties.first, namedKeys.contains(key), named[key] == nil,
                let v = text(content, limits.maxDescriptionLength)
            {
                named[key] = v
            }
        }
        for (key, content) in openGraphByName where !m.openGraph.contains(where: { $0.key == key }) {
            appendOpenGraph(key, content, into: &m, limits: limits, url: url)
        }
        var jsonLDTypes: [String] = []
        let ld = jsonLD(c.jsonLD, limits: limits, types: &jsonLDTypes)
        m.jsonLD = ld

        // Each field: its preview tags (``CardField``), the document's title for a title, its plain
        // `<meta name>`, its itemprops, JSON-LD, then the body's fallbacks.
        func plainMeta(_ field: CardField) -> String? { field.metaName.flatMap { named[$0] } }
        func itemprop(_ field: CardField) -> String? { first(m.itemprops, field.itemprops) }
        m.title =
            [
                m.taggedValue(.title), c.texts[.title], plainMeta(.title), itemprop(.title),
                first(ld, "headline", "name"),
                c.texts[.postTitle], c.texts[.h1],
            ].lazy.compactMap { text($0, limits.maxTitleLength) }.first
        m.description =
            [
                m.taggedValue(.description), plainMeta(.description), itemprop(.description), first(ld, "description"),
                c.texts[.descriptionID], c.texts[.pAfterH1], c.texts[.firstP],
            ].lazy.compactMap { text($0, limits.maxDescriptionLength) }.first
            ?? TextCleaning.cleanAtWord(c.texts[.bodyText], limit: limits.maxDescriptionLength)
            ?? [c.texts[.shortPAfterH1], c.texts[.shortP]].lazy.compactMap { text($0, limits.maxDescriptionLength) }
            .first
        // OpenGraph's images are structured (an image's secure URL before its URL); then the other tags.
        let ogImage = m.images.lazy.compactMap { $0.secureURL ?? $0.url }.first
        m.image =
            ogImage
            ?? [m.taggedValue(.image), itemprop(.image), first(ld, "image"), c.imageAfterH1, c.firstImage].lazy
            .compactMap { url($0) }.first
        m.canonicalURL = url(c.canonical)
        m.oEmbed =
            url(c.oEmbedJSON).map { .init(url: $0, format: .json) }
            ?? url(c.oEmbedXML).map { .init(url: $0, format: .xml) }
        m.url =
            [first(m.openGraph, "og:url"), c.canonical, c.alternateDefault].lazy.compactMap {
                url($0, publicHost: true)
            }.first
            ?? pageURL
        m.applicationName = named["application-name"]
        m.themeColor = named["theme-color"]
        m.siteName = siteName(m, named: named, documentTitle: c.texts[.title], pageURL: pageURL, limits: limits)
        m.type = first(m.openGraph, "og:type")
        m.locale = first(m.openGraph, "og:locale")
        m.signals = c.signals
        m.signals.jsonLDTypes = jsonLDTypes
        m.signals.headDescription =
            m.taggedValue(.description) ?? plainMeta(.description) ?? itemprop(.description)
        m.signals.documentTitle = text(c.texts[.title], limits.maxTitleLength)
        m.signals.heading = text(c.texts[.h1], limits.maxTitleLength)
        m.signals.noscript = text(c.texts[.noscript], limits.maxDescriptionLength)
        m.signals.textStart = String(decoding: c.textStart, as: UTF8.self)
        m.signals.scriptText = String(decoding: c.scriptBytes, as: UTF8.self)
        m.icons = c.icons.compactMap { icon in
            url(icon.href).map { .init(rel: icon.rel, href: $0, sizes: icon.sizes, type: icon.type) }
        }
        return m
    }

    /// The `name=` (or, without one, `property=`) values the precedence reads.
    static let namedKeys: Set<String> = [
        "title", "description", "application-name", "theme-color", "apple-mobile-web-app-title", "al:ios:app_name",
        "al:android:app_name", "publisher",
    ]

    /// Records an `og:*` property; `og:image` starts an image and its `:…` properties attach to it.
    static func appendOpenGraph(
        _ key: String, _ content: String, into m: inout PageMetadata, limits: ExtractionLimits,
        url: (String?, Bool) -> String?
    ) {
        let isURL =
            key == "og:image" || key == "og:image:url" || key == "og:image:secure_url" || key == "og:url"
            || key.hasPrefix("og:video") && (key == "og:video" || key.hasSuffix(":url") || key.hasSuffix(":secure_url"))
        let value = isURL ? url(content, false) : TextCleaning.clean(content, limit: limits.maxDescriptionLength)
        guard let value else { return }
        m.openGraph.append(.init(key: key, value: value))
        switch key {
        case "og:image":
            if let last = m.images.last, last.url == nil {
                m.images[m.images.count - 1].url = value  // its :width, :type… came first
            } else if m.images.count < limits.maxImages {
                m.images.append(.init(url: value))
            }
        case "og:image:url", "og:image:secure_url", "og:image:width", "og:image:height", "og:image:alt",
            "og:image:type":
            if m.images.isEmpty { m.images.append(.init()) }
            var image = m.images[m.images.count - 1]
            switch key {
            case "og:image:url": if image.url == nil { image.url = value }
            case "og:image:secure_url": if image.secureURL == nil { image.secureURL = value }
            case "og:image:width": image.width = Int(value)
            case "og:image:height": image.height = Int(value)
            case "og:image:alt": image.alt = value
            default: image.type = value
            }
            m.images[m.images.count - 1] = image
        case "og:video", "og:video:url", "og:video:secure_url":
            if m.videos.count < limits.maxImages { m.videos.append(value) }
        default:
            break
        }
    }

    /// Headline, name, description, image, publisher and website name from the page's JSON-LD blocks.
    /// Objects are read from every block, several in one block, and `@graph` arrays; the article's own
    /// object (any type but the site's, its organisation's or navigation's) is preferred for headline,
    /// name, description and image.
    /// `types` gets the `@type`s of the page's own objects.
    static func jsonLD(_ blocks: [String], limits: ExtractionLimits, types: inout [String]) -> [PageMetadata.Property] {
        var objects: [(object: JSONValue, rank: Int)] = []
        func visit(_ v: JSONValue, depth: Int) {
            guard depth < 6, objects.count < 64 else { return }
            switch v {
            case .array(let a): for e in a.prefix(16) { visit(e, depth: depth + 1) }
            case .object(let o):
                if let rank = JSONLD.rank(of: v) { objects.append((v, rank)) }
                if let graph = o["@graph"] { visit(graph, depth: depth + 1) }
            default: break
            }
        }
        for block in blocks { for value in JSONLD.values(in: block) { visit(value, depth: 0) } }
        // Stable: the page's own objects first, each rank in document order.
        let ordered = objects.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(
            \.element)

        var out: [PageMetadata.Property] = []
        func add(_ key: String, _ value: String?) {
            if let value, !out.contains(where: { $0.key == key }),
                let v = TextCleaning.clean(value, limit: limits.maxDescriptionLength)
            {
                out.append(.init(key: key, value: v))
            }
        }
        for (o, rank) in ordered where rank == JSONLD.contentRank {
            for type in JSONLD.typeNames(o) where types.count < 8 && !types.contains(type) { types.append(type) }
            add("headline", o["headline"]?.stringValue)
            add("name", o["name"]?.stringValue)
            add("description", o["description"]?.stringValue)
            add("image", JSONLD.image(o["image"]) ?? JSONLD.image(o["thumbnailUrl"]))
        }
        for (o, _) in ordered {
            add("publisher", o["publisher"]?["name"]?.stringValue ?? o["publisher"]?.stringValue)
            if JSONLD.isType(o, in: JSONLD.siteTypes) { add("website", o["name"]?.stringValue) }
        }
        return out
    }

    /// The site's name by the precedence documented on ``PageMetadata/siteName``; the host without `www.`
    /// when nothing names the site.
    static func siteName(
        _ m: PageMetadata, named: [String: String], documentTitle: String?, pageURL: String?, limits: ExtractionLimits
    ) -> String? {
        // Each candidate is computed only when those before it gave nothing.
        let candidates: [() -> String?] = [
            { m.taggedValue(.siteName) }, { m.applicationName }, { named["apple-mobile-web-app-title"] },
            { named["al:ios:app_name"] ?? named["al:android:app_name"] },
            { first(m.twitter, "twitter:app:name:iphone", "twitter:app:name:googleplay", "twitter:app:name:ipad") },
            { named["publisher"].flatMap { URLResolution.split(Substring($0)).scheme == nil ? $0 : nil } },
            { first(m.jsonLD, "publisher") }, { first(m.jsonLD, "website") },
            { documentTitle.flatMap { TitleSegments.siteSegment(of: $0, headline: m.title) } },
            { first(m.twitter, "twitter:site").flatMap(twitterHandle) },
        ]
        return candidates.lazy.compactMap { TextCleaning.clean($0(), limit: limits.maxSiteNameLength) }.first
            ?? host(of: pageURL).map { $0.lowercased().hasPrefix("www.") ? String($0.dropFirst(4)) : $0 }
    }

    /// The value of the first property named by one of `keys`, in the order of `keys`.
    static func first(_ list: [PageMetadata.Property], _ keys: String...) -> String? { first(list, keys) }

    static func first(_ list: [PageMetadata.Property], _ keys: [String]) -> String? {
        for key in keys { if let p = list.first(where: { $0.key == key }) { return p.value } }
        return nil
    }

    /// `@name` (or a `twitter.com/name` URL) as the name alone.
    static func twitterHandle(_ value: String) -> String? {
        let name = value.split(separator: "/").last.map { $0.hasPrefix("@") ? $0.dropFirst() : $0 } ?? ""
        guard !name.isEmpty, name.count <= 15,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else {
            return nil
        }
        return String(name)
    }

    static func host(of url: String?) -> String? {
        guard let url, let authority = URLResolution.split(Substring(url)).authority else { return nil }
        let host = URLResolution.host(ofAuthority: authority)
        return host.isEmpty ? nil : String(host)
    }
}
