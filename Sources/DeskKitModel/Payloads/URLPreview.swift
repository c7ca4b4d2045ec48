/// The body of a `SENDBIRD_DESK_URL_PREVIEW` rich message: what a client needs to draw a link card.
///
/// Reading accepts `site_name` or the Desk preview endpoint's `siteName`; an empty string reads as absent
/// (the official samples write `""` for a missing field). Writing uses `site_name` and `""` for absent
/// fields, which every official client understands.
public struct URLPreview: Sendable, Hashable {
    /// The page the preview is about. Required.
    public var url: String
    /// The site's name (`site_name`).
    public var siteName: String?
    /// The page's title.
    public var title: String?
    /// A sentence or two about the page.
    public var description: String?
    /// An absolute http(s) URL of the preview image.
    public var image: String?
    /// The image's width in pixels (`image_width`), when it was probed: with ``imageHeight`` a client lays the
    /// card out before the image arrives. DeskKit's own addition to the payload; Desk's clients ignore it.
    public var imageWidth: Int?
    /// The image's height in pixels (`image_height`); see ``imageWidth``.
    public var imageHeight: Int?

    /// The largest image side read from a payload, in pixels; a larger one (or one under 1) is no size.
    public static let maxImageSide = 100_000

    /// A preview of `url` with the fields known.
    public init(
        url: String, siteName: String? = nil, title: String? = nil, description: String? = nil, image: String? = nil,
        imageWidth: Int? = nil, imageHeight: Int? = nil
    ) {
        self.url = url
        self.siteName = siteName
        self.title = title
        self.description = description
        self.image = image
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
    }

    /// Sendbird's own preview of a message (``DeskMessage/sendbirdPreview``): the Platform API's `og_tag` or
    /// `@sendbird/chat`'s `ogMetaData`; nil when it has no URL.
    init?(sendbirdOG og: JSONValue) {
        let text = { (key: String) in og[key]?.stringValue }
        let size = { (image: JSONValue?, key: String) -> Int? in
            // A whole number, as JavaScript's Number.isInteger reads one (`1200.0` too).
            // (An integer conversion and back, not `rounded()`: a chat app's build links no libm.)
            guard let n = image?[key]?.doubleValue, abs(n) < 1e15, Double(Int(n)) == n else { return nil }
            return Int(n)
        }
        let platform = og["og:url"] != nil || og["og:title"] != nil || og["og:image"] != nil
        let image = platform ? og["og:image"] : og["defaultImage"]
        guard let url = text(platform ? "og:url" : "url") else { return nil }
        self.init(
            url: url, title: text(platform ? "og:title" : "title"),
            description: text(platform ? "og:description" : "description"),
            image: image?[platform ? "secure_url" : "secureUrl"]?.stringValue ?? image?["url"]?.stringValue,
            imageWidth: size(image, "width"), imageHeight: size(image, "height"))
    }

    /// The `data.type` of URL previews.
    public static let dataType = "SENDBIRD_DESK_URL_PREVIEW"

    /// ``url`` when a client may open it (an http(s) URL with a host, no credentials, no control
    /// characters: ``URLSafety``), else nil. Renderers link to this, never to `url` as written.
    public var safeURL: String? { URLSafety.isSafe(url) ? url : nil }
    /// ``image`` when a client may load it, else nil.
    public var safeImageURL: String? { image.flatMap { URLSafety.isSafe($0) ? $0 : nil } }

    /// Whether the JavaScript widget draws it (it needs `url` and `title`).
    public var isRenderableOnWeb: Bool { !url.isEmpty && title != nil }
    /// Whether the Android widget draws it (it needs `url`, `title` and `image`).
    public var isRenderableOnAndroid: Bool { isRenderableOnWeb && image != nil }

    /// The body as written by ``DeskPayload/encode(_:as:)``: `image_width` and `image_height` follow the five
    /// fields when the image's size is known.
    public var bodyJSON: JSONValue {
        var body: JSONObject = [
            "url": .string(url), "site_name": .string(siteName ?? ""), "title": .string(title ?? ""),
            "description": .string(description ?? ""), "image": .string(image ?? ""),
        ]
        if let (width, height) = imageSize {
            body["image_width"] = .integer(Int64(width))
            body["image_height"] = .integer(Int64(height))
        }
        return .object(body)
    }

    /// The image's size as the payload carries it: both sides, of an image the card has; else nil.
    var imageSize: (width: Int, height: Int)? {
        guard image != nil, let imageWidth, let imageHeight else { return nil }
        return (imageWidth, imageHeight)
    }

    /// Reads the answer of the Desk server's own preview endpoint: `{url, title, siteName, description,
    /// image}`, possibly nested under `data`.
    public init?(previewEndpointResponse json: JSONValue) {
        let object = json["data"]?.objectValue.map(JSONValue.object) ?? json
        var text = object.jsonString
        let preview: URLPreview? = text.withUTF8 { bytes in
            JSONTape.withParsed(bytes, limits: .default) { parsed in
                guard case .success(let tape) = parsed, tape.kind(0) == .object else { return nil }
                var reader = FieldReader()
                let p = URLPreview(body: JSONFields(tape: tape, index: 0, root: "$"), reader: &reader)
                return reader.hasFatalProblem ? nil : p
            }
        }
        guard let preview else { return nil }
        self = preview
    }

    private enum Key: Int, JSONKeys {
        case url, site_name, siteName, title, description, image, image_width, image_height
        static let table = StringTable(
            keys: Self.self, "url site_name siteName title description image image_width image_height")
    }

    init?(body: JSONFields, reader: inout FieldReader) {
        let body = body.fields(Key.self)
        func field(_ key: Key) -> String? {
            let s = reader.string(body, key)
            return s?.isEmpty == true ? nil : s
        }
        let url = reader.string(body, .url, required: true)
        siteName = body[.site_name] != nil ? field(.site_name) : field(.siteName)
        title = field(.title)
        description = field(.description)
        image = field(.image)
        guard let url, !url.isEmpty else { return nil }
        self.url = url
        if let problem = URLSafety.problem(with: url) { reader.report(.unsafeURL, body.path(.url), "\(problem)") }
        if let image, let problem = URLSafety.problem(with: image) {
            reader.report(.unsafeURL, body.path(.image), "\(problem)")
        }
        func side(_ key: Key) -> Int? {
            guard let n = reader.int64(body, key) else { return nil }
            guard n >= 1, n <= Self.maxImageSide else {
                reader.report(.outOfRange, body.path(key), "\(n) pixels, not within 1...\(Self.maxImageSide)")
                return nil
            }
            return Int(n)
        }
        let width = side(.image_width)
        let height = side(.image_height)
        // A size is both sides of an image the card has, or none.
        if image != nil, let width, let height {
            imageWidth = width
            imageHeight = height
        }
    }
}
