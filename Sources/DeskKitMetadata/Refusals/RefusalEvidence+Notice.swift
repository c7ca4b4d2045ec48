import DeskKitFetchPolicy
import DeskKitURL

// A notice about the visit — a gate, a block, a queue, a rate limit, an outage, a page that sends the reader on — known
// by what the page does and what it lacks, not by its words: none of the rules here reads a phrase.

extension Evidence {
    /// A notice stands in for the page: a page with nothing of its own (not content, little to read) that shows
    /// one mark a page of its own never has — it reloads itself or sends the reader on within a minute, its 2xx
    /// answer says when to come back (`Retry-After`) — or two of the marks a page of its own seldom has together:
    /// it asks not to be indexed, its own address (og:url, canonical) is a front page while the link is not, its
    /// title is the site's name on a deep link, it names none of the words of the address it was asked at, its form
    /// is choices with nothing to type (a date of birth, a country, "I am over 18").
    func notice(_ page: PageMetadata) -> FetchError? {
        guard thin, !isContent(page) else { return nil }
        let s = page.signals
        var decisive: [String] = []
        var marks: [String] = []
        if let refresh = refreshes(s.refresh) { decisive.append(refresh) }
        if (200..<300).contains(response.status), let retry = headers.first(where: { $0.name == "retry-after" }) {
            decisive.append("Retry-After: \(retry.value)")
        }
        if isDeepLink, let front = frontPageClaim(page) { marks.append(front) }
        if s.noIndex || headers.contains(where: { $0.name == "x-robots-tag" && $0.value.holds("noindex") }) {
            marks.append("noindex")
        }
        if isDeepLink, let title = s.documentTitle, namesTheSite(title, page) {
            marks.append("its title is the site's name")
        }
        if let words = wordsOfTheAddressNotOnThePage(page) {
            marks.append("none of its address's words (\(words.joined(separator: ", ")))")
        }
        if s.choiceFields >= 2, s.fieldsToFill == 0, s.passwordFields == 0 {
            marks.append("a form of \(s.choiceFields) choices and nothing to type")
        }
        guard !decisive.isEmpty || marks.count >= 2 else { return nil }
        return refusal(.notice, provider: nil, (decisive + marks).joined(separator: "; "))
    }

    /// Whether the link asked for more than the site's front page: a path other than `/`, `/index.html`, a
    /// language's root (`/en/`, `/pt-BR`) or such a root's index.
    var isDeepLink: Bool {
        guard let requested else { return false }
        var segments = requested.segments
        if let last = segments.last, last.hasPrefix("index.") || last.hasPrefix("default.") || last == "home" {
            segments.removeLast()
        }
        return !(segments.isEmpty || segments.count == 1 && Self.isLanguageRoot(segments[0]))
    }

    /// `en`, `de-de`, `pt_br`, `zh-hans`: a language's or a country's root.
    static func isLanguageRoot(_ segment: String) -> Bool {
        let parts = segment.split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard let first = parts.first, first.count == 2 || first.count == 3, parts.count <= 2 else { return false }
        return parts.allSatisfy { $0.count >= 2 && $0.count <= 4 && $0.allSatisfy(\.isLetter) }
    }

    /// A `<meta http-equiv="refresh">` a page of its own does not have: the page reloads itself within a minute
    /// (a queue, a check in progress), or sends the reader to another address within half a minute (an exit page,
    /// a redirect notice). A news page that reloads every five minutes is not one.
    func refreshes(_ content: String?) -> String? {
        guard let content else { return nil }
        let parts = content.split(separator: ";", maxSplits: 1).flatMap { $0.split(separator: ",", maxSplits: 1) }
        guard let delay = parts.first.flatMap({ Double(String($0).trimmingSpaces) }), delay >= 0 else { return nil }
        var target = parts.dropFirst().first.map { String($0).trimmingSpaces } ?? ""
        if target.lowercased().hasPrefix("url") {
            target = String(target.dropFirst(3)).trimmingSpaces
            if target.hasPrefix("=") { target = String(target.dropFirst()).trimmingSpaces }
            target = String(target.trimmingPrefix { $0 == "'" || $0 == "\"" })
            while target.last == "'" || target.last == "\"" { target.removeLast() }
        }
        let seconds = Int(delay)
        if target.isEmpty || target == requested?.whole {
            return seconds <= 60 ? "it reloads itself every \(seconds) s" : nil
        }
        return seconds <= 30 ? "it sends the reader on to \(target.prefix(120)) after \(seconds) s" : nil
    }

    /// The page's own address (its og:url or its canonical link) is a site's front page: what the page describes
    /// is the site, not the link (a wall's generic head, every address's). A site's pages name themselves; a page
    /// that names the front page as itself on a deep link is not the page the link names.
    func frontPageClaim(_ page: PageMetadata) -> String? {
        let own = [
            page.openGraph.first { $0.key == "og:url" }.map { ("og:url", $0.value) },
            page.canonicalURL.map { ("canonical", $0) },
        ]
        for case let (name, url)? in own {
            guard let address = Address(url), address.segments.isEmpty, address.parameters.isEmpty else { continue }
            return "its \(name) is a front page (\(url.prefix(120)))"
        }
        return nil
    }

    /// Whether the page is known to have little to read: read to its end with under 2,000 bytes of visible text,
    /// or a head that filled every card field and a body not read at all (a page whose reading stopped in its
    /// body, having what it needed, is no small page).
    func isSmall(_ page: PageMetadata) -> Bool {
        thin && (!page.stoppedEarly || page.signals.textBytes == 0)
    }

    /// Whether the page says which page it is, wherever it is served from (a mirror, an app that serves one page at
    /// every address): its own title (og:title, twitter:title, JSON-LD headline) is not the site's name, or its own
    /// address (og:url, canonical) is a page of some site other than a front page and other than the address asked
    /// or reached.
    func namesItself(_ page: PageMetadata) -> Bool {
        if let own = ownTitle(page), !isGeneric(own, page), !namesTheSite(own, page) { return true }
        return [page.openGraph.first { $0.key == "og:url" }?.value, page.canonicalURL].contains { url in
            guard let own = Address(url), !own.segments.isEmpty else { return false }
            return own.segments != requested?.segments && own.segments != final?.segments
        }
    }

    /// Whether `title` is the name the site gives itself — its og:site_name or application name, the alt text of
    /// its logo (an image before the page's first heading), or its host's words ("Daily Courier" on
    /// dailycourier.example) — rather than a page's.
    func namesTheSite(_ title: String, _ page: PageMetadata) -> Bool {
        let t = RefusalText.normalize(title)
        guard !t.isEmpty else { return false }
        let names =
            [page.openGraph.first { $0.key == "og:site_name" }?.value, page.applicationName]
            .compactMap { $0 } + page.signals.logoNames
        if names.contains(where: { RefusalText.normalize($0) == t }) { return true }
        guard let host = final?.site else { return false }
        let joined = t.filter { $0.isLetter || $0.isNumber }
        return joined.count >= 4 && host.split(separator: ".").contains { $0.count >= 4 && joined.hasPrefix($0) }
    }

    /// The words of the address's last segment when it is a slug (`city-council-approves-budget`,
    /// `Night_Harbor`), four letters or more, of which none begins a word of the page's title, heading, description
    /// or first text: the page is not about what its address names. Nil when the address has fewer than two such
    /// words (`/p/8812`, `/page`) or its last segment is no slug (`OpenGraph__Tests__ogp.html`).
    func wordsOfTheAddressNotOnThePage(_ page: PageMetadata) -> [String]? {
        guard isDeepLink, let url = response.requestedURL,
            let last = URLResolution.split(Substring(url)).path.split(separator: "/").last
        else { return nil }
        let slug = last.prefix { $0 != "." }
        guard let words = Self.slugWords(slug)?.filter({ $0.count >= 4 }), Set(words).count >= 2 else { return nil }
        let s = page.signals
        let texts = [s.documentTitle, ownTitle(page), s.heading, page.description, s.textStart].compactMap { $0 }
        // A page's word and an address's agree in their first five letters, or in a four-letter word's four.
        var starts: Set<Substring> = []
        for text in texts {
            for word in RefusalText.normalize(text).split(whereSeparator: { !$0.isLetter }) where word.count >= 4 {
                starts.insert(word.prefix(4))
                starts.insert(word.prefix(5))
            }
        }
        guard !words.contains(where: { starts.contains(Substring($0.prefix(5))) }) else { return nil }
        return Array(words.prefix(4))
    }

    /// A slug's words, lowercase: words of letters and digits, each lowercase or capitalized, joined by single
    /// hyphens, underscores or plus signs. Nil for anything else.
    static func slugWords(_ slug: Substring) -> [String]? {
        var words: [String] = []
        for word in slug.split(separator: "-", omittingEmptySubsequences: false).flatMap({
            $0.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "_" || $0 == "+" })
        }) {
            guard !word.isEmpty, word.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
                word.dropFirst().allSatisfy({ !$0.isUppercase })
            else { return nil }
            // Letters only: "2024", "x7kp2" and "1f005a8b" are no words.
            if word.allSatisfy(\.isLetter) { words.append(word.lowercased()) }
        }
        return words
    }
}

extension Evidence {
    /// The link's page is the one the site gives an address that cannot exist (`SiteProbeAnswer`): on a deep
    /// link, a page with nothing of its own that the made-up address got too says nothing about the link. Its kind
    /// is what the page is: the front page every address is sent to (the link's page is gone: an error page), an
    /// app's shell every address gets, or a notice.
    func sameAnswer(_ page: PageMetadata, _ probe: SiteProbeAnswer) -> FetchError? {
        guard isDeepLink, (200..<300).contains(probe.status), let answer = probe.page, isSmall(page),
            !isContent(page), !namesItself(page), PagePrint(page).isSame(as: answer)
        else { return nil }
        let asked = "the made-up \(probe.url) got the same page"
        if redirected, let final, final.segments.isEmpty {
            return refusal(.errorPage, provider: nil, "the site sends every address to its front page: \(asked)")
        }
        let s = page.signals
        if s.textBytes < 64, s.appRoot != nil || !s.scriptSources.isEmpty || !s.scriptText.isEmpty {
            return refusal(.emptyShell, provider: nil, "the app's shell, which every address gets: \(asked)")
        }
        return refusal(.notice, provider: nil, asked)
    }
}
