import DeskKitFetchPolicy

// What a page's words and forms say it is: a sign-in page, an error, a site away for maintenance, a domain
// for sale, an app's empty shell.

extension Evidence {
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
        if RefusalText.matches(titles, StockPages.placeholderTitles) {
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
                || RefusalPhrases.weakErrorTitles.contains(part.text) || ReasonPhrases.code(of: part) != nil)
    }

    /// Whether a title's part says error by itself: an error's title ("Page not found"), a status code with an
    /// error's words or alone, or HTTP's reason phrase of more than one word ("Service Unavailable"; "Gone" or
    /// "Conflict" alone may name a page).
    static func isErrorTitle(_ part: (text: String, code: Bool)) -> Bool {
        RefusalPhrases.errorTitles.contains(part.text) || isErrorCode(part)
            || ReasonPhrases.code(of: part) != nil && !ReasonPhrases.isOneWord(part.text)
    }

    /// HTTP's reason phrase as the title or the heading of a page served as a success ("429 Too Many Requests",
    /// "Unavailable For Legal Reasons"; one word, "Gone", only with its code: a page may be called "Gone"): the
    /// server's answer about the request, of the kind its code names (``ReasonPhrases/kind(of:)``).
    func reasonPhrase(_ parts: [(text: String, code: Bool)], shown: String) -> FetchError? {
        // A status other than 2xx says it already: such a page is that status, unless it is a bot check.
        guard (200..<300).contains(response.status) else { return nil }
        for part in parts {
            guard let code = ReasonPhrases.code(of: part), part.code || !ReasonPhrases.isOneWord(part.text)
            else { continue }
            let kind = ReasonPhrases.kind(of: code)
            return refusal(kind, provider: kind == .errorPage ? nil : provider(of: kind), "\(shown): HTTP's \(code)")
        }
        return nil
    }

    func errorPage(
        _ page: PageMetadata, titles: [(text: String, code: Bool)], heading: [(text: String, code: Bool)],
        texts: [String], shown: String
    ) -> FetchError? {
        if let answer = reasonPhrase(titles, shown: shown)
            ?? reasonPhrase(heading, shown: "heading \"\(page.signals.heading ?? "")\"")
        {
            return answer
        }
        let words = RefusalText.mention(in: texts, of: RefusalPhrases.errorSentences)
        let strong =
            titles.contains(where: Self.isErrorTitle)
            || thin && titles.contains { part in RefusalPhrases.errorTitleEndings.contains { part.text.endsWith($0) } }
        let headingSays = heading.contains(where: Self.isErrorTitle)
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
            !s.scriptSources.isEmpty || s.appRoot != nil || !s.scriptText.isEmpty || !s.frameSources.isEmpty,
            s.fieldsToFill == 0, s.passwordFields == 0, !describesItself
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
            ?? (template
                ? "title \"\(s.documentTitle ?? "")\""
                : s.scriptSources.isEmpty && s.scriptText.isEmpty ? "no text, a frame only" : "no text, scripts only")
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
