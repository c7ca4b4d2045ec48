import DeskKitFetchPolicy
import DeskKitTestSupport
import Foundation
import Testing

@testable import DeskKitMetadata

/// The check on its own: what the parser gathers for it, the words, and the pages that must keep their cards.
@Suite("Refusal check")
struct RefusalCheckTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func page(_ html: String, url: String = "https://shop.example/item/7") -> PageMetadata {
        MetadataExtractor.extract(html: Array(html.utf8), pageURL: url)
    }

    static func check(
        _ html: String, status: Int = 200, headers: [(String, String)] = [],
        asked: String = "https://shop.example/item/7",
        at final: String? = nil
    ) -> FetchError? {
        let final = final ?? asked
        return RefusalCheck.refusal(
            of: page(html, url: final),
            response: ResponseFacts(
                status: status, headers: headers.map { .init(name: $0.0, value: $0.1) }, requestedURL: asked,
                finalURL: final))
    }

    @Test func theParserGathersTheSignals() {
        let s = Self.page(
            """
            <html><head><title>Sign in</title><script src="/a.js"></script>
            <script id="anubis_challenge" type="application/json">{}</script></head>
            <body><noscript>Please enable JavaScript</noscript><div id="root" class="g-recaptcha x"></div>
            <form action="/session"><input type="password"><input type=PASSWORD></form>
            <iframe src="/frame"></iframe><nav>menu</nav><p>Twelve visible bytes</p></body></html>
            """
        ).signals
        #expect(s.documentTitle == "Sign in")
        #expect(s.noscript == "Please enable JavaScript")
        #expect(s.scriptSources == ["/a.js"])
        #expect(s.formActions == ["/session"] && s.frameSources == ["/frame"])
        #expect(s.markers == ["#anubis_challenge", ".g-recaptcha"])
        #expect(s.appRoot == "root")
        #expect(s.passwordFields == 1, "type is matched as written")
        #expect(s.visibleTextBytes == "Twelve visible bytes".utf8.count, "navigation and noscript are not visible text")
    }

    @Test func theParserGathersWhatAPageWithoutWordsShows() {
        let html = """
            <html><head><script>window._cf_chl_opt={cvId:"2"};</script><script src="/x.js"></script>
            <script type="application/ld+json">{"@type":"Thing"}</script></head><body>
            <div style="display:none">Hidden words</div><noscript>Enable JavaScript</noscript><p>Shown <a href="/">link</a></p>
            <form><input name=q><input type=email><input type=hidden><input type=submit><textarea></textarea></form>
            <script>if (a < b && c </scr) { pxInit(); }</script></body></html>
            """
        let s = Self.page(html).signals
        #expect(s.scriptText == "window._cf_chl_opt={cvid:\"2\"};\nif (a < b && c </scr) { pxinit(); }")
        #expect(s.textStart == "Hidden words Shown link", "hidden text too, but not the noscript")
        #expect(s.textBytes == "Hidden wordsShown link".utf8.count)
        #expect(s.visibleTextBytes == "Shown link".utf8.count && s.linkTextBytes == "link".utf8.count)
        #expect(s.fieldsToFill == 3, "text, email and the textarea; not hidden or submit")
        // The scripts' text is the same however the page arrives: the skipper keeps it across chunks.
        let bytes = Array(html.utf8)
        for cut in stride(from: 1, to: bytes.count, by: 7) {
            let parser = HTMLMetadataParser(pageURL: "https://shop.example/item/7")
            _ = parser.feed(bytes[..<cut])
            _ = parser.feed(bytes[cut...])
            #expect(parser.finish().signals == s, "cut at \(cut)")
        }
        // A script's start, a page's start: each capped.
        let long = String(repeating: "var a=1;", count: 1_000)
        let capped = Self.page(String(repeating: "<script>\(long)</script>", count: 8)).signals
        #expect(capped.scriptText.utf8.count == PageSignals.maxScriptText)
        #expect(capped.scriptText.split(separator: "\n").allSatisfy { $0.utf8.count <= PageSignals.maxScriptStart })
    }

    /// A vendor's script, widget or words with nothing else on the page is that vendor's challenge; the same
    /// marks on a page with words, fields or a description of its own are not.
    @Test func aVendorsCodeAndNothingElseIsItsChallenge() {
        let bare = [
            ("<script>window._pxAppId='PX1';pxInit();</script>", "perimeterx"),
            ("<script>bmak.js_post=false;</script>", "akamai"),
            ("<script>window.KPSDK={};</script>", "kasada"),
            (#"<div class="g-recaptcha" data-sitekey="x"></div>"#, "recaptcha"),
            (#"<title>shop.example</title><div class="frc-captcha"></div>"#, "friendly-captcha"),
            ("<script>window.gokuProps={};</script>", "aws-waf"),
        ]
        for (html, provider) in bare {
            let refusal = Self.check("<html><body>\(html)</body></html>")
            #expect(
                refusal?.kind == .challenge && refusal?.provider == provider, "\(html): \(String(describing: refusal))")
        }
        #expect(Self.check("<body><div>blocked by network security.</div></body>")?.kind == .challenge)
        // The same marks where the page has its own words or fields.
        #expect(
            Self.check(
                "<title>Care guide</title><script>window._pxAppId='PX1';</script><p>Wash the pan by hand and dry it at once on the stove.</p>"
            ) == nil)
        #expect(
            Self.check(
                #"<title>Newsletter</title><form><input type=email name=e><div class="cf-turnstile"></div></form>"#)
                == nil)
        // A title that repeats the address is no more than the address.
        #expect(Self.check("<title>Shop.Example</title><body></body>") == RefusalCheck.nothingToShow)
        #expect(Self.check("<title>Shop.Example</title><p>Open from nine to five on weekdays.</p>") == nil)
        // A vendor's cookie on an empty page names no one: the page is empty, not that vendor's.
        let empty = Self.check(
            "<html><body></body></html>", headers: [("Set-Cookie", "__cf_bm=1"), ("Server", "cloudflare")])
        #expect(empty == RefusalCheck.nothingToShow)
    }

    /// Notices about the browser are not the page's words: they neither make a page a shell nor keep one.
    @Test func noticesAreNotShells() {
        let article = String(repeating: "<p>The warehouse moved to the coast in stages, shelf by shelf.</p>", count: 40)
        // The article is hidden until a script shows it; the notice too.
        let hidden = Self.check(
            #"<title>How we moved</title><script src="/m.js"></script><div id="outdated" style="display:none">You are using an outdated browser. Upgrade your browser today.</div><div id="app" style="display:none">\#(article)</div>"#
        )
        #expect(hidden == nil)
        // A title of its own and only a JavaScript notice: a title card. The site's bare name: a shell.
        let calendar = #"<script src="/embed.js"></script><div id="calendar"></div>"#
        #expect(
            Self.check("<title>Festivos en España</title><noscript>Se requiere JavaScript.</noscript>\(calendar)")
                == nil)
        #expect(
            Self.check("<title>Festivos en España</title><div>JavaScript is required to see it.</div>\(calendar)")
                == nil)
        let named = Self.check(
            "<title>500px</title><noscript>Enable JavaScript.</noscript>\(calendar)", asked: "https://500px.com/p/x")
        #expect(named?.kind == .emptyShell)
        #expect(
            Self.check("<title>Example Shop</title><noscript>Enable JavaScript.</noscript>\(calendar)")?.kind
                == .emptyShell, "the words of its host")
        #expect(
            Self.check("<title>TrackerApp</title><noscript>Enable JavaScript.</noscript>\(calendar)")?.kind
                == .emptyShell)
    }

    @Test func parkedPagesByTheirWordsInTitleOrDescription() {
        let links = (1...30).map { #"<a href="/r?q=\#($0)">Related search number \#($0)</a>"# }.joined()
        let lander = "example-parked.net - This website is for sale! - example parked Resources and Information."
        #expect(Self.check("<title>\(lander)</title>\(links)")?.kind == .parkedDomain)
        #expect(
            Self.check(
                #"<title>returns-example.com</title><meta name="description" content="returns-example.com - returns Resources and Information.">"#
            )?.kind == .parkedDomain)
        // A page with a body of its own is not parked for its title.
        let body = String(
            repeating: "<p>We sold the old shop's name last spring; here is what the sale taught us about names.</p>",
            count: 30)
        #expect(Self.check("<title>This website is for sale: our story</title>\(body)") == nil)
    }

    @Test func markersAreLookedForAtTheStartOfTheBodyOnly() {
        let filler = String(repeating: "<span>word word word word word word</span>", count: 3_000)  // > 64 KiB
        let s = Self.page(
            "<title>T</title><body><div id=\"px-captcha\"></div>\(filler)<div id=\"challenge-form\"></div>"
        )
        .signals
        #expect(s.markers == ["#px-captcha"])
    }

    @Test func titlesAreCutIntoPartsAndCodesTakenOff() {
        let parts = RefusalText.parts(of: "404 页面不存在 - 示例商城").map(\.text)
        #expect(parts.contains("页面不存在"))
        #expect(RefusalText.parts(of: "Error 404").first?.code == true)
        #expect(RefusalText.parts(of: "Error 4040").first?.code == false)
        #expect(RefusalText.normalize("  Just a   moment...  ") == "just a moment")
        #expect(RefusalText.normalize("We couldn\u{2019}t find it!") == "we couldn't find it")
        let stripped = RefusalText.withoutCode("404错误")
        #expect(stripped.text == "错误" && stripped.code)
    }

    @Test func eachKindByItsWords() {
        #expect(Self.check("<title>Just a moment...</title>")?.kind == .challenge)
        #expect(Self.check("<title>Страница не найдена</title><h1>Ошибка</h1>")?.kind == .errorPage)
        #expect(Self.check("<title>ページが見つかりません</title>")?.kind == .errorPage)
        #expect(Self.check("<title>Before you continue to YouTube</title>")?.kind == .consentWall)
        #expect(Self.check("<title>Anmelden</title><form><input type=password></form>")?.kind == .loginWall)
        #expect(
            Self.check("<title>Domain kaufen</title><h1>Diese Domain steht zum Verkauf</h1>")?.kind == .parkedDomain)
        #expect(
            Self.check("<title>Vite App</title><script type=module src=/main.js></script><div id=app></div>")?.kind
                == .emptyShell)
    }

    /// A login page is known by what it is — a sign-in title, fields, an invitation to sign in, nothing else to show —
    /// whatever friendly sentence its description is; a page about signing in with content of its own is itself.
    @Test func aLoginPageIsKnownByWhatItIs() {
        let welcome =
            #"<meta property="og:description" content="Welcome back. Sign in to check out what your friends are sharing.">"#
        // A sign-in title, or a list of sign-in words, over a welcome and an empty body.
        #expect(Self.check(#"<title>Login • Example</title>"# + welcome)?.kind == .loginWall)
        #expect(Self.check(#"<title>Example Login, Sign in | Example</title>"# + welcome)?.kind == .loginWall)
        // The site's name as its title: the invitation and nothing else.
        #expect(Self.check(#"<title>Example</title>"# + welcome + "<div id=root></div>")?.kind == .loginWall)
        // A one-time code is a sign-in's field.
        let code = Self.page(#"<form><input name=code autocomplete="one-time-code"></form>"#)
        #expect(code.signals.passwordFields == 1)
        // A welcome alone invites nothing; an invitation on a page with content of its own is that page's.
        let back = #"<meta property="og:description" content="Welcome back! Season two opens with three stories.">"#
        #expect(Self.check(#"<title>Episode 1 – A Podcast</title>"# + back) == nil)
        let thread = String(
            repeating: "<p>The widget stays blank on Safari 17 until tracking prevention is off.</p>", count: 5)
        #expect(
            Self.check(
                #"<title>Widget blank on Safari - Community</title><meta name="description" content="Log in to see all 14 replies.">"#
                    + thread) == nil)
    }

    @Test func aPageWithItsOwnMetadataIsItself() {
        // A login form in the body of an article, a captcha demo on a vendor's page, an error's words as a name.
        #expect(
            Self.check(
                #"<meta property="og:title" content="Passkeys, explained"><title>Log in</title><form><input type=password></form>"#
            ) == nil)
        #expect(
            Self.check(#"<meta property="og:title" content="hCaptcha"><div class="h-captcha"></div><p>not a robot</p>"#)
                == nil)
        #expect(
            Self.check(#"<meta property="og:title" content="Not Found live"><title>Not Found – the band</title>"#)
                == nil)
        // Its metadata does not hold against a redirect to a login page.
        let wall = Self.check(
            #"<meta property="og:title" content="Example"><title>Example</title>"#,
            asked: "https://example.com/p/1", at: "https://example.com/accounts/login/?next=/p/1")
        #expect(wall?.kind == .loginWall)
    }

    @Test func aVendorsMarkAloneIsNoWall() {
        let html = "<title>Opening hours</title><p>Open from nine to five on weekdays, and Saturday mornings.</p>"
        for header in [
            ("Set-Cookie", "datadome=1; Path=/"), ("Set-Cookie", "_abck=x"), ("Server", "cloudflare"),
            ("X-Iinfo", "1"), ("x-kpsdk-ct", "1"),
        ] {
            #expect(Self.check(html, headers: [header]) == nil, "\(header)")
        }
        // …but with a refusal's status and nothing else to read, it names who refused.
        let blocked = Self.check("<title>Access</title>", status: 403, headers: [("Server", "AkamaiGHost")])
        #expect(blocked?.kind == .challenge && blocked?.provider == "akamai")
    }

    @Test func theResponseAloneDecidesWhatItCan() {
        func response(_ status: Int, _ headers: [(String, String)], at url: String = "https://shop.example/")
            -> FetchError?
        {
            RefusalCheck.refusal(
                of: ResponseFacts(
                    status: status, headers: headers.map { .init(name: $0.0, value: $0.1) }, requestedURL: url,
                    finalURL: url))
        }
        #expect(response(403, [("CF-Mitigated", "challenge")])?.provider == "cloudflare")
        #expect(response(405, [("x-amzn-waf-action", "captcha")])?.provider == "aws-waf")
        #expect(response(999, [])?.provider == "linkedin")
        #expect(response(302, [], at: "https://consent.google.de/ml?continue=x")?.kind == .consentWall)
        #expect(response(200, [("Set-Cookie", "cf_clearance=1")]) == nil)
    }

    @Test func theParserGathersWhatAPageSaysItIs() {
        let words = String(repeating: "word ", count: 30)
        let s = Self.page(
            """
            <html><head><script type="application/ld+json">{"@type":["https://schema.org/NewsArticle","Thing"]}</script>
            <meta name="description" content="What the page is about, in a sentence of its own."></head>
            <body><div ng-app="shop"></div><div id="onetrust-consent-sdk"><p>We value your privacy</p>
            <div><b>Accept</b></div></div><article><p>\(words)</p><p>short</p><section><p>\(words)</p></section>
            </article><p>\(words)</p></body></html>
            """
        ).signals
        #expect(s.consentTextBytes == "We value your privacy".utf8.count + "Accept".utf8.count)
        #expect(s.articleParagraphs == 2, "the paragraphs of 100 bytes inside the article")
        #expect(s.jsonLDTypes == ["NewsArticle", "Thing"])
        #expect(s.headDescription == "What the page is about, in a sentence of its own.")
        #expect(s.appRoot == "ng-app")
    }

    /// A consent platform's dialog decides a page only when it is all the page has.
    @Test func aConsentPlatformIsTheWallOnlyWhenItsDialogIsAll() {
        let dialog =
            #"<div id="CybotCookiebotDialog"><h2>Diese Webseite verwendet Cookies</h2><p>Wir verwenden Cookies.</p></div>"#
        let script = #"<script src="https://consent.cookiebot.com/uc.js"></script>"#
        let wall = Self.check("<html><head><title>Gartenbau</title>\(script)</head><body>\(dialog)</body></html>")
        #expect(wall?.kind == .consentWall && wall?.provider == "cookiebot", "\(String(describing: wall))")
        // The same dialog beside a page of its own, and beside a head that describes the page.
        let text = "<p>" + String(repeating: "Öffnungszeiten der Bibliothek am Sonntag. ", count: 6) + "</p>"
        #expect(
            Self.check("<html><head><title>Bibliothek</title>\(script)</head><body>\(text)\(dialog)</body></html>")
                == nil)
        let described =
            #"<html><head><title>Gartenbau</title><meta name="description" content="Gartenbau Müller pflanzt seit 1950 Hecken und Obstbäume in der Region.">"#
            + "\(script)</head><body>\(dialog)</body></html>"
        #expect(Self.check(described) == nil)
        // The TCF stub alone names no platform; the stub with nothing else is still the wall.
        let stub = Self.check(
            "<html><head><title>News</title><script>(function(){window.__tcfapiLocator=1})()</script></head><body></body></html>"
        )
        #expect(stub?.kind == .consentWall && stub?.provider == nil, "\(String(describing: stub))")
    }

    /// Maintenance words decide on a page with little to read that says so; a service page titled "Maintenance"
    /// with text of its own, and an article about maintenance, keep their cards.
    @Test func maintenanceIsAnErrorPageAndTheTopicIsNot() {
        let away = Self.check(
            "<html><head><title>Site Maintenance</title></head><body><h1>We&rsquo;ll be back soon!</h1>"
                + "<p>Sorry for the inconvenience but we&rsquo;re performing some maintenance at the moment.</p></body></html>"
        )
        #expect(away?.kind == .errorPage)
        let ko = Self.check("<html><head><title>점검 중</title></head><body><h1>서비스 점검 중입니다</h1></body></html>")
        #expect(ko?.kind == .errorPage)
        // A maintenance plugin keeps the site's description: a sentence about the site, not about this page.
        let plugin = Self.check(
            #"<html><head><title>Bloom Florists</title><meta name="description" content="Bloom Florists delivers fresh flowers across Berlin every day."></head>"#
                + "<body><h1>Wartungsarbeiten</h1><p>Unsere Website wird gerade gewartet.</p></body></html>")
        #expect(plugin?.kind == .errorPage, "\(String(describing: plugin))")
        let service =
            "<html><head><title>Maintenance | Example Cars</title></head><body><h1>Maintenance</h1><p>"
            + String(repeating: "Book your car's yearly service online; we check brakes, tyres and oil. ", count: 8)
            + "</p></body></html>"
        #expect(Self.check(service) == nil)
        let article =
            #"<html><head><title>Site maintenance: a checklist</title><meta property="og:type" content="article"></head>"#
            + "<body><h1>We'll be back soon</h1><p>What to do before you take a site down.</p></body></html>"
        #expect(Self.check(article) == nil)
    }

    /// An empty mount point is a shell whatever its title says; its head's description makes it a page.
    @Test func anEmptyMountPointIsAShellUnlessItsHeadDescribesIt() {
        let shell =
            #"<html><head><title>Orders – Acme Dashboard</title><script src="/main.js"></script></head>"#
            + #"<body><noscript>You need to enable JavaScript to run this app.</noscript><div id="___gatsby"></div></body></html>"#
        #expect(Self.check(shell)?.kind == .emptyShell)
        let described = shell.replacingOccurrences(
            of: "</title>",
            with: #"</title><meta name="description" content="Every order of your shop in one place, as it ships.">"#)
        #expect(Self.check(described) == nil)
        // Scripts without a mount point, titled for the page, keep a title-only card.
        let scripts =
            #"<html><head><title>Orders – Acme Dashboard</title><script src="/main.js"></script></head>"#
            + "<body><noscript>You need to enable JavaScript to run this app.</noscript></body></html>"
        #expect(Self.check(scripts) == nil)
    }

    /// Every real page of the corpus and every page of the OpenGraph suites keeps its card; so do the real
    /// pages of `../shared/corpus/pages` (the readability articles) and its OpenGraph suite, where they are.
    @Test func noRealPageIsRefused() async throws {
        var files: [URL] = []
        for folder in [
            "Corpus/html", "Tests/DeskKitMetadataTests/Fixtures/og/files", "../shared/corpus/pages",
            "../shared/conformance/og/files",
        ] {
            let base = Self.root.appendingPathComponent(folder)
            let walk = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
            while let url = walk?.nextObject() as? URL {
                if ["html", "htm"].contains(url.pathExtension.lowercased()) { files.append(url) }
            }
        }
        #expect(files.count > 100)
        // Seconds of CPU, on a thread of its own: the cooperative pool's two threads stay with the suites that wait
        // on time. The pages whose answer is not the expected one, with it.
        let wrong = try await onThreadOfItsOwn { [files] in
            try files.compactMap { file -> String? in
                let bytes = try [UInt8](Data(contentsOf: file))
                let url = "https://example.com/" + file.lastPathComponent
                let page = MetadataExtractor.extract(html: bytes, pageURL: url)
                let refusal = RefusalCheck.refusal(
                    of: page, response: ResponseFacts(status: 200, requestedURL: url, finalURL: url))
                // The suites' fixtures of one tag (a canonical link, an icon) have nothing to show: no card, and
                // nothing else said of them.
                let nothing = page.title == nil && page.description == nil && page.image == nil
                guard refusal != (nothing ? RefusalCheck.nothingToShow : nil) else { return nil }
                return "\(file.lastPathComponent): \(refusal.map(String.init(describing:)) ?? "no refusal")"
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }
}
