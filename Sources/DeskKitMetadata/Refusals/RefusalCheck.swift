import DeskKitFetchPolicy
import DeskKitURL

/// Tells the pages that stand in for the one a link points to — a bot check, a consent or login form, an
/// error page served as a success, a parked domain, an empty app shell — from everything the fetch saw:
/// the status, the headers, where the redirects ended, and what the parser gathered (``PageSignals``). A
/// card made of such a page would lie; the refusal says what stood there instead, and who ran it when that
/// is known (`FetchError.provider`).
///
/// A page is refused for what it is, never for who serves it: a vendor's cookie or server header is on
/// every page it serves. A page whose own OpenGraph, Twitter card or JSON-LD describes it is kept, whatever
/// its body holds (a login form, a captcha demo), unless a redirect led away from the page asked for.
///
/// ```swift
/// let page = MetadataExtractor.extract(html: bytes, pageURL: url)
/// let response = ResponseFacts(status: 200, headers: headers, requestedURL: url, finalURL: url)
/// if let refusal = RefusalCheck.refusal(of: page, response: response) {
///     // challenge cloudflare a bot check stood in for the page (element #challenge-stage)
///     print(refusal.kind, refusal.provider ?? "-", refusal.detail)
/// }
/// ```
///
/// The marks of vendors and services are one table, the words of such pages another; <doc:Refusals> says
/// what decides, in which order, and how to add a vendor.
public enum RefusalCheck {
    /// The refusal the response shows before its body is read: a challenge header (`cf-mitigated:
    /// challenge`, `x-amzn-waf-action`), LinkedIn's status 999, a redirect to a captcha's or a consent
    /// form's address. Nil when the body must be read to tell.
    public static func refusal(of response: ResponseFacts) -> FetchError? {
        Evidence(response, page: nil).decisive()
    }

    /// The refusal `page`, served with `response`, is; nil for a page that is itself.
    public static func refusal(of page: PageMetadata, response: ResponseFacts) -> FetchError? {
        Evidence(response, page: page).verdict()
    }

    /// A page or card with nothing to show — no title, description or image after every fallback — and no
    /// other refusal: no card is better than an empty one.
    public static let nothingToShow = FetchError.refused(
        .emptyShell, provider: nil, "nothing to show: no title, description or image")

    /// A maintenance or "back soon" page — its title or heading says the site is away for now, and its text
    /// or its having next to nothing else agrees — whatever its status: `PageFetcher` asks it of a 5xx page,
    /// which is `FetchError.Kind.errorPage` then rather than `httpStatus`. Nil for a page that says what it is
    /// (an article about maintenance).
    public static func maintenance(of page: PageMetadata, response: ResponseFacts) -> FetchError? {
        let evidence = Evidence(response, page: page)
        guard !evidence.isContent(page) else { return nil }
        return evidence.maintenance(page, words: evidence.words(of: page))
    }

    /// Statuses other than 2xx whose body is read for a bot check (the others are answered as
    /// `FetchError.Kind.httpStatus` at once): 202 and 405 (AWS WAF), 401 (a proof-of-work gate's "not yet"), 403,
    /// 429, 503, 999.
    public static func mayHideChallenge(status: Int) -> Bool {
        [202, 401, 403, 405, 429, 503, 999].contains(status)
    }

    /// Whether a page's head reads like a sign-in page's — a sign-in title (its `<title>`, og:title or
    /// twitter:title) or a description that invites signing in — so that the parser reads its body on, even with
    /// every preview field filled: whether the page has anything else to show decides (``PageSignals``).
    static func headReadsAsSignIn(titles: [String], description: String?) -> Bool {
        titles.contains { Evidence.isLoginTitle(RefusalText.parts(of: $0)) }
            || description.map(RefusalText.invitesSigningIn) == true
    }

    /// Statuses other than 2xx whose body is read for a maintenance page (``maintenance(of:response:)``): 5xx.
    public static func mayBeMaintenance(status: Int) -> Bool { (500...599).contains(status) }
}

/// What one response and its page show, read once (the title's parts when a rule asks for them), and the
/// decision on them.
private final class Evidence {
    let response: ResponseFacts
    let page: PageMetadata?
    let headers: [(name: String, value: String)]
    let cookies: [String]
    let final: Address?
    let requested: Address?
    let scripts: [String]
    let frames: [String]
    let forms: [String]
    /// The `<title>`'s parts (``RefusalText/parts(of:)``).
    lazy var title: [(text: String, code: Bool)] = RefusalText.parts(of: page?.signals.documentTitle)
    /// The `<title>` whole, normalized, its status code taken off.
    let wholeTitle: String?

    /// A URL's parts the rules read, lowercase.
    struct Address {
        var whole: String
        var host: String
        var segments: [String]
        var parameters: [String]

        init?(_ url: String?) {
            guard let url else { return nil }
            let lower = url.lowercased()
            let parts = URLResolution.split(Substring(lower))
            guard let authority = parts.authority else { return nil }
            whole = lower
            host = String(URLResolution.host(ofAuthority: authority))
            segments = parts.path.split(separator: "/").map(String.init)
            parameters = (parts.query ?? "").split(separator: "&").map { String($0.prefix { $0 != "=" }) }
        }

        /// The host without its `www.`: the site's name as pages write it ("example.com is for sale").
        var site: String { host.startsWith("www.") ? String(host.dropFirst(4)) : host }

        /// Whether the host is `pattern` or under it (`pattern` ending in `.`: starts with it).
        func hostIs(_ pattern: String) -> Bool {
            pattern.endsWith(".") ? host.startsWith(pattern) : host == pattern || host.endsWith("." + pattern)
        }

        func hasSegment(in set: Set<String>) -> Bool { segments.contains(where: set.contains) }
        var hasReturnParameter: Bool {
            parameters.contains { p in
                RefusalPhrases.returnParameters.contains(p)
                    || ["redirect", "return", "continue"].contains { p.holds($0) }
            }
        }
    }

    init(_ response: ResponseFacts, page: PageMetadata?) {
        self.response = response
        self.page = page
        headers = response.headers.map { ($0.name.lowercased(), $0.value.lowercased()) }
        cookies = headers.filter { $0.name == "set-cookie" }.map {
            String($0.value.prefix { $0 != "=" && $0 != ";" }).trimmingSpaces
        }
        final = Address(response.finalURL)
        requested = Address(response.requestedURL)
        scripts = page?.signals.scriptSources.map { $0.lowercased() } ?? []
        frames = page?.signals.frameSources.map { $0.lowercased() } ?? []
        forms = page?.signals.formActions.map { $0.lowercased() } ?? []
        wholeTitle = page?.signals.documentTitle.map { RefusalText.withoutCode(RefusalText.normalize($0)).text }
    }

    /// Little to read (under 2,000 bytes of visible text, as far as the parser read): a wall or an error page,
    /// not an article with a form in it. Only such a page's sentences and weak words decide.
    var thin: Bool { (page?.signals.visibleTextBytes ?? 0) < 2_000 }

    /// Whether a redirect led to another address than the one asked for.
    var redirected: Bool {
        guard let final, let requested else { return false }
        return final.host != requested.host || final.segments != requested.segments
    }

    // MARK: Marks

    /// Where `signature` is found, in words for the detail; nil when it is not.
    func evidence(of signature: RefusalSignature) -> String? {
        let p = signature.pattern
        switch signature.place {
        case .header(let name):
            return headers.first { $0.name == name && $0.value.holds(p) }.map { "header \($0.name): \($0.value)" }
        case .cookie:
            return cookies.first { $0.startsWith(p) }.map { "cookie \($0)" }
        case .status:
            return String(response.status) == p ? "status \(p)" : nil
        case .host:
            guard let final, final.hostIs(p) else { return nil }
            return "\(redirected ? "redirected to" : "at") \(final.whole)"
        case .url:
            guard let final, final.whole.holds(p) else { return nil }
            return "\(redirected ? "redirected to" : "at") \(final.whole)"
        case .script: return scripts.first { $0.holds(p) }.map { "script \($0)" }
        case .scriptText:
            guard page?.signals.scriptText.holds(p) == true else { return nil }
            return "inline script with \(p)"
        case .frame: return frames.first { $0.holds(p) }.map { "frame \($0)" }
        case .form: return forms.first { $0.holds(p) }.map { "form to \($0)" }
        case .elementID: return page?.signals.markers.contains("#" + p) == true ? "element #\(p)" : nil
        case .elementClass: return page?.signals.markers.contains("." + p) == true ? "element .\(p)" : nil
        case .title: return wholeTitle == p ? "title \"\(page?.signals.documentTitle ?? p)\"" : nil
        case .titleWords:
            guard wholeTitle?.holds(p) == true else { return nil }
            return "title \"\(page?.signals.documentTitle ?? p)\""
        case .image:
            guard let image = page?.image, image.lowercased().holds(p) else { return nil }
            return "image \(image)"
        }
    }

    /// The first signature of `strength` (and of `kind`, when given) found, with where.
    func found(_ strength: RefusalSignature.Strength, kind: FetchError.Kind? = nil) -> (
        RefusalSignature, String
    )? {
        for signature in RefusalSignatures.of(strength) {
            guard kind == nil || signature.kind == kind, let evidence = evidence(of: signature) else { continue }
            return (signature, evidence)
        }
        return nil
    }

    /// The first mark in the page's content (`RefusalSignature.Place.isContent`), strongest first.
    func contentMark() -> (RefusalSignature, String)? {
        for strength in [RefusalSignature.Strength.standIn, .widget, .mark] {
            for signature in RefusalSignatures.of(strength) where signature.place.isContent {
                if let evidence = evidence(of: signature) { return (signature, evidence) }
            }
        }
        return nil
    }

    /// Who ran a refusal of `kind` decided by other evidence: the first mark of that kind found.
    func provider(of kind: FetchError.Kind) -> String? {
        for strength in [RefusalSignature.Strength.decisive, .standIn, .widget, .mark] {
            if let (signature, _) = found(strength, kind: kind) { return signature.provider }
        }
        return nil
    }

    func refusal(_ kind: FetchError.Kind, provider: String?, _ evidence: String) -> FetchError {
        let what =
            switch kind {
            case .challenge: "a bot check stood in for the page"
            case .consentWall: "a cookie-consent form stood in for the page"
            case .loginWall: "a login form stood in for the page"
            case .errorPage: "an error page was served as the page"
            case .parkedDomain: "the domain is parked or has no site yet"
            default: "an app shell with no metadata of its own: its content comes from scripts"
            }
        return .refused(kind, provider: provider, "\(what) (\(evidence))")
    }

    // MARK: The decision

    /// A refusal the response shows alone, whatever the page says.
    func decisive() -> FetchError? {
        guard let (signature, evidence) = found(.decisive) else { return nil }
        return refusal(signature.kind, provider: signature.provider, evidence)
    }

    func verdict() -> FetchError? {
        if let refusal = decisive() { return refusal }
        guard let page else { return nil }
        if let refusal = redirectedAway() { return refusal }
        // Refused with a bot-management vendor's mark and little else: that vendor's block page.
        if [202, 401, 403, 405, 429].contains(response.status), thin,
            let (signature, evidence) = found(.mark, kind: .challenge)
        {
            return refusal(.challenge, provider: signature.provider, "status \(response.status), \(evidence)")
        }
        // A page that describes itself in its own metadata is itself (not a site's generic tags on every page, nor
        // a title over a description that invites signing in: a login page's welcome).
        if let own = ownTitle(page), !isRefusalTitle(own), !isGeneric(own, page), !invitesSigningIn(page) {
            return nil
        }
        if let (signature, evidence) = found(.standIn) {
            return refusal(signature.kind, provider: signature.provider, evidence)
        }
        if let refusal = consentPlatformWall(page) { return refusal }
        // Words decide nothing on a page that says what it is: an article, a product, a help page, a post. A site
        // away for maintenance often keeps its generic description: only being content outweighs it.
        let content = isContent(page)
        if !content, let wall = signInPage(page) { return wall }
        let texts = words(of: page)
        if !content, let away = maintenance(page, words: texts) { return away }
        if !content, !describesInASentence(page), let refusal = byWords(page, words: texts) { return refusal }
        // A vendor's script or widget and nothing else: that vendor's challenge, not an empty card.
        if bare, let (signature, evidence) = contentMark() {
            return refusal(signature.kind, provider: signature.provider, "\(evidence) and nothing else")
        }
        return emptyShell(page) ?? nothingToShow(page)
    }

    /// Nothing else on the page: under 256 bytes of text (hidden or not), no field to fill in, and nothing
    /// that describes it (``describesItself``). A mark in its content then says what the page is
    /// (`RefusalSignature.Strength.mark`).
    var bare: Bool {
        guard let s = page?.signals else { return false }
        return s.textBytes < 256 && s.fieldsToFill == 0 && s.passwordFields == 0 && !describesItself
    }

    /// Whether the page describes itself beyond a title (read once: the bare-page and the shell rules ask).
    lazy var describesItself: Bool = page.map(describes) ?? false

    /// Whether `page` describes itself beyond a title: an OpenGraph, Twitter card or itemprop description or
    /// image, JSON-LD, or a description — its meta or its first paragraph — that is neither a bundler
    /// template's, nor its `<noscript>`, nor a notice about the browser.
    func describes(_ page: PageMetadata) -> Bool {
        if page.openGraph.contains(where: { $0.key == "og:description" || $0.key == "og:image" })
            || page.twitter.contains(where: { $0.key == "twitter:description" || $0.key == "twitter:image" })
            || page.itemprops.contains(where: { $0.key == "description" }) || !page.jsonLD.isEmpty
        {
            return true
        }
        guard let description = page.description else { return false }
        return description != page.signals.noscript && !RefusalText.isBrowserNotice(description)
            && !RefusalPhrases.templateDescriptions.contains(RefusalText.normalize(description))
    }

    /// A consent platform's dialog and nothing of the page's own: a platform's mark (its loader, its `__tcfapi`
    /// stub, its dialog's container), under 200 bytes of visible text outside its dialog, no field to fill in,
    /// and nothing in the head that describes the page. An article with the platform's banner is its article.
    func consentPlatformWall(_ page: PageMetadata) -> FetchError? {
        let s = page.signals
        guard s.visibleTextBytes - s.consentTextBytes < 200, s.fieldsToFill == 0, s.passwordFields == 0,
            !headDescribes(page)
        else { return nil }
        for signature in RefusalSignatures.consentPlatforms {
            guard let evidence = evidence(of: signature) else { continue }
            return refusal(.consentWall, provider: signature.provider, "\(evidence): its dialog is all the page has")
        }
        return nil
    }

    /// Whether the page says it is content of its own, so that words about errors, captchas, logins or domains for
    /// sale are its topic and not what stands in its place: an `og:type` of content (an article, a product, a
    /// video…), a JSON-LD object of such a type, or an `<article>` with two paragraphs of its own.
    func isContent(_ page: PageMetadata) -> Bool {
        if let type = page.type?.lowercased(), RefusalPhrases.contentOpenGraphTypes.contains(where: type.startsWith) {
            return true
        }
        return page.signals.jsonLDTypes.contains(where: RefusalPhrases.contentJSONLDTypes.contains)
            || page.signals.articleParagraphs >= 2
    }

    /// Whether the page's head describes it in a sentence, which outweighs topic words too: not a refusal's words,
    /// not a bot check's or a consent form's sentence, not an invitation to sign in ("Welcome back… Sign in to see
    /// what your friends are sharing": a login page's welcome, not a description of content), not a domain for sale, on a page with no password field whose
    /// title is no error's and no parked domain's (a site's generic description on its "Page not found", a parking
    /// service's boilerplate).
    func describesInASentence(_ page: PageMetadata) -> Bool {
        guard var description = page.signals.headDescription, page.signals.passwordFields == 0,
            description.withUTF8(TextCleaning.isSentenceLike), !isRefusalTitle(description),
            !RefusalText.isBrowserNotice(description),
            !title.contains(where: Self.isErrorCode), !RefusalText.matches(title, RefusalPhrases.errorTitles)
        else { return false }
        let words = RefusalText.normalize(description)
        return !saysForSale(words) && !saysForSale(wholeTitle ?? "")
            && !RefusalText.invitesSigningIn(description)
            && [RefusalPhrases.challengeSentences, RefusalPhrases.consentSentences].allSatisfy {
                RefusalText.mention(in: [words], of: $0) == nil
            }
    }

    /// Whether the description the page's head gives invites signing in ("Create an account or log in to…").
    func invitesSigningIn(_ page: PageMetadata) -> Bool {
        page.signals.headDescription.map(RefusalText.invitesSigningIn) == true
    }

    /// Whether the page's head describes it: a description (OpenGraph, Twitter card, meta, itemprop), a tagged
    /// image or JSON-LD — not a description taken from its body, which on a wall is the wall's words.
    func headDescribes(_ page: PageMetadata) -> Bool {
        page.signals.headDescription != nil || page.isTagged(.image) || !page.jsonLD.isEmpty
    }

    /// A card with nothing on it — no title, description or image after every fallback, or a title that only
    /// repeats the page's address ("shop.example", the URL) — is no card. The card builder still asks an oEmbed
    /// answer the page names before it gives up (``PageMetadata/oEmbed``).
    func nothingToShow(_ page: PageMetadata) -> FetchError? {
        func empty(_ value: String?) -> Bool { value.map(TextCleaning.isBlank) ?? true }
        guard empty(page.description), empty(page.image), empty(page.title) || isAddress(page.title ?? "") else {
            return nil
        }
        return RefusalCheck.nothingToShow
    }

    /// Whether `title` is the final URL or its host (with or without `www.`), any case.
    func isAddress(_ title: String) -> Bool {
        guard let final else { return false }
        let t = RefusalText.normalize(title)
        return [final.host, final.site, final.whole].contains(t)
    }

    /// A redirect from the page asked for to a login, consent or error address: the page's own metadata
    /// (a site's generic OpenGraph) does not make that the page.
    func redirectedAway() -> FetchError? {
        guard redirected, let final, let requested else { return nil }
        let login = RefusalPhrases.loginPathSegments
        if final.hasSegment(in: login), !requested.hasSegment(in: login) {
            return refusal(.loginWall, provider: provider(of: .loginWall), "redirected to \(final.whole)")
        }
        if final.hasSegment(in: RefusalPhrases.consentPathSegments),
            !requested.hasSegment(in: RefusalPhrases.consentPathSegments)
        {
            return refusal(.consentWall, provider: provider(of: .consentWall), "redirected to \(final.whole)")
        }
        if final.hasSegment(in: RefusalPhrases.errorPathSegments),
            !requested.hasSegment(in: RefusalPhrases.errorPathSegments)
        {
            return refusal(.errorPage, provider: nil, "redirected to \(final.whole)")
        }
        return nil
    }

    /// The page's own title for itself: og:title, twitter:title, or its JSON-LD headline.
    func ownTitle(_ page: PageMetadata) -> String? {
        for list in [page.openGraph, page.twitter] {
            if let title = list.first(where: { $0.key == "og:title" || $0.key == "twitter:title" })?.value,
                !title.isEmpty
            {
                return title
            }
        }
        return page.jsonLD.first { $0.key == "headline" }?.value
    }

    /// Whether the page's own title is the site's, not the page's: its og:site_name or application name, or
    /// the site's part of its `<title>` ("Example Shop" on "Page not found | Example Shop").
    func isGeneric(_ own: String, _ page: PageMetadata) -> Bool {
        let own = RefusalText.normalize(own)
        let names = [page.openGraph.first { $0.key == "og:site_name" }?.value, page.applicationName].compactMap {
            $0.map(RefusalText.normalize)
        }
        return names.contains(own) || title.count > 2 && title.dropFirst(2).contains { $0.text == own }
    }

    /// Whether a title is the words of a refusal of any kind.
    func isRefusalTitle(_ text: String) -> Bool {
        let parts = RefusalText.parts(of: text)
        return RefusalText.matches(parts, RefusalPhrases.challengeTitles)
            || RefusalText.matches(parts, RefusalPhrases.consentTitles, prefixes: RefusalPhrases.consentTitlePrefixes)
            || Self.isLoginTitle(parts) || RefusalText.matches(parts, RefusalPhrases.errorTitles)
            || parts.contains(where: Self.isErrorCode)
            || RefusalText.matches(parts, RefusalPhrases.maintenanceTitles)
            || RefusalText.matches(parts, RefusalPhrases.defaultPageTitles)
            || RefusalText.matches(parts, RefusalPhrases.shellTitles)
    }

    /// The page's words decide, on a page without metadata of its own: `texts` are ``words(of:)``.
    func byWords(_ page: PageMetadata, words texts: [String]) -> FetchError? {
        let s = page.signals
        // The title, og:title or twitter:title (when they are refusal words), and the first heading.
        let titles = title + RefusalText.parts(of: ownTitle(page))
        let heading = RefusalText.parts(of: s.heading)
        let headlines = titles + heading
        let shown = "title \"\(s.documentTitle ?? page.title ?? "")\""

        if RefusalText.matches(
            headlines, RefusalPhrases.challengeTitles, prefixes: RefusalPhrases.challengeTitlePrefixes)
        {
            return refusal(.challenge, provider: provider(of: .challenge), shown)
        }
        if thin, RefusalText.matches(headlines, RefusalPhrases.weakChallengeTitles) {
            return refusal(.challenge, provider: provider(of: .challenge), shown)
        }
        if let words = RefusalText.mention(in: texts, of: RefusalPhrases.challengeSentences) {
            return refusal(.challenge, provider: provider(of: .challenge), "its words: \"\(words)\"")
        }
        if RefusalText.matches(headlines, RefusalPhrases.consentTitles, prefixes: RefusalPhrases.consentTitlePrefixes)
            || headlines.contains(where: { part in
                RefusalPhrases.consentTitleEndings.contains { part.text.endsWith($0) }
            })
            || thin && RefusalText.mention(in: texts, of: RefusalPhrases.consentSentences) != nil
        {
            return refusal(.consentWall, provider: provider(of: .consentWall), shown)
        }
        if Self.isLoginTitle(headlines), s.passwordFields > 0 || thin || s.formActions.contains(where: isLoginAddress),
            !isPlainLoginAddressAsked
        {
            return refusal(.loginWall, provider: provider(of: .loginWall), shown)
        }
        // An invitation to sign in (in the description, the heading or the first words) and nothing else to show:
        // the welcome of a network's login page as a logged-out reader gets it, its title the site's name alone.
        if s.visibleTextBytes < 256, !isPlainLoginAddressAsked,
            let words = RefusalText.mention(in: texts, of: RefusalPhrases.loginSentences)
        {
            return refusal(.loginWall, provider: provider(of: .loginWall), "its words: \"\(words)\" and nothing else")
        }
        if s.passwordFields > 0 || s.formActions.contains(where: isLoginAddress), !isPlainLoginAddressAsked {
            if let words = RefusalText.mention(in: texts, of: RefusalPhrases.loginSentences) {
                return refusal(.loginWall, provider: provider(of: .loginWall), "its words: \"\(words)\"")
            }
            // A password field and next to nothing else to read: the login form is the whole page.
            if s.passwordFields > 0, s.visibleTextBytes < 200 {
                return refusal(.loginWall, provider: provider(of: .loginWall), "a password field and little else")
            }
        }
        if let refusal = errorPage(page, titles: titles, heading: heading, texts: texts, shown: shown) {
            return refusal
        }
        // A parked page, like a server's default page, has nothing else to say but links ("related
        // searches"): an article about parked domains is no parked domain.
        guard s.visibleTextBytes - s.linkTextBytes < 2_000 else { return nil }
        if RefusalText.matches(titles, RefusalPhrases.defaultPageTitles) {
            return refusal(.parkedDomain, provider: provider(of: .parkedDomain), shown)
        }
        let parkedTexts = [s.documentTitle, s.heading, page.description].compactMap { $0 }.map(RefusalText.normalize)
        let forSale = parkedTexts.first(where: saysForSale)
        if let forSale {
            return refusal(.parkedDomain, provider: provider(of: .parkedDomain), "its words: \(forSale)")
        }
        return nil
    }

    /// The texts whose words are read, normalized, on a page with little to read (none on another): its title,
    /// heading, description and `<noscript>` — 512 characters of each are enough for a wall's words — and, on a page
    /// of a few sentences, the start of its body's text.
    func words(of page: PageMetadata) -> [String] {
        guard thin else { return [] }
        let s = page.signals
        return [s.documentTitle, s.heading, page.description, s.noscript, s.textBytes < 1_024 ? s.textStart : nil]
            .compactMap { $0 }.map { RefusalText.normalize(String($0.prefix(512))) }
    }

    /// A site away for maintenance: its title or heading says so ("Site Maintenance", "メンテナンス中"), on a page
    /// with little to read that says so in its text too or has next to nothing else.
    func maintenance(_ page: PageMetadata, words texts: [String]) -> FetchError? {
        guard thin else { return nil }
        let heading = RefusalText.parts(of: page.signals.heading)
        guard
            RefusalText.matches(
                title + RefusalText.parts(of: ownTitle(page)) + heading, RefusalPhrases.maintenanceTitles),
            RefusalText.mention(in: texts, of: RefusalPhrases.errorSentences) != nil
                || page.signals.visibleTextBytes < 500
        else { return nil }
        let shown = page.signals.documentTitle ?? page.signals.heading ?? ""
        return refusal(.errorPage, provider: nil, "closed for maintenance: \"\(shown)\"")
    }

    /// A page whose purpose is to sign in, whatever sentence its head describes the site with: a sign-in title (its
    /// `<title>`, og:title or twitter:title) over a sign-in's fields (a password or one-time code), a form to a login
    /// address, or no text at all (under 64 bytes, hidden or not: an app that draws its form with scripts). A help
    /// page titled like it ("Iniciar sesión en tu cuenta") has words of its own and no such form.
    func signInPage(_ page: PageMetadata) -> FetchError? {
        let s = page.signals
        guard !isPlainLoginAddressAsked, Self.isLoginTitle(title + RefusalText.parts(of: ownTitle(page))),
            s.passwordFields > 0 || s.formActions.contains(where: isLoginAddress) || s.textBytes < 64
        else { return nil }
        return refusal(
            .loginWall, provider: provider(of: .loginWall), "title \"\(s.documentTitle ?? page.title ?? "")\"")
    }

    /// Whether one of a title's `parts` is a sign-in title ("Login • Instagram", "Iniciar sesión en X / X"), or a
    /// list of sign-in words ("LinkedIn Login, Sign in", "Connexion LinkedIn, s'identifier").
    static func isLoginTitle(_ parts: [(text: String, code: Bool)]) -> Bool {
        let (titles, prefixes) = (RefusalPhrases.loginTitles, RefusalPhrases.loginTitlePrefixes)
        return RefusalText.matches(parts, titles, prefixes: prefixes)
            || parts.contains { part in
                part.text.holds(", ")
                    && part.text.split(separator: ",").contains { titles.contains(String($0).trimmingSpaces) }
            }
    }

    /// A status code with an error's words or alone ("404 Not Found", "Error 404", "404"): "Order 404" or
    /// "Fiat 500" is no error.
    static func isErrorCode(_ part: (text: String, code: Bool)) -> Bool {
        part.code
            && (part.text.isEmpty || RefusalPhrases.errorTitles.contains(part.text)
                || RefusalPhrases.weakErrorTitles.contains(part.text))
    }

    func errorPage(
        _ page: PageMetadata, titles: [(text: String, code: Bool)], heading: [(text: String, code: Bool)],
        texts: [String], shown: String
    ) -> FetchError? {
        let words = RefusalText.mention(in: texts, of: RefusalPhrases.errorSentences)
        let strong =
            titles.contains(where: Self.isErrorCode) || RefusalText.matches(titles, RefusalPhrases.errorTitles)
            || thin && titles.contains { part in RefusalPhrases.errorTitleEndings.contains { part.text.endsWith($0) } }
        let headingSays =
            heading.contains(where: Self.isErrorCode) || RefusalText.matches(heading, RefusalPhrases.errorTitles)
        if strong || headingSays && thin {
            return refusal(.errorPage, provider: nil, strong ? shown : "heading \"\(page.signals.heading ?? "")\"")
        }
        if RefusalText.matches(titles, RefusalPhrases.weakErrorTitles),
            headingSays || thin && (words != nil || page.description == nil)
        {
            return refusal(.errorPage, provider: nil, shown)
        }
        if thin, let words {
            return refusal(.errorPage, provider: nil, "its words: \"\(words)\"")
        }
        return nil
    }

    /// An app's shell: scripts and a mount point or a template's title, no words (hidden or not) and no
    /// metadata of its own. A notice — JavaScript needed, an old browser, cookies, an ad blocker — is no
    /// word of the page's; but a shell whose title is its own ("Festivos en España", not "500px") and whose
    /// only words are such a notice keeps a card with that title.
    func emptyShell(_ page: PageMetadata) -> FetchError? {
        let s = page.signals
        // Its only words (a few hundred bytes at most) are a notice.
        let noticeOnly = s.textBytes < 512 && RefusalText.isBrowserNotice(s.textStart)
        guard s.textBytes < 64 || noticeOnly, !page.stoppedEarly,
            !s.scriptSources.isEmpty || s.appRoot != nil || !s.scriptText.isEmpty, s.fieldsToFill == 0,
            s.passwordFields == 0, !describesItself
        else { return nil }
        // A page of scripts without a mount point, titled for itself, keeps a title-only card; an empty mount
        // point is a shell whatever its title says (its head describes nothing).
        if s.appRoot == nil, s.noscript != nil || noticeOnly, let own = s.documentTitle, isSpecific(own, page) {
            return nil
        }
        // Scripts and nothing else: a title alone does not describe a page.
        let template = RefusalText.matches(title, RefusalPhrases.shellTitles)
        let evidence =
            s.appRoot.map { "an empty #\($0)" }
            ?? (template ? "title \"\(s.documentTitle ?? "")\"" : "no text, scripts only")
        return refusal(.emptyShell, provider: nil, evidence)
    }

    /// Whether a `<title>` names the page rather than the site or the app: not a bundler's template, not the
    /// site's name (og:site_name, application-name, the words of its host: "500px" on 500px.com), not a
    /// single word of ASCII letters and digits ("TrackerApp", "parcels-ui") and not a refusal's words.
    func isSpecific(_ title: String, _ page: PageMetadata) -> Bool {
        let t = RefusalText.normalize(title)
        let words = t.split(separator: " ")
        guard !words.isEmpty, !isRefusalTitle(title), !isGeneric(title, page),
            !RefusalText.matches(RefusalText.parts(of: title), RefusalPhrases.shellTitles),
            words.count > 1 || t.utf8.contains(where: { $0 >= 0x80 })
        else { return false }
        guard let host = final?.host else { return true }
        let labels = host.split(separator: ".")
        let alphanumerics = t.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        return !alphanumerics.allSatisfy { word in labels.contains { $0 == word || $0.hasPrefix(word) } }
            && !labels.contains { $0 == t.filter { $0.isLetter || $0.isNumber } }
    }

    /// Whether normalized text `t` says its domain is for sale: the domain named by a word for it, or by the
    /// site's own name ("example.com is for sale").
    func saysForSale(_ t: String) -> Bool {
        namesADomainForSale(t, final?.site)
            || RefusalPhrases.parkedPairs.contains { domain, sale in
                domain.contains { t.holds($0) } && sale.contains { t.holds($0) }
            }
            || RefusalPhrases.parkedTitleEndings.contains { t.endsWith($0) }
                && t.split(separator: " ").contains { Self.readsAsDomain(String($0)) }
    }

    /// Whether `text` says a domain is for sale by its name: "example.com is for sale", the site's own
    /// host or any word that reads as a domain name.
    func namesADomainForSale(_ text: String, _ site: String?) -> Bool {
        for phrase in RefusalPhrases.siteForSale {
            var from = 0
            while let at = text.byteOffset(of: phrase, from: from) {
                let before = String(decoding: text.utf8.prefix(at), as: UTF8.self)
                let word = before.split(separator: " ").last.map(String.init) ?? ""
                if word == site || Self.readsAsDomain(word) { return true }
                from = at + phrase.utf8.count
            }
        }
        return false
    }

    /// `name.tld`: letters, digits and hyphens in dot-separated labels, ending in a label of letters.
    static func readsAsDomain(_ word: String) -> Bool {
        let labels = word.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let tld = labels.last, tld.count >= 2, tld.allSatisfy(\.isLetter) else { return false }
        return labels.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } }
    }

    /// Whether the link asked for a login page itself, with nothing to return to (`/login`): then that page
    /// is what the link shows.
    var isPlainLoginAddressAsked: Bool {
        guard let requested, !redirected else { return false }
        return requested.hasSegment(in: RefusalPhrases.loginPathSegments) && !requested.hasReturnParameter
    }

    func isLoginAddress(_ action: String) -> Bool {
        action.split(whereSeparator: { $0 == "/" || $0 == "?" }).contains {
            RefusalPhrases.loginPathSegments.contains(String($0))
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
