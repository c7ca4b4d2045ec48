import DeskKitFetchPolicy
import Testing

@testable import DeskKitMetadata

/// Walls known by what the page does and what it lacks, not by their words: HTTP's reason phrases, the notice's
/// marks, the vendors' smallest pages, and the site's answer to an address that cannot exist.
@Suite("Walls by structure")
struct WallStructureTests {
    static let link = "https://shop.example/news/city-council-approves-budget"

    static func check(
        _ html: String, status: Int = 200, headers: [(String, String)] = [], asked: String = link
    ) -> FetchError? {
        RefusalCheckTests.check(html, status: status, headers: headers, asked: asked)
    }

    /// A page served as a success whose title or heading is HTTP's reason phrase is the server's answer about the
    /// request, of the kind its code names; a one-word phrase needs its code or a page with little else; a status
    /// other than 2xx says it already.
    @Test func reasonPhrasesAsTitles() {
        let pages: [(String, FetchError.Kind?)] = [
            ("<title>429 Too Many Requests</title><center><h1>429 Too Many Requests</h1></center><hr>", .challenge),
            ("<title>Unavailable For Legal Reasons</title><p>Not in your country.</p>", .errorPage),
            ("<title>Error 503 Service Unavailable</title>", .errorPage),
            ("<title>Shop</title><h1>Request Entity Too Large</h1>", .errorPage),
            ("<title>401 Authorization Required</title><hr>nginx", .loginWall),
            ("<title>410 Gone</title>", .errorPage),
        ]
        for (html, kind) in pages { #expect(Self.check(html)?.kind == kind, "\(html)") }
        // "Gone" alone names a page (a novel, a film, an image that went).
        #expect(Self.check(#"<title>Gone</title><meta property="og:image" content="/gone.png"><p>It went.</p>"#) == nil)
        // A 429 with the same page is the status it says.
        #expect(Self.check("<title>429 Too Many Requests</title>", status: 429)?.kind != .challenge)
        // An article about the status keeps its card.
        #expect(
            Self.check(
                #"<meta property="og:type" content="article"><title>429 Too Many Requests: what it means</title><p>A rate limiter answers 429 when a client asks too often; wait as long as Retry-After says.</p>"#
            ) == nil)
    }

    /// One mark a page of its own never has is enough: it reloads itself or sends the reader on within a minute, or
    /// says when to come back.
    @Test func aPageThatReloadsOrSendsOnOrSaysWhenToComeBack() {
        let queue = #"<meta http-equiv="refresh" content="20"><title>Summer festival</title><p>You are in line.</p>"#
        #expect(Self.check(queue)?.kind == .notice)
        let exit =
            #"<meta http-equiv="refresh" content="3; URL='https://elsewhere.example/file.zip'"><p>Taking you there.</p>"#
        let refusal = Self.check(exit)
        #expect(refusal?.kind == .notice && refusal?.detail.contains("elsewhere.example/file.zip") == true)
        #expect(
            Self.check("<title>Hold tight</title><p>The shop is busy.</p>", headers: [("Retry-After", "30")])?.kind
                == .notice)
        // A news page that reloads every five minutes is a page.
        #expect(
            Self.check(
                #"<meta http-equiv="refresh" content="300"><title>Morning briefing</title><p>Markets open higher.</p>"#)
                == nil)
    }

    /// Two of the marks a page of its own seldom has together: noindex, its own address a front page on a deep
    /// link, the site's name as its title, none of its slug's words, a form of choices with nothing to type.
    @Test func twoMarksOfANotice() {
        let gate = """
            <title>Glenmoor Distillery</title><meta property="og:site_name" content="Glenmoor Distillery">
            <body><p>You must be of legal drinking age to enter.</p><form action="/age"><select name="d"></select>
            <select name="m"></select><select name="y"></select><button>Enter</button></form></body>
            """
        let refusal = Self.check(gate, asked: "https://glenmoor.example/whiskies/sherry-cask")
        #expect(refusal?.kind == .notice, "\(String(describing: refusal))")
        #expect(refusal?.detail.contains("site's name") == true && refusal?.detail.contains("3 choices") == true)
        let blocked =
            #"<meta name="robots" content="noindex"><title>Daily Courier</title><p>Our website is unavailable in your country.</p>"#
        #expect(Self.check(blocked)?.kind == .notice, "noindex and none of the slug's words")
        let frontPage =
            #"<meta name="robots" content="noindex"><meta property="og:url" content="https://www.streambox.example/"><meta property="og:title" content="StreamBox"><meta property="og:description" content="Watch the best shows."><meta property="og:image" content="https://cdn.streambox.example/og.png">"#
        #expect(Self.check(frontPage, asked: "https://streambox.example/title/81234567")?.kind == .notice)
        // One mark alone keeps the card: a search page asks not to be indexed, a docs page's slug is not its title.
        #expect(
            Self.check(
                #"<meta name="robots" content="noindex"><title>Search results</title><p>3 results.</p>"#,
                asked: "https://shop.example/search?q=x") == nil)
        #expect(
            Self.check(
                "<title>Introduction</title><p>This guide helps you set things up.</p>",
                asked: "https://docs.example/getting-started") == nil)
        // The page names what its slug names, or is content, or is the front page: no notice.
        #expect(
            Self.check(
                #"<meta name="robots" content="noindex"><title>City council approves the budget</title><p>By a vote of 7 to 2.</p>"#
            ) == nil)
        #expect(
            Self.check(
                #"<meta name="robots" content="noindex"><meta property="og:type" content="article"><title>Daily Courier</title><p>Our website is unavailable in your country.</p>"#
            ) == nil)
        #expect(Self.check(blocked, asked: "https://shop.example/en/") == nil)
        // A language picker's one select, and a consent dialog's checkboxes, are no gate.
        let picker =
            #"<meta name="robots" content="noindex"><title>Hours</title><p>Open nine to five.</p><select><option>English</option></select>"#
        #expect(Self.check(picker, asked: "https://shop.example/opening-hours") == nil)
    }

    /// The slug is words joined by hyphens, underscores or plus signs; a test file's name is none.
    @Test func slugsAreWordsJoinedByHyphens() {
        #expect(Evidence.slugWords("city-council-approves-budget") == ["city", "council", "approves", "budget"])
        #expect(Evidence.slugWords("Night_Harbor") == ["night", "harbor"])
        #expect(Evidence.slugWords("2024-report-x7") == ["report"])
        #expect(Evidence.slugWords("OpenGraph-swift__Tests__ogp") == nil)
        #expect(Evidence.slugWords("a--b") == nil)
    }

    /// A link asks for more than the front page unless its path is the root, an index, `home` or a language's root.
    @Test func deepLinksAndFrontPages() {
        for url in [
            "https://a.example/", "https://a.example", "https://a.example/index.html", "https://a.example/en/",
            "https://a.example/pt-BR", "https://a.example/de/home", "https://a.example/?p=12",
        ] {
            #expect(!RefusalCheck.isDeepLink(url), "\(url)")
        }
        for url in ["https://a.example/about", "https://a.example/en/about", "https://a.example/p/12"] {
            #expect(RefusalCheck.isDeepLink(url), "\(url)")
        }
    }

    /// The vendors' pages as small as microlink is-antibot's own inputs are their challenges; the same vendors'
    /// marks on a real page, or their names in an article, are not.
    @Test func vendorsOnTheirSmallestPages() {
        let walls = [
            ("<p>Protected by Reblaze</p>", "reblaze"),
            ("<p>Sucuri Website Firewall - Access Denied</p>", "sucuri"),
            (
                #"<title>Client Challenge</title><link href="/_fs-ch-1T1wmsGaOgGaSxcX/assets/styles.css" rel="stylesheet" />"#,
                "fullstory-challenge"
            ),
            (
                #"<title>Just a sec</title><link rel="stylesheet" href="/.within.website/x/cmd/anubis/static/css/custom.css">"#,
                "anubis"
            ),
        ]
        for (html, provider) in walls {
            let refusal = Self.check(html)
            #expect(
                refusal?.kind == .challenge && refusal?.provider == provider, "\(html): \(String(describing: refusal))")
        }
        // is-antibot's pages that are not walls.
        #expect(Self.check("<p>Reblaze vs Cloudflare comparison</p>")?.kind != .challenge)
        #expect(
            Self.check(
                #"<title>The Disadvantages of Pivot Tables</title><article><h1>The Disadvantages of Pivot Tables</h1><p>Pivot tables can hide source-data errors.</p></article><script src="/_fs-ch-1T1wmsGaOgGaSxcX/assets/script.js"></script>"#
            ) == nil)
    }

    /// Two answers are the same page when title, description, image and four fifths of the words agree; numbers
    /// (a reference, a time) do not count.
    @Test func pagePrints() {
        let page = PagePrint(
            RefusalCheckTests.page(
                "<title>Blocked (ref 81)</title><h1>Blocked</h1><p>Reference 8c1e2b at 10:12. Ask your IT team.</p>"))
        let again = PagePrint(
            RefusalCheckTests.page(
                "<title>Blocked (ref 93)</title><h1>Blocked</h1><p>Reference 77a1f0 at 10:13. Ask your IT team.</p>"))
        #expect(page.isSame(as: again), "\(page.shared(with: again))")
        let notFound = PagePrint(RefusalCheckTests.page("<title>Page not found</title><p>Try the search.</p>"))
        #expect(page.shared(with: notFound) == ["image"])
    }

    static func probe(_ html: String, url: String = "https://shop.example/news/deskkit-0a1b2c3d4e5f", status: Int = 200)
        -> SiteProbeAnswer
    {
        SiteProbeAnswer(
            url: url, status: status, finalURL: url, page: PagePrint(RefusalCheckTests.page(html, url: url)))
    }

    static func verdict(_ html: String, asked: String = link, final: String? = nil, probe: SiteProbeAnswer)
        -> FetchError?
    {
        RefusalCheck.refusal(
            of: RefusalCheckTests.page(html, url: final ?? asked),
            response: ResponseFacts(requestedURL: asked, finalURL: final ?? asked), probe: probe)
    }

    /// A deep link's page with nothing of its own that the made-up address got too says nothing about the link;
    /// an article, a front page's link, a page that names which page it is, and a page another than the made-up
    /// address's all keep their cards.
    @Test func theSitesAnswerToAnAddressThatCannotExist() {
        let notice = "<title>Acme</title><h1>Not available</h1><p>This service is not offered where you are.</p>"
        let same = Self.verdict(notice, probe: Self.probe(notice))
        #expect(same?.kind == .notice && same?.detail.contains("deskkit-0a1b2c3d4e5f") == true)
        // The link's page is the front page every address is sent to.
        let front = "<title>Acme</title><p>Welcome to Acme, shoes for every season.</p>"
        #expect(
            Self.verdict(front, final: "https://shop.example/", probe: Self.probe(front, url: "https://shop.example/"))?
                .kind == .errorPage)
        // An app's shell, with the site's own head, every address gets.
        let shell =
            #"<title>Acme</title><meta property="og:description" content="Shoes for every season."><div id="root"></div><script src="/app.js"></script>"#
        #expect(Self.verdict(shell, probe: Self.probe(shell))?.kind == .emptyShell)
        #expect(
            Self.verdict(shell, asked: "https://shop.example/", probe: Self.probe(shell)) == nil, "a front page's link")
        // Another page: a 404, a soft 404, the front page.
        #expect(Self.verdict(notice, probe: Self.probe(notice, status: 404)) == nil)
        #expect(Self.verdict(notice, probe: Self.probe("<title>Page not found</title><p>Try the search.</p>")) == nil)
        // Content of its own, or a page that names itself, whatever the site answers elsewhere.
        let article =
            #"<meta property="og:type" content="article"><title>Budget passes</title><p>The council voted 7 to 2.</p>"#
        #expect(Self.verdict(article, probe: Self.probe(article)) == nil)
        let named =
            #"<link rel="canonical" href="https://shop.example/news/budget-passes"><title>Budget passes</title><p>The council voted.</p>"#
        #expect(Self.verdict(named, probe: Self.probe(named)) == nil)
        // A long page whose reading stopped in its body is no small page.
        let long =
            "<title>Budget</title>"
            + String(repeating: "<p>The council voted on the budget for the year.</p>", count: 2_000)
        #expect(Self.verdict(long, probe: Self.probe(long)) == nil)
    }
}
