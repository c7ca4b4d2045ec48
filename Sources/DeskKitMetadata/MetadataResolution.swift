import DeskKitModel

/// Decides the preview fields from what the collector gathered, by the precedence documented on
/// ``PageMetadata``.
enum MetadataResolution {
    static func resolve(
        _ c: Collector, pageURL: String?, charset: CharsetDecision, bytesParsed: Int, stoppedEarly: Bool
    ) -> PageMetadata {
        let limits = c.limits
        var m = PageMetadata(charset: charset, bytesParsed: bytesParsed, stoppedEarly: stoppedEarly)
        let base = c.baseHref.flatMap { URLResolution.previewURL($0, base: pageURL, maxLength: limits.maxURLLength) }
            .flatMap { URLResolution.split(Substring($0)).scheme == nil ? nil : $0 } ?? pageURL
        m.baseURL = c.baseHref.flatMap { URLResolution.previewURL($0, base: pageURL, maxLength: limits.maxURLLength) }
        func url(_ raw: String?, publicHost: Bool = false) -> String? {
            URLResolution.previewURL(raw, base: base, maxLength: limits.maxURLLength, requirePublicHost: publicHost)
        }
        func text(_ raw: String?, _ limit: Int) -> String? { TextCleaning.clean(raw, limit: limit) }

        // Properties by kind, in document order.
        var named: [String: String] = [:]
        for meta in c.metas {
            guard let content = meta.content else { continue }
            let key = (meta.property ?? meta.name)?.lowercased()
            if let key, key.hasPrefix("og:") {
                appendOpenGraph(key, content, into: &m, limits: limits, url: url)
            } else if let key = [meta.name, meta.property].compactMap({ $0?.lowercased() }).first(where: { $0.hasPrefix("twitter:") }) {
                if let v = text(content, limits.maxDescriptionLength) { m.twitter.append(.init(key: key, value: v)) }
            }
            if let itemprop = meta.itemprop, let v = text(content, limits.maxDescriptionLength) {
                m.itemprops.append(.init(key: itemprop, value: v))
            }
            if let name = meta.name?.lowercased(), named[name] == nil, let v = text(content, limits.maxDescriptionLength) {
                named[name] = v
            }
        }
        func first(_ list: [PageMetadata.Property], _ keys: String...) -> String? {
            for key in keys { if let p = list.first(where: { $0.key == key }) { return p.value } }
            return nil
        }
        let ld = jsonLD(c.jsonLD, limits: limits)
        m.jsonLD = ld

        m.title = [
            first(m.openGraph, "og:title"), first(m.twitter, "twitter:title"), c.texts[.title], named["title"],
            first(m.itemprops, "name", "headline"), first(ld, "headline", "name"), c.texts[.postTitle], c.texts[.h1],
        ].lazy.compactMap { text($0, limits.maxTitleLength) }.first
        m.description = [
            first(m.openGraph, "og:description"), first(m.twitter, "twitter:description"), named["description"],
            first(m.itemprops, "description"), first(ld, "description"), c.texts[.descriptionID], c.texts[.pAfterH1],
            c.texts[.firstP],
        ].lazy.compactMap { text($0, limits.maxDescriptionLength) }.first
        let ogImage = m.images.lazy.compactMap { $0.secureURL ?? $0.url }.first
        m.image = ogImage
            ?? [
                first(m.twitter, "twitter:image", "twitter:image:src"), first(m.itemprops, "image"), first(ld, "image"),
                c.imageAfterH1, c.firstImage,
            ].lazy.compactMap { url($0) }.first
        m.canonicalURL = url(c.canonical)
        m.url = [first(m.openGraph, "og:url"), c.canonical, c.alternateDefault].lazy.compactMap { url($0, publicHost: true) }.first
            ?? pageURL
        m.applicationName = named["application-name"]
        m.themeColor = named["theme-color"]
        m.siteName = [first(m.openGraph, "og:site_name"), m.applicationName, first(ld, "publisher")]
            .lazy.compactMap { text($0, limits.maxSiteNameLength) }.first ?? host(of: pageURL)
        m.type = first(m.openGraph, "og:type")
        m.locale = first(m.openGraph, "og:locale")
        m.icons = c.icons.compactMap { icon in url(icon.href).map { .init(rel: icon.rel, href: $0, sizes: icon.sizes, type: icon.type) } }
        return m
    }

    /// Records an `og:*` property; `og:image` starts an image and its `:…` properties attach to it.
    static func appendOpenGraph(
        _ key: String, _ content: String, into m: inout PageMetadata, limits: ExtractionLimits,
        url: (String?, Bool) -> String?
    ) {
        let isURL = key == "og:image" || key == "og:image:url" || key == "og:image:secure_url" || key == "og:url"
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
        case "og:image:url", "og:image:secure_url", "og:image:width", "og:image:height", "og:image:alt", "og:image:type":
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

    /// Headline, name, description, image and publisher from the head's JSON-LD blocks.
    static func jsonLD(_ blocks: [String], limits: ExtractionLimits) -> [PageMetadata.Property] {
        var out: [PageMetadata.Property] = []
        func add(_ key: String, _ value: String?) {
            if let value, !out.contains(where: { $0.key == key }), let v = TextCleaning.clean(value, limit: limits.maxDescriptionLength) {
                out.append(.init(key: key, value: v))
            }
        }
        func image(_ v: JSONValue?) -> String? {
            switch v {
            case .string(let s)?: return s
            case .array(let a)?: return a.lazy.compactMap { image($0) }.first
            case .object?: return v?["url"]?.stringValue ?? v?["contentUrl"]?.stringValue
            default: return nil
            }
        }
        func visit(_ v: JSONValue, depth: Int) {
            guard depth < 6 else { return }
            switch v {
            case .array(let a): for e in a.prefix(16) { visit(e, depth: depth + 1) }
            case .object(let o):
                add("headline", o["headline"]?.stringValue)
                add("name", o["name"]?.stringValue)
                add("description", o["description"]?.stringValue)
                add("image", image(o["image"]) ?? image(o["thumbnailUrl"]))
                add("publisher", o["publisher"]?["name"]?.stringValue ?? o["publisher"]?.stringValue)
                if let graph = o["@graph"] { visit(graph, depth: depth + 1) }
            default: break
            }
        }
        for block in blocks {
            if let json = try? JSONValue.parse(block) { visit(json, depth: 0) }
        }
        return out
    }

    static func host(of url: String?) -> String? {
        guard let url, let authority = URLResolution.split(Substring(url)).authority else { return nil }
        let host = URLResolution.host(ofAuthority: authority)
        return host.isEmpty ? nil : String(host)
    }
}
