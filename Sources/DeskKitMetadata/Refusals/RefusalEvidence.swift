import DeskKitFetchPolicy
import DeskKitURL

/// What one response and its page show, read once (the title's parts when a rule asks for them), and the
/// decision on them.
final class Evidence {
    let response: ResponseFacts
    let page: PageMetadata?
    let headers: [(name: String, value: String)]
    let cookies: [String]
    let final: Address?
    let requested: Address?
    let scripts: [String]
    let frames: [String]
    let forms: [String]
    let styleSheets: [String]
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
        styleSheets = page?.signals.styleSheets.map { $0.lowercased() } ?? []
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
        case .styleSheet: return styleSheets.first { $0.holds(p) }.map { "style sheet \($0)" }
        case .text:
            // The words of a small page's own text (a block page's "Protected by …"), not an article's.
            guard let s = page?.signals, s.textBytes < 1_024, RefusalText.normalize(s.textStart).holds(p) else {
                return nil
            }
            return "its text \"\(p)\""
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
            case .notice: "a notice about the visit stood in for the page"
            default: "an app shell with no metadata of its own: its content comes from scripts"
            }
        return .refused(kind, provider: provider, "\(what) (\(evidence))")
    }

    /// Whether the page describes itself beyond a title (read once: the bare-page and the shell rules ask).
    lazy var describesItself: Bool = page.map(describes) ?? false
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
