import DeskKitFetchPolicy

/// One mark that a bot-management vendor, a captcha, a consent or login service or a domain parker leaves on
/// a response: where it is, what it looks like, what it says, and where that was learnt.
///
/// A mark says as much as its ``Strength``: a vendor's cookie or server header is on every page that
/// vendor serves, real ones included, so it only names who ran a refusal decided by something else; a
/// challenge header or a challenge page's own script is enough alone.
struct RefusalSignature: Sendable {
    /// Where the mark is.
    enum Place: Sendable, Hashable {
        /// A response header, by its lowercase name; the pattern is in its value (any case), "" for any value.
        case header(String)
        /// The name of a cookie the response sets starts with the pattern.
        case cookie
        /// The response status is the pattern.
        case status
        /// The final URL's host is the pattern or ends with `.` and the pattern; a pattern ending in `.`
        /// is a prefix of the host (`consent.google.` for every country's).
        case host
        /// The final URL (lowercase, host and path and query) holds the pattern.
        case url
        /// A script's `src`, a frame's `src`, a form's `action`, a style sheet's `href` holds the pattern (any case).
        case script, frame, form, styleSheet
        /// The text of a small page (under 1 KiB, hidden or not), normalized, holds the pattern: the line a
        /// vendor's or a server's stock page signs with ("Protected by …", "Whitelabel Error Page").
        case text
        /// The start of an inline script holds the pattern (any case; `PageSignals.scriptText`).
        case scriptText
        /// An element has the pattern as its `id`, or among its classes (exactly).
        case elementID, elementClass
        /// The `<title>`, lowercase, its white space collapsed and trailing dots and ellipses taken off, is the
        /// pattern.
        case title
        /// That `<title>` holds the pattern: a vendor's name in its page's title, only ever a ``Strength/mark``.
        case titleWords
        /// The page's image (its tagged image, or the first image of its body) holds the pattern.
        case image

        /// Whether the mark is in the page's content — a script, a frame, a form, an element — rather than in
        /// the response (a header, a cookie, the status, the address) or the title. On a page with nothing
        /// else (``RefusalCheck``'s bare page) a content mark of any strength is the page: a vendor's script and
        /// no words is that vendor's challenge. A header or a cookie never is: it is on every page served.
        var isContent: Bool {
            switch self {
            case .script, .frame, .form, .styleSheet, .scriptText, .elementID, .elementClass, .image, .text: true
            case .header, .cookie, .status, .host, .url, .title, .titleWords: false
            }
        }
    }

    /// How much the mark says alone.
    enum Strength: Sendable, Hashable {
        /// The response is a refusal of this kind, whatever the page says (a challenge header, a captcha
        /// page's address).
        case decisive
        /// The page is a refusal of this kind unless it has metadata of its own (a challenge page's
        /// script, form or frame; a parking service's script).
        case standIn
        /// A captcha widget, which ordinary login and contact forms carry too: no refusal alone, but the first
        /// name for who ran a bot check the page's words decided.
        case widget
        /// Names who ran a refusal that other evidence decided; alone it says nothing — but a mark in the page's
        /// content (``Place/isContent``) on a bare page, with no other text or metadata, is the refusal.
        case mark
    }

    let provider: String?
    let kind: FetchError.Kind
    let place: Place
    /// Lowercase.
    let pattern: String
    let strength: Strength
    /// Where the mark was learnt: a vendor's documentation, a public list, a page it was seen on.
    let source: String

    init(
        _ provider: String?, _ kind: FetchError.Kind, _ place: Place, _ pattern: String, _ strength: Strength,
        source: String
    ) {
        self.provider = provider
        self.kind = kind
        self.place = place
        self.pattern = pattern
        self.strength = strength
        self.source = source
    }
}

/// The one table of marks (``RefusalSignature``): a new vendor is a few entries here, and nothing else.
/// Provider names follow microlink's is-antibot where it names the vendor too.
enum RefusalSignatures {
    // Where the marks were learnt, named once.
    private static let isAntibot = "microlink/is-antibot src/providers.json (MIT), 2025"
    private static let cloudflareDocs = "Cloudflare docs: Challenges, 'Detect a challenge page response' (cf-mitigated)"
    private static let antibotDetector = "scrapfly/Antibot-Detector detectors/antibot (2026)"
    private static let seen = "seen on the vendor's challenge pages (their HTML as served to a data-centre client)"
    private static let cmp = "the platform's install guide: its loader script, its stub and its dialog's container"
    private static let tcf = "IAB Europe TCF v2.2: the __tcfapi stub every registered CMP puts in the page"
    private static let stock = "the software's own error template, as it ships"

    static let all: [RefusalSignature] = [
        // Cloudflare: managed challenge, JS challenge, block pages, Turnstile.
        .init("cloudflare", .challenge, .header("cf-mitigated"), "challenge", .decisive, source: cloudflareDocs),
        .init("cloudflare", .challenge, .elementID, "challenge-form", .standIn, source: seen),
        .init("cloudflare", .challenge, .elementID, "challenge-running", .standIn, source: seen),
        .init("cloudflare", .challenge, .elementID, "challenge-stage", .standIn, source: seen),
        .init("cloudflare", .challenge, .elementID, "challenge-error-text", .standIn, source: seen),
        .init("cloudflare", .challenge, .elementID, "cf-challenge-running", .standIn, source: seen),
        .init("cloudflare", .challenge, .form, "__cf_chl_", .standIn, source: seen),
        .init("cloudflare", .challenge, .script, "/cdn-cgi/challenge-platform/h/", .standIn, source: seen),
        .init("cloudflare", .challenge, .scriptText, "_cf_chl_opt", .standIn, source: seen),
        .init("cloudflare", .challenge, .scriptText, "/cdn-cgi/challenge-platform/h/", .standIn, source: seen),
        // Injected into every page of a zone with bot management: only a bare page's.
        .init("cloudflare", .challenge, .scriptText, "__cf$cv$params", .mark, source: seen),
        .init("cloudflare", .challenge, .elementID, "cf-error-details", .mark, source: seen),
        .init("cloudflare", .challenge, .elementID, "cf-wrapper", .mark, source: seen),
        .init("cloudflare", .challenge, .cookie, "cf_clearance", .mark, source: isAntibot),
        .init("cloudflare", .challenge, .cookie, "__cf_bm", .mark, source: "Cloudflare docs: Cookies (__cf_bm)"),
        .init("cloudflare", .challenge, .header("server"), "cloudflare", .mark, source: seen),
        .init(
            "cloudflare-turnstile", .challenge, .script, "challenges.cloudflare.com/turnstile", .widget,
            source: isAntibot),
        .init("cloudflare-turnstile", .challenge, .elementClass, "cf-turnstile", .widget, source: isAntibot),
        .init("cloudflare-turnstile", .challenge, .scriptText, "turnstile.render", .widget, source: seen),
        // Vercel's firewall.
        .init("vercel", .challenge, .header("x-vercel-mitigated"), "challenge", .decisive, source: isAntibot),
        .init("vercel", .challenge, .title, "vercel security checkpoint", .decisive, source: seen),
        // Akamai Bot Manager: the sensor cookies are on every page; the challenge page's own script is not.
        .init("akamai", .challenge, .script, "/_sec/cp_challenge/", .standIn, source: seen),
        .init("akamai", .challenge, .elementID, "sec-if-cpt-container", .standIn, source: seen),
        .init("akamai", .challenge, .scriptText, "/_sec/cp_challenge/", .standIn, source: seen),
        .init("akamai", .challenge, .scriptText, "bmak.", .mark, source: isAntibot),
        .init("akamai", .challenge, .header("akamai-grn"), "", .mark, source: isAntibot),
        .init("akamai", .challenge, .header("server"), "akamaighost", .mark, source: seen),
        .init("akamai", .challenge, .cookie, "_abck", .mark, source: isAntibot),
        .init("akamai", .challenge, .cookie, "ak_bmsc", .mark, source: "Akamai docs: Bot Manager cookies"),
        .init("akamai", .challenge, .cookie, "bm_sz", .mark, source: "Akamai docs: Bot Manager cookies"),
        // DataDome: its tag is on every page; captcha-delivery.com only on its captcha.
        .init("datadome", .challenge, .script, "captcha-delivery.com", .standIn, source: seen),
        .init("datadome", .challenge, .frame, "captcha-delivery.com", .standIn, source: seen),
        .init("datadome", .challenge, .scriptText, "captcha-delivery.com", .standIn, source: seen),
        .init("datadome", .challenge, .script, "js.datadome.co", .mark, source: seen),
        .init("datadome", .challenge, .header("x-datadome"), "", .mark, source: isAntibot),
        .init("datadome", .challenge, .header("x-dd-b"), "", .mark, source: isAntibot),
        .init("datadome", .challenge, .cookie, "datadome", .mark, source: isAntibot),
        // PerimeterX (HUMAN): the press-and-hold page.
        .init("perimeterx", .challenge, .elementID, "px-captcha", .standIn, source: seen),
        .init("perimeterx", .challenge, .script, "captcha.px-cdn.net", .standIn, source: seen),
        .init("perimeterx", .challenge, .script, "/captcha/captcha.js", .standIn, source: seen),
        .init("perimeterx", .challenge, .header("x-px-authorization"), "", .mark, source: isAntibot),
        .init("perimeterx", .challenge, .cookie, "_px3", .mark, source: isAntibot),
        .init("perimeterx", .challenge, .cookie, "_pxhd", .mark, source: isAntibot),
        .init("perimeterx", .challenge, .script, "px-cloud.net", .mark, source: seen),
        // Its block page sets these; its sensor snippet on ordinary pages sets _pxAppId too.
        .init("perimeterx", .challenge, .scriptText, "_pxjsclientsrc", .standIn, source: seen),
        .init("perimeterx", .challenge, .scriptText, "_pxappid", .mark, source: isAntibot),
        .init("perimeterx", .challenge, .scriptText, "pxinit", .mark, source: isAntibot),
        .init("perimeterx", .challenge, .scriptText, "_pxaction", .mark, source: isAntibot),
        // Imperva (Incapsula): its script is injected into every page; the block page frames its resource.
        .init("imperva", .challenge, .frame, "_incapsula_resource", .standIn, source: seen),
        .init("imperva", .challenge, .script, "_incapsula_resource", .mark, source: seen),
        .init("imperva", .challenge, .scriptText, "_incapsula_resource", .mark, source: seen),
        .init("imperva", .challenge, .scriptText, "incapsula", .mark, source: isAntibot),
        .init("imperva", .challenge, .scriptText, "reese84", .mark, source: seen),
        .init("imperva", .challenge, .header("x-iinfo"), "", .mark, source: isAntibot),
        .init("imperva", .challenge, .header("x-cdn"), "incapsula", .mark, source: isAntibot),
        .init("imperva", .challenge, .header("x-cdn"), "imperva", .mark, source: seen),
        .init("imperva", .challenge, .cookie, "incap_ses_", .mark, source: isAntibot),
        .init("imperva", .challenge, .cookie, "visid_incap_", .mark, source: isAntibot),
        .init("imperva", .challenge, .cookie, "reese84", .mark, source: isAntibot),
        // AWS WAF: its action header; the captcha's own script.
        .init("aws-waf", .challenge, .header("x-amzn-waf-action"), "", .decisive, source: isAntibot),
        .init("aws-waf", .challenge, .script, "captcha.awswaf.com", .standIn, source: seen),
        .init("aws-waf", .challenge, .script, "awswaf.com", .mark, source: isAntibot),
        // The challenge page's parameters; the integration's calls are on ordinary pages too.
        .init("aws-waf", .challenge, .scriptText, "gokuprops", .standIn, source: seen),
        .init("aws-waf", .challenge, .scriptText, "awswaf", .mark, source: isAntibot),
        .init("aws-waf", .challenge, .scriptText, "aws-waf", .mark, source: isAntibot),
        .init("aws-waf", .challenge, .cookie, "aws-waf-token", .mark, source: isAntibot),
        // Kasada: its challenge answers 429 with these headers.
        .init("kasada", .challenge, .header("x-kasada-challenge"), "", .decisive, source: isAntibot),
        .init("kasada", .challenge, .header("x-kpsdk-ct"), "", .mark, source: seen),
        .init("kasada", .challenge, .header("x-kasada"), "", .mark, source: isAntibot),
        .init("kasada", .challenge, .script, "/ips.js", .mark, source: seen),
        .init("kasada", .challenge, .script, "kasada.js", .mark, source: isAntibot),
        .init("kasada", .challenge, .scriptText, "kpsdk", .mark, source: seen),
        .init("kasada", .challenge, .scriptText, "__kasada", .mark, source: isAntibot),
        // Sucuri's firewall and its JavaScript check.
        .init("sucuri", .challenge, .header("x-sucuri-block"), "", .decisive, source: seen),
        .init("sucuri", .challenge, .header("x-sucuri-id"), "", .mark, source: seen),
        .init("sucuri", .challenge, .header("server"), "sucuri", .mark, source: seen),
        .init("sucuri", .challenge, .cookie, "sucuri_cloudproxy_uuid_", .mark, source: antibotDetector),
        .init("sucuri", .challenge, .scriptText, "sucuri_cloudproxy_js", .standIn, source: antibotDetector),
        // Its firewall page relayed without the headers: its title and logo say whose it is.
        .init("sucuri", .challenge, .titleWords, "sucuri website firewall", .mark, source: seen),
        .init("sucuri", .challenge, .text, "sucuri website firewall", .standIn, source: isAntibot),
        .init("sucuri", .challenge, .image, "cdn.sucuri.net/sucuri-firewall", .standIn, source: seen),
        // DDoS-Guard.
        .init("ddos-guard", .challenge, .script, "check.ddos-guard.net", .standIn, source: seen),
        .init("ddos-guard", .challenge, .header("server"), "ddos-guard", .mark, source: seen),
        .init("ddos-guard", .challenge, .cookie, "__ddg", .mark, source: seen),
        // Anubis, the proof-of-work wall in front of forges and wikis.
        .init("anubis", .challenge, .elementID, "anubis_challenge", .standIn, source: isAntibot),
        .init("anubis", .challenge, .script, "/.within.website/", .standIn, source: isAntibot),
        .init("anubis", .challenge, .scriptText, "/.within.website/", .standIn, source: isAntibot),
        .init("anubis", .challenge, .elementID, "anubis_version", .standIn, source: seen),
        // Its static assets' path (`/.within.website/x/cmd/anubis/`, under a base prefix or not): the page's only
        // image is its mascot; a redirect to that path is to its challenge.
        .init("anubis", .challenge, .image, "/.within.website/x/cmd/anubis/", .standIn, source: antibotDetector),
        .init("anubis", .challenge, .url, "/.within.website/", .standIn, source: antibotDetector),
        .init("anubis", .challenge, .cookie, "anubis-auth", .mark, source: antibotDetector),
        .init("anubis", .challenge, .cookie, "anubis-cookie-verification", .mark, source: antibotDetector),
        // Reblaze, Radware (ShieldSquare), F5, Shape, Cheq, ThreatMetrix: named when their page is decided.
        // Reblaze's block page signs with its name.
        .init("reblaze", .challenge, .text, "protected by reblaze", .standIn, source: isAntibot),
        .init("reblaze", .challenge, .cookie, "rbzid", .mark, source: isAntibot),
        .init("reblaze", .challenge, .scriptText, "rbzns", .mark, source: seen),
        .init("reblaze", .challenge, .scriptText, "reblaze", .mark, source: isAntibot),
        .init("reblaze", .challenge, .cookie, "rbzsessionid", .mark, source: antibotDetector),
        // Its active challenge: the library (`<name>.ac_v2.lib.js`) and the namespace's challenge settings.
        .init("reblaze", .challenge, .script, ".ac_v2.lib.js", .standIn, source: antibotDetector),
        .init("reblaze", .challenge, .scriptText, "bereshit", .standIn, source: antibotDetector),
        .init("reblaze", .challenge, .scriptText, "winsocks(", .standIn, source: seen),
        .init("shapesecurity", .challenge, .scriptText, "shapesecurity", .mark, source: isAntibot),
        .init("shapesecurity", .challenge, .script, "shapesecurity", .mark, source: isAntibot),
        .init("radware", .challenge, .host, "validate.perfdrive.com", .decisive, source: seen),
        .init("radware", .challenge, .script, "perfdrive.com", .mark, source: seen),
        .init("cheq", .challenge, .script, "cheqzone.com", .mark, source: isAntibot),
        .init("cheq", .challenge, .scriptText, "cheqsdk", .mark, source: isAntibot),
        .init("threatmetrix", .challenge, .script, "fp/check.js", .mark, source: isAntibot),
        .init("threatmetrix", .challenge, .script, "fp/tags.js", .mark, source: seen),
        .init("threatmetrix", .challenge, .script, "online-metrix.net", .mark, source: seen),
        .init("threatmetrix", .challenge, .scriptText, "threatmetrix", .mark, source: isAntibot),
        .init("threatmetrix", .challenge, .scriptText, "tmx_profiling", .mark, source: seen),
        // Fastly's client challenge (is-antibot's "fullstory-challenge"): its assets' path is on the sites' ordinary
        // pages too (a script); a page with nothing else but them is its challenge.
        .init("fullstory-challenge", .challenge, .styleSheet, "/_fs-ch-", .mark, source: isAntibot),
        .init("fullstory-challenge", .challenge, .script, "/_fs-ch-", .mark, source: isAntibot),
        .init("fullstory-challenge", .challenge, .cookie, "_fs_ch_st_", .mark, source: isAntibot),
        // Anubis's style sheets are under its static path too.
        .init("anubis", .challenge, .styleSheet, "/.within.website/x/cmd/anubis/", .standIn, source: antibotDetector),
        // Queue-it's waiting room stands in for the page until the visitor's turn.
        .init(
            "queue-it", .challenge, .host, "queue-it.net", .decisive, source: "Queue-it docs: the waiting room's domain"
        ),
        // Captcha widgets: also on ordinary login and contact forms, so they need the words of a bot check.
        .init("recaptcha", .challenge, .script, "/recaptcha/", .widget, source: isAntibot),
        .init("recaptcha", .challenge, .script, "recaptcha.net", .widget, source: isAntibot),
        .init("recaptcha", .challenge, .frame, "/recaptcha/", .widget, source: isAntibot),
        .init("recaptcha", .challenge, .elementClass, "g-recaptcha", .widget, source: isAntibot),
        .init("recaptcha", .challenge, .scriptText, "grecaptcha", .widget, source: isAntibot),
        .init("hcaptcha", .challenge, .script, "hcaptcha.com", .widget, source: isAntibot),
        .init("hcaptcha", .challenge, .elementClass, "h-captcha", .widget, source: isAntibot),
        .init("hcaptcha", .challenge, .scriptText, "hcaptcha", .widget, source: isAntibot),
        .init("funcaptcha", .challenge, .script, "arkoselabs.com", .widget, source: isAntibot),
        .init("funcaptcha", .challenge, .script, "funcaptcha.com", .widget, source: isAntibot),
        .init("funcaptcha", .challenge, .elementID, "funcaptcha", .widget, source: isAntibot),
        .init("funcaptcha", .challenge, .elementID, "arkose", .widget, source: seen),
        .init("funcaptcha", .challenge, .scriptText, "arkoselabs", .widget, source: isAntibot),
        .init("funcaptcha", .challenge, .scriptText, "funcaptcha", .widget, source: isAntibot),
        .init("geetest", .challenge, .script, "geetest.com", .widget, source: isAntibot),
        .init("geetest", .challenge, .elementClass, "geetest_captcha", .widget, source: seen),
        .init("geetest", .challenge, .elementClass, "geetest_holder", .widget, source: seen),
        .init("geetest", .challenge, .scriptText, "geetest", .widget, source: isAntibot),
        .init("friendly-captcha", .challenge, .script, "friendlycaptcha.com", .widget, source: isAntibot),
        .init("friendly-captcha", .challenge, .elementClass, "frc-captcha", .widget, source: isAntibot),
        .init("friendly-captcha", .challenge, .scriptText, "friendlychallenge", .widget, source: isAntibot),
        .init("captcha-eu", .challenge, .script, "captcha.eu", .widget, source: isAntibot),
        .init("captcha-eu", .challenge, .scriptText, "captchaeu", .widget, source: isAntibot),
        .init("qcloud-captcha", .challenge, .script, "turing.captcha.qcloud.com", .widget, source: isAntibot),
        .init("qcloud-captcha", .challenge, .script, "captcha.qq.com", .widget, source: seen),
        .init("qcloud-captcha", .challenge, .scriptText, "tencentcaptcha", .widget, source: isAntibot),
        .init("qcloud-captcha", .challenge, .scriptText, "turing.captcha", .widget, source: isAntibot),
        .init("yandex-smartcaptcha", .challenge, .script, "smartcaptcha.yandexcloud.net", .widget, source: seen),
        // Sites' own bot checks.
        .init("amazon", .challenge, .form, "/errors/validatecaptcha", .standIn, source: seen),
        .init("google", .challenge, .url, "google.com/sorry/", .decisive, source: seen),
        .init("google", .challenge, .form, "/sorry/index", .standIn, source: seen),
        .init("yandex", .challenge, .url, "/showcaptcha", .decisive, source: seen),
        .init("yandex", .challenge, .url, "/checkcaptcha", .decisive, source: seen),
        .init("baidu", .challenge, .host, "wappass.baidu.com", .decisive, source: seen),
        .init("aliexpress-captcha", .challenge, .url, "punish?x5secdata", .decisive, source: isAntibot),
        .init("aliexpress-captcha", .challenge, .scriptText, "x5secdata", .standIn, source: isAntibot),
        .init("linkedin", .challenge, .status, "999", .decisive, source: isAntibot),
        .init("youtube", .challenge, .title, "- youtube", .decisive, source: isAntibot),
        // Consent walls: the page is the consent form of the site's owner.
        .init("google", .consentWall, .host, "consent.google.", .decisive, source: seen),
        .init("google", .consentWall, .host, "consent.youtube.com", .decisive, source: seen),
        .init("google", .consentWall, .form, "consent.google.", .standIn, source: seen),
        .init("google", .consentWall, .form, "consent.youtube.com", .standIn, source: seen),
        .init("yahoo", .consentWall, .host, "consent.yahoo.com", .decisive, source: seen),
        .init("yahoo", .consentWall, .host, "guce.yahoo.com", .decisive, source: seen),
        .init("yahoo", .consentWall, .host, "guce.aol.com", .decisive, source: seen),
        .init("yahoo", .consentWall, .form, "consent.yahoo.com", .standIn, source: seen),
        .init("yahoo", .consentWall, .form, "guce.yahoo.com", .standIn, source: seen),
        // Login walls: who runs them, when the page's words or address decided it.
        .init("instagram", .loginWall, .title, "login • instagram", .decisive, source: isAntibot),
        .init("linkedin", .loginWall, .url, "linkedin.com/authwall", .decisive, source: seen),
        .init("facebook", .loginWall, .host, "facebook.com", .mark, source: seen),
        .init("instagram", .loginWall, .host, "instagram.com", .mark, source: seen),
        .init("linkedin", .loginWall, .host, "linkedin.com", .mark, source: seen),
        .init("x", .loginWall, .host, "x.com", .mark, source: seen),
        .init("x", .loginWall, .host, "twitter.com", .mark, source: seen),
        .init("tiktok", .loginWall, .host, "tiktok.com", .mark, source: seen),
        .init("reddit", .loginWall, .host, "reddit.com", .mark, source: seen),
        .init("pinterest", .loginWall, .host, "pinterest.com", .mark, source: seen),
        .init("google", .loginWall, .host, "accounts.google.com", .mark, source: seen),
        .init("microsoft", .loginWall, .host, "login.microsoftonline.com", .mark, source: seen),
        .init("microsoft", .loginWall, .host, "login.live.com", .mark, source: seen),
        .init("github", .loginWall, .host, "github.com", .mark, source: seen),
        // Sites that run their own bot checks: named when the page's words decided (after the vendors above,
        // whose marks name them first).
        .init("reddit", .challenge, .host, "reddit.com", .mark, source: isAntibot),
        .init("amazon", .challenge, .host, "amazon.com", .mark, source: seen),
        .init("amazon", .challenge, .host, "amazon.co.uk", .mark, source: seen),
        .init("amazon", .challenge, .host, "amazon.de", .mark, source: seen),
        .init("amazon", .challenge, .host, "amazon.co.jp", .mark, source: seen),
        .init("google", .challenge, .host, "google.com", .mark, source: seen),
        .init("yandex", .challenge, .host, "yandex.ru", .mark, source: seen),
        .init("yandex", .challenge, .host, "ya.ru", .mark, source: seen),
        .init("linkedin", .challenge, .host, "linkedin.com", .mark, source: isAntibot),
        .init("douban", .challenge, .host, "sec.douban.com", .decisive, source: isAntibot),
        .init("weibo", .challenge, .title, "sina visitor system", .mark, source: isAntibot),
        .init("baidu", .challenge, .title, "百度安全验证", .mark, source: seen),
        .init("f5", .challenge, .title, "request rejected", .mark, source: "F5 BIG-IP ASM's blocking page"),
        .init("cloudfront", .challenge, .header("server"), "cloudfront", .mark, source: seen),
        // The stock error pages of server software and platforms, by the line they sign with (their titles are
        // HTTP's reason phrases, or none: ReasonPhrases). A finite list: the software's own templates.
        .init("spring-boot", .errorPage, .text, "whitelabel error page", .standIn, source: stock),
        .init("express", .errorPage, .text, "cannot get /", .standIn, source: stock),
        .init("asp.net", .errorPage, .text, "server error in '/' application", .standIn, source: stock),
        .init("varnish", .errorPage, .text, "guru meditation", .standIn, source: stock),
        .init("heroku", .errorPage, .frame, "herokucdn.com/error-pages/", .standIn, source: stock),
        // Domain parking and sale services.
        .init("sedo", .parkedDomain, .script, "sedoparking.com", .standIn, source: seen),
        .init("sedo", .parkedDomain, .host, "sedo.com", .mark, source: seen),
        .init("parkingcrew", .parkedDomain, .script, "parkingcrew.net", .standIn, source: seen),
        .init("bodis", .parkedDomain, .script, "bodis.com", .standIn, source: seen),
        .init("bodis", .parkedDomain, .frame, "bodis.com", .standIn, source: seen),
        .init("above", .parkedDomain, .script, "above.com", .standIn, source: seen),
        .init("godaddy", .parkedDomain, .script, "parking.godaddy", .standIn, source: seen),
        .init("godaddy", .parkedDomain, .script, "img1.wsimg.com/parking-lander", .standIn, source: seen),
        .init("godaddy", .parkedDomain, .url, "godaddy.com/domainsearch", .decisive, source: seen),
        .init("godaddy", .parkedDomain, .url, "godaddy.com/forsale", .decisive, source: seen),
        .init("afternic", .parkedDomain, .host, "afternic.com", .decisive, source: seen),
        .init("dan", .parkedDomain, .url, "dan.com/buy-domain", .decisive, source: seen),
        .init(
            nil, .parkedDomain, .script, "google.com/adsense/domains/caf.js", .standIn,
            source: "Google AdSense for domains: the parked pages' ads script"),
        .init("hugedomains", .parkedDomain, .host, "hugedomains.com", .decisive, source: seen),
        .init("domainmarket", .parkedDomain, .host, "domainmarket.com", .decisive, source: seen),
        .init("atom", .parkedDomain, .url, "atom.com/name/", .decisive, source: seen),
        .init("sedo", .parkedDomain, .url, "sedo.com/search/details", .decisive, source: seen),
        // Consent-management platforms (the IAB TCF's and others): their loaders, stubs and dialogs. A mark alone
        // decides nothing — a real article carries the banner too — but a page whose text is all inside the
        // platform's dialog (or which has none of its own while the dialog draws itself) is its consent wall.
        .init("onetrust", .consentWall, .script, "cdn.cookielaw.org", .mark, source: cmp),
        .init("onetrust", .consentWall, .script, "otsdkstub.js", .mark, source: cmp),
        .init("onetrust", .consentWall, .elementID, "onetrust-consent-sdk", .mark, source: cmp),
        .init("onetrust", .consentWall, .elementID, "onetrust-banner-sdk", .mark, source: cmp),
        .init("didomi", .consentWall, .script, "privacy-center.org", .mark, source: cmp),
        .init("didomi", .consentWall, .scriptText, "privacy-center.org", .mark, source: cmp),
        .init("didomi", .consentWall, .elementID, "didomi-host", .mark, source: cmp),
        .init("quantcast", .consentWall, .script, "cmp.inmobi.com", .mark, source: cmp),
        .init("quantcast", .consentWall, .scriptText, "cmp.inmobi.com", .mark, source: cmp),
        .init("quantcast", .consentWall, .script, "quantcast.mgr.consensu.org", .mark, source: cmp),
        .init("quantcast", .consentWall, .scriptText, "quantcast.mgr.consensu.org", .mark, source: cmp),
        .init("quantcast", .consentWall, .elementID, "qc-cmp2-container", .mark, source: cmp),
        .init("quantcast", .consentWall, .elementClass, "qc-cmp2-container", .mark, source: cmp),
        .init("sourcepoint", .consentWall, .script, "privacy-mgmt.com", .mark, source: cmp),
        .init("sourcepoint", .consentWall, .frame, "privacy-mgmt.com", .mark, source: cmp),
        .init("sourcepoint", .consentWall, .scriptText, "window._sp_", .mark, source: cmp),
        .init("sourcepoint", .consentWall, .elementClass, "sp_message_container", .mark, source: cmp),
        .init("usercentrics", .consentWall, .script, "usercentrics.eu", .mark, source: cmp),
        .init("usercentrics", .consentWall, .elementID, "usercentrics-root", .mark, source: cmp),
        .init("usercentrics", .consentWall, .elementID, "usercentrics-cmp-ui", .mark, source: cmp),
        .init("cookiebot", .consentWall, .script, "consent.cookiebot.com", .mark, source: cmp),
        .init("cookiebot", .consentWall, .elementID, "CybotCookiebotDialog", .mark, source: cmp),
        .init("trustarc", .consentWall, .script, "consent.trustarc.com", .mark, source: cmp),
        .init("trustarc", .consentWall, .elementID, "truste-consent-track", .mark, source: cmp),
        .init(nil, .consentWall, .scriptText, "__tcfapilocator", .mark, source: tcf),
    ]

    /// The signatures of `strength`, in the table's order.
    static func of(_ strength: RefusalSignature.Strength) -> [RefusalSignature] {
        switch strength {
        case .decisive: decisive
        case .standIn: standIns
        case .widget: widgets
        case .mark: marks
        }
    }
    private static let decisive = all.filter { $0.strength == .decisive }
    private static let standIns = all.filter { $0.strength == .standIn }
    private static let widgets = all.filter { $0.strength == .widget }
    private static let marks = all.filter { $0.strength == .mark }

    /// The element ids the parser looks for: the table's, and the mount points of app shells.
    static let elementIDs = TokenTable(
        all.filter { $0.place == .elementID }.map(\.pattern) + RefusalPhrases.appRootIDs)
    /// The element classes the parser looks for.
    static let elementClasses = TokenTable(all.filter { $0.place == .elementClass }.map(\.pattern))

    /// Whether `id` is an app's mount point rather than a vendor's mark.
    static func isAppRoot(_ id: String) -> Bool { RefusalPhrases.appRootIDs.contains(id) }

    /// The consent platforms' marks, vendors' first and the TCF stub (anyone's) last.
    static let consentPlatforms =
        marks.filter { $0.kind == .consentWall && $0.provider != nil }
        + marks.filter { $0.kind == .consentWall && $0.provider == nil }

    /// The consent platforms' dialogs, as the parser's markers (`#id`, `.class`): the text inside is theirs.
    private static let consentDialogs = consentPlatforms.compactMap { signature -> String? in
        switch signature.place {
        case .elementID: "#" + signature.pattern
        case .elementClass: "." + signature.pattern
        default: nil
        }
    }

    /// Whether `marker` (`#id` or `.class`) is a consent platform's dialog.
    static func isConsentDialog(_ marker: String) -> Bool { consentDialogs.contains(marker) }
}
