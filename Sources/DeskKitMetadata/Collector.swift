/// What the SAX callbacks gather from a page, raw, with the caps of ``ExtractionLimits``.
final class Collector {
    /// A `<meta>` tag with content, its names read once: every pass over the metas looks at them.
    struct Meta {
        /// The names of its `property=` (RDFa allows several), lowercased; empty without one.
        var properties: [String]
        /// Its `name=`, lowercased.
        var name: String?
        var itemprop: String?
        var content: String?
    }

    /// `firstP` and `pAfterH1` are paragraphs that read as prose (``TextCleaning/isSentenceLike(_:)``) and are
    /// not mostly links; `shortP` and `shortPAfterH1` are the first visible paragraphs that are not, the
    /// last resort.
    enum CaptureKind: Int, CaseIterable {
        case title, h1, firstP, pAfterH1, shortP, shortPAfterH1, postTitle, descriptionID, jsonLD, bodyText, noscript
    }

    /// The first text of each kind (an array indexed by kind: looked up at every tag of the body).
    struct Texts {
        private var values = [String?](repeating: nil, count: CaptureKind.allCases.count)
        subscript(kind: CaptureKind) -> String? {
            get { values[kind.rawValue] }
            set { values[kind.rawValue] = newValue }
        }
    }

    struct Capture {
        var kind: CaptureKind
        var depth: Int
        var bytes: [UInt8] = []
        /// How many of the bytes are link text.
        var linkBytes = 0
    }

    let limits: ExtractionLimits
    // Every event of the page reads and writes this state: its run-time exclusivity checks (a class's
    // properties are checked on each access) cost a few percent of extraction, and it is touched only by
    // the parser that owns the collector, on one thread, never while another access is open.
    @exclusivity(unchecked) var metas: [Meta] = []
    @exclusivity(unchecked) var canonical: String?
    @exclusivity(unchecked) var alternateDefault: String?
    /// The oEmbed discovery links: `application/json+oembed`, and `text/xml+oembed` for when there is no JSON one.
    @exclusivity(unchecked) var oEmbedJSON: String?
    @exclusivity(unchecked) var oEmbedXML: String?
    @exclusivity(unchecked) var baseHref: String?
    @exclusivity(unchecked) var icons: [PageMetadata.Icon] = []
    @exclusivity(unchecked) var texts = Texts()
    @exclusivity(unchecked) var jsonLD: [String] = []
    @exclusivity(unchecked) var firstImage: String?
    @exclusivity(unchecked) var imageAfterH1: String?
    /// What the page shows of its nature (its texts are filled in from ``texts`` at the end).
    @exclusivity(unchecked) var signals = PageSignals()

    @exclusivity(unchecked) var depth = 0
    @exclusivity(unchecked) var svgDepth = 0
    /// What of the body is visible: the depth of the hidden element the parser is in (its text is not
    /// read), and how many links it is in.
    @exclusivity(unchecked) var hiddenFrom: Int?
    @exclusivity(unchecked) var linkDepth = 0
    /// The depth of the `<noscript>` the parser is in: its text is no text of the page's.
    @exclusivity(unchecked) var noscriptFrom: Int?
    /// The depth of the consent platform's dialog the parser is in (`PageSignals.consentTextBytes`).
    @exclusivity(unchecked) var consentFrom: Int?
    /// How many `<article>` elements the parser is in, and the paragraph of one being read: its depth and the
    /// visible text before it (`PageSignals.articleParagraphs`).
    @exclusivity(unchecked) var articleDepth = 0
    @exclusivity(unchecked) var articleParagraph: (depth: Int, textBefore: Int)?
    /// `PageSignals.textStart` and `PageSignals.scriptText` as they are read.
    @exclusivity(unchecked) var textStart: [UInt8] = []
    @exclusivity(unchecked) var scriptBytes: [UInt8] = []
    /// A tag came since the last text: the next text of ``textStart`` is a piece of its own.
    @exclusivity(unchecked) var elementBetween = false
    /// In an inline script (libxml2 gives its text), and whether its first text is still to come; where
    /// in ``scriptBytes`` the script being read starts.
    @exclusivity(unchecked) var inlineScript = false
    @exclusivity(unchecked) var scriptStarts = false
    @exclusivity(unchecked) var scriptStartAt = 0
    /// The body-text fallback: the text of the block being read, and how much of it is link text.
    @exclusivity(unchecked) var block: [UInt8] = []
    @exclusivity(unchecked) var blockLinkBytes = 0
    @exclusivity(unchecked) var sawH1 = false
    @exclusivity(unchecked) var headDone = false
    @exclusivity(unchecked) var captures: [Capture] = []
    /// Set when the parser has what it needs: the run stops at that very event (``PushParse``), however
    /// the page was cut into chunks.
    @exclusivity(unchecked) var done = false

    // What the reading still needs: Collector+Stopping.swift.

    /// Which preview fields the head left without a value (decided once, at the end of the head).
    @exclusivity(unchecked) var needTitle = true
    @exclusivity(unchecked) var needDescription = true
    @exclusivity(unchecked) var needImage = true
    /// Whether the body is read on after the head filled every preview field, as far as a page without head
    /// metadata is read: a head that reads like a sign-in page's (``RefusalCheck/headReadsAsSignIn(titles:description:)``)
    /// is a wall or not by what the body has besides.
    @exclusivity(unchecked) var readsBodyForRefusal = false
    /// How much of the body had been read when there was a title and a description.
    @exclusivity(unchecked) var textInHandAt: Int?

    init(limits: ExtractionLimits) { self.limits = limits }

    // MARK: SAX events

    /// A start tag and its attributes, read only as far as asked.
    func start(_ tag: Tag, _ attribute: StartTagAttributes) {
        depth += 1
        elementBetween = true
        if headDone {
            bodyRead += 16
            visibilityStart(tag, attribute)
        }
        switch tag {
        case .svg, .math: svgDepth += 1
        case .body: endOfHead()
        case .meta: if !headDone || needsAny { meta(attribute) }
        case .link: link(attribute)
        case .base: if baseHref == nil { baseHref = attribute["href"] }
        case .title:
            if svgDepth == 0, texts[.title] == nil, !capturing(.title) { capture(.title) }
        case .script:
            let isJSONLD = attribute["type"]?.lowercased().hasPrefix("application/ld+json") == true
            if isJSONLD, jsonLD.count < 4 { capture(.jsonLD) }
            if let src = attribute["src"] {
                if signals.scriptSources.count < PageSignals.maxSources { signals.scriptSources.append(src) }
            } else if !isJSONLD {
                (inlineScript, scriptStarts) = (true, true)
            }
        case .noscript:
            if texts[.noscript] == nil, !capturing(.noscript) { capture(.noscript) }
            if noscriptFrom == nil { noscriptFrom = depth }
        case .form:
            if signals.formActions.count < PageSignals.maxSources, let action = attribute["action"] {
                signals.formActions.append(action)
            }
        case .iframe:
            if signals.frameSources.count < PageSignals.maxSources, let src = attribute["src"] {
                signals.frameSources.append(src)
            }
        case .input:
            // A password field, or a one-time code's (a sign-in by a code sent by text or e-mail).
            if attribute.value(of: "type", is: "password") || attribute.value(of: "autocomplete", is: "one-time-code") {
                signals.passwordFields += 1
            } else if attribute.tokens(of: "type", include: Self.dateTypes, ignoringCase: true)
                || attribute.tokens(of: "autocomplete", include: Self.birthDate, ignoringCase: true)
            {
                if consentFrom == nil { signals.choiceFields += 3 }
            } else if attribute.tokens(of: "type", include: Self.choiceTypes, ignoringCase: true)
                || attribute.tokens(of: "autocomplete", include: Self.birthDateParts, ignoringCase: true)
            {
                if consentFrom == nil { signals.choiceFields += 1 }
            } else if attribute["type"].map({ Self.typesToFill.contains($0.lowercased()) }) ?? true {
                signals.fieldsToFill += 1
            }
        case .select:
            if consentFrom == nil { signals.choiceFields += 1 }
        case .textarea:
            signals.fieldsToFill += 1
        case .appRoot:
            if signals.appRoot == nil { signals.appRoot = "app-root" }
        case .h1:
            if texts[.h1] == nil, !capturing(.h1) { capture(.h1) }
            sawH1 = true
        case .article:
            articleDepth += 1
        case .p where hiddenFrom == nil:
            if articleDepth > 0, articleParagraph == nil { articleParagraph = (depth, signals.visibleTextBytes) }
            if texts[.firstP] == nil, !capturing(.firstP) { capture(.firstP) }
            if sawH1, texts[.pAfterH1] == nil, !capturing(.pAfterH1) { capture(.pAfterH1) }
        case .img, .image:
            if !sawH1, signals.logoNames.count < 4, let alt = attribute["alt"], !TextCleaning.isBlank(alt) {
                signals.logoNames.append(String(alt.prefix(120)))
            }
            if imageAfterH1 == nil, let src = attribute["src"], Self.looksLikeImageFile(src) {
                if firstImage == nil { firstImage = src }
                if sawH1 { imageAfterH1 = src }
            }
        default: break
        }
        if !headDone || needTitle, texts[.postTitle] == nil, !capturing(.postTitle),
            attribute.tokens(of: "class", include: Self.postTitleClasses)
        {
            capture(.postTitle)
        }
        if !headDone || needDescription, texts[.descriptionID] == nil, !capturing(.descriptionID),
            attribute.value(of: "id", is: "description")
        {
            capture(.descriptionID)
        }
        if !headDone || bodyRead < PageSignals.maxMarkerBody { lookForMarkers(attribute) }
        if headDone { checkBodyNeeds() }
    }

    /// The element's id and classes that the refusal table names, and the id of an app's mount point.
    private func lookForMarkers(_ attribute: StartTagAttributes) {
        guard signals.markers.count < PageSignals.maxSources else { return }
        attribute.tokens(of: "id", whole: true, in: RefusalSignatures.elementIDs) { i in
            let id = RefusalSignatures.elementIDs.names[i]
            if RefusalSignatures.isAppRoot(id) {
                if signals.appRoot == nil { signals.appRoot = id }
            } else if !signals.markers.contains("#" + id) {
                signals.markers.append("#" + id)
            }
            if consentFrom == nil, RefusalSignatures.isConsentDialog("#" + id) { consentFrom = depth }
        }
        attribute.tokens(of: "class", whole: false, in: RefusalSignatures.elementClasses) { i in
            let marker = "." + RefusalSignatures.elementClasses.names[i]
            if !signals.markers.contains(marker) { signals.markers.append(marker) }
            if consentFrom == nil, RefusalSignatures.isConsentDialog(marker) { consentFrom = depth }
        }
        // AngularJS's root: on `<html>`, `<body>` or an element just inside it (looked for there only).
        if signals.appRoot == nil, depth <= 3, attribute["ng-app"] != nil || attribute["data-ng-app"] != nil {
            signals.appRoot = "ng-app"
        }
    }

    /// How much of the body has been read: its text bytes plus 16 per tag. Counted from the events, so
    /// the parser stops at the same place however the page was cut into chunks.
    @exclusivity(unchecked) var bodyRead = 0

    func end(_ tag: Tag) {
        elementBetween = true
        if headDone { visibilityEnd(tag) }
        var i = captures.count
        while i > 0 {
            i -= 1
            guard captures[i].depth >= depth else { continue }
            let c = captures.remove(at: i)
            let text = String(decoding: c.bytes, as: UTF8.self)
            switch c.kind {
            case .jsonLD:
                jsonLD.append(text)
            case .firstP, .pAfterH1:
                guard !isNotice(text) else { continue }  // not the page's words: the next paragraph is read
                if !Self.isMostlyLinks(c.linkBytes, of: c.bytes.count),
                    c.bytes.withUnsafeBufferPointer(TextCleaning.isSentenceLike)
                {
                    texts[c.kind] = text
                } else if !TextCleaning.isBlank(text) {
                    let short: CaptureKind = c.kind == .firstP ? .shortP : .shortPAfterH1
                    if texts[short] == nil { texts[short] = text }
                }
            default:
                if c.kind == .title || !TextCleaning.isBlank(text) { texts[c.kind] = text }
            }
        }
        if let from = noscriptFrom, depth <= from { noscriptFrom = nil }
        if let from = consentFrom, depth <= from { consentFrom = nil }
        if let p = articleParagraph, depth <= p.depth {
            if signals.visibleTextBytes - p.textBefore >= 100 { signals.articleParagraphs += 1 }
            articleParagraph = nil
        }
        depth -= 1
        switch tag {
        case .article: articleDepth = max(0, articleDepth - 1)
        case .script: inlineScript = false
        case .svg, .math: svgDepth = max(0, svgDepth - 1)
        case .head: endOfHead()
        default: break
        }
        if headDone { checkBodyNeeds() }
    }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        if headDone, svgDepth == 0, noscriptFrom == nil, bytes.contains(where: { $0 > 0x20 }) {
            signals.textBytes += bytes.count
            if textStart.count < PageSignals.maxTextStart {
                if elementBetween, let last = textStart.last, last > 0x20, bytes[0] > 0x20 { textStart.append(0x20) }
                elementBetween = false
                textStart.append(contentsOf: bytes.prefix(PageSignals.maxTextStart - textStart.count))
            }
            if hiddenFrom == nil {
                signals.visibleTextBytes += bytes.count
                if linkDepth > 0 { signals.linkTextBytes += bytes.count }
                if consentFrom != nil { signals.consentTextBytes += bytes.count }
            }
        }
        if readsBodyText, hiddenFrom == nil, svgDepth == 0, block.count < limits.maxValueBytes {
            block.append(contentsOf: bytes.prefix(limits.maxValueBytes - block.count))
            if linkDepth > 0 { blockLinkBytes += bytes.count }
        }
        if linkDepth > 0 { for i in captures.indices { captures[i].linkBytes += bytes.count } }
        rawText(bytes)
    }

    /// Text that is not the page's visible text (CDATA sections, script and style content): only the
    /// captures that take raw text (JSON-LD) keep it, and the start of inline scripts.
    func rawText(_ bytes: UnsafeBufferPointer<UInt8>) {
        if headDone { bodyRead += bytes.count }
        if inlineScript {
            scriptText(bytes, starts: scriptStarts)
            scriptStarts = false
        }
        guard !captures.isEmpty else { return }
        for i in captures.indices {
            let cap = captures[i].kind == .jsonLD ? limits.maxJSONLDBytes : limits.maxValueBytes
            let room = cap - captures[i].bytes.count
            if room > 0 { captures[i].bytes.append(contentsOf: bytes.prefix(room)) }
        }
    }

    /// The text of an inline script, from libxml2 or from the ``RawTextSkipper`` that kept it from libxml2:
    /// its first bytes, lowercase (`PageSignals.scriptText`). `starts`: the first text of a script.
    func scriptText(_ bytes: UnsafeBufferPointer<UInt8>, starts: Bool) {
        if starts {
            guard scriptBytes.count < PageSignals.maxScriptText else { return }
            if !scriptBytes.isEmpty { scriptBytes.append(0x0A) }
            scriptStartAt = scriptBytes.count
        }
        let room = min(
            PageSignals.maxScriptText - scriptBytes.count,
            PageSignals.maxScriptStart - (scriptBytes.count - scriptStartAt))
        guard room > 0 else { return }
        for c in bytes.prefix(room) { scriptBytes.append(c >= 0x41 && c <= 0x5A ? c | 0x20 : c == 0x0A ? 0x20 : c) }
    }

    /// Called when parsing ends: text directly in `<body>`, with no element after it, ends its block.
    func finish() {
        if readsBodyText { endBlock() }
    }

    // MARK: Tags

    /// The first encoding a `<meta>` of the head declares (``MetaCharset``), for a parser whose encoding was
    /// only a guess: the HTML standard's "change the encoding".
    @exclusivity(unchecked) private(set) var declaredEncoding: WebEncoding?

    private func meta(_ attribute: StartTagAttributes) {
        if declaredEncoding == nil, !headDone {
            declaredEncoding = MetaCharset.declared(
                charset: attribute["charset"], httpEquiv: attribute["http-equiv"], content: attribute["content"])
        }
        // On the attributes' bytes: a string only for the two metas that are read.
        if signals.refresh == nil, attribute.tokens(of: "http-equiv", include: Self.refresh, ignoringCase: true) {
            signals.refresh = attribute["content"]
        }
        if !signals.noIndex, attribute.tokens(of: "name", include: Self.robots, ignoringCase: true),
            attribute["content"]?.lowercased().contains("noindex") == true
        {
            signals.noIndex = true
        }
        guard metas.count < limits.maxMetaTags, let content = attribute["content"] ?? attribute["value"] else { return }
        metas.append(
            Meta(
                properties: attribute["property"].map(Self.keys) ?? [], name: attribute["name"]?.lowercased(),
                itemprop: attribute["itemprop"], content: content))
    }

    /// A `<link>`: its `rel` tokens are matched on the bytes, and strings are made only for a link kept
    /// (most are style sheets, preloads and feeds).
    private func link(_ attribute: StartTagAttributes) {
        let isCanonical = canonical == nil && attribute.tokens(of: "rel", include: ["canonical"], ignoringCase: true)
        let isAlternate =
            (alternateDefault == nil || oEmbedJSON == nil)
            && attribute.tokens(of: "rel", include: ["alternate"], ignoringCase: true)
        let isIcon = icons.count < 16 && attribute.tokens(of: "rel", include: Self.iconRels, ignoringCase: true)
        // A module an app preloads: its scripts may have no `src` (SvelteKit imports them inline).
        if signals.scriptSources.count < PageSignals.maxSources,
            attribute.tokens(of: "rel", include: ["modulepreload"], ignoringCase: true), let href = attribute["href"]
        {
            signals.scriptSources.append(href)
        }
        if signals.styleSheets.count < PageSignals.maxSources,
            attribute.tokens(of: "rel", include: Self.styleSheet, ignoringCase: true), let href = attribute["href"]
        {
            signals.styleSheets.append(href)
        }
        guard isCanonical || isAlternate || isIcon, let href = attribute["href"] else { return }
        if isCanonical { canonical = href }
        if isAlternate {
            switch attribute["type"]?.lowercased() {
            case "application/json+oembed": if oEmbedJSON == nil { oEmbedJSON = href }
            case "text/xml+oembed": if oEmbedXML == nil { oEmbedXML = href }
            default:
                if alternateDefault == nil, attribute["hreflang"]?.lowercased() == "x-default" {
                    alternateDefault = href
                }
            }
        }
        if isIcon, let rel = attribute["rel"]?.lowercased() {
            icons.append(PageMetadata.Icon(rel: rel, href: href, sizes: attribute["sizes"], type: attribute["type"]))
        }
    }

    private static let iconRels: [StaticString] = ["icon", "apple-touch-icon", "mask-icon"]

    // The attribute values the signals look for, matched on the bytes (``StartTagAttributes/tokens(of:include:ignoringCase:)``).
    private static let refresh: [StaticString] = ["refresh"]
    private static let robots: [StaticString] = ["robots", "googlebot"]
    private static let styleSheet: [StaticString] = ["stylesheet"]
    /// A date: three choices in one field.
    private static let dateTypes: [StaticString] = ["date", "month"]
    private static let birthDate: [StaticString] = ["bday"]
    /// One choice each.
    private static let choiceTypes: [StaticString] = ["checkbox", "radio"]
    private static let birthDateParts: [StaticString] = ["bday-day", "bday-month", "bday-year"]

    /// The `<input>` types a person types into.
    private static let typesToFill: Set<String> = ["text", "email", "tel", "number", "search", "url", ""]

    func capture(_ kind: CaptureKind) { captures.append(Capture(kind: kind, depth: depth)) }

    private func capturing(_ kind: CaptureKind) -> Bool { captures.contains { $0.kind == kind } }

    /// The classes that mark a post's title in blog themes.
    private static let postTitleClasses: [StaticString] = ["post-title", "entry-title"]

    /// The names of a `property=` value, lowercased: RDFa allows several, separated by white space.
    static func keys(_ property: String) -> [String] {
        // Most are one lowercase ASCII name already.
        if !property.isEmpty, property.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x80 && !(0x41...0x5A).contains($0) }) {
            return [property]
        }
        return property.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
    }

    /// Whether the path of `src` (before its query or fragment) ends in an image file's extension. The
    /// path is the first piece of `src` that is not empty before a `?`, then the same before a `#` (a value
    /// like `?x=1` is looked at past its leading `?`).
    static func looksLikeImageFile(_ src: String) -> Bool {
        var src = src
        return src.withUTF8 { b in
            func firstPiece(_ r: Range<Int>, _ separator: UInt8) -> Range<Int> {
                var start = r.lowerBound
                while start < r.upperBound, b[start] == separator { start += 1 }
                var end = start
                while end < r.upperBound, b[end] != separator { end += 1 }
                return start..<end
            }
            let path = firstPiece(firstPiece(0..<b.count, UInt8(ascii: "?")), UInt8(ascii: "#"))
            guard let dot = path.last(where: { b[$0] == UInt8(ascii: ".") }) else { return false }
            let ext = UnsafeBufferPointer(rebasing: b[dot + 1..<path.upperBound])
            return imageExtensions.contains { $0.count == ext.count && zip($0, ext).allSatisfy { $0 == $1 | 0x20 } }
        }
    }

    private static let imageExtensions = ["jpg", "jpeg", "png", "gif", "webp", "avif", "bmp", "svg"].map {
        Array($0.utf8)
    }
}
