/// What a page shows of its nature beyond its preview fields, gathered by the parser as it reads (no second
/// pass): the words and the parts that tell a bot check, a login or consent form, an error page, a parked
/// domain or an empty app shell from the page a link points to. ``RefusalCheck`` reads them.
///
/// Lists are capped (the first few of each) and only the start of the body is looked through for element
/// markers (``maxMarkerBody``): the pages that stand in for others are small, and a page with metadata of
/// its own costs nothing more.
package struct PageSignals: Sendable, Hashable {
    /// The `<title>`, cleaned.
    package var documentTitle: String?
    /// The first `<h1>`, cleaned.
    package var heading: String?
    /// The first `<noscript>`'s text, cleaned ("You need to enable JavaScript to run this app.").
    package var noscript: String?
    /// The `src` of the first scripts, and the modules preloaded (`<link rel="modulepreload">`), at most
    /// ``maxSources``, as written.
    package var scriptSources: [String] = []
    /// The `src` of the first frames (`<iframe>`), as written.
    package var frameSources: [String] = []
    /// The `action` of the first forms, as written.
    package var formActions: [String] = []
    /// The `href` of the first style sheets (`<link rel="stylesheet">`), as written: a challenge page may be a
    /// title and its vendor's style sheet and nothing else.
    package var styleSheets: [String] = []
    /// The element ids and classes of the refusal table (<doc:Refusals>) the page holds, as `#id` and `.class`, in
    /// document order, each once.
    package var markers: [String] = []
    /// How many password fields (`<input type="password">`) and one-time-code fields (`autocomplete="one-time-code"`)
    /// the page has: the fields of a sign-in.
    package var passwordFields = 0
    /// Bytes of visible body text read (outside scripts, forms, navigation and hidden elements; white
    /// space between elements not counted). Counted only as far as the parser read.
    package var visibleTextBytes = 0
    /// Bytes of all body text read outside `<noscript>`, hidden or not: an article a script reveals (its
    /// wrapper `display: none` until then) has text, an app shell has none.
    package var textBytes = 0
    /// Of ``visibleTextBytes``, the bytes of link text: a parked page's "related searches" are links.
    package var linkTextBytes = 0
    /// The start of the body text outside `<noscript>`, hidden or not, its pieces joined by a space, at most
    /// ``maxTextStart`` bytes: the words of a page whose text is a few words ("blocked by network security.").
    package var textStart = ""
    /// The start of each of the first inline scripts (no `src`), lowercase, one line each, at most
    /// ``maxScriptStart`` bytes of each and ``maxScriptText`` in all: a challenge page is often one inline
    /// script (`window._cf_chl_opt={…}`) and nothing else.
    package var scriptText = ""
    /// The alt texts of the first images before the page's first `<h1>` (a site's logo: its name), at most four.
    package var logoNames: [String] = []
    /// How many choices a person makes without typing: `<select>`s, checkboxes, radio buttons and date fields
    /// (`type="date"` or `"month"`, `autocomplete="bday…"`: a date counts as its three choices, a day, a month and
    /// a year), outside a consent platform's dialog. A gate's form is choices (a date of birth, a country, "I am
    /// over 18") and a button, with nothing to type.
    package var choiceFields = 0
    /// How many fields a person fills in (`<input>` of type text, email, tel, number, search or url, or
    /// without a type, and `<textarea>`): a sign-up or contact form has them, a captcha's page does not.
    package var fieldsToFill = 0
    /// Whether the page asks not to be indexed (`<meta name="robots">` or `googlebot` with `noindex`): its site
    /// says it is no page to be found by its address.
    package var noIndex = false
    /// `<meta http-equiv="refresh">`'s content, as written (`"3;url=https://…"`, `"20"`): the page sends the
    /// reader on, or reloads itself, after a while.
    package var refresh: String?
    /// The id of the element an app mounts into (`root`, `app`, `__next`…, an `<app-root>` element, or
    /// `ng-app` for an element with AngularJS's attribute).
    package var appRoot: String?
    /// Of ``visibleTextBytes``, the bytes inside a consent-management platform's dialog (its container element:
    /// `#onetrust-consent-sdk`, `#didomi-host`, `#CybotCookiebotDialog`…): a page whose text is all there is
    /// that dialog and nothing of its own.
    package var consentTextBytes = 0
    /// The description the page's head gives, not its body: OpenGraph's, the Twitter card's, the plain
    /// `<meta name="description">` or an itemprop's.
    package var headDescription: String?
    /// How many paragraphs of 100 bytes of text or more an `<article>` holds: an article of its own.
    package var articleParagraphs = 0
    /// The `@type`s of the page's own JSON-LD objects (not the site's, its owner's or navigation's), without a
    /// schema.org prefix: `NewsArticle`, `Product`, `HowTo`…
    package var jsonLDTypes: [String] = []

    /// Scripts, frames and forms kept at most, each.
    package static let maxSources = 16
    /// How far into the body (text bytes, plus 16 per tag) element markers are looked for: 64 KiB.
    package static let maxMarkerBody = 64 * 1024
    /// ``textStart`` at most: 512 bytes.
    package static let maxTextStart = 512
    /// ``scriptText`` at most of each inline script: 1 KiB.
    package static let maxScriptStart = 1024
    /// ``scriptText`` at most in all: 4 KiB.
    package static let maxScriptText = 4096

    /// Nothing seen.
    package init() {}
}
