import CLibXML2
import DeskKitJSON
import DeskKitURL

/// An oEmbed answer (oembed.com, section 2.3.4), read from its JSON or XML form, with the fields a preview
/// card uses typed. Its `html` is kept as text to read, never as markup to render: ``htmlText(limit:)`` is what it
/// says, without its tags.
public struct OEmbedDocument: Sendable, Hashable {
    /// The two forms a provider answers in.
    public enum Format: String, Sendable, Hashable {
        /// `application/json+oembed`.
        case json
        /// `text/xml+oembed`.
        case xml
    }

    /// The four kinds of oEmbed resource.
    public enum Kind: String, Sendable, Hashable {
        /// A picture: ``url`` is the image itself.
        case photo
        /// A playable video (``html`` embeds the player).
        case video
        /// A plain link: only the generic fields.
        case link
        /// Anything else a provider embeds as ``html`` (a post, a track, a document).
        case rich
    }

    /// `type`.
    public var type: Kind
    /// `version` (`1.0`), when given.
    public var version: String?
    /// `title`.
    public var title: String?
    /// `author_name`.
    public var authorName: String?
    /// `author_url`.
    public var authorURL: String?
    /// `provider_name`.
    public var providerName: String?
    /// `provider_url`.
    public var providerURL: String?
    /// `thumbnail_url`.
    public var thumbnailURL: String?
    /// `thumbnail_width`, in pixels.
    public var thumbnailWidth: Int?
    /// `thumbnail_height`, in pixels.
    public var thumbnailHeight: Int?
    /// `url`: a photo's image.
    public var url: String?
    /// `width`, in pixels.
    public var width: Int?
    /// `height`, in pixels.
    public var height: Int?
    /// `html`, as the provider wrote it: never rendered, never passed on as markup.
    public var html: String?

    /// A document of `type` with no other field.
    public init(type: Kind) { self.type = type }

    /// Why an oEmbed answer was not read: what is wrong, and which field.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        public var reason: String
        /// The field it is about (`type`, `thumbnail_width`), if one.
        public var field: String?

        /// `reason`, about `field`.
        public init(_ reason: String, field: String? = nil) {
            self.reason = reason
            self.field = field
        }

        /// `title: a number, not a string`, or the reason alone.
        public var description: String { field.map { "\($0): \(reason)" } ?? reason }
    }

    /// Reads an answer in `format`, fetched from `url`: its texts are cleaned and capped as a page's are
    /// (`limits`), its URLs resolved against `url` and kept only when they are http(s).
    public static func parse(
        _ bytes: [UInt8], format: Format, url: String? = nil, limits: ExtractionLimits = .default
    ) throws(Problem) -> OEmbedDocument {
        var d =
            switch format {
            case .json: try parse(json: bytes)
            case .xml: try parse(xml: bytes)
            }
        func link(_ raw: String?) -> String? {
            URLResolution.previewURL(raw, base: url, maxLength: limits.maxURLLength).flatMap {
                $0.hasPrefix("https://") || $0.hasPrefix("http://") ? $0 : nil
            }
        }
        d.title = TextCleaning.clean(d.title, limit: limits.maxTitleLength)
        d.authorName = TextCleaning.clean(d.authorName, limit: limits.maxSiteNameLength)
        d.providerName = TextCleaning.clean(d.providerName, limit: limits.maxSiteNameLength)
        d.authorURL = link(d.authorURL)
        d.providerURL = link(d.providerURL)
        d.thumbnailURL = link(d.thumbnailURL)
        d.url = link(d.url)
        return d
    }

    /// Reads the JSON form, as written (see ``parse(_:format:url:limits:)`` for cleaned fields): an object whose `type` is one of the four kinds; a field the card uses that has
    /// the wrong type (a number for `title`, a string that is no number for `width`) refuses the answer.
    public static func parse(json bytes: [UInt8]) throws(Problem) -> OEmbedDocument {
        let parsed = bytes.withUnsafeBufferPointer { JSONValue.parseResult($0) }
        let object: JSONObject
        switch parsed {
        case .success(.object(let o)): object = o
        case .success(let other): throw Problem("the answer is a JSON \(other.typeName), not an object")
        case .failure(let e): throw Problem("the answer is not JSON (\(e))")
        }
        return try read { key throws(Problem) -> Field? in
            switch object[key] {
            case nil, .null?: return nil
            case .string(let s)?: return .text(s)
            case .integer(let i)?: return .number(Double(i))
            case let value?:
                if let d = value.doubleValue { return .number(d) }
                throw Problem("a \(value.typeName), not a string or a number", field: key)
            }
        }
    }

    /// Reads the XML form, as written: an `<oembed>` root whose children are the fields, each as text. Entities are
    /// not substituted and nothing is fetched (no external entity, no DTD).
    public static func parse(xml bytes: [UInt8]) throws(Problem) -> OEmbedDocument {
        LibXML2.initialize()
        LibXML2.silenceErrors()
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let document = bytes.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { xmlReadMemory($0.baseAddress, Int32(b.count), nil, nil, options) }
        }
        guard let document else { throw Problem("the answer is not XML") }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document), name(of: root) == "oembed" else {
            throw Problem("the XML answer's root is not <oembed>")
        }
        var fields: [String: String] = [:]
        var child = root.pointee.children
        while let node = child {
            if node.pointee.type == XML_ELEMENT_NODE, let key = name(of: node), fields[key] == nil {
                // The field's text: its text and CDATA children (entities are left as written).
                var text: [UInt8] = []
                var part = node.pointee.children
                while let piece = part {
                    if piece.pointee.type == XML_TEXT_NODE || piece.pointee.type == XML_CDATA_SECTION_NODE,
                        let content = piece.pointee.content
                    {
                        text += UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content)))
                    }
                    part = piece.pointee.next
                }
                fields[key] = String(decoding: text, as: UTF8.self)
            }
            child = node.pointee.next
        }
        return try read { key in fields[key].map { .text($0) } }
    }

    private static func name(of node: xmlNodePtr) -> String? {
        node.pointee.name.map { String(cString: $0) }
    }

    private enum Field {
        case text(String)
        case number(Double)
    }

    /// The document from its fields, as `field(key)` gives them.
    private static func read(_ field: (String) throws(Problem) -> Field?) throws(Problem) -> OEmbedDocument {
        func string(_ key: String) throws(Problem) -> String? {
            switch try field(key) {
            case nil: return nil
            case .text(let s): return s
            case .number: throw Problem("a number, not a string", field: key)
            }
        }
        // Sizes: whole numbers of pixels; a provider that writes them as strings ("480") is read too.
        func int(_ key: String) throws(Problem) -> Int? {
            switch try field(key) {
            case nil: return nil
            case .number(let d):
                guard d.isFinite, d >= 0, d < 1e9 else { throw Problem("\(d) is not a size in pixels", field: key) }
                return Int(d)
            case .text(let s):
                let trimmed = s.trimmingCharacters(in: " \t\r\n")
                if trimmed.isEmpty { return nil }
                guard let i = Int(trimmed), i >= 0, i < 1_000_000_000 else {
                    throw Problem("\"\(s.prefix(20))\" is not a size in pixels", field: key)
                }
                return i
            }
        }
        guard let typeName = try string("type") else { throw Problem("missing", field: "type") }
        guard let type = Kind(rawValue: typeName.lowercased()) else {
            throw Problem("\"\(typeName.prefix(20))\" is none of photo, video, link, rich", field: "type")
        }
        var d = OEmbedDocument(type: type)
        d.version = try string("version")
        d.title = try string("title")
        d.authorName = try string("author_name")
        d.authorURL = try string("author_url")
        d.providerName = try string("provider_name")
        d.providerURL = try string("provider_url")
        d.thumbnailURL = try string("thumbnail_url")
        d.thumbnailWidth = try int("thumbnail_width")
        d.thumbnailHeight = try int("thumbnail_height")
        d.url = try string("url")
        d.width = try int("width")
        d.height = try int("height")
        d.html = try string("html")
        return d
    }

    /// The text of ``html`` as a reader sees it — its tags, scripts and styles gone, entities decoded, white
    /// space collapsed — cut at a word boundary after `limit` characters; nil when there is none. Parsed by
    /// libxml2's HTML parser, nothing fetched.
    public func htmlText(limit: Int = ExtractionLimits.default.maxDescriptionLength) -> String? {
        guard let html, !html.isEmpty else { return nil }
        LibXML2.initialize()
        LibXML2.silenceErrors()
        let options = Int32(
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
                | HTML_PARSE_NONET.rawValue)
        let bytes = Array(html.utf8.prefix(256 * 1024))
        let document = bytes.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) {
                htmlReadMemory($0.baseAddress, Int32(b.count), nil, "UTF-8", options)
            }
        }
        guard let document else { return nil }
        defer { xmlFreeDoc(document) }
        var text: [UInt8] = []
        func walk(_ first: xmlNodePtr?) {
            var next = first
            while let node = next, text.count < limit * 4 {
                switch node.pointee.type {
                case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                    if let content = node.pointee.content {
                        text.append(contentsOf: UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))))
                    }
                case XML_ELEMENT_NODE:
                    let tag = Self.name(of: node)?.lowercased() ?? ""
                    if !Self.hiddenTags.contains(tag) {
                        walk(node.pointee.children)
                        if Self.breakingTags.contains(tag) { text.append(0x20) }
                    }
                default:
                    walk(node.pointee.children)
                }
                next = node.pointee.next
            }
        }
        walk(document.pointee.children)
        return TextCleaning.cleanAtWord(String(decoding: text, as: UTF8.self), limit: limit)
    }

    private static let hiddenTags: Set<String> = ["script", "style", "template", "iframe", "noscript", "head"]
    /// Elements whose end parts words (the others, `<a>` or `<b>`, sit inside a word's flow).
    private static let breakingTags: Set<String> = [
        "p", "div", "br", "blockquote", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "th",
        "section", "article", "figure", "figcaption", "header", "footer", "pre", "hr", "dd", "dt", "body",
    ]
}
