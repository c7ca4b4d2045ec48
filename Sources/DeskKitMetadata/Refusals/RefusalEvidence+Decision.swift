import DeskKitFetchPolicy

// The decision, rule by rule in the order `verdict()` asks them, and what the page says of itself.

extension Evidence {
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
        return emptyShell(page) ?? notice(page) ?? nothingToShow(page)
    }

    /// Nothing else on the page: under 256 bytes of text (hidden or not), no field to fill in, and nothing
    /// that describes it (``describesItself``). A mark in its content then says what the page is
    /// (`RefusalSignature.Strength.mark`).
    var bare: Bool {
        guard let s = page?.signals else { return false }
        return s.textBytes < 256 && s.fieldsToFill == 0 && s.passwordFields == 0 && !describesItself
    }

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
            !title.contains(where: Self.isErrorTitle)
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

    /// Whether the page's own title is the site's, not the page's: its og:site_name or application name, the
    /// site's part of its `<title>` ("Example Shop" on "Page not found | Example Shop"), or any title of a deep
    /// link's page whose own address is the site's front page (the head every address of the site gets).
    func isGeneric(_ own: String, _ page: PageMetadata) -> Bool {
        if isDeepLink, frontPageClaim(page) != nil { return true }
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
            || Self.isLoginTitle(parts) || parts.contains(where: Self.isErrorTitle)
            || RefusalText.matches(parts, RefusalPhrases.maintenanceTitles)
            || RefusalText.matches(parts, StockPages.placeholderTitles)
            || RefusalText.matches(parts, RefusalPhrases.shellTitles)
    }
}
