// When to stop reading: which preview fields the head left empty, and how far the body is read for them.

extension Collector {
    var needsAny: Bool { needTitle || needDescription || needImage }

    func endOfHead() {
        guard !headDone else { return }
        headDone = true
        needTitle = !headFills(.title)
        needDescription = !headFills(.description)
        needImage = !headFills(.image)
        // Only a head that fills every field would end the reading here; the others' bodies are read anyway.
        if !needsAny {
            var titles = texts[.title].map { [$0] } ?? []
            var description: String?
            for m in metas {
                guard let content = m.content, !content.isEmpty else { continue }
                func named(_ keys: [String]) -> Bool {
                    m.properties.contains(where: keys.contains) || m.name.map(keys.contains) == true
                }
                if named(Self.titleMetas) {
                    titles.append(content)
                } else if description == nil, named(Self.descriptionMetas) {
                    description = content
                }
            }
            readsBodyForRefusal = RefusalCheck.headReadsAsSignIn(titles: titles, description: description)
        }
        checkBodyNeeds()
    }

    /// The metas whose content is a title, and a description, for ``RefusalCheck/headReadsAsSignIn(titles:description:)``.
    static let titleMetas = ["og:title", "twitter:title"]
    static let descriptionMetas = ["og:description", "description", "twitter:description"]

    /// Done when each preview field has a value from the head, or the body fallback it needs was found.
    func checkBodyNeeds() {
        if needTitle, texts[.postTitle] != nil || texts[.h1] != nil { needTitle = false }
        if needDescription, texts[.descriptionID] != nil || texts[.pAfterH1] != nil { needDescription = false }
        if needImage, imageAfterH1 != nil { needImage = false }
        if !needsAny, !done, !readsBodyForRefusal {
            done = true
            return
        }
        // Bounded body reading: once there is a title and a description — the first paragraph will do —
        // better fallbacks and an image are looked for only so much further.
        let read = bodyRead
        if textInHandAt == nil, !needTitle,
            !needDescription || texts[.firstP] != nil || texts[.bodyText] != nil || texts[.shortP] != nil
        {
            textInHandAt = read
        }
        if read > limits.maxBodyBytes || textInHandAt.map({ read - $0 > limits.fallbackSearchBytes }) == true {
            done = true
        }
    }

    /// Whether the head gave `field` a value: a `<meta>` of ``CardField``'s table, or `<title>`.
    func headFills(_ field: CardField) -> Bool {
        if field == .title, let t = texts[.title], !TextCleaning.isBlank(t) { return true }
        let tags = field.previewTags
        return metas.contains { m in
            guard m.content?.isEmpty == false else { return false }
            return m.properties.contains(where: tags.contains) || m.name.map(tags.contains) == true
                || (m.name != nil && m.name == field.metaName) || m.itemprop.map(field.itemprops.contains) == true
        }
    }
}
