/// What a page shows of its nature beyond its preview fields, gathered by the parser as it reads (no second
/// pass): the words and the parts that tell a bot check, a login or consent form, an error page, a parked
/// domain or an empty app shell from the page a link points to. ``RefusalCheck`` reads them.
///
/// Lists are capped (the first few of each) and only the start of the body is looked through for element
/// markers (``maxMarkerBody``): the pages that stand in for others are small, and a page with metadata of
/// its own costs nothing more.
public struct PageSignals: Sendable, Hashable {
    /// The `<title>`, cleaned.
    public var documentTitle: String?
    /// The first `<h1>`, cleaned.
    public var heading: String?
    /// The first `<noscript>`'s text, cleaned ("You need to enable JavaScript to run this app.").
    public var noscript: String?
    /// The `src` of the first scripts, and the modules preloaded (`<link rel="modulepreload">`), at most
    /// ``maxSources``, as written.
    public var scriptSources: [String] = []
    /// The `src` of the first frames (`<iframe>`), as written.
    public var frameSources: [String] = []
    /// The `action` of the first forms, as written.
    public var formActions: [String] = []
    /// The element ids and classes of the refusal table (<doc:Refusals>) the page holds, as `#id` and `.class`, in
    /// document order, each once.
    public var markers: [String] = []
    /// How many password fields (`<input type="password">`) the page has.
    public var passwordFields = 0
    /// Bytes of visible body text read (outside scripts, forms, navigation and hidden elements; white
    /// space between elements not counted). Counted only as far as the parser read.
    public var visibleTextBytes = 0
    /// The id of the element an app mounts into (`root`, `app`, `__next`…, or an `<app-root>` element).
    public var appRoot: String?

    /// Scripts, frames and forms kept at most, each.
    public static let maxSources = 16
    /// How far into the body (text bytes, plus 16 per tag) element markers are looked for: 64 KiB.
    public static let maxMarkerBody = 64 * 1024

    /// Nothing seen.
    public init() {}
}
