import DeskKitFetchPolicy
import DeskKitURL

/// Tells the pages that stand in for the one a link points to — a bot check, a consent or login form, an
/// error page served as a success, a parked domain, an empty app shell — from everything the fetch saw:
/// the status, the headers, where the redirects ended, and what the parser gathered (`PageSignals`). A
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

    /// The refusal `page`, served with `response`, is once its site's answer to a made-up address of its own is
    /// known (`probe`): the page itself when it is a refusal, else — on a deep link, for a page with nothing of its
    /// own — the notice every address of the site gets, when the made-up address got the same page. A front page's
    /// link, and a page with content of its own, are never refused for being what every address gets.
    package static func refusal(of page: PageMetadata, response: ResponseFacts, probe: SiteProbeAnswer) -> FetchError? {
        let evidence = Evidence(response, page: page)
        return evidence.verdict() ?? evidence.sameAnswer(page, probe)
    }

    /// Whether `url` asks for more than its site's front page: a path other than `/`, `/index.html`, `/home`, a
    /// language's root (`/en/`, `/pt-BR`) or such a root's index. A site that answers every other address with its
    /// front page, or with its app, gives a front page's link its card.
    package static func isDeepLink(_ url: String) -> Bool {
        Evidence(ResponseFacts(requestedURL: url, finalURL: url), page: nil).isDeepLink
    }

    /// Whether a site's answer to a made-up address could change the verdict on `page`: a deep link's small page
    /// with nothing of its own that does not say which page it is (`SiteProbeAnswer`). A front page, an article,
    /// a product, a page whose own title or address names it is what it is, whatever the site answers elsewhere.
    package static func asksTheSite(about page: PageMetadata, response: ResponseFacts) -> Bool {
        let evidence = Evidence(response, page: page)
        return evidence.isDeepLink && evidence.isSmall(page) && !evidence.isContent(page) && !evidence.namesItself(page)
    }

    /// A page or card with nothing to show — no title, description or image after every fallback — and no
    /// other refusal: no card is better than an empty one.
    package static let nothingToShow = FetchError.refused(
        .emptyShell, provider: nil, "nothing to show: no title, description or image")

    /// A maintenance or "back soon" page — its title or heading says the site is away for now, and its text
    /// or its having next to nothing else agrees — whatever its status: `PageFetcher` asks it of a 5xx page,
    /// which is `FetchError.Kind.errorPage` then rather than `httpStatus`. Nil for a page that says what it is
    /// (an article about maintenance).
    package static func maintenance(of page: PageMetadata, response: ResponseFacts) -> FetchError? {
        let evidence = Evidence(response, page: page)
        guard !evidence.isContent(page) else { return nil }
        return evidence.maintenance(page, words: evidence.words(of: page))
    }

    /// Statuses other than 2xx whose body is read for a bot check (the others are answered as
    /// `FetchError.Kind.httpStatus` at once): 202 and 405 (AWS WAF), 401 (a proof-of-work gate's "not yet"), 403,
    /// 429, 503, 999.
    package static func mayHideChallenge(status: Int) -> Bool {
        [202, 401, 403, 405, 429, 503, 999].contains(status)
    }

    /// Whether a page's head reads like a sign-in page's — a sign-in title (its `<title>`, og:title or
    /// twitter:title) or a description that invites signing in — so that the parser reads its body on, even with
    /// every preview field filled: whether the page has anything else to show decides (`PageSignals`).
    static func headReadsAsSignIn(titles: [String], description: String?) -> Bool {
        titles.contains { Evidence.isLoginTitle(RefusalText.parts(of: $0)) }
            || description.map(RefusalText.invitesSigningIn) == true
    }

    /// Statuses other than 2xx whose body is read for a maintenance page (`maintenance(of:response:)`): 5xx.
    package static func mayBeMaintenance(status: Int) -> Bool { (500...599).contains(status) }
}
